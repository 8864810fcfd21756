package templates

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/sqldb/bigcsv"
)

// BenchmarkBigCSVTemplates runs the built-in profile, a monthly trend and
// outliers on a generated CSV of 3 GB with the sandbox's memory limit at
// 1 GiB: Run chooses DuckDB by itself, and the numbers (the outliers' row
// numbers too) are checked against the generator's. Then the same
// analyses are forced through pandas, in the same sandbox, and their
// outcome and time reported beside. Peak memory is the Sift process's own
// (DuckDB runs in it) and the largest Python cell's, sampled while it
// runs (see bigcsv.PeakWatcher). It runs
// only with SIFT_BENCH_BIG=1 (it writes, then removes, a 3 GB file under
// $TMPDIR; SIFT_BENCH_BIG_BYTES sets another size):
//
//	SIFT_BENCH_BIG=1 go test ./tools/templates/ -run '^$' -bench BigCSVTemplates -benchtime 1x -timeout 90m
func BenchmarkBigCSVTemplates(b *testing.B) {
	root, tr := bigcsv.Workspace(b)
	py := pythonOrSkip(b)
	st, err := os.Stat(filepath.Join(root, "input", "big.csv"))
	if err != nil {
		b.Fatal(err)
	}

	sb, err := operator.NewSandbox(operator.SandboxConfig{Mode: operator.SandboxAuto, AllowUnsandboxed: true})
	if err != nil {
		b.Fatal(err)
	}
	op, err := operator.NewLocal(operator.LocalConfig{Root: root, Python: py, Sandbox: sb, Timeout: 2 * time.Hour,
		Limits: operator.Limits{MemoryBytes: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	defer op.Close()
	ctx := context.Background()
	profile := Match{Template: Profile}
	trend := Match{Template: Trend, Params: Params{Time: "day", Measure: "amount", Period: "month"}}
	outliers := Match{Template: Outliers, Params: Params{Columns: []string{"amount"}}}

	duckPy := bigcsv.WatchPython(50 * time.Millisecond)
	for i := 0; i < b.N; i++ {
		t1 := time.Now()
		pr, err := Run(ctx, op, "input/big.csv", profile)
		if err != nil {
			b.Fatal(err)
		}
		profTime := time.Since(t1)
		if pr.Engine != EngineDuckDB {
			b.Errorf("profile ran through %s; want duckdb for a %d-byte file at 1 GiB", pr.Engine, st.Size())
		}
		checkBigProfile(b, pr, tr)
		t2 := time.Now()
		tn, err := Run(ctx, op, "input/big.csv", trend)
		if err != nil {
			b.Fatal(err)
		}
		trendTime := time.Since(t2)
		checkBigTrend(b, tn, tr)
		t3 := time.Now()
		ol, err := Run(ctx, op, "input/big.csv", outliers)
		if err != nil {
			b.Fatal(err)
		}
		outTime := time.Since(t3)
		checkBigOutliers(b, root, ol, tr)
		b.ReportMetric(profTime.Seconds(), "duckdb-profile-s")
		b.ReportMetric(trendTime.Seconds(), "duckdb-trend-s")
		b.ReportMetric(outTime.Seconds(), "duckdb-outliers-s")
		b.ReportMetric(float64(bigcsv.PeakRSS())/(1<<20), "sift-peak-MiB")
		b.Logf("built-in analyses through DuckDB (memory_limit 1 GiB, 2 threads; sandbox %s at 1 GiB for the cell): profile %s, monthly trend %s, outliers %s, numbers exact; peak RSS of the Sift process %d MiB",
			sb.Name(), profTime.Round(time.Millisecond), trendTime.Round(time.Millisecond), outTime.Round(time.Millisecond), bigcsv.PeakRSS()>>20)
	}
	duckPeak := duckPy.Stop()
	b.ReportMetric(float64(duckPeak)/(1<<20), "duckdb-cell-python-peak-MiB")

	pandasPy := bigcsv.WatchPython(50 * time.Millisecond)
	for _, m := range []Match{profile, trend, outliers} {
		t3 := time.Now()
		_, err := RunWith(ctx, op, "input/big.csv", m, RunOptions{Engine: EnginePandas})
		outcome := "completed"
		if err != nil {
			outcome = "failed: " + err.Error()
			if len(outcome) > 300 {
				outcome = outcome[:300] + "…"
			}
		}
		d := time.Since(t3)
		b.ReportMetric(d.Seconds(), "pandas-"+m.Template+"-s")
		b.Logf("%s through pandas (sandbox %s, memory 1 GiB): %s after %s", m.Template, sb.Name(), outcome, d.Round(time.Millisecond))
	}
	op.Close()
	pandasPeak := pandasPy.Stop()
	b.ReportMetric(float64(pandasPeak)/(1<<20), "pandas-python-peak-MiB")
	b.Logf("peak RSS of the largest Python cell, sampled every 50 ms: %d MiB drawing from DuckDB's aggregates, %d MiB running pandas", duckPeak>>20, pandasPeak>>20)
}

// checkBigOutliers compares the outliers with the rows the generator
// planted: the same 0-based row numbers, by both rules, and every one in
// the rows file.
func checkBigOutliers(b *testing.B, root string, r *Result, tr bigcsv.Truth) {
	var d struct {
		Rows     []int64
		RowCount int64 `json:"row_count"`
		Columns  map[string]struct {
			IQRRows  []int64 `json:"iqr_rows"`
			ZRows    []int64 `json:"z_rows"`
			IQRCount int64   `json:"iqr_count"`
			ZCount   int64   `json:"z_count"`
		}
	}
	if err := r.DecodeData(&d); err != nil {
		b.Fatal(err)
	}
	want := tr.Outliers[:min(len(tr.Outliers), 200)]
	a := d.Columns["amount"]
	n := int64(len(tr.Outliers))
	if got := fmt.Sprint(d.RowCount, a.IQRCount, a.ZCount, d.Rows, a.IQRRows, a.ZRows); got != fmt.Sprint(n, n, n, want, want, want) {
		b.Errorf("outliers (count, by IQR, by z, rows, IQR rows, z rows) = %s; want %d of them at rows %v", got, n, want)
	}
	for _, f := range r.Files {
		if strings.HasSuffix(f, "_rows.csv") {
			data, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				b.Fatal(err)
			}
			if lines := int64(strings.Count(string(data), "\n")); lines != n+1 {
				b.Errorf("%s holds %d lines; want a header and %d rows", f, lines, n)
			}
		}
	}
}

// checkBigProfile compares the profile's numbers with the generator's.
func checkBigProfile(b *testing.B, r *Result, tr bigcsv.Truth) {
	var d struct {
		Rows, Duplicates int64
		Missing          map[string]int64
		Numeric          map[string]map[string]float64
		TopValues        map[string][]struct {
			Value string
			Count int64
		} `json:"top_values"`
	}
	if err := r.DecodeData(&d); err != nil {
		b.Fatal(err)
	}
	amount := d.Numeric["amount"]
	got := fmt.Sprint(d.Rows, d.Duplicates, d.Missing["amount"], int64(amount["count"]), int64(amount["min"]), int64(amount["max"]))
	want := fmt.Sprint(tr.Rows, 0, tr.NullAmounts, tr.Rows-tr.NullAmounts, tr.Min, tr.Max)
	if got != want {
		b.Errorf("profile rows, duplicates, missing, count, min, max = %s; want %s", got, want)
	}
	if mean := float64(tr.Sum) / float64(tr.Rows-tr.NullAmounts); !nearRel(amount["mean"], mean, 1e-12) {
		b.Errorf("mean amount = %v, want %v", amount["mean"], mean)
	}
	// Every note is distinct: the top five are the smallest, once each.
	var notes []string
	for _, v := range d.TopValues["note"] {
		notes = append(notes, fmt.Sprintf("%s=%d", v.Value, v.Count))
	}
	if want := "order note number 0=1 order note number 1=1 order note number 10=1 order note number 100=1 order note number 1000=1"; strings.Join(notes, " ") != want {
		b.Errorf("top notes = %v, want %s", notes, want)
	}
	regions := map[string]int64{}
	for _, v := range d.TopValues["region"] {
		regions[v.Value] = v.Count
	}
	if fmt.Sprint(regions) != fmt.Sprint(tr.ByRegion) {
		b.Errorf("rows per region = %v, want %v", regions, tr.ByRegion)
	}
}

// checkBigTrend compares the monthly totals with the generator's.
func checkBigTrend(b *testing.B, r *Result, tr bigcsv.Truth) {
	var d struct {
		Labels []string
		Values []float64
	}
	if err := r.DecodeData(&d); err != nil {
		b.Fatal(err)
	}
	var got, want []string
	for i := range d.Labels {
		got = append(got, fmt.Sprintf("%s=%.0f", d.Labels[i], d.Values[i]))
	}
	for _, m := range tr.Months() {
		want = append(want, fmt.Sprintf("%s=%d", m, tr.ByMonth[m]))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		b.Errorf("monthly totals differ from the generator's:\n got %v\nwant %v", got, want)
	}
}
