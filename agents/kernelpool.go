package agents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// KernelPoolDir is the directory of the sessions root that holds a kernel
// pool's slots, and the workspaces of the sessions that took them (their
// <root>/<id> links there; see session.Adopt).
const KernelPoolDir = session.KernelPoolDir

// NewKernelPool returns a pool of size kernels configured exactly as
// cfg's sessions' own kernels are (interpreter, sandbox, limits, cell
// timeout), filling in the background, for Config.KernelPool. Size 0
// returns a pool that is off. warn is told what the pool could not do in
// the background (operator.KernelPoolConfig.Warn; nil drops it). The
// caller closes it when it stops serving, after the runs using it: Close
// ends the kernels still waiting.
func NewKernelPool(ctx context.Context, cfg Config, size int, warn func(msg string)) (*operator.KernelPool, error) {
	if size == 0 {
		return operator.NewKernelPool(operator.KernelPoolConfig{})
	}
	if mode, err := operator.ParsePythonMode(string(cfg.PythonMode)); err != nil {
		return nil, fmt.Errorf("kernel pool: %w", err)
	} else if mode != operator.PythonKernel {
		return nil, fmt.Errorf("kernel pool: python mode %q runs no kernel; use the kernel mode or a pool of 0", mode)
	}
	root := cfg.SessionsRoot
	if root == "" {
		root = session.DefaultRoot()
	}
	python, err := operator.FindPython(ctx, cfg.Python)
	if err != nil {
		return nil, fmt.Errorf("kernel pool: %w", err)
	}
	sb, err := operator.NewSandbox(cfg.Sandbox)
	if err != nil {
		return nil, fmt.Errorf("kernel pool: %w", err)
	}
	return operator.NewKernelPool(operator.KernelPoolConfig{
		Dir:    filepath.Join(root, KernelPoolDir),
		Size:   size,
		Kernel: operator.KernelConfig{Python: python, Sandbox: sb, Timeout: codeTimeout(cfg)},
		Warn:   warn,
	})
}

// adoptPooled makes a pooled kernel's slot the workspace of the new
// session id, when the run's kernel would come from the pool; ok is
// false when it does not (no pool, none ready, the id exists), and the
// run then creates its workspace as without a pool.
func (r *run) adoptPooled(ctx context.Context, id string) (ws *session.Workspace, ok bool) {
	pool := r.sift.cfg.KernelPool
	if pool.Size() == 0 {
		return nil, false
	}
	if mode, err := operator.ParsePythonMode(string(r.sift.cfg.PythonMode)); err != nil || mode != operator.PythonKernel {
		return nil, false
	}
	root, err := filepath.Abs(r.sift.cfg.SessionsRoot)
	if err != nil || session.ValidateID(id) != nil {
		return nil, false
	}
	// A follow-up keeps its own workspace: no kernel is taken for it.
	if _, err := os.Lstat(filepath.Join(root, id)); !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	op, ok := pool.Take()
	if !ok {
		return nil, false
	}
	ws, err = session.Adopt(ctx, root, id, op.Root())
	if err != nil {
		_ = pool.Discard(op)
		return nil, false
	}
	pool.Adopted(op)
	r.pooled = op
	return ws, true
}

// SweepKernelPool removes from cfg's sessions root the kernel pool slots
// that processes which died left (see operator.SweepKernelPool): for a
// process that runs sessions there without a pool of its own. A pool
// sweeps its directory itself. A sweep that fails is said to warn
// (operator.SweepWarning; nil drops it).
func SweepKernelPool(cfg Config, warn func(msg string)) {
	root := cfg.SessionsRoot
	if root == "" {
		root = session.DefaultRoot()
	}
	dir := filepath.Join(root, KernelPoolDir)
	if _, err := operator.SweepKernelPool(dir); err != nil && warn != nil {
		warn(operator.SweepWarning(dir, err))
	}
}

// codeTimeout is cfg's cell timeout with its default (as New fills it).
func codeTimeout(cfg Config) (d time.Duration) {
	if d = cfg.CodeTimeout; d <= 0 {
		d = defaultCodeTimeout
	}
	return d
}

// defaultCodeTimeout is Config.CodeTimeout's default.
const defaultCodeTimeout = 2 * time.Minute
