// Package sandbox confines the programs Sift runs for a session: bubblewrap
// (or none), a uid per session when Sift runs as root, the fallocate
// filter, the session's control group (memory and processes summed over
// all its programs), its disk (a file system of the budget's size, or
// accounting) and the per-process limits. The kernel and the process
// runner of package operator start their interpreter through Sandbox and
// hold the session's resources through Hold and HoldDisk; the names an
// embedder chooses a sandbox with are re-exported there.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Sandbox starts processes confined to one session workspace. The Python
// runners (process mode and the kernel) start their interpreter through it,
// so the same confinement applies to both.
//
// A caller builds the command, wires its streams and starts it:
//
//	cmd, err := sb.Command(ProcSpec{Root: root, Argv: argv, Env: env})
//	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
//	cmd.ExtraFiles = []*os.File{protoW} // fd 3 in the program
//	err = cmd.Start()
//	...
//	err = sb.Signal(cmd, syscall.SIGINT) // interrupt the running cell
//	...
//	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // end it and everything it started
//	cmd.Wait()
//
// cmd.Process may be a wrapper (bubblewrap) rather than the program: send
// signals meant for the program through Signal, and end the whole sandbox by
// killing cmd's process group.
type Sandbox interface {
	// Name says which sandbox this is: "bwrap" or "none".
	Name() string
	// Command returns an unstarted command that runs spec inside the
	// sandbox. The caller sets Stdin, Stdout, Stderr and ExtraFiles (which
	// the sandbox passes through as fds 3, 4, ...) and starts it. The
	// command runs in its own process group.
	Command(spec ProcSpec) (*exec.Cmd, error)
	// Signal delivers sig to the sandboxed program itself (not to a
	// wrapper around it), e.g. SIGINT to interrupt a running cell.
	Signal(cmd *exec.Cmd, sig syscall.Signal) error
}

// ProcSpec is a program to run in a sandbox.
type ProcSpec struct {
	// Root is the workspace: the working directory, and the only writable
	// place (its input/ stays read-only).
	Root string
	// Argv is the program and its arguments; Argv[0] is an absolute path.
	Argv []string
	// Env is the program's complete environment.
	Env []string
	// Limits bound the program's resources. The sandbox applies, resource
	// by resource, the stricter of these and its own configured limits.
	Limits Limits
	// Writable are extra host directories the program may write (e.g. a
	// shared cache); ReadOnly are extra host paths it may read.
	Writable, ReadOnly []string
}

// workspaceHolder is a sandbox that keeps resources per workspace (the
// session's control group; the bwrap sandbox's uid of its own, when Sift
// runs as root) while programs run there; see bwrapSandbox.Hold.
type workspaceHolder interface {
	Hold(root string) (release func(), err error)
}

// Hold holds root in sb when sb keeps per-workspace resources;
// call release once every program started there has ended.
func Hold(sb Sandbox, root string) (release func(), err error) {
	if h, ok := sb.(workspaceHolder); ok {
		return h.Hold(root)
	}
	return func() {}, nil
}

// programFinder is a sandbox that can name the host pid of the program a
// command it built runs (beneath any wrapper).
type programFinder interface {
	programPid(cmd *exec.Cmd) (int, error)
}

// limitedSandbox is a sandbox that applies limits of its own to every
// program, beside each ProcSpec's.
type limitedSandbox interface {
	configuredLimits() Limits
}

