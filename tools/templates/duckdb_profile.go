package templates

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// profile computes the profile's counts, statistics, top values and
// histograms.
func (d *duckTable) profile(ctx context.Context) error {
	const maxStats, maxCats, maxHist, topValues = 50, 8, 12, 5 // profile.py's bounds
	var names, kinds []string
	missing, uniques := map[string]int64{}, map[string]int64{}
	// Text columns: how many values read as numbers, and as dates.
	var shares []string
	for _, c := range d.cols {
		if c.typ == "VARCHAR" {
			shares = append(shares, "count("+number(c)+")", "count(TRY_CAST("+c.ident()+" AS TIMESTAMP))")
		}
	}
	var shareRow []any
	if len(shares) > 0 {
		res, err := d.query(ctx, "SELECT "+strings.Join(shares, ", ")+" FROM "+d.view)
		if err != nil {
			return err
		}
		shareRow = res[0]
	}
	// Whole-number floats count as ints, as in profile.py.
	var fracs []string
	for _, c := range d.cols {
		if c.numeric() && !strings.Contains(c.typ, "INT") {
			fracs = append(fracs, "count(*) FILTER (WHERE "+c.ident()+" <> floor("+c.ident()+"))")
		}
	}
	var fracRow []any
	if len(fracs) > 0 {
		res, err := d.query(ctx, "SELECT "+strings.Join(fracs, ", ")+" FROM "+d.view)
		if err != nil {
			return err
		}
		fracRow = res[0]
	}
	var nums, cats []duckColumn
	si, fi := 0, 0
	for _, c := range d.cols {
		kind := "text"
		switch {
		case c.typ == "VARCHAR":
			numShare := float64(toInt(shareRow[si])) / math.Max(1, float64(c.nonNull))
			dateShare := float64(toInt(shareRow[si+1])) / math.Max(1, float64(c.nonNull))
			si += 2
			switch {
			case c.nonNull == 0:
				kind = "empty"
			case numShare >= 0.9:
				kind = "number as text"
			case dateShare >= 0.8:
				kind = "date"
			}
		case c.nonNull == 0:
			kind = "empty"
			if c.numeric() && !strings.Contains(c.typ, "INT") {
				fi++
			}
		case c.typ == "BOOLEAN":
			kind = "bool"
		case c.temporal():
			kind = "date" // dates written as text, as pandas reads them
			if d.input.datetimes[c.name] {
				kind = "datetime" // a workbook's dates (read_excel's datetime64)
			}
		case strings.Contains(c.typ, "INT"):
			kind = "int"
		case c.numeric():
			kind = "int"
			if toInt(fracRow[fi]) > 0 {
				kind = "float"
			}
			fi++
		}
		names = append(names, c.name)
		kinds = append(kinds, kind)
		missing[c.name] = d.rows - c.nonNull
		uniques[c.name] = c.unique
		switch kind {
		case "int", "float", "number as text":
			nums = append(nums, c)
		case "text", "bool":
			if c.unique >= 1 {
				cats = append(cats, c)
			}
		}
	}
	// Duplicate rows: distinct digests of whole rows, fixed-size keys
	// that spill, where DISTINCT * would group on the text itself.
	var all []string
	for _, c := range d.cols {
		all = append(all, c.ident())
	}
	res, err := d.query(ctx, "SELECT count(*) FROM (SELECT DISTINCT md5_number(CAST(row("+strings.Join(all, ", ")+") AS VARCHAR)) FROM "+d.view+")")
	if err != nil {
		return err
	}
	d.pre["rows"], d.pre["columns"], d.pre["kinds"] = d.rows, names, kinds
	d.pre["missing"], d.pre["uniques"], d.pre["duplicates"] = missing, uniques, d.rows-toInt(res[0][0])
	stats := map[string]map[string]any{}
	var statOrder []string
	for i, c := range nums {
		if i == maxStats {
			break
		}
		v := number(c)
		res, err := d.query(ctx, fmt.Sprintf("SELECT count(%[1]s), min(%[1]s), max(%[1]s) FROM %[2]s", v, d.view))
		if err != nil {
			return err
		}
		n, lo, hi := toInt(res[0][0]), toFloat(res[0][1]), toFloat(res[0][2])
		mean, std, err := d.meanStd(ctx, v, n, lo, hi)
		if err != nil {
			return err
		}
		q, err := d.quantiles(ctx, v, n, lo, hi, []float64{0.25, 0.5, 0.75})
		if err != nil {
			return err
		}
		unique, err := d.distinctUpTo(ctx, v, 30)
		if err != nil {
			return err
		}
		stats[c.name] = map[string]any{"count": float64(n), "mean": jsonFloat(mean), "std": jsonFloat(std), "min": jsonFloat(lo),
			"25%": jsonFloat(q[0]), "50%": jsonFloat(q[1]), "75%": jsonFloat(q[2]), "max": jsonFloat(hi)}
		statOrder = append(statOrder, c.name)
		if i < maxHist {
			h, err := d.histogram(ctx, v, lo, hi, min(30, max(1, unique)))
			if err != nil {
				return err
			}
			stats[c.name]["hist"] = h
		}
	}
	d.pre["numeric"], d.pre["numeric_order"], d.pre["numeric_count"] = stats, statOrder, len(nums)
	top := map[string]any{}
	var catOrder []string
	for i, c := range cats {
		if i == maxCats {
			break
		}
		res, err := d.topValues(ctx, c, topValues, false)
		if err != nil {
			return err
		}
		top[c.name] = res
		catOrder = append(catOrder, c.name)
	}
	d.pre["top_values"], d.pre["top_order"] = top, catOrder
	return nil
}

