package operator

import (
	"context"
	"errors"
)

// KernelOperator is an Operator whose Python cells run in one stateful
// Kernel per session: variables defined by one RunPython call are there in
// the next. Its file operations are Local's, on the same workspace. Safe
// for concurrent use; cells run one at a time.
type KernelOperator struct {
	*Local
	kernel *Kernel
}

var _ Operator = (*KernelOperator)(nil)

// NewKernelOperator returns a KernelOperator for the workspace at cfg.Root;
// see NewKernel. The interpreter starts on the first RunPython, or earlier
// through Kernel().Start.
func NewKernelOperator(cfg KernelConfig) (*KernelOperator, error) {
	k, err := NewKernel(cfg)
	if err != nil {
		return nil, err
	}
	return &KernelOperator{Local: k.ws, kernel: k}, nil
}

// Kernel returns the operator's kernel.
func (o *KernelOperator) Kernel() *Kernel { return o.kernel }

// RunPython runs code as the next cell of the session's kernel; see
// Kernel.Run.
func (o *KernelOperator) RunPython(ctx context.Context, code string, opts RunOptions) (*RunResult, error) {
	return o.kernel.Run(ctx, code, opts)
}

// Close shuts the kernel down, with everything it started, and refuses
// further runs.
func (o *KernelOperator) Close() error {
	return errors.Join(o.kernel.Close(), o.Local.Close())
}

// PythonMode reports PythonKernel: variables persist between cells.
func (o *KernelOperator) PythonMode() PythonMode { return PythonKernel }

// KernelState names the data the kernel holds after its last cell; see
// Kernel.State.
func (o *KernelOperator) KernelState() string { return o.kernel.State() }
