package operator

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sift-agent/sift/internal/call"
	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// The disk side of the hostile suite: a session's work/ and out/ live on a
// file system of the budget's size while it runs, so a write past the
// budget fails at once, and the mounts never outlive the session (a Sift
// killed with -9 included).

// quotaLimits is a small budget for the quota tests: 32 MiB, files of at
// most 64 MiB (so the file system, not the file size limit, stops a
// write).
var quotaLimits = Limits{MemoryBytes: 1 << 30, Processes: 64, FileSizeBytes: 64 << 20, CPUSeconds: 60, DiskBytes: 32 << 20, DiskFiles: 2000}

// needQuota skips where no file system can be mounted for a session (not
// root, no loop device): the budget is then only counted, and Warnings
// says so. CI runs as root, where this never skips.
func needQuota(t *testing.T) {
	t.Helper()
	if p := sandbox.QuotaProblem(); p != "" {
		t.Skipf("skipping: the disk quota cannot be enforced here: %s", p)
	}
}

// writePast is a cell that writes files of 4 MiB (each under the file
// size limit) to work/big/, 1 MiB at a time, until a write fails or 64 MiB
// (twice the budget) are written, and prints how much it wrote and the
// errno.
const writePast = `import os
n, err = 0, 0
block = os.urandom(1 << 20)
os.makedirs('work/big', exist_ok=True)
try:
    while n < 64:
        with open('work/big/%d.bin' % (n // 4), 'ab') as f:
            f.write(block); f.flush(); os.fsync(f.fileno())
        n += 1
except OSError as e:
    err = e.errno
print('wrote', n, 'errno', err)
`

// TestHostileDiskQuotaEnforcedWhileWriting: a cell writing twice the
// budget in one go fails with ENOSPC at the budget, and is told so; the
// host's files and another session's disk are untouched; the session goes
// on (a cell that deletes works, and the next one writes again); and what
// it wrote is in the workspace's own work/ once the session closes, with
// nothing left mounted. Without the quota the cell writes all 64 MiB.
func TestHostileDiskQuotaEnforcedWhileWriting(t *testing.T) {
	needQuota(t)
	for _, mode := range []SandboxMode{SandboxBwrap} {
		t.Run(string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, quotaLimits)
			a := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			b := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			mustRun(t, b, `open('work/small.bin', 'wb').write(b'b' * (8 << 20))`)

			res := run(t, a, writePast, RunOptions{})
			t.Logf("cell printed %q; error %q", res.Stdout, res.Error)
			var wrote, errno int
			if _, err := fmtSscanf(res.Stdout, "wrote %d errno %d", &wrote, &errno); err != nil {
				t.Fatalf("the cell printed %q (%v); error %s", res.Stdout, err, res.Error)
			}
			if errno != int(syscall.ENOSPC) || wrote >= 40 {
				t.Errorf("the cell wrote %d MiB of 64 (errno %d); want ENOSPC (28) at about the 32 MiB budget", wrote, errno)
			}
			if wrote < 24 {
				t.Errorf("the cell could write only %d MiB under a 32 MiB budget", wrote)
			}
			if !strings.Contains(res.Error, "No space left on device") || !strings.Contains(res.Error, "32.0 MiB") {
				t.Errorf("the result does not say the session's disk budget was reached: %q", res.Error)
			}
			// The host and the other session are untouched.
			host := filepath.Join(t.TempDir(), "host.bin")
			if err := os.WriteFile(host, make([]byte, 8<<20), 0o600); err != nil {
				t.Errorf("the host cannot write beside a full session: %v", err)
			}
			mustRun(t, b, `open('work/more.bin', 'wb').write(b'b' * (8 << 20))`)
			// The session goes on: deleting frees the budget.
			mustRun(t, a, `import shutil; shutil.rmtree('work/big')`)
			mustRun(t, a, `open('work/after.bin', 'wb').write(b'a' * (4 << 20))`)
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			if m := sandbox.MountedUnder(a.Root()); len(m) > 0 {
				t.Errorf("still mounted after Close: %v", m)
			}
			fi, err := os.Stat(filepath.Join(a.Root(), "work", "after.bin"))
			if err != nil || fi.Size() != 4<<20 {
				t.Errorf("the session's file is not in its work/ after Close: %v %v", fi, err)
			}
			for _, name := range []string{sandbox.QuotaImageName, sandbox.QuotaDirName} {
				if _, err := os.Lstat(filepath.Join(a.Root(), name)); err == nil {
					t.Errorf("%s left in the workspace after Close", name)
				}
			}
		})
	}
}

