package operator

// The kernel and the process runner under the sandbox (operator/internal/sandbox):
// cells run with its limits, its disk and its refusals.

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

func TestBwrapRunsAnalysisCell(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{})
	l, _ := newLocal(t, py, func(c *LocalConfig) { c.Sandbox = sb })
	code := `import pandas as pd, matplotlib.pyplot as plt, os, pwd
df = pd.read_csv("input/sales.csv")
df.to_csv("out/copy.csv", index=False)
open(os.path.join(os.environ["HOME"], "note"), "w").write("x")
plt.plot(df["amount"])
print(pwd.getpwuid(os.getuid()).pw_name, os.getcwd() == os.environ["HOME"].rsplit("/work/", 1)[0])
int(df["amount"].sum())
`
	res, err := l.RunPython(context.Background(), code, RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	wantUser := "sift" // as root the workspace's own uid, otherwise Sift's user
	if os.Geteuid() != 0 && os.Getuid() == sandbox.NobodyUID {
		wantUser = "nobody"
	}
	if got, want := strings.TrimSpace(res.Stdout), wantUser+" True"; got != want {
		t.Errorf("stdout = %q; want %q", got, want)
	}
	if res.Value != "30" {
		t.Errorf("value = %q; want 30", res.Value)
	}
	if diff := cmp.Diff([]string{"out/copy.csv", "out/figure-0001-1.png"}, res.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"out/figure-0001-1.png"}, res.Figures); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
}

func TestBwrapCPULimit(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{CPUSeconds: 1})
	l, _ := newLocal(t, py, func(c *LocalConfig) { c.Sandbox = sb })
	res, err := l.RunPython(context.Background(), "while True:\n    pass\n", RunOptions{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.TimedOut || !strings.Contains(res.Error, "CPU time limit exceeded") {
		t.Errorf("result = %+v; want the cell killed for CPU time, well before its deadline", res)
	}
}

// TestQuotaRequiredRefusesToRunWithout: with SIFT_SANDBOX_QUOTA=on, a
// session whose disk cannot be mounted runs nothing, and says why.
func TestQuotaRequiredRefusesToRunWithout(t *testing.T) {
	defer sandbox.FakeDiskHost("", "", "no loop devices here", true)()
	l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Limits = Limits{DiskBytes: 32 << 20} })
	_, err := l.RunPython(context.Background(), `print(1)`, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "no loop devices here") || errors.Is(err, ErrClosed) {
		t.Errorf("RunPython = %v; want a refusal naming why the quota cannot be enforced", err)
	}
}

// TestQuotaThatCannotMountIsSaid: when the session's file system cannot be
// mounted, the cell still runs with the budget counted, its result says
// so (once), and nothing of the attempt is left in the workspace.
func TestQuotaThatCannotMountIsSaid(t *testing.T) {
	mkfs, err := exec.LookPath("mkfs.ext4")
	if err != nil {
		t.Skip("skipping: mkfs.ext4 is not installed")
	}
	defer sandbox.FakeDiskHost(mkfs, "/bin/false", "", false)()
	l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Limits = Limits{DiskBytes: 32 << 20} })
	res, err := l.RunPython(context.Background(), `print(1)`, RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("the cell did not run: %v %+v", err, res)
	}
	if !strings.Contains(res.Notice, "only counted for this session, not enforced while written") {
		t.Errorf("the result does not say the budget is only counted: %q", res.Notice)
	}
	res, _ = l.RunPython(context.Background(), `print(2)`, RunOptions{})
	if strings.Contains(res.Notice, "only counted") {
		t.Errorf("said again on the next cell: %q", res.Notice)
	}
	for _, name := range []string{sandbox.QuotaImageName, sandbox.QuotaDirName, sandbox.QuotaLockName} {
		if _, err := os.Lstat(filepath.Join(l.root, name)); err == nil {
			t.Errorf("%s left in the workspace after the failed mount", name)
		}
	}
}

