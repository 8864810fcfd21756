package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
)

// BenchmarkFirstModelRequest measures how long a `sift run` takes from its
// start until its first model request reaches a local model server, with
// the environment probe cached on disk and without, against how long a
// bare `python3 -c pass` takes to run. It also says how long after the
// run's first event (the session event, stamped once the process has
// started and made the workspace) the request came. Each figure is the
// median of b.N runs (ms), and the ratio to the baseline is printed beside
// it:
//
//	go test ./cmd/sift -run '^$' -bench FirstModelRequest -benchtime 5x
func BenchmarkFirstModelRequest(b *testing.B) {
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		b.Skipf("needs Python with pandas: %v", err)
	}
	sandbox := "bwrap"
	if _, err := operator.NewSandbox(operator.SandboxConfig{Mode: operator.SandboxBwrap}); err != nil {
		sandbox = "none"
	}
	dir := b.TempDir()
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte("region,sales\nnorth,1\nsouth,2\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	python, _ := operator.FindPython(context.Background(), "")

	medians, sinceRun := map[string]time.Duration{}, map[string]time.Duration{}
	order := []string{"python -c pass", "uncached", "cached"}
	b.Run("python_c_pass", func(b *testing.B) {
		medians[order[0]], _ = mediansOf(b, func() (time.Duration, time.Duration) {
			start := time.Now()
			if err := exec.Command(python, "-c", "pass").Run(); err != nil {
				b.Fatal(err)
			}
			return time.Since(start), 0
		})
	})
	cached := filepath.Join(dir, "warm", "probes.json")
	for _, name := range order[1:] {
		b.Run(name, func(b *testing.B) {
			if name == "cached" {
				firstRequestAfter(b, data, sandbox, cached) // warms the cache
			}
			medians[name], sinceRun[name] = mediansOf(b, func() (time.Duration, time.Duration) {
				cache := cached
				if name == "uncached" {
					cache = filepath.Join(b.TempDir(), "probes.json")
				}
				return firstRequestAfter(b, data, sandbox, cache)
			})
		})
	}
	if len(medians) == len(order) {
		base := medians[order[0]]
		fmt.Printf("\ntime to first model request (sandbox %s), median ms:\n", sandbox)
		for _, n := range order {
			fmt.Printf("  %-16s %8.1f ms  %5.2fx python -c pass", n, ms(medians[n]), float64(medians[n])/float64(base))
			if d, ok := sinceRun[n]; ok {
				fmt.Printf("   (%.1f ms after the run's first event)", ms(d))
			}
			fmt.Println()
		}
	}
}

// mediansOf runs f b.N times and returns the medians of the two durations
// it returns, reporting the first as the benchmark's ms-median.
func mediansOf(b *testing.B, f func() (time.Duration, time.Duration)) (time.Duration, time.Duration) {
	b.Helper()
	var as, bs []time.Duration
	for b.Loop() {
		x, y := f()
		as, bs = append(as, x), append(bs, y)
	}
	median := func(ds []time.Duration) time.Duration {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	m, n := median(as), median(bs)
	b.ReportMetric(ms(m), "ms-median")
	if n > 0 {
		b.ReportMetric(ms(n), "ms-after-run-start")
	}
	return m, n
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// firstRequestAfter starts `sift run` (this test binary as sift) against a
// local model server and returns how long after its start the first model
// request arrived, and how long after the run's first event; the process
// is then killed.
func firstRequestAfter(b *testing.B, data, sandbox, cache string) (sinceStart, sinceRun time.Duration) {
	b.Helper()
	arrived := make(chan time.Time, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- time.Now():
		default:
		}
		http.Error(w, `{"error":{"message":"benchmark"}}`, http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	home := b.TempDir()
	cmd := exec.Command(os.Args[0], "run", "--json", "--mode", "plan", "--sandbox", sandbox,
		"--sessions-dir", filepath.Join(home, "sessions"), "--file", data, "which region sells more, and why?")
	cmd.Env = append(os.Environ(), "SIFT_TEST_BE_SIFT=1", "HOME="+home, "XDG_CONFIG_HOME="+home,
		operator.ProbeCacheEnv+"="+cache, "SIFT_BASE_URL="+srv.URL+"/v1", "SIFT_API_KEY=bench", "SIFT_MODEL=bench")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	first := make(chan time.Time, 1)
	go func() {
		var e struct {
			Time time.Time `json:"time"`
		}
		line, _ := bufio.NewReader(stdout).ReadBytes('\n')
		_ = json.Unmarshal(line, &e)
		first <- e.Time
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case t := <-arrived:
		ran := <-first
		if ran.IsZero() {
			b.Fatal("the run printed no first event")
		}
		return t.Sub(start), t.Sub(ran)
	case <-time.After(60 * time.Second):
		b.Fatal("no model request within 60s")
		return 0, 0
	}
}
