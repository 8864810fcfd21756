package operator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newLocal returns a Local over a fresh workspace (see newWorkspace) with
// the given interpreter.
func newLocal(t *testing.T, python string, mod func(*LocalConfig)) (*Local, string) {
	t.Helper()
	root, outside := newWorkspace(t)
	cfg := LocalConfig{Root: root, Python: python}
	if mod != nil {
		mod(&cfg)
	}
	l, err := NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, outside
}

func TestNewLocal(t *testing.T) {
	if _, err := NewLocal(LocalConfig{}); err == nil {
		t.Error("NewLocal without Root succeeded")
	}
	if _, err := NewLocal(LocalConfig{Root: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("NewLocal with a missing Root succeeded")
	}
	root := t.TempDir()
	l, err := NewLocal(LocalConfig{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"work", "out"} {
		if fi, err := os.Stat(filepath.Join(root, d)); err != nil || !fi.IsDir() {
			t.Errorf("%s/ not created: %v", d, err)
		}
	}
	if l.cfg.Timeout != DefaultTimeout || l.cfg.MaxOutputBytes != DefaultMaxOutputBytes {
		t.Errorf("defaults not filled: %+v", l.cfg)
	}
}

func TestLocalFileOps(t *testing.T) {
	ctx := context.Background()
	l, outside := newLocal(t, "", nil)

	data, truncated, err := l.ReadFile(ctx, "input/sales.csv", 0)
	if err != nil || truncated || string(data) != "region,amount\nnorth,10\nsouth,20\n" {
		t.Fatalf("ReadFile = %q, %v, %v", data, truncated, err)
	}
	data, truncated, err = l.ReadFile(ctx, "input/sales.csv", 6)
	if err != nil || !truncated || string(data) != "region" {
		t.Fatalf("ReadFile(limit 6) = %q, %v, %v", data, truncated, err)
	}
	if _, _, err := l.ReadFile(ctx, "input/missing.csv", 0); !errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), l.Root()) {
		t.Errorf("ReadFile(missing) error = %v; want ErrNotExist without the absolute root", err)
	}

	if err := l.WriteFile(ctx, "out/deep/dir/result.csv", []byte("a\n")); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	if err := l.WriteFile(ctx, "input/sales.csv", []byte("x")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("WriteFile(input/) error = %v; want ErrReadOnly", err)
	}

	// Escapes are refused for reads and writes alike, and nothing lands
	// outside.
	for _, p := range []string{"../x", "/etc/passwd", "input/../../x", filepath.Join(outside, "secret.txt"),
		"input/etc/passwd", "work/up/outside/secret.txt", "out/dangling"} {
		if _, _, err := l.ReadFile(ctx, p, 0); !errors.Is(err, ErrOutsideWorkspace) {
			t.Errorf("ReadFile(%q) error = %v; want ErrOutsideWorkspace", p, err)
		}
		if err := l.WriteFile(ctx, p, []byte("pwned")); !errors.Is(err, ErrOutsideWorkspace) {
			t.Errorf("WriteFile(%q) error = %v; want ErrOutsideWorkspace", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "planted.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("write through the dangling symlink created its target: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "secret" {
		t.Errorf("outside file changed to %q", b)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := l.ReadFile(cancelled, "input/sales.csv", 0); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadFile(cancelled) error = %v", err)
	}
}

func TestLocalList(t *testing.T) {
	ctx := context.Background()
	l, _ := newLocal(t, "", nil)
	if err := l.WriteFile(ctx, "out/sub/b.csv", []byte("12345")); err != nil {
		t.Fatal(err)
	}
	paths := func(fis []FileInfo) []string {
		var out []string
		for _, fi := range fis {
			out = append(out, fi.Path)
		}
		return out
	}
	got, err := l.List(ctx, "out", false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"out/dangling", "out/dangling_in", "out/inlink", "out/sub", "out/to_input"}
	if diff := cmp.Diff(want, paths(got)); diff != "" {
		t.Errorf("List(out) (-want +got):\n%s", diff)
	}
	got, err = l.List(ctx, "out/sub", true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]FileInfo{{Path: "out/sub/b.csv", Size: 5}}, got, cmpFileInfo); diff != "" {
		t.Errorf("List(out/sub) (-want +got):\n%s", diff)
	}
	got, err = l.List(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if !contains(paths(got), "input/sales.csv") || !contains(paths(got), "out/sub/b.csv") || contains(paths(got), "input/etc/passwd") {
		t.Errorf("List(root, recursive) = %v; want input/sales.csv and out/sub/b.csv, symlinks not followed", paths(got))
	}
	for _, p := range []string{"input/etc", "work/up", "../"} {
		if _, err := l.List(ctx, p, true); !errors.Is(err, ErrOutsideWorkspace) {
			t.Errorf("List(%q) error = %v; want ErrOutsideWorkspace", p, err)
		}
	}
}

var cmpFileInfo = cmp.Comparer(func(a, b FileInfo) bool {
	return a.Path == b.Path && a.Size == b.Size && a.IsDir == b.IsDir
})

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestRunPythonWithoutInterpreter(t *testing.T) {
	l, _ := newLocal(t, "", nil)
	if _, err := l.RunPython(context.Background(), "1", RunOptions{}); !errors.Is(err, ErrNoPython) {
		t.Fatalf("RunPython without Python error = %v; want ErrNoPython", err)
	}
}

func TestRunPythonSuccess(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	ctx := context.Background()
	if err := l.WriteFile(ctx, "out/untouched.csv", []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	code := `import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("input/sales.csv")
print("rows:", len(df))
df.to_csv("out/summary.csv", index=False)
df.plot(x="region", y="amount", kind="bar")
plt.figure()
plt.plot([1, 2, 3])
df
`
	res, err := l.RunPython(ctx, code, RunOptions{})
	if err != nil {
		t.Fatalf("RunPython: %v", err)
	}
	if !res.OK() {
		t.Fatalf("run failed: %s\nstderr: %s", res.Error, res.Stderr)
	}
	want := &RunResult{
		Stdout:  "rows: 2\n",
		Value:   "  region  amount\n0  north      10\n1  south      20",
		Figures: []string{"out/figure-0001-1.png", "out/figure-0001-2.png"},
		Files:   []string{"out/figure-0001-1.png", "out/figure-0001-2.png", "out/summary.csv"},
	}
	if diff := cmp.Diff(want, res, ignoreRunNoise); diff != "" {
		t.Errorf("RunPython (-want +got):\n%s", diff)
	}
	png, err := os.ReadFile(filepath.Join(l.Root(), "out/figure-0001-1.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("figure is not a PNG: %v", err)
	}
	if code2, err := os.ReadFile(filepath.Join(l.Root(), CellsDir, "cell-0001.py")); err != nil || string(code2) != code {
		t.Errorf("cell not saved as work/.cells/cell-0001.py: %v", err)
	}
}

// ignoreRunNoise drops the fields a test cannot pin: wall time and whatever
// libraries print on stderr (matplotlib's font-cache notice, warnings).
var ignoreRunNoise = cmp.FilterPath(func(p cmp.Path) bool {
	s := p.String()
	return s == "Duration" || s == "Stderr"
}, cmp.Ignore())

func TestRunPythonValues(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	tests := []struct {
		name, code, want string
	}{
		{name: "expression", code: "1 + 1", want: "2"},
		{name: "assignment has no value", code: "x = 5", want: ""},
		{name: "print returns None", code: "print('a')", want: ""},
		{name: "string repr", code: "'a' * 3", want: "'aaa'"},
		{name: "series", code: "import pandas as pd\npd.Series([1, 2], name='n')", want: "0    1\n1    2"},
		{name: "tuple", code: "import pandas as pd\npd.DataFrame({'a': range(100)}).tail(25).shape", want: "(25, 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := l.RunPython(context.Background(), tt.code, RunOptions{})
			if err != nil || !res.OK() {
				t.Fatalf("RunPython: %v %+v", err, res)
			}
			if diff := cmp.Diff(tt.want, res.Value); diff != "" {
				t.Errorf("Value (-want +got):\n%s", diff)
			}
		})
	}
	res, err := l.RunPython(context.Background(), "import pandas as pd\npd.DataFrame({'a': range(100)})", RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython: %v %+v", err, res)
	}
	if lines := strings.Count(res.Value, "\n") + 1; lines > 25 || !strings.Contains(res.Value, "..") {
		t.Errorf("100-row frame rendered in %d lines; want at most 20 rows and an ellipsis:\n%s", lines, res.Value)
	}
}

func TestRunPythonCellMovesAround(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	res, err := l.RunPython(context.Background(), "import os, sys\nimport matplotlib.pyplot as plt\nos.chdir('work')\nplt.plot([1, 2])\nsys.argv", RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	want := &RunResult{
		Value:   "['work/.cells/cell-0001.py']",
		Figures: []string{"out/figure-0001-1.png"},
		Files:   []string{"out/figure-0001-1.png"},
	}
	if diff := cmp.Diff(want, res, ignoreRunNoise); diff != "" {
		t.Errorf("a cell that changed directory (-want +got):\n%s", diff)
	}
}

func TestRunPythonErrors(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	tests := []struct {
		name     string
		code     string
		contains []string
	}{
		{name: "exception", code: "print('before')\nx = {}\nx['colname']",
			contains: []string{"Traceback (most recent call last)", "work/.cells/cell-", "line 3", "KeyError: 'colname'"}},
		{name: "syntax error", code: "def f(:\n  pass", contains: []string{"SyntaxError"}},
		{name: "sys exit nonzero", code: "import sys\nsys.exit(3)", contains: []string{"SystemExit: 3"}},
		{name: "hard exit", code: "import os\nos._exit(4)", contains: []string{"exit status 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := l.RunPython(context.Background(), tt.code, RunOptions{})
			if err != nil {
				t.Fatalf("RunPython: %v (a failing cell is not an error)", err)
			}
			if res.OK() {
				t.Fatalf("run OK; want failure: %+v", res)
			}
			for _, want := range tt.contains {
				if !strings.Contains(res.Error, want) {
					t.Errorf("Error lacks %q:\n%s", want, res.Error)
				}
			}
			if strings.Contains(res.Error, "<string>") {
				t.Errorf("traceback shows the runner's frames:\n%s", res.Error)
			}
			if strings.Contains(res.Stderr, "Traceback") {
				t.Errorf("traceback went to stderr:\n%s", res.Stderr)
			}
		})
	}
	res, err := l.RunPython(context.Background(), "import sys\nsys.exit(0)", RunOptions{})
	if err != nil || !res.OK() {
		t.Errorf("sys.exit(0) = %+v, %v; want OK", res, err)
	}
}

// spawnChild is a cell that starts a sleeping child process, records its
// pid in work/child.pid and then hangs.
const spawnChild = `import subprocess, time
p = subprocess.Popen(["sleep", "300"])
open("work/child.pid", "w").write(str(p.pid))
time.sleep(300)
`

// assertChildGone checks that the process recorded in work/child.pid no
// longer runs (it may linger as a zombie until its new parent reaps it).
func assertChildGone(t *testing.T, root string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "work/child.pid"))
	if err != nil {
		t.Fatalf("child pid not recorded: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// SIGKILL is delivered at once but takes effect when the kernel next
	// schedules the process, so a killed child can still read as running
	// for a moment: give it a bounded time to die.
	var stat []byte
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stat, err = os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return // gone
		}
		// The state is the field after the parenthesised command name.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("child process %d still running: %s", pid, stat)
}

func TestRunPythonTimeoutKillsGroup(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	res, err := l.RunPython(context.Background(), spawnChild, RunOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("RunPython: %v", err)
	}
	if !res.TimedOut || !strings.Contains(res.Error, "timed out after 2s") {
		t.Fatalf("result = %+v; want TimedOut", res)
	}
	assertChildGone(t, l.Root())
}

func TestRunPythonCancelKillsGroup(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the child runs (a loaded machine may take seconds to
	// start the interpreter), not after a fixed time.
	go func() {
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(filepath.Join(l.Root(), "work/child.pid")); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	res, err := l.RunPython(ctx, spawnChild, RunOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RunPython error = %v; want context.Canceled", err)
	}
	if res == nil || res.OK() {
		t.Fatalf("result = %+v; want a failed partial result", res)
	}
	assertChildGone(t, l.Root())
}

func TestRunPythonLeavesNoBackgroundChild(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	code := `import subprocess
p = subprocess.Popen(["sleep", "300"])
open("work/child.pid", "w").write(str(p.pid))
`
	res, err := l.RunPython(context.Background(), code, RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	assertChildGone(t, l.Root())
}

func TestRunPythonCloseKillsRun(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	fifo := filepath.Join(l.Root(), "work", "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("skipping: cannot make a FIFO: %v", err)
	}
	type outcome struct {
		res *RunResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := l.RunPython(context.Background(), "import time\nopen('work/started', 'w').close()\ntime.sleep(300)", RunOptions{})
		done <- outcome{res, err}
	}()
	// Opening the FIFO for reading blocks until the cell opens it: the run
	// is under way.
	f, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil || got.res.OK() || !strings.Contains(got.res.Error, "killed") {
		t.Fatalf("run after Close = %+v, %v; want a killed run", got.res, got.err)
	}
	if _, err := l.RunPython(context.Background(), "1", RunOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("RunPython after Close error = %v; want ErrClosed", err)
	}
}

func TestRunPythonEnvironmentScrubbed(t *testing.T) {
	py := needPython(t)
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("SIFT_API_KEY", "sift-test-secret")
	l, _ := newLocal(t, py, func(c *LocalConfig) { c.ExtraEnv = []string{"SIFT_CELL_EXTRA=yes"} })
	res, err := l.RunPython(context.Background(), "import os, json\nprint(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd()}))", RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	var got struct {
		Env map[string]string `json:"env"`
		Cwd string            `json:"cwd"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil {
		t.Fatalf("decode %q: %v", res.Stdout, err)
	}
	for _, k := range []string{"OPENAI_API_KEY", "SIFT_API_KEY"} {
		if v, ok := got.Env[k]; ok {
			t.Errorf("code sees %s=%q", k, v)
		}
	}
	for k, v := range map[string]string{
		"HOME": filepath.Join(l.Root(), "work/.home"), "TMPDIR": filepath.Join(l.Root(), "work/.tmp"),
		"MPLBACKEND": "Agg", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
		"PYTHONDONTWRITEBYTECODE": "1", "SIFT_CELL_EXTRA": "yes", "PATH": os.Getenv("PATH"),
	} {
		if got.Env[k] != v {
			t.Errorf("code sees %s=%q; want %q", k, got.Env[k], v)
		}
	}
	if got.Cwd != l.Root() {
		t.Errorf("cwd = %q; want the workspace root %q", got.Cwd, l.Root())
	}
}

func TestRunPythonOutputCapAndFiles(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, func(c *LocalConfig) { c.MaxOutputBytes = 1000 })
	ctx := context.Background()
	if err := l.WriteFile(ctx, "work/keep.txt", []byte("same")); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteFile(ctx, "work/change.txt", []byte("old")); err != nil {
		t.Fatal(err)
	}
	code := `import sys
print("FIRST")
for i in range(20000):
    print("line", i)
print("LAST")
sys.stderr.write("E" * 5000)
open("work/change.txt", "w").write("new content")
open("work/new.txt", "w").write("n")
`
	res, err := l.RunPython(ctx, code, RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	if len(res.Stdout) > 1100 || !strings.HasPrefix(res.Stdout, "FIRST\n") || !strings.HasSuffix(res.Stdout, "LAST\n") || !strings.Contains(res.Stdout, "bytes cut") {
		t.Errorf("stdout not capped to head and tail (%d bytes):\n%s", len(res.Stdout), res.Stdout)
	}
	if len(res.Stderr) > 1100 || !strings.Contains(res.Stderr, "4000 bytes cut") {
		t.Errorf("stderr not capped (%d bytes): %s", len(res.Stderr), res.Stderr)
	}
	if diff := cmp.Diff([]string{"work/change.txt", "work/new.txt"}, res.Files); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
}

func TestRunPythonCellNumbersContinue(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, nil)
	if _, err := l.RunPython(context.Background(), "1", RunOptions{}); err != nil {
		t.Fatal(err)
	}
	l2, err := NewLocal(LocalConfig{Root: l.Root(), Python: py})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	res, err := l2.RunPython(context.Background(), "import matplotlib.pyplot as plt\nplt.plot([1])\nNone", RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	if diff := cmp.Diff([]string{"out/figure-0002-1.png"}, res.Figures); diff != "" {
		t.Errorf("Figures of the reopened workspace's first cell (-want +got):\n%s", diff)
	}
}

func BenchmarkRunPython(b *testing.B) {
	py := needPython(b)
	l, err := NewLocal(LocalConfig{Root: b.TempDir(), Python: py})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for b.Loop() {
		if res, err := l.RunPython(context.Background(), "x = sum(range(1000))\nx", RunOptions{}); err != nil || !res.OK() {
			b.Fatalf("RunPython = %+v, %v", res, err)
		}
	}
}