// Limits bound one sandboxed program. Zero (or negative) fields mean no
// limit. They are applied as rlimits, which bound each process: a program
// that forks gets the same limits again in each child, except Processes,
// which counts all processes of the user the program runs as. Where Sift
// can make control groups (see cgroup.go), MemoryBytes and
// Processes also bound the whole session: every process of the workspace
// together.
type Limits struct {
	// MemoryBytes caps the address space of each process (RLIMIT_AS);
	// going past it makes allocations fail (MemoryError in Python). It
	// also caps the memory the session's processes use together
	// (resident memory and their tmpfs files, /tmp and /dev/shm): past
	// it the kernel's OOM killer ends one of them.
	MemoryBytes int64
	// Processes caps the number of processes and threads (RLIMIT_NPROC,
	// and the session's pids limit); going past it makes fork and thread
	// creation fail (EAGAIN). The kernel does not enforce the rlimit for
	// root, so a bwrap sandbox runs the program as an unprivileged user
	// when Sift runs as root; the session's limit holds for root too.
	Processes int
	// FileSizeBytes caps the size of any file the program writes
	// (RLIMIT_FSIZE); writing past it fails with EFBIG ("File too large").
	FileSizeBytes int64
	// CPUSeconds caps CPU time (RLIMIT_CPU); past it the program is killed
	// with SIGXCPU.
	CPUSeconds int
	// DiskBytes and DiskFiles are the workspace's disk budget: what work/
	// and out/ may hold in all, in bytes on disk and in files. Unlike the
	// others they bound a whole session, not one process: where Sift can
	// mount one, work/ and out/ live on a file system of that size while
	// the Kernel or Local is open, so writes past it fail (see
	// quota.go); the Kernel and Local also measure the workspace
	// and stop a cell that passes them (see disk.go); the sandbox
	// caps any one file at DiskBytes.
	DiskBytes int64
	DiskFiles int
}

// Workspace layout: the three top-level directories of a session
// workspace, which the sandbox mounts (input/ read-only, work/ and out/
// writable).
const (
	// InputDir holds copies of the user's files; code and tools may read it
	// but never write it.
	InputDir = "input"
	// WorkDir is scratch space for code and tools.
	WorkDir = "work"
	// OutDir holds the run's artifacts (exports, figures).
	OutDir = "out"
)

// Within reports whether the clean absolute path p is root or lies under
// it.
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ErrNoSandbox: the requested sandbox is not available here.
var ErrNoSandbox = errors.New("sandbox not available")

// SandboxMode chooses the sandbox NewSandbox builds.
type SandboxMode string

// Sandbox modes.
const (
	// SandboxAuto uses bubblewrap when it is installed and works here, and
	// otherwise refuses (or, with AllowUnsandboxed, runs unsandboxed).
	SandboxAuto SandboxMode = "auto"
	// SandboxBwrap requires bubblewrap and refuses when it is unavailable.
	SandboxBwrap SandboxMode = "bwrap"
	// SandboxNone runs programs unsandboxed (NoSandbox), still applying
	// the resource limits.
	SandboxNone SandboxMode = "none"
)

// Environment variables read by SandboxFromEnv.
const (
	// SandboxEnv selects the mode: auto, bwrap or none.
	SandboxEnv = "SIFT_SANDBOX"
	// SandboxMemoryEnv caps the address space, e.g. "2GiB" (see
	// ParseByteSize), or "unlimited".
	SandboxMemoryEnv = "SIFT_SANDBOX_MEMORY"
	// SandboxProcsEnv caps processes and threads, e.g. "128", or
	// "unlimited".
	SandboxProcsEnv = "SIFT_SANDBOX_PROCS"
)

// SandboxConfig configures NewSandbox.
type SandboxConfig struct {
	// Mode chooses the sandbox. Optional; default SandboxAuto.
	Mode SandboxMode
	// AllowUnsandboxed lets SandboxAuto fall back to the unsandboxed mode
	// when bubblewrap is unavailable, instead of refusing. The caller
	// should then say loudly that code runs unsandboxed (the returned
	// sandbox's Name is "none"). It has no effect on SandboxBwrap.
	// Optional; default false.
	AllowUnsandboxed bool
	// Bwrap is the path of the bubblewrap executable. Optional; default
	// "bwrap" looked up on PATH.
	Bwrap string
	// UIDs is the range of uids the bwrap sandbox gives workspaces, one
	// each, when Sift runs as root. Optional; default
	// DefaultSandboxUIDFirst and the DefaultSandboxUIDCount uids from it
	// (see SandboxUIDsEnv).
	UIDs UIDRange
	// Limits every program started through the sandbox gets (combined with
	// ProcSpec.Limits by taking the stricter of each). A zero field takes
	// DefaultLimits' value; a negative field means no limit. Optional;
	// default DefaultLimits().
	Limits Limits

	// envErr is an unparseable setting SandboxFromEnv met; NewSandbox
	// reports it.
	envErr error
}

