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
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newKernel returns a Kernel over a fresh workspace (see newWorkspace) with
// Debian's interpreter and nothing preloaded, so that it starts in tens of
// milliseconds; mod adjusts the config first.
func newKernel(t *testing.T, mod func(*KernelConfig)) *Kernel {
	t.Helper()
	py := needPython(t)
	root, _ := newWorkspace(t)
	cfg := KernelConfig{Root: root, Python: py, Preload: []string{}}
	if mod != nil {
		mod(&cfg)
	}
	k, err := NewKernel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	return k
}

// mustRun runs code and fails the test unless it ran without raising.
func mustRun(t *testing.T, k *Kernel, code string) *RunResult {
	t.Helper()
	res, err := k.Run(context.Background(), code, RunOptions{})
	if err != nil {
		t.Fatalf("Run(%q): %v", code, err)
	}
	if !res.OK() {
		t.Fatalf("Run(%q) failed: %s\nstderr: %s", code, res.Error, res.Stderr)
	}
	return res
}

// run runs code, failing the test only when it could not be run at all.
func run(t *testing.T, k *Kernel, code string, opts RunOptions) *RunResult {
	t.Helper()
	res, err := k.Run(context.Background(), code, opts)
	if err != nil {
		t.Fatalf("Run(%q): %v (a failing cell is a result, not an error)", code, err)
	}
	return res
}

// pidRunning reports whether pid is a live process (not gone, not a zombie).
func pidRunning(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || len(stat) <= i+2 || stat[i+2] != 'Z'
}

// kernelPID asks the kernel for its process id.
func kernelPID(t *testing.T, k *Kernel) int {
	t.Helper()
	pid, err := strconv.Atoi(mustRun(t, k, "import os\nos.getpid()").Value)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestNewKernel(t *testing.T) {
	if _, err := NewKernel(KernelConfig{}); err == nil {
		t.Error("NewKernel without Root succeeded")
	}
	k, err := NewKernel(KernelConfig{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	got := k.cfg
	got.Root = ""
	want := KernelConfig{
		Sandbox:        NoSandbox(),
		Timeout:        DefaultTimeout,
		InterruptGrace: DefaultInterruptGrace,
		StartTimeout:   DefaultKernelStartTimeout,
		MaxOutputBytes: DefaultMaxOutputBytes,
		Preload:        DefaultKernelPreload,
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b Sandbox) bool { return a.Name() == b.Name() })); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if _, err := k.Run(context.Background(), "1", RunOptions{}); !errors.Is(err, ErrNoPython) {
		t.Errorf("Run without Python error = %v; want ErrNoPython", err)
	}
}

func TestKernelGlobalsPersist(t *testing.T) {
	k := newKernel(t, nil)
	mustRun(t, k, "import json\nx = 41\ndef double(v):\n    return 2 * v")
	mustRun(t, k, "x += 1")
	res := mustRun(t, k, "print(json.dumps({'x': x}))\ndouble(x)")
	if diff := cmp.Diff(&RunResult{Stdout: "{\"x\": 42}\n", Value: "84", Cell: 3}, res, ignoreRunNoise); diff != "" {
		t.Errorf("third cell (-want +got):\n%s", diff)
	}
	// A cell's own classes pickle: the cells' globals are a real __main__.
	mustRun(t, k, "class Point:\n    pass\nimport pickle\np = pickle.loads(pickle.dumps(Point()))")
}

func TestKernelValues(t *testing.T) {
	k := newKernel(t, nil)
	tests := []struct {
		name, code, want string
	}{
		{name: "expression", code: "1 + 1", want: "2"},
		{name: "assignment has no value", code: "y = 5", want: ""},
		{name: "print returns None", code: "print('a')", want: ""},
		{name: "string repr", code: "'a' * 3", want: "'aaa'"},
		{name: "series", code: "import pandas as pd\npd.Series([1, 2], name='n')", want: "0    1\n1    2"},
		{name: "frame", code: "import pandas as pd\npd.DataFrame({'a': [1, 2]})", want: "   a\n0  1\n1  2"},
		{name: "long repr capped", code: "'x' * 100000", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRun(t, k, tt.code)
			if tt.name == "long repr capped" {
				if len(res.Value) > 21000 || !strings.Contains(res.Value, "characters cut") {
					t.Errorf("100000-character repr rendered in %d bytes, without a cut marker", len(res.Value))
				}
				return
			}
			if diff := cmp.Diff(tt.want, res.Value); diff != "" {
				t.Errorf("Value (-want +got):\n%s", diff)
			}
		})
	}
	res := mustRun(t, k, "import pandas as pd\npd.DataFrame({f'c{i}': range(1000) for i in range(50)})")
	lines := strings.Split(res.Value, "\n")
	if len(lines) > 25 || !strings.Contains(res.Value, "..") {
		t.Errorf("1000x50 frame rendered in %d lines; want at most 20 rows and an ellipsis:\n%s", len(lines), res.Value)
	}
	for _, l := range lines {
		if strings.Count(l, "c") > 0 && strings.Count(l, " c") > 21 {
			t.Errorf("header shows more than 20 columns: %s", l)
		}
	}
}

