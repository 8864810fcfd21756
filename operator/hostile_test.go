package operator

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// hostileLimits are the sandbox limits of the hostile-code suite: small, so
// that each attack hits its limit quickly and the shared machine barely
// notices.
var hostileLimits = Limits{
	MemoryBytes:   1 << 30,
	Processes:     32,
	FileSizeBytes: 8 << 20,
	CPUSeconds:    60,
}

// hostileSecrets are API keys set in the test process's environment; no
// trace of them may reach generated code.
var hostileSecrets = map[string]string{
	"OPENAI_API_KEY":        "sk-hostile-openai-7f3a",
	"ANTHROPIC_API_KEY":     "sk-ant-hostile-91c2",
	"ARK_API_KEY":           "ark-hostile-55d0",
	"AWS_SECRET_ACCESS_KEY": "aws-hostile-e81b",
}

// hostileWorld is what one hostile case runs against: a Local operator
// whose Python runs in the bwrap sandbox, and host places around it that
// the code must not reach.
type hostileWorld struct {
	l *Local
	// parent holds the workspace (ws/) and a sibling directory
	// (outside/) with secret.txt and victim.txt.
	parent, outside string
	// listener is a TCP listener on the host's loopback.
	listener net.Listener
	// marker is a unique string for processes the code starts.
	marker string
}

