package operator

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// PythonMode says how an Operator runs Python cells.
type PythonMode string

// The Python modes.
const (
	// PythonKernel runs every cell in one long-lived interpreter per
	// session, whose variables persist between cells (KernelOperator).
	PythonKernel PythonMode = "kernel"
	// PythonProcess runs every cell in a fresh interpreter: nothing carries
	// over between cells (Local).
	PythonProcess PythonMode = "process"
)

// DefaultPythonMode is the mode used when none is configured.
const DefaultPythonMode = PythonKernel

// ParsePythonMode turns a flag or config value into a PythonMode; "" means
// DefaultPythonMode.
func ParsePythonMode(s string) (PythonMode, error) {
	switch m := PythonMode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return DefaultPythonMode, nil
	case PythonKernel, PythonProcess:
		return m, nil
	}
	return "", fmt.Errorf("python mode %q: unknown; use %q (variables persist between cells) or %q (a fresh interpreter per cell)",
		s, PythonKernel, PythonProcess)
}

// Config configures the Operator New builds.
type Config struct {
	// Root is the session workspace directory. Required.
	Root string
	// Mode picks how Python cells run. Optional; default DefaultPythonMode
	// (kernel).
	Mode PythonMode
	// Python is the resolved interpreter (see FindPython). Optional: without
	// it the file operations work and RunPython fails with ErrNoPython.
	Python string
	// Sandbox starts the interpreters (see NewSandbox). Optional; default
	// NoSandbox().
	Sandbox Sandbox
	// Timeout bounds each cell unless RunOptions.Timeout is set. Optional;
	// default DefaultTimeout.
	Timeout time.Duration
	// MaxOutputBytes caps the stdout and the stderr kept from one cell,
	// each. Optional; default DefaultMaxOutputBytes.
	MaxOutputBytes int
	// ExtraEnv holds KEY=value entries added to the scrubbed environment.
	// Optional.
	ExtraEnv []string
	// Limits bound each interpreter, through the sandbox. Writable and
	// ReadOnly are extra host paths the kernel's sandbox opens (kernel mode
	// only; see KernelConfig). Optional.
	Limits             Limits
	Writable, ReadOnly []string
}

// New returns the Operator for cfg.Mode: a KernelOperator in kernel
// mode, a Local in process mode. Both record every cell in the workspace's
// cells.jsonl.
func New(cfg Config) (Operator, error) {
	mode, err := ParsePythonMode(string(cfg.Mode))
	if err != nil {
		return nil, fmt.Errorf("new operator: %w", err)
	}
	switch mode {
	case PythonKernel:
		return NewKernelOperator(KernelConfig{
			Root:           cfg.Root,
			Python:         cfg.Python,
			Sandbox:        cfg.Sandbox,
			Timeout:        cfg.Timeout,
			MaxOutputBytes: cfg.MaxOutputBytes,
			ExtraEnv:       cfg.ExtraEnv,
			Limits:         cfg.Limits,
			Writable:       cfg.Writable,
			ReadOnly:       cfg.ReadOnly,
		})
	default:
		l, err := NewLocal(LocalConfig{
			Root:           cfg.Root,
			Python:         cfg.Python,
			Timeout:        cfg.Timeout,
			MaxOutputBytes: cfg.MaxOutputBytes,
			ExtraEnv:       cfg.ExtraEnv,
			Sandbox:        cfg.Sandbox,
			Limits:         cfg.Limits,
		})
		if err != nil {
			return nil, err
		}
		records, err := ReadCells(l.root)
		if err != nil {
			return nil, err
		}
		return &processOperator{Local: l, cells: openCellLog(l.root, records)}, nil
	}
}

// processOperator is Local recording each cell in cells.jsonl (generation
// 0: nothing carries over between its cells).
type processOperator struct {
	*Local
	mu    sync.Mutex // one run at a time, so the cell number read after it is its own
	cells *cellLog
}

// RunPython runs code in a fresh interpreter (see Local.RunPython) and
// records the cell.
func (o *processOperator) RunPython(ctx context.Context, code string, opts RunOptions) (*RunResult, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	before := o.cellCounter()
	start := time.Now()
	res, err := o.Local.RunPython(ctx, code, opts)
	after := o.cellCounter()
	if res == nil || after == before {
		return res, err
	}
	res.Cell = after - 1
	rec := newCellRecord(res.Cell, 0, code, res, start)
	rec.Step = stepOf(ctx, opts)
	notice, rerr := o.cells.append(rec)
	if rerr != nil {
		res.Notice = joinNotices(res.Notice, "This cell could not be recorded in "+CellsLogFile+": "+rerr.Error())
	}
	res.Notice = joinNotices(res.Notice, notice)
	return res, err
}

// cellCounter reads Local's next cell number.
func (o *processOperator) cellCounter() int {
	o.Local.mu.Lock()
	defer o.Local.mu.Unlock()
	return o.nextCell
}

// ModeOf says how op runs Python: the mode it reports through a
// PythonMode() method (KernelOperator and the process-mode operator of
// New have one), PythonProcess for any other operator.
func ModeOf(op Operator) PythonMode {
	if m, ok := op.(interface{ PythonMode() PythonMode }); ok {
		return m.PythonMode()
	}
	return PythonProcess
}

// PythonMode reports PythonProcess: nothing carries over between cells.
func (o *processOperator) PythonMode() PythonMode { return PythonProcess }
