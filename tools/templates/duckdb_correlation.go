package templates

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The correlation's DuckDB engine: py/correlation.py's numeric columns,
// read with DuckDB as to_number reads them and in the file's order, and
// their matrix computed here as pandas 1.5.3's DataFrame.corr computes
// it, operation for operation, so that every digit is pandas' (DuckDB's
// corr() adds up otherwise and differs in the last digits; Kendall's tau
// has no SQL aggregate). Pearson is nancorr (Welford's running means and
// sums over the rows where both columns are finite, no clipping);
// Spearman is nancorr_spearman (rank_1d's average ranks, ranked again
// over the rows both have when their missing rows differ); Kendall is
// scipy 1.10's kendalltau (tau-b from the counts of discordant and tied
// pairs, clipped to [-1, 1]) over each pair's finite values. Rendered in
// Go by native_correlation.go.

// corrMaxColumns is correlation.py's MAX_COLUMNS.
const corrMaxColumns = 30

// corrMaxHeld bounds the numbers a Spearman or Kendall correlation holds
// in memory (8 bytes each: 512 MiB): ranks need every value of a column.
// Pearson's sums run as the rows stream by and hold none.
var corrMaxHeld int64 = 1 << 26

// corrMaxPoints bounds the points of the scatter plot: every k-th row
// past it.
const corrMaxPoints = 100_000

// corrPair is one pair of columns of correlation.py's pairs: its r and
// the rows where neither is missing (dropna's count: infinities count).
type corrPair struct {
	A string  `json:"a"`
	B string  `json:"b"`
	R float64 `json:"r"`
	N int64   `json:"n"`
}

// welford is nancorr's running sums for one pair of columns.
type welford struct {
	nobs                                int64
	meanx, meany, ssqdmx, ssqdmy, covxy float64
}

// add is one row of nancorr's loop. The explicit conversions round each
// product before it is added, as the compiled Cython does (Go may fuse a
// multiply and an add otherwise).
func (w *welford) add(vx, vy float64) {
	w.nobs++
	dx := vx - w.meanx
	dy := vy - w.meany
	inv := 1 / float64(w.nobs)
	w.meanx += float64(inv * dx)
	w.meany += float64(inv * dy)
	w.ssqdmx += float64((vx - w.meanx) * dx)
	w.ssqdmy += float64((vy - w.meany) * dy)
	w.covxy += float64((vx - w.meanx) * dy)
}

// r is nancorr's result for the pair (min_periods 1).
func (w *welford) r() float64 {
	if w.nobs < 1 {
		return math.NaN()
	}
	div := math.Sqrt(float64(w.ssqdmx * w.ssqdmy))
	if div == 0 {
		return math.NaN()
	}
	return w.covxy / div
}

// finite is numpy's isfinite, the mask of pandas' correlations.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// correlationColumns are correlation.py's columns: those named (each
// once), else the numeric columns, the first corrMaxColumns of them.
func (d *duckTable) correlationColumns(ctx context.Context, p Params) ([]duckColumn, error) {
	var out []duckColumn
	if len(p.Columns) > 0 {
		for _, name := range p.Columns {
			c, err := d.col(name, "numeric column")
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(out, func(o duckColumn) bool { return o.name == c.name }) {
				out = append(out, c)
			}
		}
		return out, nil
	}
	shares, err := d.numberShares(ctx)
	if err != nil {
		return nil, err
	}
	out = d.numericColumns(shares)
	if len(out) > corrMaxColumns {
		d.pre["numeric_columns"] = len(out)
		out = out[:corrMaxColumns]
	}
	d.pre["every_numeric"] = len(out)
	return out, nil
}

// corrNumber is to_number of c in SQL. A true/false column with gaps is
// text to pandas (objects), whose to_number reads no number in it.
func (d *duckTable) corrNumber(c duckColumn) string {
	if c.typ == "BOOLEAN" && c.nonNull < d.rows {
		return "CAST(NULL AS DOUBLE)"
	}
	return number(c)
}

