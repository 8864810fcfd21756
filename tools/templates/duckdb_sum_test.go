package templates

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/sqldb"
)

// fractionsTable opens a DuckDB with threads threads and a table t of rows
// fractions (v, and g: one of 3 groups), whose sum's last bit depends on
// the order the threads' partial sums are combined in.
func fractionsTable(t testing.TB, rows, threads int) *sqldb.Source {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "input", "a.csv"), []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := sqldb.OpenFiles(context.Background(), dir, []string{"input/a.csv"}, sqldb.FilesOptions{Threads: threads, AnyOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	if _, err := src.Rows(context.Background(), fmt.Sprintf("CREATE TABLE t AS SELECT CAST(hash(i) %% 1000003 AS DOUBLE) / 997 - 500 AS v, i %% 3 AS g FROM range(%d) r(i)", rows)); err != nil {
		t.Fatal(err)
	}
	return src
}

// resultsOf runs q 25 times and returns the distinct results it gave,
// each its rows with every number in full.
func resultsOf(t *testing.T, src *sqldb.Source, q string) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	for range 25 {
		res, err := src.Rows(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range res {
			for _, v := range r {
				b.WriteString(strconv.FormatFloat(toFloat(v), 'g', -1, 64) + " ")
			}
			b.WriteString("; ")
		}
		seen[b.String()] = true
	}
	return seen
}

// TestExactSumSameEveryRun: a sum and a mean over 2 million fractions,
// grouped and not, with 4 threads, are the same number in every run
// (DuckDB's own sum of doubles is not: the test checks that the data
// shows it), and the exact sum is the sum's correct rounding.
func TestExactSumSameEveryRun(t *testing.T) {
	src := fractionsTable(t, 2_000_000, 4)
	if plain := resultsOf(t, src, "SELECT sum(v) FROM t"); len(plain) < 2 {
		t.Logf("DuckDB's sum gave one value in 25 runs: %v (the machine ran its threads in one order)", plain)
	}
	for _, q := range []string{
		"SELECT " + aggSQL("sum", &duckColumn{name: "v", typ: "DOUBLE"}) + " FROM t",
		"SELECT " + aggSQL("mean", &duckColumn{name: "v", typ: "DOUBLE"}) + " FROM t",
		"SELECT g, " + aggSQL("sum", &duckColumn{name: "v", typ: "DOUBLE"}) + " FROM t GROUP BY g ORDER BY g",
	} {
		if got := resultsOf(t, src, q); len(got) != 1 {
			t.Errorf("%s gave %d different values in 25 runs: %v", q, len(got), got)
		}
	}
	// The exact sum against Go's: each value rounded at 2⁻⁹⁶, added
	// exactly in integers.
	res, err := src.Rows(context.Background(), "SELECT "+exactSum("v")+", sum(v) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if got, plain := toFloat(res[0][0]), toFloat(res[0][1]); math.Abs(got-plain) > 1e-6*math.Abs(plain)+1e-6 {
		t.Errorf("exact sum %v, DuckDB's %v", got, plain)
	}
}

// TestExactSumEdges: no values, NaN-free missing values, values past
// 2⁶² and infinities, negative fractions, tiny values.
func TestExactSumEdges(t *testing.T) {
	src := fractionsTable(t, 10, 2)
	for _, c := range []struct {
		values string
		want   float64
	}{
		{"(NULL::DOUBLE)", math.NaN()},
		{"(0.1), (0.2), (NULL)", 0.30000000000000004},
		{"(-0.5), (-1.25), (2)", 0.25},
		{"(1e-30), (1)", 1},
		{"(1e19), (1)", 1e19},
		{"(-1e19), (1e19), (0.5)", 0.5},
		{"('inf'::DOUBLE), (1)", math.Inf(1)},
		{"(0.1), (0.1), (0.1)", 0.30000000000000004},
	} {
		res, err := src.Rows(context.Background(), "SELECT "+exactSum("CAST(x AS DOUBLE)")+" FROM (VALUES "+c.values+") v(x)")
		if err != nil {
			t.Fatalf("%s: %v", c.values, err)
		}
		got := toFloat(res[0][0])
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("sum of %s = %v, want %v", c.values, got, c.want)
		}
	}
}

