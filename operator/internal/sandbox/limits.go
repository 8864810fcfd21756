package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// Default resource limits of a sandboxed program (see DefaultLimits).
const (
	// DefaultMemoryBytes caps the address space: 4 GiB. Address space is
	// virtual memory, which runs ahead of what is resident (thread stacks,
	// arenas, BLAS buffers), so this is deliberately roomier than the RAM a
	// cell is expected to touch.
	DefaultMemoryBytes = 4 << 30
	// DefaultProcesses caps processes and threads: 256.
	DefaultProcesses = 256
	// DefaultFileSizeBytes caps the size of any one file written: 1 GiB.
	DefaultFileSizeBytes = 1 << 30
	// DefaultCPUSeconds caps CPU time: 1 hour. It is counted over the
	// process's whole life, so for a long-lived kernel it bounds the
	// session's total computation, not one cell.
	DefaultCPUSeconds = 3600
)

// DefaultLimits returns the limits a sandbox applies unless configured
// otherwise: 4 GiB of address space, 256 processes and threads, 1 GiB per
// file, one hour of CPU time, and a disk budget of 4 GiB and 100,000 files
// per session.
func DefaultLimits() Limits {
	return Limits{
		MemoryBytes:   DefaultMemoryBytes,
		Processes:     DefaultProcesses,
		FileSizeBytes: DefaultFileSizeBytes,
		CPUSeconds:    DefaultCPUSeconds,
		DiskBytes:     DefaultDiskBytes,
		DiskFiles:     DefaultDiskFiles,
	}
}

// IsZero reports whether l sets no limit at all.
func (l Limits) IsZero() bool { return l == Limits{} }

// WithDefaults fills the zero fields of l from def; negative fields (set
// explicitly to "unlimited") stay as they are.
func (l Limits) WithDefaults(def Limits) Limits {
	if l.MemoryBytes == 0 {
		l.MemoryBytes = def.MemoryBytes
	}
	if l.Processes == 0 {
		l.Processes = def.Processes
	}
	if l.FileSizeBytes == 0 {
		l.FileSizeBytes = def.FileSizeBytes
	}
	if l.CPUSeconds == 0 {
		l.CPUSeconds = def.CPUSeconds
	}
	if l.DiskBytes == 0 {
		l.DiskBytes = def.DiskBytes
	}
	if l.DiskFiles == 0 {
		l.DiskFiles = def.DiskFiles
	}
	return l
}

// Tighter returns, resource by resource, the stricter of l and o, where a
// field <= 0 means no limit.
func (l Limits) Tighter(o Limits) Limits {
	return Limits{
		MemoryBytes:   MinLimit(l.MemoryBytes, o.MemoryBytes),
		Processes:     int(MinLimit(int64(l.Processes), int64(o.Processes))),
		FileSizeBytes: MinLimit(l.FileSizeBytes, o.FileSizeBytes),
		CPUSeconds:    int(MinLimit(int64(l.CPUSeconds), int64(o.CPUSeconds))),
		DiskBytes:     MinLimit(l.DiskBytes, o.DiskBytes),
		DiskFiles:     int(MinLimit(int64(l.DiskFiles), int64(o.DiskFiles))),
	}
}

// MinLimit is the stricter of two limits, <= 0 meaning none (returned as 0).
func MinLimit(a, b int64) int64 {
	switch {
	case a <= 0 && b <= 0:
		return 0
	case a <= 0:
		return b
	case b <= 0:
		return a
	default:
		return min(a, b)
	}
}

// prlimitArgs returns the prlimit(1) options that apply l, or nil when l
// sets nothing. Core dumps are always switched off: a crashing cell must not
// drop a core file (its whole memory) into the workspace.
func (l Limits) prlimitArgs() []string {
	l = l.Tighter(Limits{}) // normalise "unlimited" (negative) to 0
	// No one file may pass the session's disk budget; the budget itself
	// is not a per-process limit.
	l.FileSizeBytes = MinLimit(l.FileSizeBytes, l.DiskBytes)
	l.DiskBytes, l.DiskFiles = 0, 0
	if l.IsZero() {
		return nil
	}
	args := []string{"--core=0"}
	if l.MemoryBytes > 0 {
		args = append(args, "--as="+strconv.FormatInt(l.MemoryBytes, 10))
	}
	if l.Processes > 0 {
		args = append(args, "--nproc="+strconv.Itoa(l.Processes))
	}
	if l.FileSizeBytes > 0 {
		args = append(args, "--fsize="+strconv.FormatInt(l.FileSizeBytes, 10))
	}
	if l.CPUSeconds > 0 {
		// Soft limit first: SIGXCPU ends the program with a recognisable
		// signal; the hard limit a few seconds later (SIGKILL) catches a
		// program that ignores it.
		args = append(args, fmt.Sprintf("--cpu=%d:%d", l.CPUSeconds, l.CPUSeconds+5))
	}
	return append(args, "--")
}

// ErrNoPrlimit: limits were asked for but prlimit(1) is not installed.
var ErrNoPrlimit = errors.New("prlimit (util-linux) not found: install util-linux (`apt-get install util-linux`, `dnf install util-linux-core`) to apply resource limits")

// prlimitPath finds prlimit(1) once. A Go program cannot set resource limits
// for a child between fork and exec, so the limits are applied by this
// small util-linux tool, which sets them on itself and execs the program
// (same process, same pid).
var prlimitPath = sync.OnceValues(func() (string, error) {
	p, err := exec.LookPath("prlimit")
	if err != nil {
		return "", ErrNoPrlimit
	}
	return p, nil
})

// withLimits prefixes argv with a prlimit invocation applying l; argv is
// returned unchanged when l sets nothing.
func withLimits(l Limits, argv []string) ([]string, error) {
	opts := l.prlimitArgs()
	if opts == nil {
		return argv, nil
	}
	p, err := prlimitPath()
	if err != nil {
		return nil, err
	}
	out := append([]string{p}, opts...)
	return append(out, argv...), nil
}

// ParseByteSize parses a size such as "2GiB", "512MiB", "1.5G", "750MB" or
// "1073741824". Binary suffixes (KiB, MiB, GiB, TiB, and the bare K, M, G,
// T) count in 1024s; decimal ones (KB, MB, GB, TB) in 1000s; a bare number
// or B is bytes. "unlimited" (or "none") returns -1.
func ParseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "unlimited", "none":
		return -1, nil
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	if num == "" {
		return 0, fmt.Errorf("parse size %q: want a number with an optional unit, like 2GiB or 512MiB", s)
	}
	mult, ok := byteUnits[unit]
	if !ok {
		return 0, fmt.Errorf("parse size %q: unknown unit %q; use B, KiB, MiB, GiB, TiB (or KB, MB, GB, TB)", s, t[i:])
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("parse size %q: %w", s, err)
	}
	v := f * float64(mult)
	if v < 1 || v > 1<<62 {
		return 0, fmt.Errorf("parse size %q: out of range; give at least 1 byte", s)
	}
	return int64(v), nil
}

// byteUnits maps lower-case unit suffixes to their size in bytes.
var byteUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
	"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
}
