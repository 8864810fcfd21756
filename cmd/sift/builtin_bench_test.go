package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
)

// BenchmarkBuiltinVsPandasRead runs `sift run --file big.csv QUESTION` end
// to end (a new process each time, no model: the built-in answers) for a
// monthly trend and a top-N on a generated CSV of SIFT_BENCH_ROWS rows
// (default 1,000,000: about 38 MB), against a bare
// `python3 -c 'import pandas; pandas.read_csv(FILE)'` on the same file,
// in turn, and prints each built-in's median beside the pandas median and
// their ratio (the goal is at most 0.5). SIFT_BENCH_BASELINE=path/to/sift
// adds the same two runs of another build (say main's) to each turn, for
// a before/after under the same load:
//
//	go test ./cmd/sift -run '^$' -bench BuiltinVsPandasRead -benchtime 5x
func BenchmarkBuiltinVsPandasRead(b *testing.B) {
	python, err := operator.FindPython(context.Background(), "")
	if err != nil {
		b.Skipf("needs Python with pandas: %v", err)
	}
	rows := 1_000_000
	if v := os.Getenv("SIFT_BENCH_ROWS"); v != "" {
		if rows, err = strconv.Atoi(v); err != nil || rows < 1 {
			b.Fatalf("SIFT_BENCH_ROWS=%q: give a number of rows", v)
		}
	}
	dir := b.TempDir()
	data := filepath.Join(dir, "big.csv")
	writeSalesCSV(b, data, rows)
	home := b.TempDir()
	pandas := func() {
		cmd := exec.Command(python, "-c", "import sys, pandas; pandas.read_csv(sys.argv[1])", data)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("pandas.read_csv: %v\n%s", err, out)
		}
	}
	builtin := func(sift, question string) func() {
		return func() {
			cmd := exec.Command(sift, "run", "--fresh", "--mode", "template", "--sessions-dir", filepath.Join(home, "sessions"), "--file", data, question)
			cmd.Env = append(os.Environ(), "SIFT_TEST_BE_SIFT=1", "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("sift run %q: %v\n%s", question, err, out)
			}
		}
	}
	runs := map[string]func(){"pandas.read_csv": pandas, "trend": builtin(os.Args[0], "monthly revenue trend"), "top-N": builtin(os.Args[0], "top 5 products by revenue")}
	order := []string{"pandas.read_csv", "trend", "top-N"}
	if base := os.Getenv("SIFT_BENCH_BASELINE"); base != "" {
		// Another build of sift (e.g. main's), run in the same turns, so a
		// change is measured against it under the same load.
		runs["trend@baseline"], runs["top-N@baseline"] = builtin(base, "monthly revenue trend"), builtin(base, "top 5 products by revenue")
		order = append(order, "trend@baseline", "top-N@baseline")
	}
	for _, name := range order {
		runs[name]() // warm-up: page cache, probe cache
	}
	took := map[string][]time.Duration{}
	for i := 0; i < b.N; i++ {
		// In turn, so a drift in the machine's speed touches each alike.
		for _, name := range order {
			start := time.Now()
			runs[name]()
			took[name] = append(took[name], time.Since(start))
		}
	}
	base := median(took[order[0]])
	fmt.Printf("\n%d-row CSV (%s), median of %d runs each, in turn (load average %s):\n", rows, sizeOf(data), b.N, loadAverage())
	for _, name := range order {
		m := median(took[name])
		fmt.Printf("  %-16s %8.0f ms  %5.2fx pandas.read_csv\n", name, ms(m), float64(m)/float64(base))
		b.ReportMetric(float64(m)/float64(base), name+"/pandas")
	}
}

// loadAverage is the machine's 1, 5 and 15-minute load averages, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// median of ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func sizeOf(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(st.Size())/1e6)
}

// writeSalesCSV writes rows of order_date, region, product, customer,
// units and revenue over two years.
func writeSalesCSV(b *testing.B, path string, rows int) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	regions := []string{"North", "South", "East", "West"}
	products := []string{"Widget", "Gadget", "Gizmo", "Doohickey", "Thing", "Sprocket", "Bolt", "Nut"}
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Fprintln(w, "order_date,region,product,customer,units,revenue")
	for i := 0; i < rows; i++ {
		u := r.IntN(20) + 1
		fmt.Fprintf(w, "%s,%s,%s,C%04d,%d,%.2f\n", start.AddDate(0, 0, r.IntN(730)).Format("2006-01-02"),
			regions[r.IntN(len(regions))], products[r.IntN(len(products))], r.IntN(2000), u, float64(u)*(5+45*r.Float64()))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}
