package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
)

// poolSlots lists the slot directories of the sessions root's kernel
// pool, and those with a session disk mounted.
func poolSlots(t *testing.T, sessions string) (slots []string, mounted int) {
	t.Helper()
	dir := filepath.Join(sessions, agents.KernelPoolDir)
	entries, _ := os.ReadDir(dir)
	mounts := map[string]bool{}
	if f, err := os.Open("/proc/self/mountinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fields := strings.Fields(sc.Text()); len(fields) > 4 {
				mounts[fields[4]] = true
			}
		}
		f.Close()
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "slot-") {
			slot := filepath.Join(dir, e.Name())
			slots = append(slots, slot)
			if mounts[filepath.Join(slot, ".sift-disk")] {
				mounted++
			}
		}
	}
	return slots, mounted
}

// quotaExpected reports whether this host can mount session disks (see
// the sandbox's quota): root, a loop device and mkfs.ext4.
func quotaExpected() bool {
	_, loop := os.Stat("/dev/loop-control")
	_, mkfs := exec.LookPath("mkfs.ext4")
	return os.Geteuid() == 0 && loop == nil && mkfs == nil && os.Getenv(operator.QuotaEnv) != "off"
}

// TestWorkerKilledWithKernelsWaitingIsSwept: `sift worker` keeps a kernel
// pool by default; killed with -9 while its kernels wait (their session
// disks mounted where the quota is enforced), it leaves their slots, and
// the next worker on the sessions directory sweeps them as it starts,
// before it takes runs, even one keeping no pool of its own: nothing of
// them is left, on disk or mounted.
// Before, nothing swept them and the pool had to be off by default.
func TestWorkerKilledWithKernelsWaitingIsSwept(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	if operator.DefaultKernelPoolSize < 1 {
		t.Fatalf("DefaultKernelPoolSize = %d: sift worker keeps no pool by default", operator.DefaultKernelPoolSize)
	}
	c := &cluster{t: t, redis: needRedis(t), sessions: t.TempDir(), workers: map[string]*exec.Cmd{}, logs: map[string]*bytes.Buffer{}}
	defer func() {
		if t.Failed() {
			t.Logf("w1:\n%s\nw2:\n%s", c.log("w1"), c.log("w2"))
		}
	}()
	w1 := c.start("w1", "worker", "--worker-name", "w1")
	waitLine(t, w1, regexp.MustCompile(`taking runs`))
	// The pool fills in the background: wait for its kernels' disks (or,
	// where no disk can be mounted, its slots).
	wantMounted := operator.DefaultKernelPoolSize
	if !quotaExpected() {
		t.Log("no session disk can be mounted here (not root, no loop device or mkfs.ext4): the slots alone are swept")
		wantMounted = 0
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		slots, mounted := poolSlots(t, c.sessions)
		if len(slots) >= operator.DefaultKernelPoolSize && mounted >= wantMounted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker's pool did not fill within 3 minutes: slots %v, %d mounted", slots, mounted)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := c.workers["w1"].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.workers["w1"].Wait()
	left, _ := poolSlots(t, c.sessions)
	if len(left) < operator.DefaultKernelPoolSize {
		t.Fatalf("the killed worker left %v; want its %d waiting slots", left, operator.DefaultKernelPoolSize)
	}

	w2 := c.start("w2", "worker", "--worker-name", "w2", "--kernel-pool", "0")
	waitLine(t, w2, regexp.MustCompile(`taking runs`))
	for _, s := range left {
		if _, err := os.Lstat(s); !os.IsNotExist(err) {
			t.Errorf("the killed worker's slot %s is still there once the next worker takes runs: %v", s, err)
		}
	}
	if _, mounted := poolSlots(t, c.sessions); mounted > 0 {
		t.Errorf("%d session disks still mounted", mounted)
	}
	entries, _ := os.ReadDir(filepath.Join(c.sessions, agents.KernelPoolDir))
	for _, e := range entries {
		t.Errorf("left in the kernel pool's directory: %s", e.Name())
	}
}
