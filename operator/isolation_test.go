package operator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// needRootBwrap returns a bwrap sandbox with limits, skipping the test
// unless Sift runs as root (only then does each session get a uid of its
// own; unprivileged, every session runs as Sift's user).
func needRootBwrap(t *testing.T, limits Limits) Sandbox {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: per-session uids need Sift to run as root; unprivileged, all sessions share Sift's uid and its process limit (see README, Sessions are isolated from each other)")
	}
	return needBwrap(t, limits)
}

// newSessionKernel returns a kernel for a fresh workspace in sb.
func newSessionKernel(t *testing.T, sb Sandbox, mod func(*KernelConfig)) *Kernel {
	return newKernel(t, func(c *KernelConfig) {
		c.Sandbox = sb
		c.Timeout = time.Minute
		if mod != nil {
			mod(c)
		}
	})
}

func TestSessionsHaveSeparateProcessLimits(t *testing.T) {
	sb := needRootBwrap(t, Limits{Processes: 32})
	a := newSessionKernel(t, sb, nil)
	res := run(t, a, forkToTheLimit, RunOptions{})
	if !strings.Contains(res.Value, "BlockingIOError") {
		t.Fatalf("session A's fork bomb = %+v; want it stopped by its process limit (BlockingIOError)", res)
	}
	// A's processes stay alive, up to its limit, while B starts.
	b := newSessionKernel(t, sb, nil)
	res = run(t, b, "import subprocess, os\n(subprocess.run(['/bin/true']).returncode, os.getuid())", RunOptions{})
	if !res.OK() || !strings.HasPrefix(res.Value, "(0, ") {
		t.Fatalf("session B beside A's fork bomb = %+v; want its kernel to start and run a subprocess", res)
	}
	uidA := mustRun(t, a, "import os\nos.getuid()").Value
	if uidB := strings.TrimSuffix(strings.TrimPrefix(res.Value, "(0, "), ")"); uidA == uidB {
		t.Errorf("sessions A and B both run as uid %s; want a uid each", uidA)
	}
}

func TestSessionsCannotReachEachOther(t *testing.T) {
	sb := needBwrap(t, Limits{})
	py := needPython(t)
	a := newSessionKernel(t, sb, func(c *KernelConfig) { c.Python = py })
	b := newSessionKernel(t, sb, func(c *KernelConfig) { c.Python = py })
	// B draws a chart: its matplotlib directory and font list exist.
	mustRun(t, b, "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nopen('out/b-secret.txt', 'w').write('b')")
	bHome := filepath.Join(b.Root(), homeDir)
	bMpl := filepath.Join(b.Root(), mplConfigDir)
	if _, err := os.Stat(filepath.Join(bMpl, "matplotlibrc")); err == nil {
		t.Fatal("B's matplotlib directory already holds a matplotlibrc")
	}
	// A tries to restyle B's charts and read B's files, and looks for any
	// directory it can write outside its own workspace and private /tmp.
	code := fmt.Sprintf(`import os, matplotlib
own = os.getcwd()
tries = []
for p in [%q, %q, %q]:
    try:
        os.makedirs(p, exist_ok=True)
        open(os.path.join(p, "matplotlibrc"), "w").write("lines.color: red\n")
        tries.append("wrote " + p)
    except OSError as e:
        tries.append("refused " + p + ": " + type(e).__name__)
try:
    tries.append("read " + open(%q).read())
except OSError as e:
    tries.append("unreadable: " + type(e).__name__)
writable = []
for top in ["/"]:
    for d, subdirs, files in os.walk(top):
        if d in ("/proc", "/sys", "/dev", "/tmp", "/dev/shm") or d == own or d.startswith(own + "/"):
            subdirs[:] = []
            continue
        if os.access(d, os.W_OK):
            writable.append(d)
tries.append("writable outside: %%r" %% writable)
tries.append("configdir " + matplotlib.get_configdir())
print("\n".join(tries))
`, bMpl, bHome+"/.config/matplotlib", filepath.Join(mustUserCacheDir(t), "sift", "matplotlib"),
		filepath.Join(b.Root(), "out", "b-secret.txt"))
	shared := filepath.Join(mustUserCacheDir(t), "sift", "matplotlib", "matplotlibrc")
	_, sharedErr := os.Stat(shared)
	res := mustRun(t, a, code)
	out := res.Stdout
	// A write may land in A's own private /tmp (where the test's
	// workspaces lie); on the host, nothing of B's may change.
	for _, p := range []string{filepath.Join(bMpl, "matplotlibrc"), bHome + "/.config/matplotlib/matplotlibrc"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("session A wrote %s, in session B:\n%s", p, out)
		}
	}
	if _, err := os.Stat(shared); err == nil && sharedErr != nil {
		t.Errorf("session A wrote %s, which every session reads:\n%s", shared, out)
	}
	if strings.Contains(out, "read b") {
		t.Errorf("session A read session B's file:\n%s", out)
	}
	if !strings.Contains(out, "writable outside: []") {
		t.Errorf("session A can write directories outside its workspace:\n%s", out)
	}
	if !strings.Contains(out, "configdir "+filepath.Join(a.Root(), mplConfigDir)) {
		t.Errorf("session A's matplotlib directory is not its own:\n%s", out)
	}
}

func mustUserCacheDir(t *testing.T) string {
	t.Helper()
	d, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("skipping: no user cache directory: %v", err)
	}
	return d
}

