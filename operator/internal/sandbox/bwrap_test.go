package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator/internal/probecache"
)

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

// startSandboxed starts argv in sb in a fresh workspace with stdout piped
// back, and makes sure it is killed when the test ends.
func startSandboxed(t *testing.T, sb Sandbox, spec ProcSpec) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	if spec.Root == "" {
		spec.Root, _ = newWorkspace(t)
	}
	release, err := Hold(sb, spec.Root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	cmd, err := sb.Command(spec)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd, bufio.NewReader(out)
}

// readLine reads one line of the program's output, failing the test at
// EOF.
func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("read program output: %v (got %q)", err, line)
	}
	return strings.TrimSpace(line)
}

func TestBwrapSignalInterruptsProgram(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{})
	code := `import time
try:
    print("ready", flush=True)
    time.sleep(60)
except KeyboardInterrupt:
    print("interrupted", flush=True)
`
	cmd, out := startSandboxed(t, sb, ProcSpec{Argv: []string{py, "-c", code}})
	if got := readLine(t, out); got != "ready" {
		t.Fatalf("first line = %q; want ready", got)
	}
	if err := sb.Signal(cmd, syscall.SIGINT); err != nil {
		t.Fatalf("Signal: %v", err)
	}
	// Had SIGINT reached bubblewrap instead, the program would be killed
	// without printing.
	if got := readLine(t, out); got != "interrupted" {
		t.Fatalf("after SIGINT the program printed %q; want interrupted", got)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("Wait: %v; want a clean exit after the interrupt", err)
	}
	if err := sb.Signal(cmd, syscall.SIGINT); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Signal after exit = %v; want os.ErrProcessDone", err)
	}
}

func TestBwrapSignalIgnoredThenGroupKill(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{})
	code := `import signal, sys, time
import os
signal.signal(signal.SIGINT, lambda *a: os.write(1, b"ignored\n"))
os.write(1, b"ready\n")
while True:
    time.sleep(0.05)
`
	cmd, out := startSandboxed(t, sb, ProcSpec{Argv: []string{py, "-c", code}})
	readLine(t, out)
	if err := sb.Signal(cmd, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := readLine(t, out); got != "ignored" {
		t.Fatalf("got %q; want the handler's output", got)
	}
	program, err := findSandboxedProgram(cmd.Process, time.Second, sb.(*bwrapSandbox).innerBwrap())
	if err != nil {
		t.Fatal(err)
	}
	// The deadline: killing the process group ends the whole sandbox.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) {
		t.Fatalf("Wait = %v; want the sandbox killed", err)
	}
	assertProcessGone(t, program)
}

// assertProcessGone fails unless pid ends within a few seconds: killing
// bubblewrap makes the kernel tear its pid namespace down, which takes
// effect when the processes are next scheduled.
func assertProcessGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if st := processState(pid); st == 0 || st == 'Z' {
			return
		}
	}
	t.Errorf("sandboxed process %d still running", pid)
}

func TestBwrapPassesExtraFilesAndExactEnv(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{})
	t.Setenv("OPENAI_API_KEY", "sk-should-not-leak")
	root, _ := newWorkspace(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	code := `import json, os
os.write(3, json.dumps(sorted(os.environ.items())).encode())
`
	cmd, err := sb.Command(ProcSpec{Root: root, Argv: []string{py, "-c", code}, Env: []string{"A=1", "B=x=y", "HOME=" + root, "LC_ALL=C.UTF-8"}})
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, _ := io.ReadAll(r)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	// bubblewrap sets PWD to the directory it starts the program in.
	want := fmt.Sprintf(`[["A", "1"], ["B", "x=y"], ["HOME", %q], ["LC_ALL", "C.UTF-8"], ["PWD", %q]]`, root, root)
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("environment through fd 3 (-want +got):\n%s", diff)
	}
}

func TestBwrapInterpreterOutsideUsr(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{})
	// A virtualenv is an interpreter outside /usr whose prefix (pyvenv.cfg,
	// lib/) must be visible for it to know it is a virtualenv.
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(py, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot create a virtualenv: %v: %s", err, out)
	}
	venvPy := filepath.Join(venv, "bin", "python")
	cmd, out := startSandboxed(t, sb, ProcSpec{Argv: []string{venvPy, "-c", "import sys; print(sys.prefix)"}})
	if got := readLine(t, out); got != venv {
		t.Errorf("sys.prefix in the sandbox = %q; want the virtualenv %q", got, venv)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("Wait: %v", err)
	}
}

