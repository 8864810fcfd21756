package operator

import (
	"syscall"

	"github.com/sift-agent/sift/operator/internal/probecache"
	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// The sandbox lives in operator/internal/sandbox: how a program is
// confined (bubblewrap, uids, seccomp, mounts), the session's control
// group and disk, and the resource limits. The kernel and the process
// runner reach it through its Sandbox interface and a few functions
// (sandbox.Hold, HoldDisk, WatchDisk, EndStrays, Finished). These are the
// names embedders use to choose and configure one; they stay here.

// Sandbox starts processes confined to one session workspace. The Python
// runners (process mode and the kernel) start their interpreter through it,
// so the same confinement applies to both. See sandbox.Sandbox.
type Sandbox = sandbox.Sandbox

// ProcSpec is a program to run in a sandbox.
type ProcSpec = sandbox.ProcSpec

// Limits bound one sandboxed program, and (memory, processes, disk) one
// session. Zero (or negative) fields mean no limit.
type Limits = sandbox.Limits

// SandboxMode chooses the sandbox NewSandbox builds.
type SandboxMode = sandbox.SandboxMode

// SandboxConfig configures NewSandbox.
type SandboxConfig = sandbox.SandboxConfig

// UIDRange is a range of uids the bwrap sandbox gives workspaces, one
// each, when Sift runs as root.
type UIDRange = sandbox.UIDRange

// Sandbox modes.
const (
	// SandboxAuto uses bubblewrap when it is installed and works here, and
	// otherwise refuses (or, with AllowUnsandboxed, runs unsandboxed).
	SandboxAuto = sandbox.SandboxAuto
	// SandboxBwrap requires bubblewrap and refuses when it is unavailable.
	SandboxBwrap = sandbox.SandboxBwrap
	// SandboxNone runs programs unsandboxed (NoSandbox), still applying
	// the resource limits.
	SandboxNone = sandbox.SandboxNone
)

// Environment variables read by SandboxFromEnv, and the on-disk probe
// cache's.
const (
	SandboxEnv       = sandbox.SandboxEnv       // auto, bwrap or none
	SandboxMemoryEnv = sandbox.SandboxMemoryEnv // e.g. "2GiB", or "unlimited"
	SandboxProcsEnv  = sandbox.SandboxProcsEnv  // e.g. "128", or "unlimited"
	SandboxDiskEnv   = sandbox.SandboxDiskEnv   // e.g. "10GiB", or "unlimited"
	SandboxFilesEnv  = sandbox.SandboxFilesEnv  // e.g. "200000", or "unlimited"
	SandboxUIDsEnv   = sandbox.SandboxUIDsEnv   // e.g. "1879048192-1879113727"
	QuotaEnv         = sandbox.QuotaEnv         // on, off or auto
	ProbeCacheEnv    = probecache.Env           // a file, or "off"
)

// Default limits (see DefaultLimits) and uids.
const (
	DefaultMemoryBytes     = sandbox.DefaultMemoryBytes
	DefaultProcesses       = sandbox.DefaultProcesses
	DefaultFileSizeBytes   = sandbox.DefaultFileSizeBytes
	DefaultCPUSeconds      = sandbox.DefaultCPUSeconds
	DefaultDiskBytes       = sandbox.DefaultDiskBytes
	DefaultDiskFiles       = sandbox.DefaultDiskFiles
	DefaultSandboxUIDFirst = sandbox.DefaultSandboxUIDFirst
	DefaultSandboxUIDCount = sandbox.DefaultSandboxUIDCount
)

// Errors of the sandbox.
var (
	// ErrNoSandbox: the requested sandbox is not available here.
	ErrNoSandbox = sandbox.ErrNoSandbox
	// ErrNoSandboxUID: every uid of the range is held by a live session.
	ErrNoSandboxUID = sandbox.ErrNoSandboxUID
	// ErrNoPrlimit: prlimit(1), which applies the limits, is missing.
	ErrNoPrlimit = sandbox.ErrNoPrlimit
)

// NewSandbox builds the sandbox cfg asks for; see sandbox.NewSandbox.
func NewSandbox(cfg SandboxConfig) (Sandbox, error) { return sandbox.NewSandbox(cfg) }

// NoSandbox runs programs as plain child processes in their own process
// group: path checks in the tools are then the only confinement.
func NoSandbox() Sandbox { return sandbox.NoSandbox() }

// SandboxFromEnv reads a SandboxConfig from the environment through getenv
// (os.Getenv in production).
func SandboxFromEnv(getenv func(string) string) SandboxConfig { return sandbox.SandboxFromEnv(getenv) }

// DefaultLimits returns the limits a sandbox applies unless configured
// otherwise.
func DefaultLimits() Limits { return sandbox.DefaultLimits() }

// ParseByteSize parses a size such as "512MiB", "2GiB" or "1000000".
func ParseByteSize(s string) (int64, error) { return sandbox.ParseByteSize(s) }

// Warnings returns what a person running Sift should be told about sb's
// containment, loudly: limits it cannot apply here, and why.
func Warnings(sb Sandbox) []string { return sandbox.Warnings(sb) }

// ExitSignal reports the signal that ended a sandboxed program, given the
// error cmd.Wait returned.
func ExitSignal(err error) (syscall.Signal, bool) { return sandbox.ExitSignal(err) }

// ProbeCachePath returns the file that remembers which interpreter and
// sandbox setup worked here ("" when the cache is off).
func ProbeCachePath() string { return probecache.Path() }

// ForgetProbes clears the on-disk probe cache, so the next run probes the
// interpreter and sandbox again.
func ForgetProbes() error { return probecache.Forget() }