// lerp is numpy's linear interpolation from a to b at t, which pandas'
// quantile uses.
func lerp(a, b, t float64) float64 {
	if a == b {
		return a
	}
	diff := b - a
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}

// numberShares is, per column, the share of its values that read as
// numbers (to_number), as numeric_share computes it.
func (d *duckTable) numberShares(ctx context.Context) (map[string]float64, error) {
	shares := map[string]float64{}
	var exprs []string
	var named []duckColumn
	for _, c := range d.cols {
		switch {
		case c.nonNull == 0:
			shares[c.name] = 0
		case c.numeric():
			shares[c.name] = 1
		default:
			exprs, named = append(exprs, "count("+number(c)+")"), append(named, c)
		}
	}
	if len(exprs) == 0 {
		return shares, nil
	}
	res, err := d.query(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+d.view)
	if err != nil {
		return nil, err
	}
	for i, c := range named {
		shares[c.name] = float64(toInt(res[0][i])) / float64(c.nonNull)
	}
	return shares, nil
}

// chosenColumns is the distribution's and the outliers' choice of
// columns: those named, the measure, else numeric_columns (numbers and
// text that reads as numbers, without ids and empty ones), at most limit.
func (d *duckTable) chosenColumns(p Params, shares map[string]float64, role string, limit int, leftOut string) ([]duckColumn, error) {
	var out []duckColumn
	switch {
	case len(p.Columns) > 0:
		for _, name := range p.Columns {
			c, err := d.col(name, role)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	case p.Measure != "":
		c, err := d.col(p.Measure, "measure")
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	default:
		out = d.numericColumns(shares)
		d.pick("columns: the numeric columns")
	}
	if len(out) > limit {
		d.note(leftOut, limit, len(out))
		out = out[:limit]
	}
	return out, nil
}

// numberStats are a numeric column's statistics as pandas gives them:
// count, mean, sample std, min, quartiles, max and sample skewness.
func (d *duckTable) numberStats(ctx context.Context, c duckColumn) (map[string]any, error) {
	v := number(c)
	res, err := d.query(ctx, fmt.Sprintf("SELECT count(%[1]s), avg(%[1]s), stddev_samp(%[1]s), min(%[1]s), max(%[1]s), skewness(%[1]s) FROM %[2]s", v, d.view))
	if err != nil {
		return nil, err
	}
	r := res[0]
	n := toInt(r[0])
	q, err := d.quantiles(ctx, v, n, toFloat(r[3]), toFloat(r[4]), []float64{0.25, 0.5, 0.75})
	if err != nil {
		return nil, err
	}
	s := map[string]any{"count": n, "mean": jsonFloat(r[1]), "std": jsonFloat(r[2]), "min": jsonFloat(r[3]),
		"q1": jsonFloat(q[0]), "median": jsonFloat(q[1]), "q3": jsonFloat(q[2]), "max": jsonFloat(r[4]), "skew": nil}
	if n > 2 {
		s["skew"] = jsonFloat(r[5])
		if toFloat(r[2]) == 0 { // pandas' skew of constant values
			s["skew"] = 0.0
		}
	}
	return s, nil
}

// distribution computes the distribution's statistics, histograms, box
// plots' whiskers and extreme values, and text columns' value counts.
func (d *duckTable) distribution(ctx context.Context, p Params) error {
	const maxColumns, maxFliers, topCounts = 12, 200, 20 // distribution.py's bounds
	shares, err := d.numberShares(ctx)
	if err != nil {
		return err
	}
	cols, err := d.chosenColumns(p, shares, "column", maxColumns, "the first %d of %d columns were drawn")
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		return templateError("no numeric column found; name the columns explicitly (columns=[...])")
	}
	var nums, texts []string
	stats, hists, boxes, counts := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	for _, c := range cols {
		if shares[c.name] < 0.9 || c.nonNull == 0 {
			texts = append(texts, c.name)
			if c.unique < 0 {
				if c.unique, err = d.distinct(ctx, c); err != nil {
					return err
				}
			}
			top, err := d.topValues(ctx, c, topCounts, true)
			if err != nil {
				return err
			}
			counts[c.name] = top
			continue
		}
		nums = append(nums, c.name)
		s, err := d.numberStats(ctx, c)
		if err != nil {
			return err
		}
		stats[c.name] = s
		n := s["count"].(int64)
		if n == 0 {
			continue
		}
		v := number(c)
		lo, hi := toFloat(s["min"]), toFloat(s["max"])
		h, err := d.histogram(ctx, v, lo, hi, min(50, max(1, int64(math.Ceil(math.Sqrt(float64(n)))))))
		if err != nil {
			return err
		}
		hists[c.name] = h
		box, err := d.box(ctx, v, toFloat(s["q1"]), toFloat(s["q3"]), 1.5, maxFliers)
		if err != nil {
			return err
		}
		boxes[c.name] = box
	}
	d.pre["nums"], d.pre["texts"], d.pre["stats"], d.pre["hist"], d.pre["box"], d.pre["counts"] = nums, texts, stats, hists, boxes, counts
	return nil
}