func TestProgramMounts(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) string {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := mk("pyenv/3.12/bin/python3.12")
	mk("pyenv/3.12/lib/python3.12/os.py")
	venvPy := filepath.Join(dir, "venv/bin/python")
	if err := os.MkdirAll(filepath.Dir(venvPy), 0o755); err != nil {
		t.Fatal(err)
	}
	mk("venv/lib/python3.12/site-packages/x.py")
	if err := os.WriteFile(mk("venv/pyvenv.cfg"), []byte("home = "+filepath.Dir(base)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, venvPy); err != nil {
		t.Fatal(err)
	}
	tool := mk("tools/mytool")
	tests := []struct {
		name, path string
		want       []string
	}{
		{"system interpreter", "/usr/bin/python3", nil},
		{"pyenv interpreter", base, []string{dir + "/pyenv/3.12/bin", dir + "/pyenv/3.12/lib"}},
		{"virtualenv", venvPy, []string{
			dir + "/venv/bin", dir + "/venv/lib", dir + "/venv/pyvenv.cfg",
			dir + "/pyenv/3.12/bin", dir + "/pyenv/3.12/lib",
		}},
		{"other program", tool, []string{tool}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, programMounts(tt.path)); diff != "" {
				t.Errorf("programMounts(%s) (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestBwrapArgs(t *testing.T) {
	b := &bwrapSandbox{bwrap: "/usr/bin/bwrap", etcDir: "/run/sift-etc", limits: Limits{MemoryBytes: 1 << 30, FileSizeBytes: 1 << 20}}
	root := "/srv/sessions/s1"
	spec := ProcSpec{
		Root: root, Argv: []string{"/usr/bin/python3", "-c", "pass"},
		Env:      []string{"HOME=" + root + "/work/.home", "PATH=/usr/bin"},
		Writable: []string{"/var/cache/sift"}, ReadOnly: []string{"/opt/data/ref.csv"},
	}
	for _, asRoot := range []bool{false, true} {
		t.Run(fmt.Sprintf("root=%v", asRoot), func(t *testing.T) {
			bb := *b
			if asRoot {
				bb.setpriv = "/usr/bin/setpriv"
			}
			args, err := bb.args(spec, root, 1879048200, bb.etcDir)
			if err != nil {
				t.Fatal(err)
			}
			joined := " " + strings.Join(args, " ") + " "
			for _, want := range []string{
				" --unshare-net ", " --unshare-pid ", " --unshare-ipc ", " --unshare-uts ", " --unshare-cgroup-try ",
				" --die-with-parent ", " --new-session ", " --ro-bind /usr /usr ",
				" --ro-bind /run/sift-etc/passwd /etc/passwd ", " --proc /proc ", " --dev /dev ",
				" --perms 1777 --size 1048576 --tmpfs /tmp ",
				" --perms 0755 --dir /srv --perms 0755 --dir /srv/sessions --ro-bind " + root + " " + root + " ",
				" --bind " + root + "/work " + root + "/work --bind " + root + "/out " + root + "/out ",
				" --ro-bind " + root + "/input " + root + "/input ",
				" --bind /var/cache/sift /var/cache/sift ", " --ro-bind /opt/data/ref.csv /opt/data/ref.csv ",
				" --chdir " + root + " --clearenv --setenv HOME " + root + "/work/.home --setenv PATH /usr/bin -- ",
				" --as=1073741824 ", " --fsize=1048576 ", " /usr/bin/python3 -c pass ",
				" --remount-ro / --chdir ",
			} {
				if !strings.Contains(joined, want) {
					t.Errorf("args lack %q:\n%s", want, joined)
				}
			}
			for _, bad := range []string{"/etc/shadow", " --ro-bind /etc /etc ", " --bind / ", "/home"} {
				if strings.Contains(joined, bad) {
					t.Errorf("args contain %q:\n%s", bad, joined)
				}
			}
			// input/ must be bound read-only after (on top of) the workspace.
			if i, j := slices.Index(args, root), slices.Index(args, root+"/input"); i < 0 || j < i {
				t.Errorf("input/ is not bound after the workspace")
			}
			hasUserns := strings.Contains(joined, " --unshare-user ")
			dropsToUser := strings.Contains(joined, " /usr/bin/setpriv --reuid=1879048200 --regid=1879048200 --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- ")
			if asRoot == hasUserns || asRoot != dropsToUser {
				t.Errorf("as root=%v: user namespace %v, setpriv drop %v; want a drop (and no user namespace) exactly as root", asRoot, hasUserns, dropsToUser)
			}
		})
	}
}

func TestBwrapRefusesSymlinkedInput(t *testing.T) {
	sb := needBwrap(t, Limits{})
	root, outside := newWorkspace(t)
	if err := os.RemoveAll(filepath.Join(root, "input")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "input")); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Command(ProcSpec{Root: root, Argv: []string{"/bin/true"}}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Command with input/ a symlink: err = %v; want a refusal", err)
	}
}

func TestNewSandboxBwrapUnavailable(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "bwrap")
	script := "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n"
	if err := os.WriteFile(broken, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		cfg      SandboxConfig
		wantName string   // "" when NewSandbox must fail
		wantErr  []string // substrings of the error
	}{
		{"missing, bwrap mode", SandboxConfig{Mode: SandboxBwrap, Bwrap: filepath.Join(dir, "nope")}, "",
			[]string{"not installed", "apt-get install bubblewrap", "dnf install bubblewrap", "--sandbox none", "SIFT_SANDBOX=none"}},
		{"missing, auto", SandboxConfig{Bwrap: filepath.Join(dir, "nope")}, "", []string{"apt-get install bubblewrap"}},
		{"missing, auto, unsandboxed allowed", SandboxConfig{Bwrap: filepath.Join(dir, "nope"), AllowUnsandboxed: true}, "none", nil},
		{"missing, bwrap mode ignores AllowUnsandboxed", SandboxConfig{Mode: SandboxBwrap, Bwrap: filepath.Join(dir, "nope"), AllowUnsandboxed: true}, "", []string{"not installed"}},
		{"broken, auto", SandboxConfig{Bwrap: broken}, "", []string{"cannot start a sandbox here", "No permissions to create new namespace", "SIFT_SANDBOX=none"}},
		{"broken, unsandboxed allowed", SandboxConfig{Bwrap: broken, AllowUnsandboxed: true}, "none", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb, err := NewSandbox(tt.cfg)
			if tt.wantName != "" {
				if err != nil || sb.Name() != tt.wantName {
					t.Fatalf("NewSandbox = %v, %v; want a %q sandbox", sb, err, tt.wantName)
				}
				return
			}
			if !errors.Is(err, ErrNoSandbox) {
				t.Fatalf("NewSandbox error = %v; want ErrNoSandbox", err)
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

// BenchmarkSandboxStart compares starting `python3 -c pass` unsandboxed
// and in bubblewrap (with default limits in both).
func BenchmarkSandboxStart(b *testing.B) {
	py := needPython(b)
	root := b.TempDir()
	for _, d := range []string{"input", "work", "out"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	start := func(b *testing.B, sb Sandbox) {
		for b.Loop() {
			cmd, err := sb.Command(ProcSpec{Root: root, Argv: []string{py, "-c", "pass"}, Env: []string{"PATH=/usr/bin:/bin"}})
			if err != nil {
				b.Fatal(err)
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
	}
	b.Run("none", func(b *testing.B) {
		sb, err := NewSandbox(SandboxConfig{Mode: SandboxNone})
		if err != nil {
			b.Fatal(err)
		}
		start(b, sb)
	})
	b.Run("bwrap", func(b *testing.B) { start(b, needBwrap(b, Limits{})) })
}

func TestBwrapProbeIsCachedOnDisk(t *testing.T) {
	isolateProbeCache(t)
	first, err := newBwrapSandbox(SandboxConfig{})
	if err != nil {
		t.Skipf("needs a working bubblewrap: %v", err)
	}
	key := bwrapProbeKeyOf(first)
	got, ok := probecache.Lookup(key)
	if !ok || got.Kind != "bwrap" || got.DisableUserns != first.disableUserns {
		t.Fatalf("cache entry = %+v (found %v), want the probe's answer disable_userns=%v", got, ok, first.disableUserns)
	}
	// A new process believes the file rather than probing: flip the
	// recorded answer and see it come back.
	probecache.Remember(key, probecache.Entry{Kind: "bwrap", DisableUserns: !first.disableUserns})
	bwrapProbes.Clear()
	second, err := newBwrapSandbox(SandboxConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if second.disableUserns == first.disableUserns {
		t.Fatal("the second sandbox probed again instead of reading the cache")
	}
}

func TestBwrapProbeKeyIsTheSameWhereverTheEtcFilesAre(t *testing.T) {
	isolateProbeCache(t)
	b, err := newBwrapSandbox(SandboxConfig{})
	if err != nil {
		t.Skipf("needs a working bubblewrap: %v", err)
	}
	// Another $HOME, or the temporary directory a process without a
	// cache directory makes, keeps the files elsewhere: the sandbox is the
	// same, so the cached answer holds.
	elsewhere := *b
	elsewhere.etcDir = filepath.Join(t.TempDir(), "sift-sandbox-etc-123")
	if bwrapProbeKeyOf(&elsewhere) != bwrapProbeKeyOf(b) {
		t.Fatal("the probe's key changes with where the /etc files are kept: every run with another $HOME probes again")
	}
}

// isolateProbeCache points the on-disk probe cache at a fresh file and
// forgets the probes this process ran, as a new process would.
func isolateProbeCache(t *testing.T) {
	t.Helper()
	t.Setenv(probecache.Env, filepath.Join(t.TempDir(), "cache", "probes.json"))
	bwrapProbes.Clear()
	t.Cleanup(bwrapProbes.Clear)
}
