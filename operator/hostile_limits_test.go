package operator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// The resource side of the hostile suite: code in a session's kernel tries
// to use more than the session may (memory summed over processes, process
// count, disk), to leave processes behind between cells, and to escape its
// limits through a user namespace of its own.

// newHostileKernel returns a kernel in the bubblewrap sandbox with the
// given limits, skipping without Python or bubblewrap (CI installs both).
func newHostileKernel(t *testing.T, limits Limits) *Kernel {
	t.Helper()
	sb := needBwrap(t, limits)
	return newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
}

// TestHostileUserNamespace: code can make no user namespace of its own, so
// it can neither become root in one nor mount a tmpfs that no limit counts.
func TestHostileUserNamespace(t *testing.T) {
	k := newHostileKernel(t, hostileLimits)
	res := run(t, k, `import ctypes, subprocess
r = subprocess.run(['unshare', '-Urm', 'sh', '-c', 'mount -t tmpfs -o size=1g none /tmp && echo MOUNTED'],
                   capture_output=True, text=True)
print('unshare -Urm:', r.returncode, r.stdout.strip(), r.stderr.strip())
libc = ctypes.CDLL(None, use_errno=True)
print('unshare(CLONE_NEWUSER):', libc.unshare(0x10000000), ctypes.get_errno())
`, RunOptions{})
	if !res.OK() {
		t.Fatalf("cell failed: %s", res.Error)
	}
	t.Logf("cell printed: %s", res.Stdout)
	if strings.Contains(res.Stdout, "MOUNTED") || strings.Contains(res.Stdout, "unshare -Urm: 0 ") {
		t.Errorf("the cell created a user namespace and mounted a tmpfs in it: %s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "unshare(CLONE_NEWUSER): -1 ") {
		t.Errorf("unshare(CLONE_NEWUSER) succeeded: %s", res.Stdout)
	}
}

// newSandbox returns the sandbox of mode with limits, skipping when it is
// bubblewrap and that does not work here.
func newSandbox(t *testing.T, mode SandboxMode, limits Limits) Sandbox {
	t.Helper()
	if mode == SandboxBwrap {
		return needBwrap(t, limits)
	}
	sb, err := NewSandbox(SandboxConfig{Mode: mode, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// needSessionGroups skips the test where no control group can be made
// (not root, nothing delegated): the sandbox then says so (Warnings) and
// limits each process only.
func needSessionGroups(t *testing.T) {
	t.Helper()
	if p := sandbox.SessionGroupsProblem(); p != "" {
		t.Skipf("skipping: no session control groups here: %s", p)
	}
}

// TestHostileSessionMemory: three children of one cell together cannot
// hold more than the session's memory limit, though each stays within the
// per-process one.
func TestHostileSessionMemory(t *testing.T) {
	needSessionGroups(t)
	for _, mode := range []SandboxMode{SandboxBwrap, SandboxNone} {
		t.Run(string(mode), func(t *testing.T) {
			limits := hostileLimits
			limits.MemoryBytes = 768 << 20
			sb := newSandbox(t, mode, limits)
			k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			// Each child touches 300 MiB (b'x' * n writes every page),
			// says so, and holds it while its siblings do the same.
			res := run(t, k, `import subprocess, sys
child = "x = b'x' * (300 << 20); print('held', flush=True); import time; time.sleep(3)"
procs = [subprocess.Popen([sys.executable, '-c', child], stdout=subprocess.PIPE, text=True) for _ in range(3)]
held = sum(1 for p in procs if 'held' in p.communicate()[0] and p.returncode == 0)
print('children that held 300 MiB at once:', held)
`, RunOptions{Timeout: 30 * time.Second})
			t.Logf("cell: %s %s", strings.TrimSpace(res.Stdout), lastLine(res.Error))
			m := regexp.MustCompile(`at once: (\d)`).FindStringSubmatch(res.Stdout)
			if m == nil {
				if res.Error == "" {
					t.Fatalf("the cell did not report: %+v", res)
				}
				return // the kernel itself was chosen by the OOM killer: contained
			}
			if m[1] == "3" {
				t.Errorf("three children held 900 MiB together under a session limit of 768 MiB")
			}
		})
	}
}

// TestHostileSessionProcesses: a fork bomb stays within the session's
// process limit, also where rlimits do not hold (unsandboxed as root).
func TestHostileSessionProcesses(t *testing.T) {
	needSessionGroups(t)
	for _, mode := range []SandboxMode{SandboxBwrap, SandboxNone} {
		t.Run(string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, hostileLimits)
			k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			res := run(t, k, `import os, time
made = 0
for i in range(200):
    try:
        pid = os.fork()
    except OSError as e:
        break
    if pid == 0:
        time.sleep(20)
        os._exit(0)
    made += 1
print('forked', made)
`, RunOptions{Timeout: 30 * time.Second})
			m := regexp.MustCompile(`forked (\d+)`).FindStringSubmatch(res.Stdout)
			if m == nil {
				t.Fatalf("the cell did not report: %+v", res)
			}
			if made, _ := strconv.Atoi(m[1]); made >= hostileLimits.Processes {
				t.Errorf("the cell forked %d processes; the session's limit is %d", made, hostileLimits.Processes)
			}
			t.Logf("forked %s of 200", m[1])
		})
	}
}

// TestHostileBackgroundProcessesEndWithTheCell: whatever a cell starts in
// the background (a new session, a double fork, nohup) is stopped when the
// cell ends; the kernel and its variables stay.
func TestHostileBackgroundProcessesEndWithTheCell(t *testing.T) {
	needSessionGroups(t)
	for _, mode := range []SandboxMode{SandboxBwrap, SandboxNone} {
		t.Run(string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, hostileLimits)
			k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
			marker := fmt.Sprintf("sift-bg-%d-%d", os.Getpid(), time.Now().UnixNano())
			res := run(t, k, fmt.Sprintf(`import os, subprocess, sys, time
kept = 42
args = [sys.executable, '-c', 'import time; time.sleep(600)', %[1]s]
subprocess.Popen(args, start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, args)
    os._exit(0)
os.wait()
subprocess.run(['sh', '-c', 'nohup "$0" -c "import time; time.sleep(600)" %[1]s >/dev/null 2>&1 &', sys.executable])
# A writer that keeps filling work/ after the cell.
subprocess.Popen(['sh', '-c', 'while :; do echo x >> work/bg.txt; sleep 0.01; done', %[1]s], start_new_session=True)
time.sleep(0.3)
`, pyQuote(marker)), RunOptions{})
			if !res.OK() {
				t.Fatalf("cell failed: %s", res.Error)
			}
			if pids := processesWith(marker); len(pids) > 0 {
				t.Errorf("processes the cell started outlive it: %v", pids)
			}
			if !strings.Contains(res.Notice, "were still running when it ended and were stopped") {
				t.Errorf("notice = %q; want it to say the cell's processes were stopped", res.Notice)
			}
			fi, err := os.Stat(filepath.Join(k.Root(), "work/bg.txt"))
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond)
			if fi2, _ := os.Stat(filepath.Join(k.Root(), "work/bg.txt")); fi2.Size() != fi.Size() {
				t.Errorf("work/bg.txt still grows after the cell ended (%d -> %d bytes)", fi.Size(), fi2.Size())
			}
			if res := mustRun(t, k, "kept"); res.Value != "42" {
				t.Errorf("kept = %q after the cell's processes were stopped; want 42 (the kernel survives)", res.Value)
			}
		})
	}
}

