// Package bigcsv writes the large CSV the big-file benchmarks read, and
// keeps the true answers, so that a benchmark checks exact numbers.
package bigcsv

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Truth is what the generator knows about the file it wrote.
type Truth struct {
	// Rows are the data rows; NullAmounts those with an empty amount.
	Rows, NullAmounts int64
	// Sum, Min and Max are over the amounts given.
	Sum, Min, Max int64
	// ByMonth sums the amounts per month ("2022-01").
	ByMonth map[string]int64
	// ByRegion counts the rows per region.
	ByRegion map[string]int64
	// Outliers are the 0-based data rows whose amount was planted far
	// above the others (every other amount is below 1,000,000); no other
	// amount is an outlier by the IQR or the z-score rule.
	Outliers []int64
}

// Write writes day,region,amount,note rows to path until the file holds at
// least size bytes. Amounts are whole cents, so every sum is exact; every
// 1000th amount is empty, and about one in 100,000 is an outlier.
func Write(path string, size int64) (Truth, error) {
	f, err := os.Create(path)
	if err != nil {
		return Truth{}, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	tr := Truth{ByMonth: map[string]int64{}, ByRegion: map[string]int64{}, Min: 1 << 62, Max: -1}
	regions := []string{"north", "south", "east", "west"}
	start := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	days := make([]string, 1096)
	months := make([]string, len(days))
	for i := range days {
		d := start.AddDate(0, 0, i)
		days[i], months[i] = d.Format("2006-01-02"), d.Format("2006-01")
	}
	w.WriteString("day,region,amount,note\n")
	written := int64(len("day,region,amount,note\n"))
	buf := make([]byte, 0, 128)
	for i := int64(0); written < size; i++ {
		di := int((i * 7) % int64(len(days)))
		buf = buf[:0]
		buf = append(buf, days[di]...)
		buf = append(buf, ',')
		buf = append(buf, regions[i%4]...)
		buf = append(buf, ',')
		if i%1000 == 999 {
			tr.NullAmounts++
		} else {
			a := (i * 7919) % 1_000_000
			if i%99_991 == 4_242 {
				a = 20_000_000 + i%1000
				tr.Outliers = append(tr.Outliers, i)
			}
			buf = strconv.AppendInt(buf, a, 10)
			tr.Sum += a
			tr.ByMonth[months[di]] += a
			tr.Min, tr.Max = min(tr.Min, a), max(tr.Max, a)
		}
		buf = append(buf, ",order note number "...)
		buf = strconv.AppendInt(buf, i, 10)
		buf = append(buf, '\n')
		w.Write(buf)
		written += int64(len(buf))
		tr.Rows++
		tr.ByRegion[regions[i%4]]++
	}
	if err := w.Flush(); err != nil {
		return tr, err
	}
	return tr, f.Close()
}

// PeakRSS is the process's peak resident memory (VmHWM) in bytes.
func PeakRSS() int64 { return statusHWM("/proc/self/status") }

// PeakWatcher follows the peak resident memory of this process's Python
// descendants. RUSAGE_CHILDREN cannot tell it: Go starts a child with
// vfork, so exec records the Go process's own peak as the child's, and the
// "largest child" is always Sift itself. The watcher instead reads each
// descendant's own high-water mark (VmHWM of /proc/<pid>/status) while it
// runs; a process that grows in its last sampling interval before it ends
// is seen that much lower.
type PeakWatcher struct {
	stop chan struct{}
	done chan int64
}

// WatchPython starts sampling every interval.
func WatchPython(interval time.Duration) *PeakWatcher {
	w := &PeakWatcher{stop: make(chan struct{}), done: make(chan int64, 1)}
	go func() {
		var peak int64
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			peak = max(peak, pythonPeak(os.Getpid()))
			select {
			case <-w.stop:
				w.done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// Stop stops sampling and returns the largest peak seen, in bytes.
func (w *PeakWatcher) Stop() int64 {
	close(w.stop)
	return <-w.done
}

// pythonPeak is the largest VmHWM of self's descendants whose command
// name starts with "python".
func pythonPeak(self int) int64 {
	entries, _ := os.ReadDir("/proc")
	parent, name := map[int]int{}, map[int]string{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid], name[pid] = ppid, s[open+1:close]
	}
	var peak int64
	for pid, comm := range name {
		if !strings.HasPrefix(comm, "python") {
			continue
		}
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == self {
				peak = max(peak, statusHWM(filepath.Join("/proc", strconv.Itoa(pid), "status")))
				break
			}
		}
	}
	return peak
}

// statusHWM reads VmHWM from a /proc status file, in bytes.
func statusHWM(path string) int64 {
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			kb, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// The environment of the big-file benchmarks: EnableEnv=1 runs them,
// BytesEnv sets the file's size (default DefaultBytes).
const (
	EnableEnv    = "SIFT_BENCH_BIG"
	BytesEnv     = "SIFT_BENCH_BIG_BYTES"
	DefaultBytes = int64(3) << 30
)

// Size is the file size the benchmarks generate, from BytesEnv.
func Size(getenv func(string) string) (int64, error) {
	v := strings.TrimSpace(getenv(BytesEnv))
	if v == "" {
		return DefaultBytes, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: give the file's size in bytes, such as 3221225472", BytesEnv, v)
	}
	return n, nil
}

// Workspace skips b unless EnableEnv is 1; else it makes a workspace
// (input/, out/, work/) under $TMPDIR, removed when b ends, writes the
// big CSV to input/big.csv and returns the workspace and the truth.
func Workspace(b testing.TB) (string, Truth) {
	b.Helper()
	if os.Getenv(EnableEnv) != "1" {
		b.Skipf("set %s=1 to run: it writes a 3 GB CSV", EnableEnv)
	}
	size, err := Size(os.Getenv)
	if err != nil {
		b.Fatal(err)
	}
	root, err := os.MkdirTemp("", "sift-bench-big-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(root) })
	// The sandboxed Python may run as another user (as root: nobody).
	os.Chmod(root, 0o755)
	for _, d := range []string{"input", "out", "work"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	csv := filepath.Join(root, "input", "big.csv")
	t0 := time.Now()
	tr, err := Write(csv, size)
	if err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(csv)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %s: %d bytes, %d rows in %s", csv, st.Size(), tr.Rows, time.Since(t0).Round(time.Second))
	return root, tr
}

// Months are the months of ByMonth in order.
func (t Truth) Months() []string {
	months := make([]string, 0, len(t.ByMonth))
	for m := range t.ByMonth {
		months = append(months, m)
	}
	sort.Strings(months)
	return months
}