// TestHostileDiskQuotaProcessMode: in process mode too, a cell writing
// past the budget fails with ENOSPC at it, and the next cell runs.
func TestHostileDiskQuotaProcessMode(t *testing.T) {
	needQuota(t)
	sb := newSandbox(t, SandboxBwrap, quotaLimits)
	l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Sandbox = sb })
	res, err := l.RunPython(context.Background(), writePast, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wrote, errno int
	if _, err := fmtSscanf(res.Stdout, "wrote %d errno %d", &wrote, &errno); err != nil || errno != int(syscall.ENOSPC) || wrote >= 40 {
		t.Errorf("the cell printed %q (%v); want ENOSPC at about 32 MiB; error %s", res.Stdout, err, res.Error)
	}
	if !strings.Contains(res.Error, "No space left on device") {
		t.Errorf("the result does not say the session's disk is full: %q", res.Error)
	}
	res, err = l.RunPython(context.Background(), `import shutil; shutil.rmtree('work/big'); open('work/after.bin', 'wb').write(b'a' * (4 << 20))`, RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("the cell after deleting: %v %+v", err, res)
	}
}

// fmtSscanf scans the first line of s that has the format's first word.
func fmtSscanf(s, format string, args ...any) (int, error) {
	word, _, _ := strings.Cut(format, " ")
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, word) {
			return fmt.Sscanf(line, format, args...)
		}
	}
	return fmt.Sscanf(s, format, args...)
}

// TestHostileDiskQuotaCopyBackTakesNoMore: what a session leaves on its
// disk is copied back to the host's work/ taking no more blocks than it
// took on the budget: a file linked 500 times stays one file, a sparse file
// of 30 MiB stays a hole; links and FIFOs planted there reach nothing,
// and a tree deeper than the budget's walk does not stop the copy.
func TestHostileDiskQuotaCopyBackTakesNoMore(t *testing.T) {
	needQuota(t)
	sb := newSandbox(t, SandboxBwrap, quotaLimits)
	k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
	mustRun(t, k, `import os
os.makedirs('work/links', exist_ok=True)
open('work/one.bin', 'wb').write(b'x' * (1 << 20))
for i in range(500):
    os.link('work/one.bin', 'work/links/l%d' % i)
with open('work/sparse.bin', 'wb') as f:
    f.truncate(30 << 20)
    f.seek(15 << 20); f.write(b'y')
os.symlink('/etc/shadow', 'work/shadow')
os.mkfifo('work/fifo')
fd = os.open('work', os.O_RDONLY)
for i in range(1100):
    os.mkdir('d', dir_fd=fd)
    sub = os.open('d', os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = sub
os.close(fd)
`)
	root := k.Root()
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	if m := sandbox.MountedUnder(root); len(m) > 0 {
		t.Fatalf("the copy back failed (a tree deeper than the walk?): still mounted %v", m)
	}
	if used, text := sandbox.DiskUsed(root); used > 8<<20 { // 1 MiB of data, 4 MiB of the deep tree's directories
		t.Errorf("work/ and out/ take %s on the host after the copy back; want about 5 MiB (1 MiB of data: links kept, holes kept; the deep tree's directories)", text)
	}
	var a, b syscall.Stat_t
	if syscall.Stat(filepath.Join(root, "work/one.bin"), &a) != nil || syscall.Stat(filepath.Join(root, "work/links/l499"), &b) != nil || a.Ino != b.Ino {
		t.Errorf("the hard links were not kept as links")
	}
	if target, err := os.Readlink(filepath.Join(root, "work/shadow")); err != nil || target != "/etc/shadow" {
		t.Errorf("the planted link was not kept as a link: %q %v", target, err)
	}
	if _, err := os.Lstat(filepath.Join(root, "work/fifo")); err == nil {
		t.Errorf("the FIFO was copied back")
	}
}