// TestSessionGroupLifetime: the kernel runs in the session's group, with
// the session's limits, and the group is gone once the kernel ends.
func TestSessionGroupLifetime(t *testing.T) {
	needSessionGroups(t)
	limits := hostileLimits
	limits.MemoryBytes = 700 << 20
	sb := newSandbox(t, SandboxBwrap, limits)
	k := newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
	mustRun(t, k, "1")
	k.mu.Lock()
	cmd := k.proc.cmd
	k.mu.Unlock()
	groups := sandbox.GroupPids(cmd)
	if len(groups) == 0 {
		t.Fatal("the kernel runs in no session group")
	}
	var sessions []string
	for dir, pids := range groups {
		session := filepath.Dir(dir)
		sessions = append(sessions, session)
		if len(pids) == 0 {
			t.Errorf("group %s holds no process; want the kernel in it", dir)
		}
		for file, want := range map[string]string{"memory.limit_in_bytes": "734003200", "pids.max": "32", "memory.max": "734003200"} {
			if got, err := os.ReadFile(filepath.Join(session, file)); err == nil && strings.TrimSpace(string(got)) != want {
				t.Errorf("%s/%s = %s; want %s", session, file, got, want)
			}
		}
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		if _, err := os.Stat(s); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("session group %s is still there after the kernel closed (%v)", s, err)
		}
	}
}

// TestHostileBackgroundProcessEndsWithProcessModeCell: in process mode
// too, unsandboxed, a process that left the cell's process group ends with
// the cell.
func TestHostileBackgroundProcessEndsWithProcessModeCell(t *testing.T) {
	needSessionGroups(t)
	py := needPython(t)
	root, _ := newWorkspace(t)
	l, err := NewLocal(LocalConfig{Root: root, Python: py, Sandbox: newSandbox(t, SandboxNone, hostileLimits)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	marker := fmt.Sprintf("sift-bg-%d-%d", os.Getpid(), time.Now().UnixNano())
	res, err := l.RunPython(context.Background(), fmt.Sprintf(`import subprocess, sys
subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', %s],
                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
`, pyQuote(marker)), RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	if pids := processesWith(marker); len(pids) > 0 {
		t.Errorf("a process the cell started outlives it: %v", pids)
	}
}