// newHostileWorld builds a fresh world for one case.
func newHostileWorld(t *testing.T, py string, sb Sandbox) *hostileWorld {
	t.Helper()
	root, outside := newWorkspace(t)
	if err := os.WriteFile(filepath.Join(outside, "victim.txt"), []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"databases.json", "events.jsonl", "plan.md"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("sift's own "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := NewLocal(LocalConfig{Root: root, Python: py, Sandbox: sb, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return &hostileWorld{
		l: l, parent: filepath.Dir(root), outside: outside, listener: ln,
		marker: fmt.Sprintf("sift-hostile-%d-%d", os.Getpid(), time.Now().UnixNano()),
	}
}

// hostileCase is one attack: code run as a cell, the error it must end
// with, and what must hold on the host afterwards.
type hostileCase struct {
	name string
	// code builds the cell's code for the world.
	code func(w *hostileWorld) string
	// timeout bounds the cell; zero means the world's default (30s).
	timeout time.Duration
	// wantErr must match the cell's error; wantTimedOut says the cell must
	// have hit its deadline.
	wantErr      *regexp.Regexp
	wantTimedOut bool
	// host checks the host after the cell (nil: only the common checks).
	host func(t *testing.T, w *hostileWorld, res *RunResult)
}

// pyQuote quotes s as a Python string literal.
func pyQuote(s string) string { return strconv.Quote(s) }

func TestHostileCode(t *testing.T) {
	python := needPython(t)
	sb := needBwrap(t, hostileLimits)
	for k, v := range hostileSecrets {
		t.Setenv(k, v)
	}
	home, _ := os.UserHomeDir()
	homeFile := firstRegularFile(home)
	shadowHead := firstLine("/etc/shadow")
	notFound := regexp.MustCompile(`FileNotFoundError|PermissionError`)

	cases := []hostileCase{
		{
			name: "read_home",
			code: func(w *hostileWorld) string {
				if homeFile == "" {
					return fmt.Sprintf("import os\nprint(os.listdir(%s))\n", pyQuote(home))
				}
				return fmt.Sprintf("print(open(%s, 'rb').read()[:100])\n", pyQuote(homeFile))
			},
			wantErr: notFound,
		},
		{
			name:    "read_etc_shadow",
			code:    func(*hostileWorld) string { return "print(open('/etc/shadow').read())\n" },
			wantErr: notFound,
		},
		{
			name: "read_sibling_of_workspace",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf("print(open(%s).read())\n", pyQuote(filepath.Join(w.outside, "secret.txt")))
			},
			wantErr: notFound,
		},
		{
			name: "read_parent_environ",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf("print(open('/proc/%d/environ', 'rb').read())\n", os.Getpid())
			},
			wantErr: notFound,
		},
		{
			name: "env_api_keys",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf(`import glob, os
print(dict(os.environ))
for p in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):
    try:
        print(p, open(p, 'rb').read())
    except OSError as e:
        print(p, e)
open('/proc/%d/environ', 'rb').read()
`, os.Getpid())
			},
			wantErr: notFound,
		},
		{
			name: "write_outside_workspace",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf(`open('/tmp/%s', 'w').write('private tmp')
open(%s, 'w').write('pwned')
`, w.marker, pyQuote(filepath.Join(w.outside, "victim.txt")))
			},
			wantErr: notFound,
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				assertFileContent(t, filepath.Join(w.outside, "victim.txt"), "original")
				if _, err := os.Stat("/tmp/" + w.marker); err == nil {
					os.Remove("/tmp/" + w.marker)
					t.Errorf("the code's /tmp file appeared in the host's /tmp")
				}
			},
		},
		{
			name: "delete_outside_workspace",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf("import os\nos.remove(%s)\n", pyQuote(filepath.Join(w.outside, "victim.txt")))
			},
			wantErr: notFound,
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				assertFileContent(t, filepath.Join(w.outside, "victim.txt"), "original")
			},
		},
		{
			name: "write_system_directory",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf("open('/usr/lib/%s', 'w').write('pwned')\n", w.marker)
			},
			wantErr: regexp.MustCompile(`Read-only file system|PermissionError`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				if _, err := os.Stat("/usr/lib/" + w.marker); err == nil {
					os.Remove("/usr/lib/" + w.marker)
					t.Errorf("the code wrote into the host's /usr/lib")
				}
			},
		},
		{
			name:    "write_input",
			code:    func(*hostileWorld) string { return "open('input/sales.csv', 'w').write('pwned')\n" },
			wantErr: regexp.MustCompile(`Read-only file system`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				assertFileContent(t, filepath.Join(w.l.Root(), "input/sales.csv"), "region,amount\nnorth,10\nsouth,20\n")
			},
		},
		{
			name:    "delete_input",
			code:    func(*hostileWorld) string { return "import os\nos.remove('input/sales.csv')\n" },
			wantErr: regexp.MustCompile(`Read-only file system`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				assertFileContent(t, filepath.Join(w.l.Root(), "input/sales.csv"), "region,amount\nnorth,10\nsouth,20\n")
			},
		},
		{
			// The session's own records sit at the workspace's top: code
			// that rewrites them could point a resumed run at another
			// database or forge events a person reads as Sift's.
			name: "rewrite_session_records",
			code: func(*hostileWorld) string {
				return `import os
for name in ('databases.json', 'events.jsonl', 'plan.md'):
    try:
        os.remove(name)
    except OSError as e:
        print(name, e)
open('databases.json', 'w').write('{"databases": ["prod=postgres://db.internal/prod"]}')
`
			},
			wantErr: regexp.MustCompile(`Read-only file system`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				for _, name := range []string{"databases.json", "events.jsonl", "plan.md"} {
					assertFileContent(t, filepath.Join(w.l.Root(), name), "sift's own "+name)
				}
			},
		},
		{
			name: "write_work_and_out",
			code: func(*hostileWorld) string {
				return "open('work/scratch.txt', 'w').write('ok')\nopen('out/result.csv', 'w').write('a\\n1\\n')\nraise RuntimeError('wrote work and out')\n"
			},
			// The writable places still work under the read-only root.
			wantErr: regexp.MustCompile(`wrote work and out`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				assertFileContent(t, filepath.Join(w.l.Root(), "out/result.csv"), "a\n1\n")
			},
		},
		{
			name: "symlink_to_etc",
			code: func(*hostileWorld) string {
				return `import os
os.symlink('/etc', 'work/etc')
print(sorted(os.listdir('work/etc')))
print(open('work/etc/shadow').read())
`
			},
			wantErr: notFound,
			host: func(t *testing.T, w *hostileWorld, res *RunResult) {
				for _, s := range []string{"shadow", "ssh", "sudoers"} {
					if strings.Contains(res.Stdout, s) {
						t.Errorf("the code sees %s in /etc: %s", s, res.Stdout)
					}
				}
			},
		},
		{
			name: "symlink_to_workspace_parent",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf(`import os
os.symlink(%s, 'work/parent_link')
print(sorted(os.listdir('work/parent_link')))
print(open('work/parent_link/outside/secret.txt').read())
`, pyQuote(w.parent))
			},
			wantErr: notFound,
			host: func(t *testing.T, w *hostileWorld, res *RunResult) {
				if strings.Contains(res.Stdout, "outside") {
					t.Errorf("the code sees the workspace's siblings: %s", res.Stdout)
				}
			},
		},
		{
			name: "network_loopback",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf("import socket\nsocket.create_connection(('127.0.0.1', %d), timeout=10)\n",
					w.listener.Addr().(*net.TCPAddr).Port)
			},
			wantErr: regexp.MustCompile(`ConnectionRefusedError`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				// The cell is over: any connection it made is queued by now.
				w.listener.(*net.TCPListener).SetDeadline(time.Now())
				if c, err := w.listener.Accept(); err == nil {
					c.Close()
					t.Errorf("the host's loopback listener received a connection from the sandbox")
				}
			},
		},
		{
			name: "network_external",
			code: func(*hostileWorld) string {
				return "import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=10)\n"
			},
			// No route at all: it fails at once, nothing is sent.
			wantErr: regexp.MustCompile(`Network is unreachable`),
		},
		{
			name: "fork_bomb",
			code: func(*hostileWorld) string {
				return `import os, time
made, refused, err = 0, 0, None
deadline = time.monotonic() + 1.0
while time.monotonic() < deadline:
    try:
        pid = os.fork()
    except OSError as e:
        refused, err = refused + 1, e
        time.sleep(0.01)
        continue
    if pid == 0:
        # Every child keeps bombing, sleeping a little between refusals
        # to keep the machine's load small.
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.05)
    made += 1
raise RuntimeError("fork bomb contained: made %d, refused %d: %r" % (made, refused, err))
`
			},
			wantErr: regexp.MustCompile(`fork bomb contained: made \d+, refused [1-9]\d*: BlockingIOError`),
			host: func(t *testing.T, w *hostileWorld, res *RunResult) {
				m := regexp.MustCompile(`made (\d+)`).FindStringSubmatch(res.Error)
				if made, _ := strconv.Atoi(m[1]); made >= hostileLimits.Processes {
					t.Errorf("the parent forked %d children; the limit is %d processes", made, hostileLimits.Processes)
				}
				if err := exec.Command("/bin/true").Run(); err != nil {
					t.Errorf("the host cannot start a process after the fork bomb: %v", err)
				}
			},
		},
		{
			name: "memory_beyond_limit",
			code: func(*hostileWorld) string {
				// bytes(n) is calloc'ed: the pages are never touched, so
				// the test costs address space, not the machine's RAM.
				return `try:
    huge = bytes(64 << 30)
except MemoryError:
    print("64 GiB at once: MemoryError")
chunks = []
for i in range(64):
    chunks.append(bytes(256 << 20))
`
			},
			wantErr: regexp.MustCompile(`MemoryError`),
		},
		{
			name:         "infinite_loop",
			code:         func(*hostileWorld) string { return "while True:\n    pass\n" },
			timeout:      time.Second,
			wantErr:      regexp.MustCompile(`timed out after 1s`),
			wantTimedOut: true,
		},
		{
			name: "ignores_keyboard_interrupt",
			code: func(*hostileWorld) string {
				return `import signal, time
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
while True:
    try:
        time.sleep(0.1)
    except KeyboardInterrupt:
        pass
`
			},
			timeout:      time.Second,
			wantErr:      regexp.MustCompile(`timed out after 1s`),
			wantTimedOut: true,
		},
		{
			name: "kill_parent",
			code: func(*hostileWorld) string {
				return fmt.Sprintf(`import os, signal
for pid in (os.getppid(), 1):
    try:
        os.kill(pid, signal.SIGKILL)
        print("sent SIGKILL to", pid)
    except OSError as e:
        print(pid, e)
os.kill(%d, signal.SIGKILL)
`, os.Getpid())
			},
			// The test process lives in another pid namespace: its pid
			// does not exist in the sandbox (and the sandbox's own init
			// ignores the signal).
			wantErr: regexp.MustCompile(`ProcessLookupError`),
		},
		{
			name: "fill_disk",
			code: func(*hostileWorld) string {
				return `with open('work/fill.bin', 'wb') as f:
    for i in range(1024):
        f.write(b'\0' * (1 << 20))
        f.flush()
`
			},
			wantErr: regexp.MustCompile(`File too large`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				fi, err := os.Stat(filepath.Join(w.l.Root(), "work/fill.bin"))
				if err != nil {
					t.Fatal(err)
				}
				if fi.Size() > hostileLimits.FileSizeBytes {
					t.Errorf("work/fill.bin grew to %d bytes; the limit is %d", fi.Size(), hostileLimits.FileSizeBytes)
				}
			},
		},
		{
			name: "fill_private_tmp",
			code: func(*hostileWorld) string {
				return `for n in range(64):
    with open('/tmp/fill-%d' % n, 'wb') as f:
        f.write(b'\0' * (4 << 20))
`
			},
			// /tmp is a tmpfs (memory) capped at the file size limit.
			wantErr: regexp.MustCompile(`No space left on device`),
		},
		{
			name: "background_process_outlives_cell",
			code: func(w *hostileWorld) string {
				return fmt.Sprintf(`import os, subprocess, sys
args = [sys.executable, '-c', 'import time; time.sleep(600)', %s]
subprocess.Popen(args)
subprocess.Popen(args, start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, args)
    os._exit(0)
os.wait()
raise RuntimeError("left three processes behind")
`, pyQuote(w.marker))
			},
			wantErr: regexp.MustCompile(`left three processes behind`),
			host: func(t *testing.T, w *hostileWorld, _ *RunResult) {
				if pids := processesWith(w.marker); len(pids) > 0 {
					t.Errorf("processes the cell started outlive it: %v", pids)
				}
			},
		},
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newHostileWorld(t, python, sb)
			res, err := w.l.RunPython(context.Background(), tc.code(w), RunOptions{Timeout: tc.timeout})
			if err != nil {
				t.Fatalf("RunPython: %v", err)
			}
			if res.OK() || !tc.wantErr.MatchString(res.Error) {
				t.Errorf("cell error = %q (stdout %q, stderr %q); want it to match %q", res.Error, res.Stdout, res.Stderr, tc.wantErr)
			}
			t.Logf("cell error: %s", lastLine(res.Error))
			if res.TimedOut != tc.wantTimedOut {
				t.Errorf("TimedOut = %v; want %v", res.TimedOut, tc.wantTimedOut)
			}
			if tc.host != nil {
				tc.host(t, w, res)
			}
			all := strings.Join([]string{res.Stdout, res.Stderr, res.Error, res.Value}, "\n")
			for k, v := range hostileSecrets {
				if strings.Contains(all, v) {
					t.Errorf("the code saw %s", k)
				}
			}
			for _, s := range []string{"secret" + "\n", shadowHead} {
				if s != "" && strings.Contains(all, s) {
					t.Errorf("the code read %q", s)
				}
			}
			// Nothing of the cell is left running, whatever it did.
			assertNoProcessesWith(t, w.l.Root())
			next, err := w.l.RunPython(context.Background(), "print(6 * 7)", RunOptions{})
			if err != nil || !next.OK() || strings.TrimSpace(next.Stdout) != "42" {
				t.Errorf("the next cell = %+v, %v; want it to print 42", next, err)
			}
		})
	}
}

// assertFileContent fails unless the host file at p holds want.
func assertFileContent(t *testing.T, p, want string) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil {
		t.Errorf("host file %s: %v", p, err)
		return
	}
	if string(got) != want {
		t.Errorf("host file %s = %q; want %q untouched", p, got, want)
	}
}

// assertNoProcessesWith fails when a host process's command line still
// contains s a few seconds on (a killed sandbox's pid namespace is torn down
// asynchronously).
func assertNoProcessesWith(t *testing.T, s string) {
	t.Helper()
	var pids []int
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if pids = processesWith(s); len(pids) == 0 {
			return
		}
	}
	t.Errorf("processes of the cell still running: %v", pids)
}

// processesWith lists the live (not zombie) host processes whose command
// line contains s.
func processesWith(s string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(s)) {
			continue
		}
		if st := sandbox.ProcessState(pid); st != 0 && st != 'Z' {
			out = append(out, pid)
		}
	}
	return out
}

// firstRegularFile returns the first regular file directly in dir, or "".
func firstRegularFile(dir string) string {
	if dir == "" {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

// firstLine returns the first line of the file at p, or "" when it cannot
// be read.
func firstLine(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return line
}