// SandboxFromEnv reads a SandboxConfig from the environment through getenv
// (os.Getenv in production): SIFT_SANDBOX (auto|bwrap|none),
// SIFT_SANDBOX_MEMORY (e.g. "2GiB"), SIFT_SANDBOX_PROCS (e.g. "128"),
// SIFT_SANDBOX_DISK (e.g. "10GiB"), SIFT_SANDBOX_FILES (e.g. "200000") and
// SIFT_SANDBOX_UIDS (e.g. "1879048192-1879113727").
// Unset variables leave the defaults. A malformed value is reported by
// NewSandbox, so that a mistyped limit is never silently dropped.
func SandboxFromEnv(getenv func(string) string) SandboxConfig {
	var cfg SandboxConfig
	cfg.Mode = SandboxMode(strings.ToLower(strings.TrimSpace(getenv(SandboxEnv))))
	if v := strings.TrimSpace(getenv(SandboxMemoryEnv)); v != "" {
		n, err := ParseByteSize(v)
		if err != nil {
			cfg.envErr = errors.Join(cfg.envErr, fmt.Errorf("%s=%q: %w", SandboxMemoryEnv, v, err))
		}
		cfg.Limits.MemoryBytes = n
	}
	if v := strings.TrimSpace(getenv(SandboxProcsEnv)); v != "" {
		switch n, err := strconv.Atoi(v); {
		case strings.EqualFold(v, "unlimited") || strings.EqualFold(v, "none"):
			cfg.Limits.Processes = -1
		case err != nil || n < 1:
			cfg.envErr = errors.Join(cfg.envErr, fmt.Errorf("%s=%q: want a positive whole number of processes, or unlimited", SandboxProcsEnv, v))
		default:
			cfg.Limits.Processes = n
		}
	}
	if v := strings.TrimSpace(getenv(SandboxDiskEnv)); v != "" {
		n, err := ParseByteSize(v)
		if err != nil {
			cfg.envErr = errors.Join(cfg.envErr, fmt.Errorf("%s=%q: %w", SandboxDiskEnv, v, err))
		}
		cfg.Limits.DiskBytes = n
	}
	if v := strings.TrimSpace(getenv(SandboxFilesEnv)); v != "" {
		switch n, err := strconv.Atoi(v); {
		case strings.EqualFold(v, "unlimited") || strings.EqualFold(v, "none"):
			cfg.Limits.DiskFiles = -1
		case err != nil || n < 1:
			cfg.envErr = errors.Join(cfg.envErr, fmt.Errorf("%s=%q: want a positive whole number of files, or unlimited", SandboxFilesEnv, v))
		default:
			cfg.Limits.DiskFiles = n
		}
	}
	if v := strings.TrimSpace(getenv(SandboxUIDsEnv)); v != "" {
		rng, err := parseUIDRange(v)
		if err != nil {
			cfg.envErr = errors.Join(cfg.envErr, fmt.Errorf("%s=%q: %w", SandboxUIDsEnv, v, err))
		}
		cfg.UIDs = rng
	}
	return cfg
}