// TestHostileDiskQuotaAfterKill: a Sift killed with -9 while a session is
// open leaves its mounts; the next hold of that workspace takes them back
// with the files written before the kill, whose blocks still count against
// the budget after the resume, and a hold of any other workspace sweeps
// what no live process holds.
func TestHostileDiskQuotaAfterKill(t *testing.T) {
	needQuota(t)
	py := needPython(t)
	rootA, _ := newWorkspace(t)
	rootB, _ := newWorkspace(t)
	for _, root := range []string{rootA, rootB} {
		killedHolder(t, root)
		if m := sandbox.MountedUnder(root); len(m) == 0 {
			t.Fatalf("the killed process left no mount to take back in %s", root)
		}
	}
	defer sandbox.FreshDisks()()

	sb := newSandbox(t, SandboxNone, quotaLimits)
	k, err := NewKernel(KernelConfig{Root: rootA, Python: py, Preload: []string{}, Sandbox: sb})
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, k, `print(open('work/before.txt').read())`)
	if strings.TrimSpace(res.Stdout) != "written before the kill" {
		t.Errorf("the file written before the kill reads %q", res.Stdout)
	}
	// The 24 MiB written before the kill still count: 8 MiB are left.
	res = run(t, k, writePast, RunOptions{})
	var wrote, errno int
	if _, err := fmtSscanf(res.Stdout, "wrote %d errno %d", &wrote, &errno); err != nil || errno != int(syscall.ENOSPC) || wrote > 11 {
		t.Errorf("after the resume the cell printed %q (%v); want ENOSPC after about 8 MiB: the 24 MiB used before the kill count", res.Stdout, err)
	}
	mustRun(t, k, `import shutil; shutil.rmtree('work/big')`)
	// The first hold swept the other workspace's mounts.
	if m := sandbox.MountedUnder(rootB); len(m) > 0 {
		t.Errorf("the dead holder's mounts in another workspace were not swept: %v", m)
	}
	if data, err := os.ReadFile(filepath.Join(rootB, "work/before.txt")); err != nil || string(data) != "written before the kill\n" {
		t.Errorf("the swept workspace's file: %q %v", data, err)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	if m := sandbox.MountedUnder(rootA); len(m) > 0 {
		t.Errorf("still mounted after Close: %v", m)
	}
	if data, err := os.ReadFile(filepath.Join(rootA, "work/before.txt")); err != nil || string(data) != "written before the kill\n" {
		t.Errorf("after Close: %q %v", data, err)
	}
}