// box is a box plot's whiskers (the furthest values within whis×IQR of
// the quartiles, as matplotlib draws them) and at most limit values past
// each whisker.
func (d *duckTable) box(ctx context.Context, v string, q1, q3, whis float64, limit int) (map[string]any, error) {
	lo, hi := strconv.FormatFloat(q1-whis*(q3-q1), 'g', -1, 64), strconv.FormatFloat(q3+whis*(q3-q1), 'g', -1, 64)
	res, err := d.query(ctx, fmt.Sprintf("SELECT min(%[1]s) FILTER (WHERE %[1]s >= %[2]s), max(%[1]s) FILTER (WHERE %[1]s <= %[3]s) FROM %[4]s", v, lo, hi, d.view))
	if err != nil {
		return nil, err
	}
	fliers := []any{}
	for _, q := range []string{
		fmt.Sprintf("SELECT %[1]s AS v FROM %[2]s WHERE %[1]s < %[3]s ORDER BY v LIMIT %[4]d", v, d.view, lo, limit),
		fmt.Sprintf("SELECT %[1]s AS v FROM %[2]s WHERE %[1]s > %[3]s ORDER BY v DESC LIMIT %[4]d", v, d.view, hi, limit),
	} {
		rows, err := d.query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			fliers = append(fliers, jsonFloat(r[0]))
		}
	}
	return map[string]any{"whislo": jsonFloat(res[0][0]), "whishi": jsonFloat(res[0][1]), "fliers": fliers}, nil
}

// histogram counts v's values in bins equal-width bins from lo to hi, as
// numpy.histogram does, and returns the edges and the counts.
func (d *duckTable) histogram(ctx context.Context, v string, lo, hi float64, bins int64) (map[string]any, error) {
	if hi == lo { // numpy widens an empty range by a half on each side
		lo, hi = lo-0.5, hi+0.5
	}
	width := (hi - lo) / float64(bins)
	res, err := d.query(ctx, fmt.Sprintf("SELECT least(CAST(floor((%[1]s - %[2]v) / %[3]v) AS BIGINT), %[4]d) AS b, count(*) FROM %[5]s WHERE %[1]s IS NOT NULL GROUP BY 1 ORDER BY 1",
		v, strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(width, 'g', -1, 64), bins-1, d.view))
	if err != nil {
		return nil, err
	}
	counts := make([]int64, bins)
	for _, r := range res {
		if b := toInt(r[0]); b >= 0 && b < bins {
			counts[b] += toInt(r[1])
		}
	}
	edges := make([]float64, bins+1)
	for i := range edges {
		edges[i] = lo + float64(i)*width
	}
	edges[bins] = hi
	return map[string]any{"edges": edges, "counts": counts}, nil
}

// jsonRows turns query rows into JSON-ready values: numbers stay numbers,
// times become text.
func jsonRows(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(r))
		for j, v := range r {
			switch x := v.(type) {
			case nil, string, bool, int64, int32, float64, float32:
				out[i][j] = x
			case time.Time:
				out[i][j] = x.Format("2006-01-02T15:04:05")
			default:
				if f, err := strconv.ParseFloat(fmt.Sprint(x), 64); err == nil {
					out[i][j] = f
				} else {
					out[i][j] = fmt.Sprint(x)
				}
			}
		}
	}
	return out
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case nil:
		return math.NaN()
	}
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func toInt(v any) int64 {
	f := toFloat(v)
	if math.IsNaN(f) {
		return 0
	}
	return int64(f)
}

// jsonFloat is v as a number, or nil when it is missing or not finite.
func jsonFloat(v any) any {
	f := toFloat(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}
