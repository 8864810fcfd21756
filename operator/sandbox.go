package operator

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// Sandbox starts processes confined to one session workspace. The Python
// runners (process mode and the kernel) start their interpreter through it,
// so the same confinement applies to both.
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
	// Limits bound the program's resources.
	Limits Limits
	// Writable are extra host directories the program may write (e.g. a
	// shared cache); ReadOnly are extra host paths it may read.
	Writable, ReadOnly []string
}

// Limits bound one sandboxed program. Zero fields mean no limit.
type Limits struct {
	// MemoryBytes caps the address space.
	MemoryBytes int64
	// Processes caps the number of processes and threads.
	Processes int
	// FileSizeBytes caps the size of any file the program writes.
	FileSizeBytes int64
	// CPUSeconds caps CPU time.
	CPUSeconds int
}

// ErrNoSandbox: the requested sandbox is not available here.
var ErrNoSandbox = errors.New("sandbox not available")

// NoSandbox runs programs as plain child processes in their own process
// group: path checks in the tools are then the only confinement.
func NoSandbox() Sandbox { return noSandbox{} }

type noSandbox struct{}

func (noSandbox) Name() string { return "none" }

func (noSandbox) Command(spec ProcSpec) (*exec.Cmd, error) {
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("sandbox: empty command")
	}
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Root
	cmd.Env = spec.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

func (noSandbox) Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd == nil || cmd.Process == nil {
		return os.ErrProcessDone
	}
	return cmd.Process.Signal(sig)
}