// killedHolder runs a process that opens root's kernel, writes a file and
// is then killed with SIGKILL, as a Sift would be.
func killedHolder(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestQuotaHolderProcess$")
	cmd.Env = append(os.Environ(), "SIFT_TEST_QUOTA_HOLDER="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "holder ready" {
				ready <- true
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the holder process ended before it was ready")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the holder process was not ready within a minute")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// TestQuotaHolderProcess is killedHolder's process; it does nothing in a
// plain test run.
func TestQuotaHolderProcess(t *testing.T) {
	root := os.Getenv("SIFT_TEST_QUOTA_HOLDER")
	if root == "" {
		t.Skip("the holder process of TestHostileDiskQuotaAfterKill")
	}
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxNone, Limits: quotaLimits})
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKernel(KernelConfig{Root: root, Python: debianPython, Preload: []string{}, Sandbox: sb})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Run(context.Background(), `open('work/before.txt', 'w').write('written before the kill\n')
for i in range(6):
    open('work/used%d.bin' % i, 'wb').write(b'u' * (4 << 20))`, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("holder ready\n")
	time.Sleep(time.Minute)
}

// manyLongNames is a cell that prints 3 KB and writes 100 files with
// names of 200 characters: a record of about 25 KB in cells.jsonl.
const manyLongNames = `import os
d = 'out/' + 'd' * 200
os.makedirs(d, exist_ok=True)
for i in range(100):
    open(os.path.join(d, '%03d' % i + 'n' * 197), 'w').close()
print('p' * 3000)
`

// TestHostileCellLogStepShare: a step's cells add at most the step's
// share to cells.jsonl: past it they are recorded with their code only
// (what they printed and the files they wrote are counted, not listed),
// the cell that used it up says so, other steps are untouched, and the
// share used before the kernel was reopened (a crash, a resume) still
// counts. Without the share, ten such cells write 250 KB.
func TestHostileCellLogStepShare(t *testing.T) {
	const share = 64 << 10
	py := needPython(t)
	root, _ := newWorkspace(t)
	open := func() *Kernel {
		t.Helper()
		k, err := NewKernel(KernelConfig{Root: root, Python: py, Preload: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { k.Close() })
		k.seq.cells.share.Max = share
		return k
	}
	k := open()
	var notices int
	for i := 0; i < 10; i++ {
		res := run(t, k, manyLongNames, RunOptions{Step: 2})
		if strings.Contains(res.Notice, "Step 2 has written") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("%d cells said step 2's share was used up; want exactly one", notices)
	}
	fi, err := os.Stat(filepath.Join(root, CellsLogFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > share+10*1024 {
		t.Errorf("cells.jsonl is %d bytes after ten cells of step 2; its share is %d", fi.Size(), share)
	}
	recs, err := ReadCells(root)
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if !last.Limited || last.Code != manyLongNames || len(last.Files) != 0 || last.FilesOmitted < 100 || !last.OK {
		t.Errorf("a cell past the share must keep its code and result and count its files: %+v", last)
	}
	// Another step is recorded in full.
	res := run(t, k, `print('step 3')`, RunOptions{Step: 3})
	recs, _ = ReadCells(root)
	if r := recs[len(recs)-1]; r.Limited || r.Stdout != "step 3\n" || res.Notice != "" {
		t.Errorf("step 3's cell must be recorded in full: %+v (notice %q)", r, res.Notice)
	}
	k.Close()

	// Reopened, step 2 is still past its share.
	k = open()
	run(t, k, manyLongNames, RunOptions{Step: 2})
	recs, _ = ReadCells(root)
	if r := recs[len(recs)-1]; !r.Limited {
		t.Errorf("after the reopen, step 2's share was counted from zero: its cell was recorded in full")
	}
}

// TestHostileDiskQuotaSweptAtTheNextRun: the mounts a killed Sift left are
// taken back when the next run starts (it asks for the Warnings), even if
// that run never starts a kernel in the killed session (a resume that only
// writes the report).
func TestHostileDiskQuotaSweptAtTheNextRun(t *testing.T) {
	needQuota(t)
	root, _ := newWorkspace(t)
	killedHolder(t, root)
	if len(sandbox.MountedUnder(root)) == 0 {
		t.Fatal("the killed process left no mount to take back")
	}
	Warnings(newSandbox(t, SandboxNone, quotaLimits))
	if m := sandbox.MountedUnder(root); len(m) > 0 {
		t.Errorf("still mounted after the next run started: %v", m)
	}
	if data, err := os.ReadFile(filepath.Join(root, "work/before.txt")); err != nil || string(data) != "written before the kill\n" {
		t.Errorf("the file written before the kill: %q %v", data, err)
	}
}

// TestHostileCellLogStepShareOfEveryTool: a cell a tool runs for a step
// without naming it (the SQL tool's DataFrame hand-over, a built-in
// analysis: RunOptions.Step 0) is counted against the step its context
// carries, in the kernel and in process mode, so no tool is a way around
// the step's share of cells.jsonl. Without it, ten such cells write 430 KB.
func TestHostileCellLogStepShareOfEveryTool(t *testing.T) {
	const share = 64 << 10
	py := needPython(t)
	ctx := call.WithStep(context.Background(), 4)
	for _, mode := range []PythonMode{PythonKernel, PythonProcess} {
		t.Run(string(mode), func(t *testing.T) {
			root, _ := newWorkspace(t)
			op, err := New(Config{Root: root, Python: py, Mode: mode, Sandbox: NoSandbox()})
			if err != nil {
				t.Fatal(err)
			}
			defer op.Close()
			switch o := op.(type) {
			case *KernelOperator:
				o.kernel.seq.cells.share.Max = share
			case *processOperator:
				o.cells.share.Max = share
			default:
				t.Fatalf("unexpected operator %T", op)
			}
			for i := 0; i < 10; i++ {
				if _, err := op.RunPython(ctx, manyLongNames, RunOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			fi, err := os.Stat(filepath.Join(root, CellsLogFile))
			if err != nil {
				t.Fatal(err)
			}
			if fi.Size() > share+10*1024 {
				t.Errorf("cells.jsonl is %d bytes after ten cells run for step 4 without naming it; the step's share is %d", fi.Size(), share)
			}
			recs, err := ReadCells(root)
			if err != nil {
				t.Fatal(err)
			}
			if last := recs[len(recs)-1]; last.Step != 4 || !last.Limited {
				t.Errorf("the last cell is recorded for step %d, limited %v; want step 4, past its share", last.Step, last.Limited)
			}
		})
	}
}

// fillDisk fills the file system at dir from the host side (as root, so
// the host's reserve too): every inode it has, then every block, under
// dir/fill.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	var owner unix.Stat_t
	if err := unix.Stat(dir, &owner); err != nil {
		t.Fatal(err)
	}
	// The files are the session's (its uid's), as if its code made them.
	fill := filepath.Join(dir, "fill")
	if err := os.Mkdir(fill, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		f, err := os.Create(filepath.Join(fill, fmt.Sprintf("f%d", i)))
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chown(f.Name(), int(owner.Uid), int(owner.Gid)); err != nil {
			t.Fatal(err)
		}
		if i > 1<<20 {
			t.Fatal("the session's disk never ran out of inodes")
		}
	}
	if err := os.Chown(fill, int(owner.Uid), int(owner.Gid)); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(fill, "f0"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{1 << 20, 4096} {
		block := make([]byte, size)
		for {
			if _, err := f.Write(block); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil || st.Ffree != 0 || st.Bavail != 0 {
		t.Fatalf("the session's disk is not full: %d inodes, %d blocks free (%v)", st.Ffree, st.Bavail, err)
	}
}

// TestHostileDiskFullCleanUpCellRuns: when the session's disk is full to
// the last inode and block, reserve included (as a cell that outran the
// budget's watcher leaves it), the next cell still runs, in the kernel and
// in process mode: its code cannot be saved and its output cannot be
// captured in a file, so the cell that deletes what filled the disk must
// not need either; once it has run, cells write again.
func TestHostileDiskFullCleanUpCellRuns(t *testing.T) {
	needQuota(t)
	py := needPython(t)
	for _, mode := range []PythonMode{PythonKernel, PythonProcess} {
		t.Run(string(mode), func(t *testing.T) {
			root, _ := newWorkspace(t)
			op, err := New(Config{Root: root, Python: py, Mode: mode, Sandbox: newSandbox(t, SandboxBwrap, quotaLimits)})
			if err != nil {
				t.Fatal(err)
			}
			defer op.Close()
			ctx := context.Background()
			if res, err := op.RunPython(ctx, `print('started')`, RunOptions{}); err != nil || !res.OK() {
				t.Fatalf("first cell: %+v %v", res, err)
			}
			if len(sandbox.MountedUnder(root)) == 0 {
				t.Fatal("the session's disk is not mounted")
			}
			fillDisk(t, filepath.Join(root, "work"))
			res, err := op.RunPython(ctx, "import shutil\nshutil.rmtree('work/fill')\nprint('cleaned')", RunOptions{})
			if err != nil || !strings.Contains(res.Stdout, "cleaned") {
				t.Fatalf("the clean-up cell on a full disk did not run: %+v %v", res, err)
			}
			res, err = op.RunPython(ctx, "open('work/after.txt', 'w').write('x' * 4096)\nprint('wrote')", RunOptions{})
			if err != nil || !res.OK() || !strings.Contains(res.Stdout, "wrote") {
				t.Errorf("after the clean-up a cell cannot write: %+v %v", res, err)
			}
		})
	}
}

// TestHostileDiskQuotaSettledAfterReboot: a machine that went down while a
// session was open took its mounts away and left the session's files on
// the disk image, where nothing reads them (work/ and out/ on the host are
// empty); the next Sift to start copies them back to the workspace and
// removes the image, without the session being reopened.
func TestHostileDiskQuotaSettledAfterReboot(t *testing.T) {
	needQuota(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the host's index of session disks, for this test and its holder
	root, _ := newWorkspace(t)
	killedHolder(t, root)
	// The reboot: every mount gone, the image left.
	for _, p := range []string{"work", "out", sandbox.QuotaDirName} {
		_ = unix.Unmount(filepath.Join(root, p), unix.MNT_DETACH)
	}
	if m := sandbox.MountedUnder(root); len(m) > 0 {
		t.Fatalf("still mounted after the reboot: %v", m)
	}
	if _, err := os.Stat(filepath.Join(root, "work/before.txt")); err == nil {
		t.Fatal("the file written before the reboot is in work/ already: the test shows nothing")
	}
	Warnings(newSandbox(t, SandboxNone, quotaLimits)) // what every run, chat and serve asks at its start
	if data, err := os.ReadFile(filepath.Join(root, "work/before.txt")); err != nil || string(data) != "written before the kill\n" {
		t.Errorf("after the next start, the file written before the reboot reads %q (%v); want it back in work/", data, err)
	}
	if _, err := os.Lstat(filepath.Join(root, sandbox.QuotaImageName)); err == nil {
		t.Errorf("the disk image was left in the workspace")
	}
	if m := sandbox.MountedUnder(root); len(m) > 0 {
		t.Errorf("still mounted after the sweep: %v", m)
	}
	// Reopened, the session has its files and its budget.
	k, err := NewKernel(KernelConfig{Root: root, Python: needPython(t), Preload: []string{}, Sandbox: newSandbox(t, SandboxNone, quotaLimits)})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if res := mustRun(t, k, `print(open('work/before.txt').read())`); strings.TrimSpace(res.Stdout) != "written before the kill" {
		t.Errorf("reopened, the session reads %q", res.Stdout)
	}
}