// TestFallocateCannotReserveTheDiskAtOnce: fallocate(2) in a session's
// program fails with EOPNOTSUPP (so a cell cannot reserve gigabytes
// between two measurements of the disk budget), in the kernel and in
// process mode, sandboxed or not; posix_fallocate still works, writing
// the blocks at a pace the budget's measurement follows.
func TestFallocateCannotReserveTheDiskAtOnce(t *testing.T) {
	if sandbox.SeccompEnv() == "" {
		t.Skip("skipping: no fallocate filter for this architecture")
	}
	check := func(t *testing.T, res *RunResult) {
		t.Helper()
		if !res.OK() {
			t.Fatalf("probe failed: %s\n%s", res.Error, res.Stderr)
		}
		f := strings.Fields(strings.TrimSpace(res.Stdout))
		want := []string{"fallocate", "-1", "95", "0", "1048576"}
		if strings.Join(f, " ") != strings.Join(want, " ") {
			t.Errorf("probe printed %q; want %q (fallocate refused with EOPNOTSUPP, nothing reserved, posix_fallocate's 1 MiB written)", f, want)
		}
		if strings.Contains(res.Stderr, "cannot install the disk filter") {
			t.Errorf("the filter did not install: %s", res.Stderr)
		}
	}
	for _, mode := range []SandboxMode{SandboxNone, SandboxBwrap} {
		t.Run("kernel/"+string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, Limits{})
			k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			check(t, mustRun(t, k, fallocateProbe))
		})
		t.Run("process/"+string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, Limits{})
			l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Sandbox = sb })
			res, err := l.RunPython(context.Background(), fallocateProbe, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, res)
		})
	}
}

func TestLocalPassesLimitsToSandbox(t *testing.T) {
	py := needPython(t)
	l, _ := newLocal(t, py, func(c *LocalConfig) { c.Limits = Limits{FileSizeBytes: 1 << 20} })
	res, err := l.RunPython(context.Background(), "open('work/big.bin', 'wb').write(bytes(2 << 20))\n", RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Error, "File too large") {
		t.Errorf("writing past LocalConfig.Limits.FileSizeBytes: error = %q; want File too large", res.Error)
	}
}

// TestLocalMemoryLimit: the built-in analyses choose their engine by the
// memory a run gets, the stricter of the operator's and the sandbox's.
func TestLocalMemoryLimit(t *testing.T) {
	sandboxed := func(l Limits) Sandbox {
		sb, err := NewSandbox(SandboxConfig{Mode: SandboxNone, Limits: l})
		if err != nil {
			t.Fatal(err)
		}
		return sb
	}
	cases := []struct {
		name    string
		local   Limits
		sandbox Sandbox
		want    int64
	}{
		{"no limits", Limits{}, NoSandbox(), 0},
		{"the operator's", Limits{MemoryBytes: 1 << 30}, NoSandbox(), 1 << 30},
		{"the sandbox's", Limits{}, sandboxed(Limits{MemoryBytes: 2 << 30}), 2 << 30},
		{"the stricter", Limits{MemoryBytes: 3 << 30}, sandboxed(Limits{MemoryBytes: 1 << 30}), 1 << 30},
		{"unlimited", Limits{MemoryBytes: -1}, sandboxed(Limits{MemoryBytes: -1}), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := NewLocal(LocalConfig{Root: t.TempDir(), Sandbox: c.sandbox, Limits: c.local})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if got := l.MemoryLimit(); got != c.want {
				t.Errorf("MemoryLimit() = %d, want %d", got, c.want)
			}
		})
	}
}

// needBwrap returns a bwrap sandbox with the given limits (zero fields:
// defaults), or skips the test when bubblewrap is missing or does not work
// here.
func needBwrap(t testing.TB, limits Limits) Sandbox {
	t.Helper()
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxBwrap, Limits: limits})
	if err != nil {
		if errors.Is(err, ErrNoSandbox) {
			t.Skipf("skipping: bubblewrap sandbox unavailable here: %v", err)
		}
		t.Fatal(err)
	}
	return sb
}

// fallocateProbe calls fallocate(2) for 512 MiB directly (no fallback),
// then posix_fallocate for 1 MiB (the C library writes the blocks itself
// when the call is refused), and prints what each did.
const fallocateProbe = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("work/reserved.bin", os.O_CREAT | os.O_WRONLY, 0o600)
r = libc.fallocate(fd, 0, ctypes.c_long(0), ctypes.c_long(512 << 20))
err = ctypes.get_errno() if r != 0 else 0
os.close(fd)
blocks = os.stat("work/reserved.bin").st_blocks * 512
os.posix_fallocate(os.open("work/small.bin", os.O_CREAT | os.O_WRONLY, 0o600), 0, 1 << 20)
print("fallocate", r, err, blocks, os.stat("work/small.bin").st_size)
`