// budgetKernel is a kernel with a small disk budget, run unsandboxed (the
// budget is the kernel's, whatever the sandbox).
func budgetKernel(t *testing.T, bytes int64, files int) *Kernel {
	return newKernel(t, func(c *KernelConfig) {
		c.Limits = Limits{DiskBytes: bytes, DiskFiles: files}
		c.Timeout = time.Minute
	})
}

// countedOnly makes the disk budget counted, not enforced, for the rest of
// the test: as where Sift cannot mount the session's file system.
func countedOnly(t *testing.T) {
	t.Cleanup(sandbox.Without(false, false, true))
}

func TestDiskBudgetStopsACellThatWritesTooMuch(t *testing.T) {
	t.Run("enforced", testDiskBudgetStops)
	t.Run("counted", func(t *testing.T) { countedOnly(t); testDiskBudgetStops(t) })
}

// fillWorkBig writes 200 MiB in 1 MiB files under work/big, each synced.
const fillWorkBig = `import os
os.makedirs("work/big", exist_ok=True)
block = os.urandom(1 << 20)
for i in range(200):
    with open("work/big/part-%03d.bin" % i, "wb") as f:
        f.write(block)
        f.flush()
        os.fsync(f.fileno())
"finished"`

func testDiskBudgetStops(t *testing.T) {
	k := budgetKernel(t, 20<<20, 10000)
	mustRun(t, k, "x = 41\nopen('out/kept.csv', 'w').write('a,b\\n1,2\\n')")
	// 200 MiB in 1 MiB files: far past the 20 MiB budget.
	res := run(t, k, fillWorkBig, RunOptions{})
	for _, want := range []string{"disk budget", "of 20.0 MiB", "work/big/", "SIFT_SANDBOX_DISK", "Delete what is not needed"} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("error lacks %q:\n%s", want, res.Error)
		}
	}
	if res.Value == "'finished'" {
		t.Errorf("the cell ran to the end past its budget: %+v", res)
	}
	// Nothing already done is lost: the kernel, its variables and files.
	if res := mustRun(t, k, "x + 1"); res.Value != "42" || res.Restarted {
		t.Errorf("after the budget stop: %+v; want the kernel and x kept", res)
	}
	if _, err := os.Stat(filepath.Join(k.Root(), "out", "kept.csv")); err != nil {
		t.Errorf("an earlier cell's file is gone: %v", err)
	}
	// Deleting is allowed, after which writing works again.
	mustRun(t, k, "import shutil\nshutil.rmtree('work/big')")
	mustRun(t, k, "open('out/small.txt', 'w').write('fine')")
}

func TestDiskBudgetStopsACellThatMakesTooManyFiles(t *testing.T) {
	k := budgetKernel(t, 1<<30, 500)
	res := run(t, k, `import os
os.makedirs("work/many", exist_ok=True)
for i in range(20000):
    open("work/many/f%05d" % i, "w").close()
"finished"`, RunOptions{})
	for _, want := range []string{"disk budget", "files of 500", "work/many/", "SIFT_SANDBOX_FILES"} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("error lacks %q:\n%s", want, res.Error)
		}
	}
	if res.Value == "'finished'" {
		t.Errorf("the cell ran to the end past its file budget: %+v", res)
	}
	if res := mustRun(t, k, "import shutil\nshutil.rmtree('work/many')\n7"); res.Value != "7" {
		t.Errorf("after the budget stop: %+v", res)
	}
}

func TestWrittenFilesListIsBounded(t *testing.T) {
	k := budgetKernel(t, 1<<30, 100000)
	res := mustRun(t, k, "import os\nos.makedirs('out/many')\nfor i in range(1000):\n    open('out/many/f%04d' % i, 'w').close()")
	if len(res.Files) != MaxCellFiles || res.FilesOmitted != 1000-MaxCellFiles {
		t.Errorf("result lists %d files, %d omitted; want %d and %d", len(res.Files), res.FilesOmitted, MaxCellFiles, 1000-MaxCellFiles)
	}
	recs, err := ReadCells(k.Root())
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if len(last.Files) != MaxCellFiles || last.FilesOmitted != 1000-MaxCellFiles {
		t.Errorf("cells.jsonl lists %d files, %d omitted; want %d and %d", len(last.Files), last.FilesOmitted, MaxCellFiles, 1000-MaxCellFiles)
	}
}

func TestDiskBudgetInProcessMode(t *testing.T) {
	t.Run("enforced", testDiskBudgetInProcessMode)
	t.Run("counted", func(t *testing.T) { countedOnly(t); testDiskBudgetInProcessMode(t) })
}

func testDiskBudgetInProcessMode(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, func(c *LocalConfig) {
		c.Limits = Limits{DiskBytes: 20 << 20, DiskFiles: 10000}
		c.Timeout = time.Minute
	})
	res, err := l.RunPython(context.Background(), fillWorkBig, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stopped := "so it was killed" // counted: the run is killed once it passes the budget
	if len(sandbox.MountedUnder(l.root)) > 0 {
		stopped = "No space left on device" // enforced: the writes past it fail
	}
	for _, want := range []string{"disk budget", "of 20.0 MiB", "work/big/", stopped} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("error lacks %q:\n%s", want, res.Error)
		}
	}
	if res.Value == "'finished'" {
		t.Errorf("the run went to the end past its budget: %+v", res)
	}
}

// forkToTheLimit forks children that sleep until killed, until fork is
// refused; it prints how many it made and what refused the next.
const forkToTheLimit = `import os, time
made, err = 0, None
while made < 10000:
    try:
        pid = os.fork()
    except OSError as e:
        err = e
        break
    if pid == 0:
        time.sleep(600)
        os._exit(0)
    made += 1
(made, type(err).__name__)
`
