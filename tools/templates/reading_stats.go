package templates

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sift-agent/sift/tools/sqldb"
)

// The reading engine's tables of the analyses that do not aggregate a
// measure by keys: outliers (the 1.5×IQR fences and the count beyond
// them, per column or per group), profile (each column's non-null and
// missing counts) and rank correlations (Spearman, Kendall's tau-b).

// numericColumns are the view's columns DuckDB reads as numbers, in order.
func numericColumns(ctx context.Context, src *sqldb.Source, view string) ([]string, error) {
	rows, err := src.Rows(ctx, "DESCRIBE SELECT * FROM "+view)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rows {
		switch t := strings.ToUpper(fmt.Sprint(r[1])); {
		case strings.Contains(t, "INT"), t == "DOUBLE", t == "FLOAT", t == "REAL", strings.HasPrefix(t, "DECIMAL"):
			out = append(out, fmt.Sprint(r[0]))
		}
	}
	return out, nil
}

// outliersTable is, for each examined column (and each group of the
// reading's group-by, when it has one), the lower and upper 1.5×IQR
// fences over linear quartiles and how many values lie beyond them.
func outliersTable(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error) {
	cols := r.Columns
	if len(cols) == 0 {
		var err error
		if cols, err = numericColumns(ctx, src, view); err != nil {
			return nil, err
		}
	}
	if len(cols) == 0 {
		return nil, nil
	}
	var keys []string
	for _, g := range r.GroupBy {
		keys = append(keys, "CAST("+sqldb.QuoteIdent(g)+" AS VARCHAR)")
	}
	t := &Table{Columns: append(append(append([]string(nil), r.GroupBy...), "column"), "lower_fence", "upper_fence", "iqr_outliers")}
	for _, c := range cols {
		v := "TRY_CAST(" + sqldb.QuoteIdent(c) + " AS DOUBLE)"
		// base: the values (and their group keys; rows without a key are
		// left out, as pandas' groupby leaves them); f: each group's quartiles.
		sel, conds, ks := []string{v + " AS x"}, []string{v + " IS NOT NULL"}, []string{}
		for i, k := range keys {
			sel = append(sel, fmt.Sprintf("%s AS k%d", k, i))
			conds = append(conds, k+" IS NOT NULL")
			ks = append(ks, fmt.Sprintf("k%d", i))
		}
		where := whereSQL(r)
		if where == "" {
			where = " WHERE " + strings.Join(conds, " AND ")
		} else {
			where += " AND " + strings.Join(conds, " AND ")
		}
		q := "WITH base AS (SELECT " + strings.Join(sel, ", ") + " FROM " + view + where + "), " +
			"f AS (SELECT " + strings.Join(append(slicesClone(ks), "quantile_cont(x, 0.25) AS q1", "quantile_cont(x, 0.75) AS q3"), ", ") + " FROM base"
		join := " CROSS JOIN f"
		if len(ks) > 0 {
			q += " GROUP BY " + strings.Join(ks, ", ")
			join = " JOIN f USING (" + strings.Join(ks, ", ") + ")"
		}
		lo, hi := "(q1 - 1.5 * (q3 - q1))", "(q3 + 1.5 * (q3 - q1))"
		q += ") SELECT " + strings.Join(append(slicesClone(ks), lo, hi, "count(*) FILTER (WHERE x < "+lo+" OR x > "+hi+")"), ", ") +
			" FROM base" + join + " GROUP BY " + strings.Join(append(slicesClone(ks), "q1", "q3"), ", ")
		if len(ks) > 0 {
			q += " ORDER BY " + strings.Join(ks, ", ")
		}
		rows, err := src.Rows(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			out := make([]any, 0, len(row)+1)
			for i := range keys {
				out = append(out, fmt.Sprint(row[i]))
			}
			out = append(out, c)
			for _, x := range row[len(keys):] {
				out = append(out, numberOrNil(x))
			}
			t.Rows = append(t.Rows, out)
		}
	}
	return t, nil
}

// profileTable is each column of the table with its count of values and
// of missing ones.
func profileTable(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error) {
	rows, err := src.Rows(ctx, "DESCRIBE SELECT * FROM "+view)
	if err != nil {
		return nil, err
	}
	t := &Table{Columns: []string{"column", "non_null", "missing"}}
	for _, c := range rows {
		name := fmt.Sprint(c[0])
		q := fmt.Sprintf("SELECT count(%[1]s), count(*) - count(%[1]s) FROM %[2]s%[3]s", sqldb.QuoteIdent(name), view, whereSQL(r))
		got, err := src.Rows(ctx, q)
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, []any{name, numberOrNil(got[0][0]), numberOrNil(got[0][1])})
	}
	return t, nil
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func numberOrNil(v any) any {
	if v == nil {
		return nil
	}
	f := toFloat(v)
	if math.IsNaN(f) {
		return nil
	}
	return f
}

// maxRankPairs bounds the pairs a rank correlation reads into memory;
// Kendall's, which compares every pair of rows, reads fewer.
const maxRankPairs, maxKendallPairs = 200_000, 20_000

// rankCorrelation is the Spearman or Kendall (tau-b) correlation of two
// columns over the rows where both are numbers.
func rankCorrelation(ctx context.Context, src *sqldb.Source, view string, r Reading, a, b string) (any, error) {
	va, vb := "TRY_CAST("+sqldb.QuoteIdent(a)+" AS DOUBLE)", "TRY_CAST("+sqldb.QuoteIdent(b)+" AS DOUBLE)"
	cond := va + " IS NOT NULL AND " + vb + " IS NOT NULL"
	where := whereSQL(r)
	if where == "" {
		where = " WHERE " + cond
	} else {
		where += " AND " + cond
	}
	limit := maxRankPairs
	if r.Method == "kendall" {
		limit = maxKendallPairs
	}
	rows, err := src.Rows(ctx, fmt.Sprintf("SELECT %s, %s FROM %s%s LIMIT %d", va, vb, view, where, limit+1))
	if err != nil {
		return nil, err
	}
	if len(rows) > limit {
		return nil, fmt.Errorf("a %s correlation reads at most %d rows; filter the rows first, or ask for Pearson's", r.Method, limit)
	}
	x, y := make([]float64, len(rows)), make([]float64, len(rows))
	for i, row := range rows {
		x[i], y[i] = toFloat(row[0]), toFloat(row[1])
	}
	var v float64
	if r.Method == "kendall" {
		v = kendallTauB(x, y)
	} else {
		v = pearsonOf(ranks(x), ranks(y))
	}
	if math.IsNaN(v) {
		return nil, nil
	}
	return v, nil
}

// ranks are the values' ranks from 1, ties given their average rank.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[idx[k]] = avg
		}
		i = j + 1
	}
	return out
}

// pearsonOf is the Pearson correlation of x and y; NaN when either is constant.
func pearsonOf(x, y []float64) float64 {
	n := float64(len(x))
	if n < 2 {
		return math.NaN()
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// kendallTauB is Kendall's tau-b of x and y (ties in either accounted for),
// as pandas and scipy give it.
func kendallTauB(x, y []float64) float64 {
	n := len(x)
	var conc, disc, tx, ty float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case dx*dy > 0:
				conc++
			default:
				disc++
			}
		}
	}
	den := math.Sqrt((conc + disc + tx) * (conc + disc + ty))
	if den == 0 {
		return math.NaN()
	}
	return (conc - disc) / den
}
