package operator

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// benchCells is the five-cell analysis the kernel/process benchmark runs:
// load a CSV, filter, group, pivot, plot.
var benchCells = []string{
	"import pandas as pd\ndf = pd.read_csv('input/sales.csv', parse_dates=['date'])\nlen(df)",
	"big = df[df['value'] > 50]\nlen(big)",
	"by_cat = big.groupby('category')['value'].agg(['sum', 'mean', 'count'])\nby_cat",
	"monthly = big.pivot_table(index=big['date'].dt.month, columns='category', values='value', aggfunc='sum')\nmonthly.shape",
	"import matplotlib.pyplot as plt\nmonthly.plot(figsize=(8, 4))\nplt.title('value by month')\nNone",
}

// benchProcessCells are benchCells as process-mode code must write them:
// every cell loads the data again and redoes the steps it builds on.
var benchProcessCells = func() []string {
	load := "import pandas as pd\ndf = pd.read_csv('input/sales.csv', parse_dates=['date'])\n"
	filter := "big = df[df['value'] > 50]\n"
	pivot := "monthly = big.pivot_table(index=big['date'].dt.month, columns='category', values='value', aggfunc='sum')\n"
	return []string{
		benchCells[0],
		load + benchCells[1],
		load + filter + benchCells[2],
		load + filter + benchCells[3],
		load + filter + pivot + benchCells[4],
	}
}()

// writeBenchCSV writes rows of date, category, value to path.
func writeBenchCSV(b *testing.B, path string, rows int) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "date,category,value")
	cats := []string{"books", "games", "garden", "music", "toys", "tools"}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		fmt.Fprintf(w, "%s,%s,%d.%02d\n", day.AddDate(0, 0, i%365).Format("2006-01-02"), cats[(i*7)%len(cats)], (i*37)%100, i%100)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkKernelVsProcess runs the same five-cell analysis of a 1M-row CSV
// in process mode (a fresh interpreter per cell, so every cell reloads the
// data) and in kernel mode (one interpreter; the data is loaded once), and
// reports per-cell seconds for both, the kernel's start time (with the
// default preload of numpy, pandas and pyplot, and bare), the totals and
// process/kernel for cells 2-5 (target: at least 10).
//
//	go test ./operator -run '^$' -bench KernelVsProcess -benchtime 1x
func BenchmarkKernelVsProcess(b *testing.B) {
	py := needPython(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(root, InputDir), 0o755); err != nil {
		b.Fatal(err)
	}
	writeBenchCSV(b, filepath.Join(root, InputDir, "sales.csv"), 1_000_000)
	// A shared matplotlib cache, built before timing: neither mode should
	// pay for the font cache.
	mpl := filepath.Join(dir, "mpl")
	env := []string{"MPLCONFIGDIR=" + mpl}
	warm := exec.Command(py, "-c", "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot")
	warm.Env = append(os.Environ(), env...)
	if out, err := warm.CombinedOutput(); err != nil {
		b.Fatalf("warm the matplotlib cache: %v\n%s", err, out)
	}
	ctx := context.Background()
	runAll := func(op func(string) (*RunResult, error), cells []string, times []time.Duration) {
		for i, code := range cells {
			start := time.Now()
			res, err := op(code)
			if err != nil || !res.OK() {
				b.Fatalf("cell %d: %+v, %v", i+1, res, err)
			}
			times[i] += time.Since(start)
		}
	}
	proc := make([]time.Duration, len(benchCells))
	kern := make([]time.Duration, len(benchCells))
	var kernStart, bareStart time.Duration
	runs := 0
	for b.Loop() {
		runs++
		l, err := NewLocal(LocalConfig{Root: root, Python: py, ExtraEnv: env})
		if err != nil {
			b.Fatal(err)
		}
		runAll(func(code string) (*RunResult, error) { return l.RunPython(ctx, code, RunOptions{}) }, benchProcessCells, proc)
		l.Close()

		k, err := NewKernel(KernelConfig{Root: root, Python: py, ExtraEnv: env})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := k.Start(ctx); err != nil {
			b.Fatal(err)
		}
		kernStart += time.Since(start)
		runAll(func(code string) (*RunResult, error) { return k.Run(ctx, code, RunOptions{}) }, benchCells, kern)
		k.Close()

		// The start without preloading: the interpreter and the protocol.
		bare, err := NewKernel(KernelConfig{Root: root, Python: py, ExtraEnv: env, Preload: []string{}})
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		if err := bare.Start(ctx); err != nil {
			b.Fatal(err)
		}
		bareStart += time.Since(start)
		bare.Close()
	}
	per := func(d time.Duration) float64 { return d.Seconds() / float64(runs) }
	var procTotal, kernTotal, proc25, kern25 float64
	for i := range benchCells {
		b.ReportMetric(per(proc[i]), fmt.Sprintf("process-cell%d-s", i+1))
		b.ReportMetric(per(kern[i]), fmt.Sprintf("kernel-cell%d-s", i+1))
		procTotal += per(proc[i])
		kernTotal += per(kern[i])
		if i > 0 {
			proc25 += per(proc[i])
			kern25 += per(kern[i])
		}
	}
	b.ReportMetric(per(kernStart), "kernel-start-s")
	b.ReportMetric(per(bareStart), "kernel-start-bare-s")
	b.ReportMetric(procTotal, "process-total-s")
	b.ReportMetric(kernTotal+per(kernStart), "kernel-total-s")
	b.ReportMetric(proc25/kern25, "cells2-5-speedup")
}