// BenchmarkSumMillion compares DuckDB's sum of a million doubles, in 4
// groups, with exactSum's.
func BenchmarkSumMillion(b *testing.B) {
	src := fractionsTable(b, 1_000_000, 2)
	for _, bc := range []struct{ name, agg string }{
		{"duckdb_sum", "sum(v)"}, {"exact_sum", exactSum("v")},
		{"duckdb_avg", "avg(v)"}, {"exact_mean", aggSQL("mean", &duckColumn{name: "v", typ: "DOUBLE"})},
	} {
		for _, grouped := range []bool{false, true} {
			q := "SELECT " + bc.agg + " FROM t"
			name := bc.name
			if grouped {
				q, name = "SELECT g, "+bc.agg+" FROM t GROUP BY g", name+"_grouped"
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					if _, err := src.Rows(context.Background(), q); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestExactStatsSameEveryRun: the profile's means and standard
// deviations over 2 million fractions with 4 threads, and the mean and
// deviation outliers computes its z-scores from (meanStd), are the same
// bits in every run (DuckDB's avg and stddev_samp are not: the test
// shows what they gave), and agree with DuckDB's to 12 digits.
func TestExactStatsSameEveryRun(t *testing.T) {
	ctx := context.Background()
	src := fractionsTable(t, 2_000_000, 4)
	if plain := resultsOf(t, src, "SELECT avg(v), stddev_samp(v) FROM t"); len(plain) < 2 {
		t.Logf("DuckDB's avg and stddev_samp gave one value in 25 runs: %v (the machine ran its threads in one order)", plain)
	}
	d := &duckTable{src: src, view: "t", pre: map[string]any{}}
	if err := d.describe(ctx, false); err != nil {
		t.Fatal(err)
	}
	v := number(d.cols[0])
	seen := map[[2]float64]bool{}
	for range 25 {
		res, err := d.query(ctx, "SELECT count("+v+"), min("+v+"), max("+v+") FROM t")
		if err != nil {
			t.Fatal(err)
		}
		mean, std, err := d.meanStd(ctx, v, toInt(res[0][0]), toFloat(res[0][1]), toFloat(res[0][2]))
		if err != nil {
			t.Fatal(err)
		}
		seen[[2]float64{mean, std}] = true
	}
	if len(seen) != 1 {
		t.Errorf("meanStd gave %d different (mean, std) in 25 runs: %v", len(seen), seen)
	}
	profiled := map[string]bool{}
	for range 4 {
		d := &duckTable{src: src, view: "t", pre: map[string]any{}}
		if err := d.describe(ctx, false); err != nil {
			t.Fatal(err)
		}
		if err := d.profile(ctx); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range []string{"v", "g"} {
			s := d.pre["numeric"].(map[string]map[string]any)[c]
			fmt.Fprintf(&b, "%s %v %v; ", c, strconv.FormatFloat(s["mean"].(float64), 'g', -1, 64), strconv.FormatFloat(s["std"].(float64), 'g', -1, 64))
		}
		profiled[b.String()] = true
	}
	if len(profiled) != 1 {
		t.Errorf("the profile gave %d different statistics in 4 runs: %v", len(profiled), profiled)
	}
	res, err := src.Rows(ctx, "SELECT avg(v), stddev_samp(v) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	for k := range seen {
		if !nearRel(k[0], toFloat(res[0][0]), 1e-12) || !nearRel(k[1], toFloat(res[0][1]), 1e-12) {
			t.Errorf("meanStd %v, DuckDB's %v", k, res[0])
		}
	}
}

// TestMeanStdExact: meanStd against the exact mean and deviation (each
// computed with big floats and rounded once), on values too small for
// exactSum's 2⁻⁶² unscaled, large ones, constant ones, one value.
func TestMeanStdExact(t *testing.T) {
	src := fractionsTable(t, 10, 2)
	d := &duckTable{src: src}
	for _, vals := range [][]float64{
		{1e-7, 2.5e-7, 3.3e-7, 1.1e-7, 9.9e-8},
		{0.1, 0.2, 0.3, 0.4, 100.7},
		{1e17, 3e17 + 64, -2e16, 5},
		{1000.001, 1000.002, 1000.003},
		{7, 7, 7},
		{-0.5},
	} {
		var rows []string
		for _, x := range vals {
			rows = append(rows, "("+double(x)+")")
		}
		d.view = "(VALUES " + strings.Join(rows, ", ") + ") v(x)"
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range vals {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		mean, std, err := d.meanStd(context.Background(), "x", int64(len(vals)), lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		wantMean, wantStd := exactMeanStd(vals)
		if mean != wantMean || !(std == wantStd || math.IsNaN(std) && math.IsNaN(wantStd)) {
			t.Errorf("%v: mean %v std %v, want %v %v", vals, mean, std, wantMean, wantStd)
		}
	}
}

// exactMeanStd is the mean (the exact sum rounded, over n) and the sample
// deviation from it (the exact sum of the rounded squared deviations).
func exactMeanStd(vals []float64) (float64, float64) {
	sum := new(big.Float).SetPrec(2000)
	for _, x := range vals {
		sum.Add(sum, big.NewFloat(x))
	}
	s, _ := sum.Float64()
	mean := s / float64(len(vals))
	if len(vals) < 2 {
		return mean, math.NaN()
	}
	sq := new(big.Float).SetPrec(2000)
	for _, x := range vals {
		dev := x - mean
		sq.Add(sq, big.NewFloat(dev*dev))
	}
	q, _ := sq.Float64()
	return mean, math.Sqrt(q / float64(len(vals)-1))
}

// BenchmarkMeanStdMillion compares DuckDB's avg and stddev_samp of a
// million doubles with meanStd's (the count, minimum and maximum scan,
// which both need, included in each).
func BenchmarkMeanStdMillion(b *testing.B) {
	src := fractionsTable(b, 1_000_000, 2)
	ctx := context.Background()
	b.Run("duckdb_avg_stddev", func(b *testing.B) {
		for range b.N {
			if _, err := src.Rows(ctx, "SELECT count(v), avg(v), stddev_samp(v), min(v), max(v) FROM t"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exact_mean_std", func(b *testing.B) {
		d := &duckTable{src: src, view: "t"}
		for range b.N {
			res, err := src.Rows(ctx, "SELECT count(v), min(v), max(v) FROM t")
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := d.meanStd(ctx, "v", toInt(res[0][0]), toFloat(res[0][1]), toFloat(res[0][2])); err != nil {
				b.Fatal(err)
			}
			d.sql = nil
		}
	})
}

// TestWholeSumIsExactSum: a sum or mean of a column of integers adds only
// their whole parts (its fractions are all zero), and gives exactly
// exactSum's double: over small and large values (past 2⁵³, where a
// double rounds them, and near 2⁶³), negative ones, missing ones and
// none, in groups.
func TestWholeSumIsExactSum(t *testing.T) {
	src := fractionsTable(t, 10, 2)
	ctx := context.Background()
	if _, err := src.Rows(ctx, `CREATE TABLE w AS SELECT * FROM (VALUES
		(1, 3::BIGINT), (1, -7), (1, NULL), (2, 9007199254740993), (2, 9007199254740995), (2, -1),
		(3, 9223372036854775807), (3, 1), (4, NULL), (5, 4611686018427387904), (5, 4611686018427387905), (5, 12)) v(g, n)`); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"BIGINT", "INTEGER"} {
		col := &duckColumn{name: "n", typ: typ}
		n := "n"
		if typ == "INTEGER" {
			n = "TRY_CAST(n AS INTEGER)"
		}
		for _, agg := range []string{"sum", "mean"} {
			got := aggSQL(agg, col)
			if strings.Contains(got, exactSumScale) {
				t.Errorf("%s of %s adds fractions: %s", agg, typ, got)
			}
			exact := strings.ReplaceAll(aggSQL(agg, &duckColumn{name: "n", typ: "DOUBLE"}), `"n"`, n)
			whole := strings.ReplaceAll(got, `"n"`, n)
			res, err := src.Rows(ctx, "SELECT g, "+whole+" = "+exact+" OR ("+whole+" IS NULL AND "+exact+" IS NULL), "+whole+" FROM w GROUP BY g ORDER BY g")
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				if r[1] != true {
					t.Errorf("%s of %s, group %v: %v, not exactSum's", agg, typ, r[0], r[2])
				}
			}
		}
	}
}
