package operator

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// isolateProbeCache points the on-disk probe cache at a fresh file and
// gives the test fresh in-memory caches, as a new process would have.
func isolateProbeCache(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cache", "probes.json")
	t.Setenv(ProbeCacheEnv, p)
	freshMemoryCaches(t)
	return p
}

// freshMemoryCaches forgets what this process probed, as a new process
// would, for one test.
func freshMemoryCaches(t *testing.T) {
	t.Helper()
	old := probeCache
	probeCache = &pythonProbes{results: map[probeKey][]string{}}
	sandbox.ForgetProbes()
	t.Cleanup(func() { probeCache = old; sandbox.ForgetProbes() })
}

// countingPython writes an interpreter stand-in that appends a line to the
// returned counter file on each run and reports the given missing packages
// (a JSON list) the way the probe script does.
func countingPython(t *testing.T, missing string) (path, counter string) {
	t.Helper()
	dir := t.TempDir()
	counter = filepath.Join(dir, "runs")
	path = filepath.Join(dir, "python3")
	script := "#!/bin/sh\necho run >> '" + counter + "'\necho '{\"missing\": " + missing + "}'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, counter
}

// probeRuns counts the probes the stand-in ran.
func probeRuns(t *testing.T, counter string) int {
	t.Helper()
	b, err := os.ReadFile(counter)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "run")
}

// probeFresh probes path as a new process would (empty memory cache).
func probeFresh(t *testing.T, path string) []string {
	t.Helper()
	probeCache = &pythonProbes{results: map[probeKey][]string{}}
	missing, err := probeCache.probe(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return missing
}

func TestPythonProbeIsCachedOnDiskUntilTheInterpreterChanges(t *testing.T) {
	cache := isolateProbeCache(t)
	py, counter := countingPython(t, "[]")

	if got := probeFresh(t, py); len(got) != 0 {
		t.Fatalf("missing = %v, want none", got)
	}
	if got := probeFresh(t, py); len(got) != 0 {
		t.Fatalf("missing = %v on the cached probe, want none", got)
	}
	if n := probeRuns(t, counter); n != 1 {
		t.Fatalf("the interpreter was probed %d times in two runs, want 1 (the second from %s)", n, cache)
	}
	if fi, err := os.Stat(cache); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v, %v; want mode 0600", fi, err)
	}

	// An upgraded interpreter (another modification time) is probed again.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(py, later, later); err != nil {
		t.Fatal(err)
	}
	probeFresh(t, py)
	if n := probeRuns(t, counter); n != 2 {
		t.Fatalf("after the interpreter changed it was probed %d times in all, want 2", n)
	}
}

func TestPythonProbeMissingPackagesIsNotCached(t *testing.T) {
	isolateProbeCache(t)
	py, counter := countingPython(t, `["pandas"]`)
	for range 2 {
		if diff := cmp.Diff([]string{"pandas"}, probeFresh(t, py)); diff != "" {
			t.Fatalf("missing (-want +got):\n%s", diff)
		}
	}
	// The person may install pandas any time: a lack is never remembered.
	if n := probeRuns(t, counter); n != 2 {
		t.Fatalf("probed %d times in two runs, want 2", n)
	}
}

func TestProbeCacheThatCannotBeTrustedIsIgnored(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, p string) { writeCache(t, p, "\x00{not json", 0o600) }},
		{"wrong version", func(t *testing.T, p string) { writeCache(t, p, `{"version":99,"entries":{}}`, 0o600) }},
		{"oversized", func(t *testing.T, p string) {
			writeCache(t, p, strings.Repeat(" ", 64<<10+1) /* past probecache's limit */, 0o600)
		}},
		{"others may write it", func(t *testing.T, p string) { rewriteMode(t, p, 0o666) }},
		{"a symbolic link", func(t *testing.T, p string) {
			real := p + ".real"
			if err := os.Rename(p, real); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(real, p); err != nil {
				t.Fatal(err)
			}
		}},
		{"its directory may be written by others", func(t *testing.T, p string) {
			if err := os.Chmod(filepath.Dir(p), 0o777); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := isolateProbeCache(t)
			py, counter := countingPython(t, "[]")
			probeFresh(t, py)
			tc.corrupt(t, cache)
			probeFresh(t, py)
			if n := probeRuns(t, counter); n != 2 {
				t.Fatalf("probed %d times, want 2: a cache that is %s must not be believed", n, tc.name)
			}
		})
	}
}

func writeCache(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func rewriteMode(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func TestProbeCacheOff(t *testing.T) {
	t.Setenv(ProbeCacheEnv, "off")
	freshMemoryCaches(t)
	py, counter := countingPython(t, "[]")
	probeFresh(t, py)
	probeFresh(t, py)
	if n := probeRuns(t, counter); n != 2 {
		t.Fatalf("probed %d times with the cache off, want 2", n)
	}
}

func TestKernelThatCannotStartClearsTheProbeCache(t *testing.T) {
	cache := isolateProbeCache(t)
	py, _ := countingPython(t, "[]")
	probeFresh(t, py)
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache after a good probe: %v", err)
	}
	// The stand-in prints a line and exits: as a kernel it never gets ready.
	k, err := NewKernel(KernelConfig{Root: t.TempDir(), Python: py, Sandbox: NoSandbox(), StartTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if err := k.Start(context.Background()); err == nil {
		t.Fatal("a stand-in that exits started as a kernel")
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Fatalf("cache still there after the kernel failed to start (%v): the next run would trust it", err)
	}
}
