package operator

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// makeSlot lays out a slot named name in the pool directory dir, as
// newSlot does, with its owner lock file when lockFile.
func makeSlot(t *testing.T, dir, name string, lockFile bool) string {
	t.Helper()
	root := filepath.Join(dir, name)
	for _, d := range []string{InputDir, WorkDir, OutDir} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, WorkDir, "f.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if lockFile {
		if err := os.WriteFile(root+kernelPoolLockSuffix, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestSweepKernelPoolTakesOnlyDeadOwnersSlots: a sweep removes the slots
// no live process owns and no session adopted (their owner lock free, or
// none), and never one another pool holds, one a session's link leads
// to, or what a link in the pool directory leads to.
func TestSweepKernelPoolTakesOnlyDeadOwnersSlots(t *testing.T) {
	sessions, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(sessions, ".kernel-pool")
	dead := makeSlot(t, dir, "slot-0a", true)     // its owner died: lock free
	bare := makeSlot(t, dir, "slot-0b", false)    // died before, or after a sweep took its lock
	live := makeSlot(t, dir, "slot-0c", true)     // another live pool holds it
	linked := makeSlot(t, dir, "slot-0d", true)   // a session adopted it; its owner died before letting go
	adopted := makeSlot(t, dir, "slot-0e", false) // a session adopted it
	other := makeSlot(t, dir, "notaslot", false)  // not the pool's
	host := makeSlot(t, t.TempDir(), "slot-99", false)
	if err := os.Symlink(host, filepath.Join(dir, "slot-0f")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "slot-10"+kernelPoolLockSuffix), nil, 0o600); err != nil { // a slot never made
		t.Fatal(err)
	}
	lock, err := lockSlot(live, false) // held through another file: as another process's
	if err != nil || lock == nil {
		t.Fatalf("lock %s: %v %v", live, lock, err)
	}
	defer lock.Close()
	for id, slot := range map[string]string{"s1": linked, "s2": adopted} {
		if err := os.Symlink(slot, filepath.Join(sessions, id)); err != nil {
			t.Fatal(err)
		}
	}

	n, err := SweepKernelPool(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("swept %d slots; want 4 (the dead owner's, the lockless one, the link, the lock of none)", n)
	}
	for _, gone := range []string{dead, dead + kernelPoolLockSuffix, bare, filepath.Join(dir, "slot-0f"), filepath.Join(dir, "slot-10.lock"), linked + kernelPoolLockSuffix} {
		if _, err := os.Lstat(gone); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there after the sweep: %v", gone, err)
		}
	}
	for _, kept := range []string{live, linked, adopted, other, host} {
		if _, err := os.Stat(filepath.Join(kept, WorkDir, "f.txt")); err != nil {
			t.Errorf("the sweep removed %s: %v", kept, err)
		}
	}
	if _, err := os.Lstat(live + kernelPoolLockSuffix); err != nil {
		t.Errorf("the sweep removed a live owner's lock: %v", err)
	}
	if n, err := SweepKernelPool(filepath.Join(sessions, "none")); n != 0 || err != nil {
		t.Errorf("sweep of a missing directory = %d, %v", n, err)
	}
}

