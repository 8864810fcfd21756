package sqldb

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/sqldb/bigcsv"
)

// BenchmarkBigCSVFilesSource profiles a CSV of 3 GB and computes its
// monthly trend through the files source with DuckDB limited to 1 GiB,
// checks the numbers against the generator's, and runs the same trend
// through pandas in the sandbox limited to 1 GiB, reporting both. It runs
// only with SIFT_BENCH_BIG=1 (it writes, then removes, a 3 GB file under
// $TMPDIR):
//
//	SIFT_BENCH_BIG=1 go test ./tools/sqldb/ -run '^$' -bench BigCSV -benchtime 1x -timeout 60m
func BenchmarkBigCSVFilesSource(b *testing.B) {
	root, tr := bigcsv.Workspace(b)
	ctx := context.Background()

	for i := 0; i < b.N; i++ {
		s, err := OpenFiles(ctx, root, []string{"input/big.csv"}, FilesOptions{Options: Options{StatementTimeout: time.Hour}, MemoryBytes: 1 << 30, Threads: 2})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		prof, err := s.Query(ctx, "SELECT count(*), count(amount), sum(amount), min(amount), max(amount), count(DISTINCT region), min(day), max(day) FROM big", QueryOptions{NoCache: true})
		if err != nil {
			b.Fatal(err)
		}
		profTime := time.Since(t1)
		want := fmt.Sprint([]string{strconv.FormatInt(tr.Rows, 10), strconv.FormatInt(tr.Rows-tr.NullAmounts, 10), strconv.FormatInt(tr.Sum, 10),
			strconv.FormatInt(tr.Min, 10), strconv.FormatInt(tr.Max, 10), "4", "2022-01-01", "2024-12-31"})
		if got := fmt.Sprint(prof.Rows[0]); got != want {
			b.Errorf("profile = %s, want %s", got, want)
		}
		t2 := time.Now()
		trend, err := s.Query(ctx, "SELECT strftime(day, '%Y-%m') AS month, sum(amount) AS total FROM big GROUP BY month ORDER BY month", QueryOptions{NoCache: true})
		if err != nil {
			b.Fatal(err)
		}
		trendTime := time.Since(t2)
		var wantTrend [][]string
		for _, m := range tr.Months() {
			wantTrend = append(wantTrend, []string{m, strconv.FormatInt(tr.ByMonth[m], 10)})
		}
		if fmt.Sprint(trend.Rows) != fmt.Sprint(wantTrend) {
			b.Errorf("monthly trend differs from the generator's:\n got %v\nwant %v", trend.Rows, wantTrend)
		}
		s.Close()
		b.ReportMetric(profTime.Seconds(), "duckdb-profile-s")
		b.ReportMetric(trendTime.Seconds(), "duckdb-trend-s")
		b.ReportMetric(float64(bigcsv.PeakRSS())/(1<<20), "sift-peak-MiB")
		b.Logf("DuckDB (memory_limit 1 GiB, 2 threads): profile %s, monthly trend %s (%d months, exact); peak RSS of the whole process %d MiB",
			profTime.Round(time.Millisecond), trendTime.Round(time.Millisecond), len(trend.Rows), bigcsv.PeakRSS()>>20)
	}

	// The same monthly trend through pandas, in the sandbox at 1 GiB.
	py, err := operator.FindPython(ctx, "")
	if err != nil {
		b.Logf("pandas comparison skipped: %v", err)
		return
	}
	sb, err := operator.NewSandbox(operator.SandboxConfig{Mode: operator.SandboxAuto, AllowUnsandboxed: true})
	if err != nil {
		b.Fatal(err)
	}
	op, err := operator.NewLocal(operator.LocalConfig{Root: root, Python: py, Sandbox: sb, Timeout: time.Hour, Limits: operator.Limits{MemoryBytes: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	defer op.Close()
	t3 := time.Now()
	res, err := op.RunPython(ctx, `import resource, sys
try:
    import pandas as pd
    df = pd.read_csv('input/big.csv', usecols=['day', 'amount'], parse_dates=['day'])
    print(df.groupby(df.day.dt.to_period('M')).amount.sum().to_string())
finally:
    print('peak-kib', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
`, operator.RunOptions{Timeout: time.Hour})
	pdTime := time.Since(t3)
	peak := "unknown"
	if res != nil {
		if _, after, ok := strings.Cut(res.Stderr, "peak-kib "); ok {
			if kib, err := strconv.ParseInt(strings.Fields(after)[0], 10, 64); err == nil {
				peak = fmt.Sprintf("%d MiB", kib>>10)
			}
		}
	}
	outcome := "completed"
	if err != nil {
		outcome = "could not run: " + err.Error()
	} else if !res.OK() {
		lines := strings.Split(strings.TrimSpace(res.Error), "\n")
		outcome = "failed: " + lines[len(lines)-1]
	}
	b.ReportMetric(pdTime.Seconds(), "pandas-trend-s")
	b.Logf("pandas (sandbox %s, memory 1 GiB): monthly trend %s after %s; peak RSS of the Python process %s", sb.Name(), outcome, pdTime.Round(time.Millisecond), peak)
}
