package sandbox

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSandboxFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    SandboxConfig
		wantErr string // "" when NewSandbox must not complain about the env
	}{
		{"unset", nil, SandboxConfig{}, ""},
		{"none", map[string]string{"SIFT_SANDBOX": "none"}, SandboxConfig{Mode: SandboxNone}, ""},
		{"mode is case-insensitive", map[string]string{"SIFT_SANDBOX": " BWRAP "}, SandboxConfig{Mode: SandboxBwrap}, ""},
		{"limits", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_MEMORY": "2GiB", "SIFT_SANDBOX_PROCS": "128"},
			SandboxConfig{Mode: SandboxNone, Limits: Limits{MemoryBytes: 2 << 30, Processes: 128}}, ""},
		{"unlimited", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_MEMORY": "unlimited", "SIFT_SANDBOX_PROCS": "unlimited"},
			SandboxConfig{Mode: SandboxNone, Limits: Limits{MemoryBytes: -1, Processes: -1}}, ""},
		{"bad memory", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_MEMORY": "lots"},
			SandboxConfig{Mode: SandboxNone}, `SIFT_SANDBOX_MEMORY="lots"`},
		{"bad procs", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_PROCS": "0"},
			SandboxConfig{Mode: SandboxNone}, `SIFT_SANDBOX_PROCS="0"`},
		{"disk budget and uids", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_DISK": "10GiB", "SIFT_SANDBOX_FILES": "5000", "SIFT_SANDBOX_UIDS": "2000000-2000999"},
			SandboxConfig{Mode: SandboxNone, Limits: Limits{DiskBytes: 10 << 30, DiskFiles: 5000}, UIDs: UIDRange{First: 2000000, Count: 1000}}, ""},
		{"unlimited disk", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_DISK": "unlimited", "SIFT_SANDBOX_FILES": "none"},
			SandboxConfig{Mode: SandboxNone, Limits: Limits{DiskBytes: -1, DiskFiles: -1}}, ""},
		{"bad files", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_FILES": "-3"},
			SandboxConfig{Mode: SandboxNone}, `SIFT_SANDBOX_FILES="-3"`},
		{"bad uids", map[string]string{"SIFT_SANDBOX": "none", "SIFT_SANDBOX_UIDS": "5-2"},
			SandboxConfig{Mode: SandboxNone}, `SIFT_SANDBOX_UIDS="5-2"`},
		{"bad mode", map[string]string{"SIFT_SANDBOX": "docker"}, SandboxConfig{Mode: "docker"}, `unknown sandbox mode "docker"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SandboxFromEnv(func(k string) string { return tt.env[k] })
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(SandboxConfig{})); diff != "" {
				t.Errorf("SandboxFromEnv (-want +got):\n%s", diff)
			}
			if tt.wantErr == "" && got.Mode != SandboxNone {
				return // building auto or bwrap sandboxes is tested elsewhere
			}
			_, err := NewSandbox(got)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("NewSandbox: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("NewSandbox error = %v; want one naming %s", err, tt.wantErr)
			}
		})
	}
}

// rlimitsScript prints the program's resource limits (soft values) and
// uid as JSON.
const rlimitsScript = `import json, os, resource
r = resource
print(json.dumps({
    "as": r.getrlimit(r.RLIMIT_AS)[0], "nproc": r.getrlimit(r.RLIMIT_NPROC)[0],
    "fsize": r.getrlimit(r.RLIMIT_FSIZE)[0], "cpu": r.getrlimit(r.RLIMIT_CPU)[0],
    "core": r.getrlimit(r.RLIMIT_CORE)[0], "uid": os.getuid(),
}))
`

// programLimits runs rlimitsScript in sb with spec.Limits and returns what
// it printed.
func programLimits(t *testing.T, sb Sandbox, limits Limits) map[string]int64 {
	t.Helper()
	py := needPython(t)
	root, _ := newWorkspace(t)
	cmd, err := sb.Command(ProcSpec{Root: root, Argv: []string{py, "-c", rlimitsScript}, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	var got map[string]int64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decode %q: %v", out, err)
	}
	return got
}

func TestSandboxesApplyLimits(t *testing.T) {
	const unlimited = -1 // RLIM_INFINITY as Python reports it
	configured := Limits{MemoryBytes: 3 << 30, Processes: 100, FileSizeBytes: 1 << 30, CPUSeconds: 600}
	spec := Limits{MemoryBytes: 2 << 30, Processes: 200, CPUSeconds: 60}
	want := map[string]int64{"as": 2 << 30, "nproc": 100, "fsize": 1 << 30, "cpu": 60, "core": 0}
	tests := []struct {
		name  string
		build func(t *testing.T) Sandbox
		spec  Limits
		want  map[string]int64
		uid   int
	}{
		{"NoSandbox without limits", func(*testing.T) Sandbox { return NoSandbox() }, Limits{},
			map[string]int64{"as": unlimited, "fsize": unlimited, "cpu": unlimited}, os.Getuid()},
		{"NoSandbox with spec limits", func(*testing.T) Sandbox { return NoSandbox() }, configured,
			map[string]int64{"as": 3 << 30, "nproc": 100, "fsize": 1 << 30, "cpu": 600, "core": 0}, os.Getuid()},
		{"none mode", func(t *testing.T) Sandbox {
			sb, err := NewSandbox(SandboxConfig{Mode: SandboxNone, Limits: configured})
			if err != nil {
				t.Fatal(err)
			}
			return sb
		}, spec, want, os.Getuid()},
		{"bwrap", func(t *testing.T) Sandbox { return needBwrap(t, configured) }, spec, want, map[bool]int{true: -1, false: os.Getuid()}[os.Geteuid() == 0]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := programLimits(t, tt.build(t), tt.spec)
			if tt.uid == -1 { // as root: the workspace's own uid, from the range
				if u := got["uid"]; u < DefaultSandboxUIDFirst || u >= DefaultSandboxUIDFirst+DefaultSandboxUIDCount {
					t.Errorf("program runs as uid %d; want one of the sandbox range %d+%d", u, DefaultSandboxUIDFirst, DefaultSandboxUIDCount)
				}
			} else if got["uid"] != int64(tt.uid) {
				t.Errorf("program runs as uid %d; want %d", got["uid"], tt.uid)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s limit = %d; want %d", k, got[k], v)
				}
			}
		})
	}
}

func TestNoSandboxSignal(t *testing.T) {
	py := needPython(t)
	sb := NoSandbox()
	if err := sb.Signal(nil, syscall.SIGINT); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Signal(nil) = %v; want os.ErrProcessDone", err)
	}
	code := `import time
try:
    print("ready", flush=True)
    time.sleep(60)
except KeyboardInterrupt:
    print("interrupted", flush=True)
`
	cmd, out := startSandboxed(t, sb, ProcSpec{Argv: []string{py, "-c", code}, Limits: Limits{MemoryBytes: 1 << 30}})
	readLine(t, out)
	if err := sb.Signal(cmd, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := readLine(t, out); got != "interrupted" {
		t.Errorf("after SIGINT the program printed %q; want interrupted (prlimit must exec it in place)", got)
	}
}

func TestNewSandboxUnknownMode(t *testing.T) {
	_, err := NewSandbox(SandboxConfig{Mode: "firejail"})
	if err == nil || !strings.Contains(err.Error(), "use auto, bwrap or none") {
		t.Errorf("NewSandbox(firejail) error = %v; want the modes listed", err)
	}
}

func TestExitSignal(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   syscall.Signal
		wantOK bool
	}{
		{"killed", "kill -XCPU $$", syscall.SIGXCPU, true},
		{"128+N as bubblewrap reports it", "exit 137", syscall.SIGKILL, true},
		{"ordinary failure", "exit 3", 0, false},
		{"success", "exit 0", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := exec.Command("/bin/sh", "-c", tt.script).Run()
			got, ok := ExitSignal(err)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ExitSignal(%v) = %v, %v; want %v, %v", err, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestConfiguredLimits: the kernel and the process runner learn the limits
// a sandbox applies of its own, for either sandbox.
func TestConfiguredLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		sb   Sandbox
		want int64
	}{
		{"none", NoSandbox(), 0},
		{"none with limits", noSandbox{limits: Limits{MemoryBytes: 2 << 30}}, 2 << 30},
		{"bwrap", &bwrapSandbox{limits: Limits{MemoryBytes: 512 << 20}}, 512 << 20},
	} {
		if got := ConfiguredLimits(c.sb).MemoryBytes; got != c.want {
			t.Errorf("%s: ConfiguredLimits(...).MemoryBytes = %d, want %d", c.name, got, c.want)
		}
	}
}