// TestKernelPoolSweepsWhatAKilledProcessLeft: a process whose pool is full
// (two kernels waiting, in bubblewrap, on mounted session disks where the
// quota is enforced), one slot taken by a session, is killed with -9: its
// slots and their mounts stay. The next pool on the directory sweeps the
// two that waited (nothing of them left mounted or on disk) and keeps the
// session's.
func TestKernelPoolSweepsWhatAKilledProcessLeft(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, quotaLimits)
	sessions, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(sessions, ".kernel-pool")
	killedPool(t, dir)

	entries, _ := os.ReadDir(dir)
	var slots []string
	for _, e := range entries {
		if e.IsDir() {
			slots = append(slots, filepath.Join(dir, e.Name()))
		}
	}
	adopted, err := os.Readlink(filepath.Join(sessions, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(slots) != 3 || !slices.Contains(slots, adopted) {
		t.Fatalf("the killed process left %v; want its two waiting slots and the session's %s", slots, adopted)
	}
	quota := sandbox.QuotaProblem() == ""
	if quota && len(sandbox.MountedUnder(dir)) == 0 {
		t.Fatal("the killed process left no disk mounted: nothing to test")
	}

	p, err := NewKernelPool(KernelPoolConfig{Dir: dir, Size: 1, Kernel: KernelConfig{Python: py, Sandbox: sb, Preload: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	waitReady(t, p, 1)
	for _, s := range slots {
		if s == adopted {
			continue
		}
		if _, err := os.Lstat(s); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the dead process's waiting slot %s is still there: %v", s, err)
		}
		if m := sandbox.MountedUnder(s); len(m) > 0 {
			t.Errorf("still mounted after the sweep: %v", m)
		}
		if _, err := os.Lstat(s + kernelPoolLockSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the dead process's slot lock %s is still there: %v", s, err)
		}
	}
	if data, err := os.ReadFile(filepath.Join(adopted, WorkDir, "mine.txt")); err != nil || string(data) != "the session's" {
		t.Errorf("the sweep took the session's workspace: %q %v", data, err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	// What is left is the session's alone.
	entries, _ = os.ReadDir(dir)
	if len(entries) != 1 || filepath.Join(dir, entries[0].Name()) != adopted {
		t.Errorf("after Close the pool directory holds %v; want only the session's slot", entries)
	}
	// The session's disk, which its dead holder left mounted, is taken
	// back as every run start does (Warnings sweeps the session disks),
	// its files kept.
	Warnings(sb)
	if m := sandbox.MountedUnder(dir); len(m) > 0 {
		t.Errorf("the session's disk is still mounted once its dead holder's disks were taken back: %v", m)
	}
	if data, err := os.ReadFile(filepath.Join(adopted, WorkDir, "mine.txt")); err != nil || string(data) != "the session's" {
		t.Errorf("the session's file once its disk was taken back: %q %v", data, err)
	}
}

// killedPool runs a process with a full pool of two kernels on dir, one
// more taken and adopted by session s1 (a link in dir's parent, with a
// file in its work/), and kills it with SIGKILL, as a Sift would be.
func killedPool(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKernelPoolProcess$")
	cmd.Env = append(os.Environ(), "SIFT_TEST_POOL_DIR="+dir)
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
			if sc.Text() == "pool ready" {
				ready <- true
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the pool's process ended before its pool was full")
		}
	case <-time.After(3 * time.Minute):
		t.Fatal("the pool's process did not fill its pool within 3 minutes")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// TestKernelPoolProcess is killedPool's process; it does nothing in a
// plain test run.
func TestKernelPoolProcess(t *testing.T) {
	dir := os.Getenv("SIFT_TEST_POOL_DIR")
	if dir == "" {
		t.Skip("the pool process of TestKernelPoolSweepsWhatAKilledProcessLeft")
	}
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxBwrap, Limits: quotaLimits})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewKernelPool(KernelPoolConfig{Dir: dir, Size: 2, Kernel: KernelConfig{Python: debianPython, Sandbox: sb, Preload: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.WaitReady(ctx, 2); err != nil {
		t.Fatal(err)
	}
	op, ok := p.Take()
	if !ok {
		t.Fatal("no kernel in a full pool")
	}
	if err := os.Symlink(op.Root(), filepath.Join(filepath.Dir(dir), "s1")); err != nil {
		t.Fatal(err)
	}
	p.Adopted(op)
	if res, err := op.RunPython(ctx, "open('work/mine.txt', 'w').write(\"the session's\")", RunOptions{}); err != nil || !res.OK() {
		t.Fatalf("%v %+v", err, res)
	}
	if err := p.WaitReady(ctx, 2); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("pool ready\n")
	time.Sleep(5 * time.Minute)
}

// TestKernelPoolCloseLeavesNothingMounted: Close ends the kernels waiting
// on mounted session disks and leaves nothing mounted, no slot and no
// lock in the pool's directory.
func TestKernelPoolCloseLeavesNothingMounted(t *testing.T) {
	needQuota(t)
	sb := needBwrap(t, quotaLimits)
	p := newTestPool(t, 2, func(c *KernelConfig) { c.Sandbox = sb })
	waitReady(t, p, 2)
	if len(sandbox.MountedUnder(p.Dir())) == 0 {
		t.Fatal("the waiting kernels' disks are not mounted: nothing to test")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if m := sandbox.MountedUnder(p.Dir()); len(m) > 0 {
		t.Errorf("still mounted after Close: %v", m)
	}
	entries, _ := os.ReadDir(p.Dir())
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) > 0 {
		t.Errorf("left in the pool's directory after Close: %s", strings.Join(names, ", "))
	}
}

// TestSweepKernelPoolWaitsForAnotherSweep: a dead owner's slot whose disk
// lock another process holds for a moment (a Sift process starting, which
// sweeps every dead holder's mounts on the host and holds the lock while
// it copies the files back) is still removed: the sweep waits for the
// lock as a hold does. Before, it gave up at once (ErrDiskHeld) and left
// the slot for the next sweep, five minutes on or never.
func TestSweepKernelPoolWaitsForAnotherSweep(t *testing.T) {
	sessions := t.TempDir()
	dir := filepath.Join(sessions, ".kernel-pool")
	slot := makeSlot(t, dir, "slot-0a", true)
	lock, err := os.OpenFile(filepath.Join(slot, sandbox.QuotaLockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		lock.Close()
		close(released)
	}()
	n, err := SweepKernelPool(dir)
	<-released
	if err != nil || n != 1 {
		t.Errorf("SweepKernelPool = %d, %v; want the slot swept once the other sweep let its disk go", n, err)
	}
	if _, err := os.Lstat(slot); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead owner's slot is still there: %v", err)
	}
}

// TestKernelPoolSaysASweepThatFailed: a pool whose sweep fails (its
// directory is a file here) tells its Warn what failed, where, and what
// to do, instead of dropping the error.
func TestKernelPoolSaysASweepThatFailed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pool")
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := SweepKernelPool(dir); err == nil {
		t.Fatal("a sweep of a file succeeded: the test needs a sweep that fails")
	}
	var said []string
	p := &KernelPool{cfg: KernelPoolConfig{Dir: dir, Warn: func(msg string) { said = append(said, msg) }}}
	p.sweep()
	if len(said) != 1 {
		t.Fatalf("the pool said %q of a failed sweep; want one warning", said)
	}
	for _, want := range []string{"warning: kernel pool", dir, "not a directory", "remove the slot-* directories"} {
		if !strings.Contains(said[0], want) {
			t.Errorf("warning %q does not say %q", said[0], want)
		}
	}
	(&KernelPool{cfg: KernelPoolConfig{Dir: dir}}).sweep() // no Warn: dropped, no panic
}
