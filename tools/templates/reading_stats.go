package templates

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/sift-agent/sift/tools/sqldb"
)

// The reading engine's tables of the analyses that do not aggregate a
// measure by keys: outliers (the 1.5×IQR fences and the count beyond
// them, per column or per group), profile (each column's non-null and
// missing counts) and correlations (Pearson, Spearman, Kendall's tau-b).

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

// pairCorrelation is the correlation of columns a and b over the
// reading's rows, as pandas 1.5.3's DataFrame.corr gives it for the pair,
// computed as the correlation built-in computes it (duckdb_correlation.go),
// digit for digit: Pearson from nancorr's running sums as the rows stream
// by, Spearman and Kendall from the values held (at most corrMaxHeld of
// them). nil where pandas gives NaN.
func pairCorrelation(ctx context.Context, src *sqldb.Source, view string, r Reading, a, b string) (any, error) {
	va, vb := "TRY_CAST("+sqldb.QuoteIdent(a)+" AS DOUBLE)", "TRY_CAST("+sqldb.QuoteIdent(b)+" AS DOUBLE)"
	cond := va + " IS NOT NULL AND " + vb + " IS NOT NULL"
	where := whereSQL(r)
	if where == "" {
		where = " WHERE " + cond
	} else {
		where += " AND " + cond
	}
	method := r.Method
	if method == "" {
		method = "pearson"
	}
	var w welford
	var x, y []float64
	err := src.Each(ctx, "SELECT "+va+", "+vb+" FROM "+view+where, func(row []any) error {
		fx, fy := toFloat(row[0]), toFloat(row[1])
		if method == "pearson" {
			if finite(fx) && finite(fy) {
				w.add(fy, fx) // nancorr's x is the later column
			}
			return nil
		}
		if int64(len(x)+1)*2 > corrMaxHeld {
			return templateError(fmt.Sprintf("a %s correlation ranks every value in memory, and %s and %s have more than %d rows; filter the rows first, or ask for Pearson's", method, a, b, corrMaxHeld/2))
		}
		x, y = append(x, fx), append(y, fy)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var v float64
	switch method {
	case "pearson":
		v = w.r()
	case "spearman":
		v = spearmanPair(x, y, rank1D(x), rank1D(y))
	default:
		var fx, fy []float64
		for i := range x {
			if finite(x[i]) && finite(y[i]) {
				fx, fy = append(fx, x[i]), append(fy, y[i])
			}
		}
		v = math.NaN()
		if len(fx) > 0 {
			v = kendallTau(fx, fy)
		}
	}
	if math.IsNaN(v) {
		return nil, nil
	}
	return v, nil
}