func TestKernelFiguresAndFiles(t *testing.T) {
	k := newKernel(t, nil)
	ctx := context.Background()
	if err := k.ws.WriteFile(ctx, "out/untouched.csv", []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, k, `import matplotlib.pyplot as plt
plt.plot([1, 2, 3])
plt.figure()
plt.bar(["a", "b"], [1, 2])
open("work/notes.txt", "w").write("n")
with open("out/table.csv", "w") as f:
    f.write("a\n1\n")
`)
	want := &RunResult{
		Cell:    1,
		Figures: []string{"out/figure-0001-1.png", "out/figure-0001-2.png"},
		Files:   []string{"out/figure-0001-1.png", "out/figure-0001-2.png", "out/table.csv", "work/notes.txt"},
	}
	if diff := cmp.Diff(want, res, ignoreRunNoise); diff != "" {
		t.Errorf("RunPython (-want +got):\n%s", diff)
	}
	png, err := os.ReadFile(filepath.Join(k.Root(), "out/figure-0001-1.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("figure is not a PNG: %v", err)
	}
	// The figures were closed: the next cell saves none, and pyplot is
	// still imported in the kernel.
	res = mustRun(t, k, "len(plt.get_fignums())")
	if res.Value != "0" || len(res.Figures) != 0 || len(res.Files) != 0 {
		t.Errorf("after the figures were saved: %+v; want none open, none saved, no files", res)
	}
}

func TestKernelErrors(t *testing.T) {
	k := newKernel(t, nil)
	mustRun(t, k, "kept = 'yes'")
	tests := []struct {
		name     string
		code     string
		contains []string
	}{
		{name: "exception", code: "print('before')\nx = {}\nx['colname']",
			contains: []string{"Traceback (most recent call last)", "work/.cells/cell-0002.py", "line 3", "x['colname']", "KeyError: 'colname'"}},
		{name: "in a function", code: "def f():\n    return 1 / 0\nf()",
			contains: []string{"line 3, in <module>", "line 2, in f", "ZeroDivisionError"}},
		{name: "syntax error", code: "def f(:\n  pass", contains: []string{"SyntaxError"}},
		{name: "sys exit nonzero", code: "import sys\nsys.exit(3)", contains: []string{"SystemExit: 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, k, tt.code, RunOptions{})
			if res.OK() {
				t.Fatalf("run OK; want failure: %+v", res)
			}
			for _, want := range tt.contains {
				if !strings.Contains(res.Error, want) {
					t.Errorf("Error lacks %q:\n%s", want, res.Error)
				}
			}
			for _, kernelFrame := range []string{"<sift-kernel>", "<string>", "_run"} {
				if strings.Contains(res.Error, kernelFrame) {
					t.Errorf("traceback shows the kernel's frames (%s):\n%s", kernelFrame, res.Error)
				}
			}
			if strings.Contains(res.Stderr, "Traceback") {
				t.Errorf("traceback went to stderr:\n%s", res.Stderr)
			}
		})
	}
	if res := mustRun(t, k, "import sys\nsys.exit(0)"); res.Error != "" {
		t.Errorf("sys.exit(0) = %+v; want OK", res)
	}
	if res := mustRun(t, k, "kept"); res.Value != "'yes'" || res.Restarted {
		t.Errorf("after the errors: %+v; want the kernel and its variables kept", res)
	}
}

func TestKernelOutputCap(t *testing.T) {
	k := newKernel(t, func(c *KernelConfig) { c.MaxOutputBytes = 1000 })
	res := mustRun(t, k, `import sys, os
print("FIRST")
for i in range(20000):
    print("line", i)
print("LAST")
sys.stderr.write("E" * 5000)
`)
	if len(res.Stdout) > 1100 || !strings.HasPrefix(res.Stdout, "FIRST\n") || !strings.HasSuffix(res.Stdout, "LAST\n") || !strings.Contains(res.Stdout, "bytes cut") {
		t.Errorf("stdout not capped to head and tail (%d bytes):\n%s", len(res.Stdout), res.Stdout)
	}
	if len(res.Stderr) > 1100 || !strings.Contains(res.Stderr, "4000 bytes cut") {
		t.Errorf("stderr not capped (%d bytes): %s", len(res.Stderr), res.Stderr)
	}
	if res.StdoutFile != "work/.cells/cell-0001.stdout.txt" || res.StderrFile != "work/.cells/cell-0001.stderr.txt" {
		t.Fatalf("StdoutFile, StderrFile = %q, %q; want the cell's capture files", res.StdoutFile, res.StderrFile)
	}
	full, err := os.ReadFile(filepath.Join(k.Root(), res.StdoutFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(full), "FIRST\nline 0\n") || !strings.Contains(string(full), "\nline 12345\n") || !strings.HasSuffix(string(full), "LAST\n") {
		t.Errorf("saved stdout is not the whole text (%d bytes)", len(full))
	}

	// Output that fits is returned whole and its file removed; what
	// subprocesses print is captured too.
	res = mustRun(t, k, "import subprocess\nprint('py', flush=True)\nsubprocess.run(['echo', 'from a child'])\nsys.stderr.write('warn')")
	if res.Stdout != "py\nfrom a child\n" || res.Stderr != "warn" || res.StdoutFile != "" || res.StderrFile != "" {
		t.Errorf("small output = %q, %q, files %q %q", res.Stdout, res.Stderr, res.StdoutFile, res.StderrFile)
	}
	for _, f := range []string{"cell-0002.stdout.txt", "cell-0002.stderr.txt"} {
		if _, err := os.Stat(filepath.Join(k.Root(), CellsDir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", f, err)
		}
	}
}

func TestKernelTimeoutInterrupts(t *testing.T) {
	k := newKernel(t, nil)
	pid := kernelPID(t, k)
	mustRun(t, k, "x = 1")
	res := run(t, k, "import time\nx = 2\ntime.sleep(60)\nx = 3", RunOptions{Timeout: time.Second})
	if !res.TimedOut || !strings.HasPrefix(res.Error, "timed out after 1s: the cell was interrupted") || !strings.Contains(res.Error, "KeyboardInterrupt") {
		t.Fatalf("result = %+v; want an interrupted, timed-out cell", res)
	}
	if strings.Contains(res.Error, "<sift-kernel>") || strings.Contains(res.Error, "_on_sigint") {
		t.Errorf("traceback shows the kernel's signal handler:\n%s", res.Error)
	}
	res = mustRun(t, k, "x")
	if res.Value != "2" || res.Restarted || res.Notice != "" {
		t.Errorf("after the interrupt: %+v; want x = 2 from the same kernel", res)
	}
	if got := kernelPID(t, k); got != pid {
		t.Errorf("kernel pid %d after the interrupt; want the same kernel %d", got, pid)
	}
}

// ignoresInterrupt is a cell that survives SIGINT, so only a kill stops it.
const ignoresInterrupt = "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)"

func TestKernelKillsCellIgnoringInterrupt(t *testing.T) {
	k := newKernel(t, func(c *KernelConfig) { c.InterruptGrace = 300 * time.Millisecond })
	pid := kernelPID(t, k)
	mustRun(t, k, "x = 1")
	res := run(t, k, ignoresInterrupt, RunOptions{Timeout: time.Second})
	if !res.TimedOut || !strings.Contains(res.Error, "the kernel was killed") || !strings.Contains(res.Notice, "lost") {
		t.Fatalf("result = %+v; want a killed kernel", res)
	}
	if pidRunning(pid) {
		t.Errorf("killed kernel %d still runs", pid)
	}
	res = run(t, k, "x", RunOptions{})
	if !res.Restarted || !strings.Contains(res.Error, "NameError") {
		t.Errorf("next cell = %+v; want a restarted kernel without x", res)
	}
	for _, want := range []string{"The Python kernel was restarted", "killed because cell 3 timed out after 1s", "variables, imports and loaded data are lost"} {
		if !strings.Contains(res.Notice, want) {
			t.Errorf("notice lacks %q: %s", want, res.Notice)
		}
	}
	if res := mustRun(t, k, "1"); res.Restarted || res.Notice != "" {
		t.Errorf("the cell after the restart repeats the notice: %+v", res)
	}
}

func TestKernelCrashRestarts(t *testing.T) {
	k := newKernel(t, nil)
	mustRun(t, k, "x = 1")
	res := run(t, k, "import os\nprint('bye', flush=True)\nos._exit(1)", RunOptions{})
	if res.OK() || !strings.Contains(res.Error, "the kernel died during the cell (exit status 1)") || res.Stdout != "bye\n" {
		t.Fatalf("result = %+v; want a died kernel with the output so far", res)
	}
	res = run(t, k, "y = 2\ny", RunOptions{})
	if !res.OK() || res.Value != "2" || !res.Restarted || !strings.Contains(res.Notice, "died during cell 2 (exit status 1)") {
		t.Errorf("next cell = %+v; want it run in a restarted kernel, saying why", res)
	}
}

func TestKernelDiedBetweenCells(t *testing.T) {
	k := newKernel(t, nil)
	pid := kernelPID(t, k)
	k.mu.Lock()
	p := k.proc
	k.mu.Unlock()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil { // the OOM killer, say
		t.Fatal(err)
	}
	<-p.exited
	res := mustRun(t, k, "1")
	if !res.Restarted || !strings.Contains(res.Notice, "exited between cells (killed by signal killed)") {
		t.Errorf("cell after the kernel was killed from outside = %+v; want a restart notice saying so", res)
	}
}

func TestKernelReplay(t *testing.T) {
	k := newKernel(t, nil)
	mustRun(t, k, "x = 41")                                         // 1
	mustRun(t, k, "x += 1")                                         // 2
	mustRun(t, k, "open('work/once.txt', 'x').write('1')")          // 3: fails when replayed
	run(t, k, "1 / 0", RunOptions{})                                // 4: failed, not replayed
	mustRun(t, k, "import matplotlib.pyplot as plt\nplt.plot([1])") // 5
	run(t, k, "import os\nos._exit(1)", RunOptions{})               // 6: the crash
	figure := filepath.Join(k.Root(), "out/figure-0005-1.png")
	saved, err := os.Stat(figure)
	if err != nil {
		t.Fatalf("cell 5's figure: %v", err)
	}
	res := run(t, k, "x", RunOptions{Replay: true}) // 7
	if res.Value != "42" || !res.Restarted || res.Replayed != 4 {
		t.Fatalf("after replay: %+v; want x = 42 rebuilt by 4 replayed cells", res)
	}
	if diff := cmp.Diff([]int{3}, res.ReplayFailed); diff != "" {
		t.Errorf("ReplayFailed (-want +got):\n%s", diff)
	}
	for _, want := range []string{"died during cell 6", "rebuilt by replaying 4 earlier", "Cell(s) 3 failed on replay"} {
		if !strings.Contains(res.Notice, want) {
			t.Errorf("notice lacks %q: %s", want, res.Notice)
		}
	}
	if again, err := os.Stat(figure); err != nil || !again.ModTime().Equal(saved.ModTime()) {
		t.Errorf("cell 5's figure was saved again by the replay (or lost: %v)", err)
	}
	if entries, _ := filepath.Glob(filepath.Join(k.Root(), CellsDir, "*replay*")); len(entries) > 0 {
		t.Errorf("replay left files behind: %v", entries)
	}
	records, err := ReadCells(k.Root())
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Cell, Generation int
		Replayed, OK     bool
	}
	var got []line
	for _, r := range records {
		got = append(got, line{r.Cell, r.Generation, r.Replayed, r.OK})
	}
	want := []line{
		{1, 1, false, true}, {2, 1, false, true}, {3, 1, false, true}, {4, 1, false, false}, {5, 1, false, true}, {6, 1, false, false},
		{1, 2, true, true}, {2, 2, true, true}, {3, 2, true, false}, {5, 2, true, true},
		{7, 2, false, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells.jsonl (-want +got):\n%s", diff)
	}

	// A second loss replays the new generation, replays included.
	run(t, k, "import os\nos._exit(1)", RunOptions{})
	if res := run(t, k, "x", RunOptions{Replay: true}); res.Value != "42" || res.Replayed != 4 {
		t.Errorf("second replay: %+v; want x = 42 from cells 1, 2, 5 and 7", res)
	}
}

func TestKernelCancel(t *testing.T) {
	k := newKernel(t, func(c *KernelConfig) { c.InterruptGrace = 300 * time.Millisecond })
	mustRun(t, k, "x = 5")
	tests := []struct {
		name, code string
		restarted  bool
	}{
		{name: "interrupt stops it", code: "import time\ntime.sleep(60)"},
		{name: "kill stops it", code: ignoresInterrupt, restarted: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			res, err := k.Run(ctx, tt.code, RunOptions{})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Run error = %v; want context.DeadlineExceeded", err)
			}
			if res == nil || res.OK() || res.TimedOut {
				t.Fatalf("result = %+v; want a failed, cancelled partial result", res)
			}
			next := run(t, k, "x", RunOptions{})
			if next.Restarted != tt.restarted || (next.Value == "5") == tt.restarted {
				t.Errorf("next cell = %+v; want restarted = %v", next, tt.restarted)
			}
		})
	}
}

func TestKernelCellsLog(t *testing.T) {
	k := newKernel(t, nil)
	mustRun(t, k, "print('hello')\nimport matplotlib.pyplot as plt\nplt.plot([1])\nopen('out/a.csv', 'w').write('a')")
	run(t, k, "{}['k']", RunOptions{})
	run(t, k, "import time\ntime.sleep(60)", RunOptions{Timeout: 500 * time.Millisecond})
	records, err := ReadCells(k.Root())
	if err != nil {
		t.Fatal(err)
	}
	want := []CellRecord{
		{Cell: 1, Generation: 1, OK: true, Code: "print('hello')\nimport matplotlib.pyplot as plt\nplt.plot([1])\nopen('out/a.csv', 'w').write('a')",
			Stdout: "hello\n", Figures: []string{"out/figure-0001-1.png"}, Files: []string{"out/a.csv", "out/figure-0001-1.png"}},
		{Cell: 2, Generation: 1, Code: "{}['k']", Error: "KeyError: 'k'"},
		{Cell: 3, Generation: 1, Code: "import time\ntime.sleep(60)", Error: "timed out after 500ms: the cell was interrupted (KeyboardInterrupt); the kernel and the variables set before the interrupt are kept"},
	}
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.Last().String()
		return s == ".Time" || s == ".Duration"
	}, cmp.Ignore())
	if diff := cmp.Diff(want, records, ignore); diff != "" {
		t.Errorf("cells.jsonl (-want +got):\n%s", diff)
	}
	for _, r := range records {
		if r.Time.IsZero() || r.Duration <= 0 {
			t.Errorf("cell %d lacks its time or duration: %+v", r.Cell, r)
		}
	}
	// A reopened workspace numbers its cells on.
	k2, err := NewKernel(KernelConfig{Root: k.Root(), Python: k.cfg.Python, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer k2.Close()
	if res := mustRun(t, k2, "1"); res.Cell != 4 {
		t.Errorf("first cell of the reopened workspace is %d; want 4", res.Cell)
	}
	records, err = ReadCells(k.Root())
	if err != nil {
		t.Fatal(err)
	}
	if last := records[len(records)-1]; last.Generation != 2 {
		t.Errorf("the reopened workspace's kernel is generation %d; want 2", last.Generation)
	}
}

func TestKernelEnvironmentAndIsolation(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("SIFT_API_KEY", "sift-test-secret")
	k := newKernel(t, func(c *KernelConfig) { c.ExtraEnv = []string{"SIFT_CELL_EXTRA=yes"} })
	res := mustRun(t, k, "import os, json, sys\nos.chdir('work')\nprint(json.dumps({'env': dict(os.environ), 'stdin': sys.stdin.read()}))")
	var got struct {
		Env   map[string]string `json:"env"`
		Stdin string            `json:"stdin"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil {
		t.Fatalf("decode %q: %v", res.Stdout, err)
	}
	for _, key := range []string{"OPENAI_API_KEY", "SIFT_API_KEY"} {
		if v, ok := got.Env[key]; ok {
			t.Errorf("code sees %s=%q", key, v)
		}
	}
	for key, v := range map[string]string{
		"HOME": filepath.Join(k.Root(), "work/.home"), "TMPDIR": filepath.Join(k.Root(), "work/.tmp"),
		"MPLBACKEND": "Agg", "LC_ALL": "C.UTF-8", "SIFT_CELL_EXTRA": "yes", "PATH": os.Getenv("PATH"),
	} {
		if got.Env[key] != v {
			t.Errorf("code sees %s=%q; want %q", key, got.Env[key], v)
		}
	}
	if got.Stdin != "" {
		t.Errorf("the cell read %q from stdin; want nothing (the protocol is not its stdin)", got.Stdin)
	}
	// The next cell starts in the workspace root again, and no
	// subprocess inherits the protocol's descriptors.
	res = mustRun(t, k, "import os, subprocess\nprint(os.getcwd())\nsubprocess.run(['ls', '/proc/self/fd'], capture_output=True, text=True).stdout.split()")
	if strings.TrimSpace(res.Stdout) != k.Root() {
		t.Errorf("cwd = %q; want the workspace root %q", res.Stdout, k.Root())
	}
	if res.Value != "['0', '1', '2', '3']" { // 3 is ls's own directory handle
		t.Errorf("a subprocess inherits fds %s; want only 0-2 (and its own 3)", res.Value)
	}
}

func TestKernelConcurrentRunsSerialised(t *testing.T) {
	k := newKernel(t, nil)
	const n = 8
	values := make([]string, n)
	cells := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := k.Run(context.Background(), fmt.Sprintf("import time\nbusy = globals().get('busy', 0) + 1\nassert busy == 1, busy\ntime.sleep(0.01)\nbusy -= 1\n%d * 10", i), RunOptions{})
			if err != nil || !res.OK() {
				t.Errorf("run %d = %+v, %v", i, res, err)
				return
			}
			values[i], cells[i] = res.Value, res.Cell
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for i := range n {
		if values[i] != strconv.Itoa(i*10) {
			t.Errorf("run %d got value %q", i, values[i])
		}
		if seen[cells[i]] {
			t.Errorf("cell number %d given twice", cells[i])
		}
		seen[cells[i]] = true
	}
	if records, err := ReadCells(k.Root()); err != nil || len(records) != n {
		t.Errorf("cells.jsonl holds %d records (%v); want %d", len(records), err, n)
	}
}

func TestKernelClose(t *testing.T) {
	k := newKernel(t, nil)
	fifo := filepath.Join(k.Root(), "work", "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("skipping: cannot make a FIFO: %v", err)
	}
	type outcome struct {
		res *RunResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := k.Run(context.Background(), "import time\nopen('work/started', 'w').close()\ntime.sleep(300)", RunOptions{})
		done <- outcome{res, err}
	}()
	f, err := os.Open(fifo) // blocks until the cell opens it: the cell is under way
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil || got.res.OK() || !strings.Contains(got.res.Error, "session was closed") {
		t.Fatalf("run after Close = %+v, %v; want a stopped cell", got.res, got.err)
	}
	if _, err := k.Run(context.Background(), "1", RunOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close error = %v; want ErrClosed", err)
	}
	if err := k.Start(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close error = %v; want ErrClosed", err)
	}
}

func TestKernelStartFailure(t *testing.T) {
	root, _ := newWorkspace(t)
	// A "Python" that is a shell: it refuses the options and exits.
	k, err := NewKernel(KernelConfig{Root: root, Python: "/bin/sh", Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	_, err = k.Run(context.Background(), "1", RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Errorf("Run with a broken interpreter error = %v; want it to say the kernel did not start", err)
	}
}

func TestKernelPreload(t *testing.T) {
	k := newKernel(t, func(c *KernelConfig) { c.Preload = []string{"json", "no_such_module_here"} })
	if err := k.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, k, "import sys\n('json' in sys.modules, 'json' in globals())")
	if res.Value != "(True, False)" {
		t.Errorf("preloaded module: %s; want imported but not in the cell's globals", res.Value)
	}
}

// countFDs counts this process's open file descriptors.
func countFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("skipping: cannot read /proc/self/fd: %v", err)
	}
	return len(entries)
}

// childPIDs lists the live processes whose parent is this process.
func childPIDs(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("skipping: cannot read /proc: %v", err)
	}
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		fields := strings.Fields(string(stat[i+1:])) // state, ppid, ...
		if len(fields) > 1 && fields[1] == strconv.Itoa(self) && fields[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

func TestKernelThousandCellsNoFDLeak(t *testing.T) {
	k := newKernel(t, nil)
	mustRun(t, k, "n = 0")
	before := countFDs(t)
	for range 1000 {
		res, err := k.Run(context.Background(), "n += 1\nprint(n)", RunOptions{})
		if err != nil || !res.OK() {
			t.Fatalf("Run = %+v, %v", res, err)
		}
	}
	if res := mustRun(t, k, "n"); res.Value != "1000" {
		t.Errorf("n = %s after 1000 cells; want 1000", res.Value)
	}
	if after := countFDs(t); after != before {
		t.Errorf("%d open fds after 1000 cells; want %d as before", after, before)
	}
}

func TestKernelHundredSessionsNoOrphans(t *testing.T) {
	py := needPython(t)
	parent := t.TempDir()
	// Warm up whatever the runtime opens once (the poller) before counting.
	warm, err := NewKernel(KernelConfig{Root: t.TempDir(), Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	warm.Close()
	fdsBefore, childrenBefore := countFDs(t), childPIDs(t)

	const sessions, workers = 100, 4
	pids := make(chan int, 2*sessions)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := w; s < sessions; s += workers {
				root := filepath.Join(parent, strconv.Itoa(s))
				if err := os.Mkdir(root, 0o755); err != nil {
					t.Error(err)
					return
				}
				k, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
				if err != nil {
					t.Error(err)
					return
				}
				// Every session leaves a background child behind.
				res, err := k.Run(context.Background(), "import os, subprocess\np = subprocess.Popen(['sleep', '300'])\n(os.getpid(), p.pid)", RunOptions{})
				if err != nil || !res.OK() {
					t.Errorf("session %d: %+v, %v", s, res, err)
				} else {
					var kernel, child int
					fmt.Sscanf(res.Value, "(%d, %d)", &kernel, &child)
					pids <- kernel
					pids <- child
				}
				if err := k.Close(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	close(pids)
	n := 0
	for pid := range pids {
		n++
		// Close kills the session's process group; a killed process
		// leaves /proc a moment later, so give it a bounded while.
		for deadline := time.Now().Add(5 * time.Second); pidRunning(pid) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if pidRunning(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d outlived its session", pid)
		}
	}
	if n != 2*sessions {
		t.Errorf("recorded %d processes; want %d", n, 2*sessions)
	}
	if diff := cmp.Diff(childrenBefore, childPIDs(t)); diff != "" {
		t.Errorf("child processes left (-before +after):\n%s", diff)
	}
	if after := countFDs(t); after != fdsBefore {
		t.Errorf("%d open fds after %d sessions; want %d as before", after, sessions, fdsBefore)
	}
}

func TestKernelAdoptLogRebuildsAnEarlierProcessState(t *testing.T) {
	py := needPython(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, InputDir), 0o755); err != nil {
		t.Fatal(err)
	}
	first, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if res, err := first.Run(ctx, "x = 41", RunOptions{}); err != nil || !res.OK() {
		t.Fatalf("%+v %v", res, err)
	}
	if res, err := first.Run(ctx, "raise ValueError('not replayed')", RunOptions{}); err != nil || res.OK() {
		t.Fatalf("%+v %v", res, err)
	}
	first.Close()
	endedHere = sync.Map{} // as if that process had ended and this is a new one

	second, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, cells, err := second.AdoptLog(); err != nil || cells != 1 {
		t.Fatalf("AdoptLog: %d cells, %v; want 1", cells, err)
	}
	res, err := second.Run(ctx, "x + 1", RunOptions{Replay: true})
	if err != nil || res.Value != "42" || !res.Restarted || res.Replayed != 1 {
		t.Fatalf("want x rebuilt by replaying one cell: %+v, %v", res, err)
	}
	if !strings.Contains(res.Notice, "earlier Sift process") {
		t.Errorf("the notice must say why the state was rebuilt: %q", res.Notice)
	}
}

func TestKernelAdoptLogInTheSameProcessSaysTheRunEnded(t *testing.T) {
	py := needPython(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, InputDir), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := first.Run(ctx, "x = 41", RunOptions{}); err != nil || !res.OK() {
		t.Fatalf("%+v %v", res, err)
	}
	first.Close() // the run ended; this process goes on (a chat's next turn)

	second, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, cells, err := second.AdoptLog(); err != nil || cells != 1 {
		t.Fatalf("AdoptLog: %d cells, %v; want 1", cells, err)
	}
	res, err := second.Run(ctx, "x + 1", RunOptions{Replay: true})
	if err != nil || res.Value != "42" || res.Replayed != 1 {
		t.Fatalf("want x rebuilt by replaying one cell: %+v, %v", res, err)
	}
	if strings.Contains(res.Notice, "earlier Sift process") || !strings.Contains(res.Notice, "previous run ended") {
		t.Errorf("in the same process the notice must say the previous run ended: %q", res.Notice)
	}
}

// A replay rebuilds the state; the files its cells write again are not new:
// they keep their time, so the step that runs next (a follow-up, a resumed
// step) does not claim them.
func TestKernelReplayKeepsTheTimeOfFilesItRewrites(t *testing.T) {
	py := needPython(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, InputDir), 0o755); err != nil {
		t.Fatal(err)
	}
	first, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if res, err := first.Run(ctx, "x = 41\nopen('out/a.csv', 'w').write('a\\n1\\n')", RunOptions{}); err != nil || !res.OK() {
		t.Fatalf("%+v %v", res, err)
	}
	first.Close()
	endedHere = sync.Map{} // as if that process had ended and this is a new one
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	a := filepath.Join(root, OutDir, "a.csv")
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}

	second, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, _, err := second.AdoptLog(); err != nil {
		t.Fatal(err)
	}
	res, err := second.Run(ctx, "print(x + 1)", RunOptions{Replay: true})
	if err != nil || !res.OK() || res.Replayed != 1 || len(res.Files) != 0 {
		t.Fatalf("want x rebuilt by replay and no file of this cell: %+v, %v", res, err)
	}
	if st, err := os.Stat(a); err != nil || !st.ModTime().Equal(old) {
		t.Errorf("out/a.csv, written again by the replay, must keep its time %v: %v, %v", old, st.ModTime(), err)
	}
}

// Charts can show Chinese, Japanese and Korean text: once a cell imports
// matplotlib, a CJK font the system has is in its fallback list (after the
// default font, so Latin text keeps its look).
func TestKernelFontsFallBackToCJK(t *testing.T) {
	k := newKernel(t, nil)
	res := mustRun(t, k, `import matplotlib
from matplotlib import font_manager
have = {f.name for f in font_manager.fontManager.ttflist}
print("HAVE", any("CJK" in n or "WenQuanYi" in n for n in have))
print("LIST", "|".join(matplotlib.rcParams["font.family"][:3]))`)
	if !strings.Contains(res.Stdout, "HAVE True") {
		t.Skipf("no CJK font is installed (Debian: apt-get install fonts-noto-cjk, as make setup does): %s", res.Stdout)
	}
	list := res.Stdout[strings.Index(res.Stdout, "LIST ")+5:]
	names := strings.Split(strings.TrimSpace(list), "|")
	if len(names) < 2 || !(strings.Contains(names[1], "CJK") || strings.Contains(names[1], "WenQuanYi")) {
		t.Errorf("matplotlib's font families start %q, want the default and then a CJK font", names)
	}
	// A chart with Chinese labels draws without missing-glyph warnings.
	res = mustRun(t, k, `import warnings
import matplotlib.pyplot as plt
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    fig, ax = plt.subplots()
    ax.bar(["北区", "南区"], [1, 2])
    ax.set_title("各区域收入")
    fig.canvas.draw()
print("MISSING", sum("missing from" in str(x.message) for x in w))`)
	if !strings.Contains(res.Stdout, "MISSING 0") {
		t.Errorf("Chinese labels drew with missing glyphs: %s %s", res.Stdout, res.Stderr)
	}
}

// TestKernelStateNamesItsData checks that after each cell the kernel says
// what its globals hold, in name order (names, shapes, columns and dtypes,
// without data),
// leaving out modules, functions and private names, and forgets it when
// the interpreter is lost.
func TestKernelStateNamesItsData(t *testing.T) {
	k := newKernel(t, nil)
	if got := k.State(); got != "" {
		t.Errorf("State before any cell = %q, want empty", got)
	}
	mustRun(t, k, "import pandas as pd\nimport numpy as np\n"+
		"df = pd.DataFrame({'date': pd.to_datetime(['2024-01-01', '2024-01-02']), 'region': ['N', 'S'], 'revenue': [1.5, 2.5]})\n"+
		"wide = pd.DataFrame({'id': [1], **{'m%02d' % i: [0.5] for i in range(1, 13)}, 'note': ['x']})\n"+
		"by_region = df.groupby('region')['revenue'].sum()\narr = np.zeros((3, 2))\nn = 3\n_hidden = 1\ndef f():\n    pass")
	want := "arr: ndarray (3, 2) float64\n" +
		"by_region: Series 2 float64 (name revenue)\n" +
		"df: DataFrame 2 rows × 3 columns: date datetime64[ns], region object, revenue float64\n" +
		"n: int\n" +
		"wide: DataFrame 1 rows × 14 columns: id int64, m01 … m12 float64 ×12, note object"
	if diff := cmp.Diff(want, k.State()); diff != "" {
		t.Errorf("State (-want +got):\n%s", diff)
	}
	run(t, k, "import os\nos._exit(1)", RunOptions{})
	if got := k.State(); got != "" {
		t.Errorf("State after the kernel died = %q, want empty", got)
	}
}

// TestKernelWarnsOnceWhenNoCJKFontIsInstalled: where no Chinese, Japanese
// or Korean font is installed, a chart with such text would draw its
// labels as boxes; the cell's stderr says so and how to install one, once
// per kernel, and a chart without such text says nothing. (The machine's
// fonts are hidden from the kernel's font check for the test.)
func TestKernelWarnsOnceWhenNoCJKFontIsInstalled(t *testing.T) {
	k := newKernel(t, nil)
	// The font check's record, found among the kernel's objects: as if
	// matplotlib had found no CJK font.
	mustRun(t, k, `import gc, matplotlib
for o in gc.get_objects():
    if isinstance(o, dict) and set(o) == {"found", "warned"}:
        o["found"] = []
print("HIDDEN")`)
	latin := mustRun(t, k, `import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.bar(["north", "south"], [1, 2])
ax.set_title("Revenue")`)
	if strings.Contains(latin.Stderr, "font") {
		t.Errorf("a chart without CJK text must not warn: %q", latin.Stderr)
	}
	first := mustRun(t, k, `import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.bar(["北区", "南区"], [1, 2])
ax.set_title("各区域收入")`)
	if !strings.Contains(first.Stderr, "no Chinese, Japanese or Korean font is installed") || !strings.Contains(first.Stderr, "fonts-noto-cjk") {
		t.Errorf("a chart with Chinese text and no CJK font must say so and how to fix it; stderr: %q", first.Stderr)
	}
	again := mustRun(t, k, `import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.set_title("再来一次")`)
	if strings.Contains(again.Stderr, "font is installed") {
		t.Errorf("the warning must come once per kernel, got it again: %q", again.Stderr)
	}
}