// NewSandbox builds the sandbox cfg asks for. In SandboxAuto and
// SandboxBwrap mode it checks, once per bubblewrap executable and process,
// that bubblewrap really works here (user namespaces can be disabled) by
// running /bin/true inside it with the same namespaces; when it does not,
// the error wraps ErrNoSandbox and says how to install bubblewrap or how
// to allow the weaker unsandboxed mode explicitly. SandboxNone returns an
// unsandboxed runner that still applies the limits.
func NewSandbox(cfg SandboxConfig) (Sandbox, error) {
	if cfg.envErr != nil {
		return nil, fmt.Errorf("new sandbox: %w", cfg.envErr)
	}
	if cfg.Mode == "" {
		cfg.Mode = SandboxAuto
	}
	cfg.Limits = cfg.Limits.WithDefaults(DefaultLimits())
	switch cfg.Mode {
	case SandboxNone:
		if _, err := withLimits(cfg.Limits, []string{"/bin/true"}); err != nil {
			return nil, fmt.Errorf("new sandbox: %w", err)
		}
		return noSandbox{limits: cfg.Limits}, nil
	case SandboxAuto, SandboxBwrap:
	default:
		return nil, fmt.Errorf("new sandbox: unknown sandbox mode %q: use auto, bwrap or none", cfg.Mode)
	}
	sb, err := newBwrapSandbox(cfg)
	if err == nil {
		return sb, nil
	}
	if cfg.Mode == SandboxAuto && cfg.AllowUnsandboxed {
		if _, lerr := withLimits(cfg.Limits, []string{"/bin/true"}); lerr != nil {
			return nil, fmt.Errorf("new sandbox: %w", lerr)
		}
		return noSandbox{limits: cfg.Limits}, nil
	}
	return nil, fmt.Errorf("new sandbox: %w", err)
}

// NoSandbox runs programs as plain child processes in their own process
// group: path checks in the tools are then the only confinement. It applies
// ProcSpec.Limits (through prlimit(1)), but the program runs as Sift's own
// user: when that is root, the kernel does not enforce the process limit.
func NoSandbox() Sandbox { return noSandbox{} }

// noSandbox is NoSandbox; limits are the configured ones, combined with
// each ProcSpec's.
type noSandbox struct {
	limits Limits
}

func (noSandbox) Name() string { return "none" }

func (n noSandbox) configuredLimits() Limits { return n.limits }

func (n noSandbox) Command(spec ProcSpec) (*exec.Cmd, error) {
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("sandbox: empty command")
	}
	argv, err := withLimits(n.limits.Tighter(spec.Limits), spec.Argv)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd, err := sessionCgroups.command(spec.Root, n.limits.Tighter(spec.Limits), argv)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd.Dir = spec.Root
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{} // nil would mean "inherit Sift's environment"
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

// Hold keeps the workspace's session control group (see
// cgroup.go) until release; releasing the last hold ends every
// process still in it and removes it.
func (n noSandbox) Hold(root string) (release func(), err error) {
	release, err = sessionCgroups.hold(root, n.limits)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return release, nil
}

// programPid returns cmd's process, which is the program itself.
func (noSandbox) programPid(cmd *exec.Cmd) (int, error) {
	if cmd == nil || cmd.Process == nil {
		return 0, os.ErrProcessDone
	}
	return cmd.Process.Pid, nil
}

// Signal signals cmd's process, which is the program itself: prlimit (and
// the shim that joins the session's control group) exec it in place.
func (noSandbox) Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd == nil || cmd.Process == nil {
		return os.ErrProcessDone
	}
	return cmd.Process.Signal(sig)
}

// ExitSignal reports the signal that ended a sandboxed program, given the
// error cmd.Wait returned: either the process itself was killed by it, or
// it exited with status 128+N, which is how bubblewrap's init (and a shell)
// reports that the program it ran was killed by signal N.
func ExitSignal(err error) (syscall.Signal, bool) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		return 0, false
	case ws.Signaled():
		return ws.Signal(), true
	case ws.Exited() && ws.ExitStatus() > 128 && ws.ExitStatus() <= 128+64:
		return syscall.Signal(ws.ExitStatus() - 128), true
	}
	return 0, false
}

// validateSpec checks what every sandbox needs of a ProcSpec.
func validateSpec(spec ProcSpec) error {
	if len(spec.Argv) == 0 {
		return errors.New("empty command: ProcSpec.Argv needs the program")
	}
	if !filepath.IsAbs(spec.Argv[0]) {
		return fmt.Errorf("program %q is not an absolute path: resolve it first (see FindPython)", spec.Argv[0])
	}
	if spec.Root == "" || !filepath.IsAbs(spec.Root) {
		return fmt.Errorf("workspace root %q is not an absolute path", spec.Root)
	}
	for _, p := range append(append([]string{}, spec.Writable...), spec.ReadOnly...) {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("extra path %q is not absolute", p)
		}
	}
	return nil
}