// BenchmarkKernelSandboxOverhead measures, side by side, a kernel in the
// bubblewrap sandbox and one without: the start (with the default preload
// of numpy, pandas and pyplot) and the mean time of a small cell, whose
// difference is the sandbox's per-cell overhead (target: under 5 ms). Both
// run as sessions do: the bwrap kernel as the session's own uid (as root)
// with its disk budget watched, each with its own matplotlib directory
// seeded from the shared font list (built before timing).
//
//	go test ./operator -run '^$' -bench KernelSandboxOverhead -benchtime 1x
func BenchmarkKernelSandboxOverhead(b *testing.B) {
	py := needPython(b)
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxBwrap})
	if err != nil {
		b.Skipf("needs a working bubblewrap: %v", err)
	}
	dir := b.TempDir()
	if sharedFontCache(sb, py) == "" {
		b.Fatal("could not build matplotlib's shared font list")
	}
	const cells = 200
	ctx := context.Background()
	measure := func(name string, sandbox Sandbox) (start, perCell time.Duration) {
		root := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(root, InputDir), 0o755); err != nil {
			b.Fatal(err)
		}
		k, err := NewKernel(KernelConfig{Root: root, Python: py, Sandbox: sandbox})
		if err != nil {
			b.Fatal(err)
		}
		defer k.Close()
		t0 := time.Now()
		if err := k.Start(ctx); err != nil {
			b.Fatal(err)
		}
		start = time.Since(t0)
		t0 = time.Now()
		for i := 0; i < cells; i++ {
			res, err := k.Run(ctx, "x = sum(range(1000))\nx", RunOptions{})
			if err != nil || !res.OK() {
				b.Fatalf("%s cell %d: %+v, %v", name, i, res, err)
			}
		}
		return start, time.Since(t0) / cells
	}
	for b.Loop() {
		noneStart, noneCell := measure(fmt.Sprintf("none-%d", b.N), NoSandbox())
		bwrapStart, bwrapCell := measure(fmt.Sprintf("bwrap-%d", b.N), sb)
		b.ReportMetric(noneStart.Seconds(), "start-none-s")
		b.ReportMetric(bwrapStart.Seconds(), "start-bwrap-s")
		b.ReportMetric(float64(noneCell.Microseconds())/1000, "cell-none-ms")
		b.ReportMetric(float64(bwrapCell.Microseconds())/1000, "cell-bwrap-ms")
		b.ReportMetric(float64((bwrapCell-noneCell).Microseconds())/1000, "sandbox-overhead-ms/cell")
	}
}

// BenchmarkKernelLimits measures what each session limit costs, side by
// side in one run: a bubblewrap kernel with none of them, then adding the
// fallocate filter, the session's control group, and the disk quota (its
// own file system: mkfs, mount, and the copy back on close), which is how
// sessions run. For each: the kernel's start (without preloading pandas,
// whose import would drown the difference; the preload costs the same in
// each), the mean time of a small cell and of a cell writing 1 MiB, and
// the close.
//
//	go test ./operator -run '^$' -bench KernelLimits -benchtime 1x
func BenchmarkKernelLimits(b *testing.B) {
	py := needPython(b)
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxBwrap})
	if err != nil {
		b.Skipf("needs a working bubblewrap: %v", err)
	}
	if sharedFontCache(sb, py) == "" {
		b.Fatal("could not build matplotlib's shared font list")
	}
	dir := b.TempDir()
	const cells, writes = 100, 20
	ctx := context.Background()
	configs := []struct {
		name                  string
		filter, groups, quota bool
	}{
		{"bare", false, false, false},
		{"filter", true, false, false},
		{"filter+cgroup", true, true, false},
		{"filter+cgroup+quota", true, true, true},
	}
	if p := sandbox.QuotaProblem(); p != "" {
		b.Logf("the quota cannot be mounted here (%s): its row measures the accounting only", p)
	}
	for b.Loop() {
		for i, c := range configs {
			restore := sandbox.Without(!c.filter, !c.groups, !c.quota)
			root := filepath.Join(dir, fmt.Sprintf("%d-%d", b.N, i))
			if err := os.MkdirAll(filepath.Join(root, InputDir), 0o755); err != nil {
				b.Fatal(err)
			}
			k, err := NewKernel(KernelConfig{Root: root, Python: py, Sandbox: sb, Preload: []string{}})
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if err := k.Start(ctx); err != nil {
				b.Fatal(err)
			}
			start := time.Since(t0)
			t0 = time.Now()
			for j := 0; j < cells; j++ {
				if res, err := k.Run(ctx, "x = sum(range(1000))\nx", RunOptions{}); err != nil || !res.OK() {
					b.Fatalf("%s cell %d: %+v, %v", c.name, j, res, err)
				}
			}
			cell := time.Since(t0) / cells
			t0 = time.Now()
			for j := 0; j < writes; j++ {
				code := fmt.Sprintf("open('work/w%02d.bin', 'wb').write(b'w' * (1 << 20))", j)
				if res, err := k.Run(ctx, code, RunOptions{}); err != nil || !res.OK() {
					b.Fatalf("%s write %d: %+v, %v", c.name, j, res, err)
				}
			}
			write := time.Since(t0) / writes
			t0 = time.Now()
			k.Close()
			closed := time.Since(t0)
			restore()
			b.ReportMetric(start.Seconds()*1000, "start-"+c.name+"-ms")
			b.ReportMetric(float64(cell.Microseconds())/1000, "cell-"+c.name+"-ms")
			b.ReportMetric(float64(write.Microseconds())/1000, "write1MiB-"+c.name+"-ms")
			b.ReportMetric(closed.Seconds()*1000, "close-"+c.name+"-ms")
		}
	}
}
