package templates

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Exact quantiles out of core. Grouping by value and a running sum over
// the groups (one window over every distinct value) ran out of memory at
// 256 MiB on 24 million distinct values, and quantile_cont holds every
// value. Instead the values at the ranks wanted are found by counting
// values in equal-width buckets (a grouping of at most quantileBuckets
// rows), then reading in order only the few buckets that hold those
// ranks; a bucket still too full is split again the same way.

// quantileBuckets is how many buckets one counting pass splits a range
// into; quantileFetch how many values of the chosen buckets one pass may
// read in order.
const quantileBuckets = 1 << 16

var quantileFetch int64 = 1 << 19

// quantiles returns the exact quantiles qs of the expression v, which has
// n values from lo to hi, as pandas computes them (linear interpolation
// between the two nearest ranks).
func (d *duckTable) quantiles(ctx context.Context, v string, n int64, lo, hi float64, qs []float64) ([]float64, error) {
	out := make([]float64, len(qs))
	if n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out, nil
	}
	var ranks []int64
	for _, q := range qs {
		pos := q * float64(n-1)
		ranks = append(ranks, int64(math.Floor(pos)), int64(math.Ceil(pos)))
	}
	at, err := d.rankValues(ctx, v, "true", lo, hi, ranks, 0)
	if err != nil {
		return nil, err
	}
	for i, q := range qs {
		pos := q * float64(n-1)
		out[i] = lerp(at[ranks[2*i]], at[ranks[2*i+1]], pos-math.Floor(pos))
	}
	return out, nil
}

// rankValues returns the values of v at the 0-based ranks (in ascending
// order) among its non-missing values where the SQL condition where
// holds, all of which lie from lo to hi.
func (d *duckTable) rankValues(ctx context.Context, v, where string, lo, hi float64, ranks []int64, depth int) (map[int64]float64, error) {
	at := map[int64]float64{}
	if lo == hi {
		for _, k := range ranks {
			at[k] = lo
		}
		return at, nil
	}
	if depth == 8 {
		return nil, fmt.Errorf("quantiles of %s: values too close together to split", v)
	}
	// Bucket numbers rise with the value: floor((v - lo) / w) is monotone.
	width := (hi - lo) / quantileBuckets
	from := fmt.Sprintf("(SELECT least(CAST(floor((x - %s) / %s) AS BIGINT), %d) AS b, x FROM (SELECT %s AS x FROM %s) WHERE x IS NOT NULL AND (%s))",
		double(lo), double(width), quantileBuckets-1, v, d.view, strings.ReplaceAll(where, "$v", "x"))
	res, err := d.query(ctx, "SELECT b, count(*), min(x), max(x) FROM "+from+" GROUP BY b ORDER BY b")
	if err != nil {
		return nil, err
	}
	type bucket struct {
		id, before, count int64
		lo, hi            float64
	}
	buckets := make([]bucket, len(res))
	var before int64
	for i, r := range res {
		buckets[i] = bucket{id: toInt(r[0]), before: before, count: toInt(r[1]), lo: toFloat(r[2]), hi: toFloat(r[3])}
		before += buckets[i].count
	}
	fetch := map[int64][]int64{} // bucket: ranks within it
	var fetched int64
	split := map[int][]int64{} // bucket index: ranks, to split again
	for _, k := range ranks {
		i := sort.Search(len(buckets), func(i int) bool { return buckets[i].before+buckets[i].count > k })
		if i == len(buckets) {
			return nil, fmt.Errorf("quantiles of %s: rank %d of %d values", v, k, before)
		}
		b := buckets[i]
		switch {
		case b.lo == b.hi:
			at[k] = b.lo
		case fetch[b.id] != nil || fetched+b.count <= quantileFetch:
			if fetch[b.id] == nil {
				fetched += b.count
			}
			fetch[b.id] = append(fetch[b.id], k-b.before)
		default:
			split[i] = append(split[i], k)
		}
	}
	for i, ks := range split {
		b := buckets[i]
		rel := make([]int64, len(ks))
		for j, k := range ks {
			rel[j] = k - b.before
		}
		inner, err := d.rankValues(ctx, v, fmt.Sprintf("(%s) AND $v BETWEEN %s AND %s", where, double(b.lo), double(b.hi)), b.lo, b.hi, rel, depth+1)
		if err != nil {
			return nil, err
		}
		for j, k := range ks {
			at[k] = inner[rel[j]]
		}
	}
	if len(fetch) == 0 {
		return at, nil
	}
	var ids []string
	for id := range fetch {
		ids = append(ids, fmt.Sprint(id))
	}
	var cur, idx int64 = -1, 0
	err = d.src.Each(ctx, "SELECT b, x FROM "+from+" WHERE b IN ("+strings.Join(ids, ", ")+") ORDER BY b, x", func(r []any) error {
		if b := toInt(r[0]); b != cur {
			cur, idx = b, 0
		}
		for _, k := range fetch[cur] {
			if k == idx {
				at[buckets[sort.Search(len(buckets), func(i int) bool { return buckets[i].id >= cur })].before+k] = toFloat(r[1])
			}
		}
		idx++
		return nil
	})
	return at, err
}

// distinctUpTo counts v's distinct values, missing ones aside, up to
// limit.
func (d *duckTable) distinctUpTo(ctx context.Context, v string, limit int) (int64, error) {
	res, err := d.query(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT DISTINCT x FROM (SELECT %s AS x FROM %s) WHERE x IS NOT NULL LIMIT %d)", v, d.view, limit))
	if err != nil {
		return 0, err
	}
	return toInt(res[0][0]), nil
}