// correlation computes correlation.py's matrix and pairs.
func (d *duckTable) correlation(ctx context.Context, p Params) error {
	cols, err := d.correlationColumns(ctx, p)
	if err != nil {
		return err
	}
	method := p.Method
	if method == "" {
		method = "pearson"
	}
	k := len(cols)
	exprs := make([]string, k)
	for i, c := range cols {
		exprs[i] = d.corrNumber(c) + " AS " + c.ident()
	}
	held := method != "pearson"
	if held && d.rows*int64(k) > corrMaxHeld {
		return templateError(fmt.Sprintf("a %s correlation ranks every value in memory, and %d rows of %d columns are more than %d values; name fewer columns (columns=[...]), or use method=pearson", method, d.rows, k, corrMaxHeld))
	}
	// One pass in the file's order: whether each column varies (pandas'
	// nunique > 1), each pair's rows with both values, and Pearson's sums
	// for every pair i ≥ j (nancorr's x is the later column), or every
	// value for the ranks.
	first := make([]float64, k)
	seen, varies := make([]bool, k), make([]bool, k)
	both := make([]int64, k*k)
	var sums []welford
	var values [][]float64
	if held {
		values = make([][]float64, k)
	} else {
		sums = make([]welford, k*k)
	}
	v := make([]float64, k)
	q := "SELECT " + strings.Join(exprs, ", ") + " FROM " + d.view
	d.sql = append(d.sql, q)
	if k > 0 {
		err = d.src.Each(ctx, q, func(row []any) error {
			for i, x := range row {
				v[i] = math.NaN()
				if f, ok := x.(float64); ok {
					v[i] = f
				}
				if f := v[i]; !math.IsNaN(f) {
					if !seen[i] {
						seen[i], first[i] = true, f
					} else if f != first[i] {
						varies[i] = true
					}
				}
				if held {
					values[i] = append(values[i], v[i])
				}
			}
			for i := 0; i < k; i++ {
				if math.IsNaN(v[i]) {
					continue
				}
				for j := 0; j < i; j++ {
					if !math.IsNaN(v[j]) {
						both[i*k+j]++
					}
				}
				if held || !finite(v[i]) {
					continue
				}
				for j := 0; j <= i; j++ {
					if finite(v[j]) {
						sums[i*k+j].add(v[i], v[j])
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var keep []int
	var names []string
	for i, c := range cols {
		if varies[i] {
			keep, names = append(keep, i), append(names, c.name)
		}
	}
	if len(keep) < 2 {
		found := "none"
		if len(names) > 0 {
			found = strings.Join(names, ", ")
		}
		return templateError(fmt.Sprintf("a correlation needs at least two numeric columns that vary; found %s. Name them explicitly (columns=[...])", found))
	}
	if !slices.Contains(Methods, method) {
		return templateError(fmt.Sprintf("unknown method %s; use pearson, spearman or kendall", pyQuote(method)))
	}
	n := len(keep)
	matrix := make([][]float64, n)
	for i := range matrix {
		matrix[i] = make([]float64, n)
	}
	var ranked [][]float64
	var dense [][]int64
	switch method {
	case "spearman":
		ranked = make([][]float64, n)
		for a, i := range keep {
			ranked[a] = rank1D(values[i])
		}
	case "kendall":
		dense = make([][]int64, n)
		for a, i := range keep {
			dense[a] = denseRanks(values[i])
		}
	}
	for a := 0; a < n; a++ {
		for b := 0; b <= a; b++ {
			x, y := keep[a], keep[b]
			var r float64
			switch method {
			case "pearson":
				r = sums[x*k+y].r()
			case "spearman":
				r = spearmanPair(values[x], values[y], ranked[a], ranked[b])
			default:
				// pandas calls kendalltau(earlier, later).
				r = kendallPair(dense[b], dense[a], a == b)
			}
			matrix[a][b], matrix[b][a] = r, r
		}
	}
	var pairs []corrPair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if r := matrix[a][b]; !math.IsNaN(r) {
				pairs = append(pairs, corrPair{A: names[a], B: names[b], R: r, N: both[keep[b]*k+keep[a]]})
			}
		}
	}
	// sort(key=-abs(r)): stable.
	slices.SortStableFunc(pairs, func(p, q corrPair) int { return cmp.Compare(math.Abs(q.R), math.Abs(p.R)) })
	d.pre["method"], d.pre["columns"], d.pre["matrix"], d.pre["pairs"] = method, names, matrix, pairs
	if n == 2 {
		xs, ys, err := d.corrPoints(ctx, cols[keep[0]], cols[keep[1]])
		if err != nil {
			return err
		}
		d.pre["points"] = [2][]float64{xs, ys}
	}
	return nil
}

// corrPoints are the scatter plot's points: the rows where both columns
// are finite, every k-th row of a table of more than corrMaxPoints.
func (d *duckTable) corrPoints(ctx context.Context, a, b duckColumn) ([]float64, []float64, error) {
	x, y := d.corrNumber(a), d.corrNumber(b)
	q := fmt.Sprintf("SELECT %s AS x, %s AS y FROM %s", x, y, d.view)
	if step := (d.rows + corrMaxPoints - 1) / corrMaxPoints; step > 1 {
		q = fmt.Sprintf("SELECT x, y FROM (SELECT %s AS x, %s AS y, row_number() OVER () AS r FROM %s) WHERE r %% %d = 0", x, y, d.view, step)
	}
	q = "SELECT x, y FROM (" + q + ") WHERE isfinite(x) AND isfinite(y)"
	res, err := d.query(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	xs, ys := make([]float64, len(res)), make([]float64, len(res))
	for i, r := range res {
		xs[i], ys[i] = toFloat(r[0]), toFloat(r[1])
	}
	return xs, ys, nil
}

// rank1D is pandas' rank_1d (average ties, NaN kept as NaN): the ranks
// from 1 of the values that are not NaN (infinities are ranked).
func rank1D(v []float64) []float64 {
	var idx []int
	for i, f := range v {
		if !math.IsNaN(f) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	out := make([]float64, len(v))
	for i := range out {
		out[i] = math.NaN()
	}
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		// sum_ranks / dups: the ranks i+1 … j+1, exactly.
		sum := int64(j+1)*int64(j+2)/2 - int64(i)*int64(i+1)/2
		avg := float64(sum) / float64(j-i+1)
		for m := i; m <= j; m++ {
			out[idx[m]] = avg
		}
		i = j + 1
	}
	return out
}

// spearmanPair is nancorr_spearman for columns x (the later) and y, with
// rx and ry their ranks: over the rows where both are finite, with the
// ranks of those rows alone when the columns' missing rows differ.
func spearmanPair(x, y, rx, ry []float64) float64 {
	all := true
	var mx, my []float64
	for i := range x {
		fx, fy := finite(x[i]), finite(y[i])
		all = all && fx == fy
		if fx && fy {
			mx, my = append(mx, rx[i]), append(my, ry[i])
		}
	}
	nobs := len(mx)
	if nobs < 1 {
		return math.NaN()
	}
	if !all {
		mx, my = rank1D(mx), rank1D(my)
	}
	mean := float64(nobs+1) / 2
	var sumx, sumxx, sumyy float64
	for i := 0; i < nobs; i++ {
		vx, vy := mx[i]-mean, my[i]-mean
		sumx += float64(vx * vy)
		sumxx += float64(vx * vx)
		sumyy += float64(vy * vy)
	}
	div := math.Sqrt(float64(sumxx * sumyy))
	if div == 0 {
		return math.NaN()
	}
	return sumx / div
}

// denseRanks are v's finite values' dense ranks from 1 (equal values,
// -0 and 0 too, share one), 0 where v is not finite. Kendall's tau
// depends on the order of the values and their ties alone, which a pair's
// rows keep from the whole column's ranks.
func denseRanks(v []float64) []int64 {
	var idx []int
	for i, f := range v {
		if finite(f) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	out := make([]int64, len(v))
	var r int64
	for k, i := range idx {
		if k == 0 || v[i] != v[idx[k-1]] {
			r++
		}
		out[i] = r
	}
	return out
}

// kendallPair is pandas' kendall for columns x and y (the same column
// when diagonal), given their dense ranks: NaN without a row where both
// are finite, 1 on the diagonal, else scipy's kendalltau of the rows
// where both are.
func kendallPair(rx, ry []int64, diagonal bool) float64 {
	pairs := make([][2]int64, 0, len(rx))
	for i := range rx {
		if rx[i] > 0 && ry[i] > 0 {
			pairs = append(pairs, [2]int64{rx[i], ry[i]})
		}
	}
	switch {
	case len(pairs) == 0:
		return math.NaN()
	case diagonal:
		return 1
	}
	return kendallOf(pairs)
}

// kendallTau is scipy's kendalltau of finite x and y.
func kendallTau(x, y []float64) float64 {
	rx, ry := denseRanks(x), denseRanks(y)
	pairs := make([][2]int64, len(x))
	for i := range x {
		pairs[i] = [2]int64{rx[i], ry[i]}
	}
	return kendallOf(pairs)
}

// kendallOf is scipy 1.10's kendalltau (variant b) of the pairs of ranks
// (x, y): sorted by x then y, the discordant pairs are the inversions of
// y; tau is from them and the ties in x, in y and in both, as scipy
// divides, clipped to [-1, 1].
func kendallOf(pairs [][2]int64) float64 {
	size := int64(len(pairs))
	// Sorted as one key, x·(top+1)+y (ranks are at most the rows).
	var top int64
	for _, p := range pairs {
		top = max(top, p[1])
	}
	keys := make([]int64, len(pairs))
	for i, p := range pairs {
		keys[i] = p[0]*(top+1) + p[1]
	}
	slices.Sort(keys)
	var xtie, ntie, xrun, nrun int64
	ys := make([]int64, len(keys))
	for i, key := range keys {
		ys[i] = key % (top + 1)
		if i > 0 && key/(top+1) == keys[i-1]/(top+1) {
			xrun++
			if key == keys[i-1] {
				nrun++
			} else {
				ntie += nrun * (nrun + 1) / 2
				nrun = 0
			}
			continue
		}
		xtie += xrun * (xrun + 1) / 2
		ntie += nrun * (nrun + 1) / 2
		xrun, nrun = 0, 0
	}
	xtie += xrun * (xrun + 1) / 2
	ntie += nrun * (nrun + 1) / 2
	counts := make([]int64, top+1)
	for _, y := range ys {
		counts[y]++
	}
	var ytie int64
	for _, c := range counts {
		ytie += c * (c - 1) / 2
	}
	dis := inversions(ys, make([]int64, len(ys)))
	tot := size * (size - 1) / 2
	if xtie == tot || ytie == tot {
		return math.NaN()
	}
	cmd := tot - xtie - ytie + ntie - 2*dis
	tau := float64(cmd) / math.Sqrt(float64(tot-xtie)) / math.Sqrt(float64(tot-ytie))
	return min(1, max(-1, tau))
}

// inversions counts the pairs i < j with a[i] > a[j], sorting a (buf is
// scratch of a's length).
func inversions(a, buf []int64) int64 {
	if len(a) < 2 {
		return 0
	}
	m := len(a) / 2
	n := inversions(a[:m], buf[:m]) + inversions(a[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < len(a) {
		if a[j] < a[i] {
			n += int64(m - i)
			buf[k] = a[j]
			j++
		} else {
			buf[k] = a[i]
			i++
		}
		k++
	}
	k += copy(buf[k:], a[i:m])
	copy(buf[k:], a[j:])
	copy(a, buf)
	return n
}
