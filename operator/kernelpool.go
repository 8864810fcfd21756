package operator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultKernelPoolSize is the pool size `sift serve` and `sift worker`
// keep unless told otherwise. What a process killed with its pool full
// leaves (slots, and with a disk budget their mounted images) is swept by
// the next pool on that directory (see SweepKernelPool).
const DefaultKernelPoolSize = 2

// kernelPoolSweepEvery is how often a pool sweeps its directory for slots
// other processes left when they died, beside the sweep at its start: two
// workers can share one sessions directory, and one may die while the
// other keeps running.
const kernelPoolSweepEvery = 5 * time.Minute

// kernelPoolRetryMax bounds the wait between failed starts of a pooled
// kernel, so a broken interpreter is not restarted in a tight loop.
const kernelPoolRetryMax = 30 * time.Second

// KernelPoolConfig configures a KernelPool.
type KernelPoolConfig struct {
	// Dir holds the pool's slots: each pooled kernel is started in a fresh
	// workspace <Dir>/<slot>/ (empty input/, work/ and out/) of its own,
	// and the session that takes it makes that slot its workspace (see
	// KernelPool.Take). It must be a directory only Sift writes, on the
	// same file system as the sessions, directly in the sessions root (a
	// hidden directory of it: the sweep looks there for the sessions that
	// adopted a slot); it is made 0700 when missing. Required unless Size
	// is 0.
	Dir string
	// Size is how many started kernels the pool keeps ready. 0 disables
	// the pool: Take always reports none, and nothing is started.
	// Negative is an error.
	Size int
	// Kernel configures every pooled kernel exactly as a session's own
	// kernel would be (Python, Sandbox, Limits, Timeout, Preload, ...):
	// the pool is only for sessions whose kernel would be configured so.
	// Root is ignored (each slot is its own); Python is required unless
	// Size is 0.
	Kernel KernelConfig
	// Warn, when set, is told what the pool could not do on its own
	// (a sweep of Dir that failed; see SweepWarning), worded for a log;
	// nil drops it.
	Warn func(msg string)
}

// KernelPool keeps a few sandboxed kernels started ahead of the sessions
// that will use them, so a session's first cell does not wait for Python
// and its imports (pandas, numpy, pyplot). Each kernel runs in a workspace
// made for it alone, under the same sandbox, uid, control group, disk
// budget and limits a fresh kernel in that workspace would have, and is
// handed out once, to one session, never back: Take removes it from the
// pool, and a kernel that died while waiting is discarded, not handed out.
// The pool refills itself in the background and Close ends every kernel
// still in it. Safe for concurrent use.
type KernelPool struct {
	cfg    KernelPoolConfig
	ctx    context.Context // cancelled by Close: ends a start under way
	cancel context.CancelFunc
	wake   chan struct{} // asks the refill loop to look again
	loop   sync.WaitGroup
	subs   sync.WaitGroup // the watchers of pooled kernels

	mu     sync.Mutex
	closed bool
	ready  []*pooledKernel
	// locks are the owner locks of the slots this pool made that no
	// session has adopted yet, by slot directory (see newSlot).
	locks map[string]*os.File
	// changed is closed (and replaced) whenever ready changes.
	changed chan struct{}
}

// pooledKernel is one started kernel waiting in the pool.
type pooledKernel struct {
	op     *KernelOperator
	exited <-chan struct{} // closed when its interpreter ends
	taken  chan struct{}   // closed when it leaves the pool (taken, or discarded)
}

// NewKernelPool returns a pool of cfg.Size kernels and starts filling it
// in the background. A pool of size 0 starts nothing and is still a valid
// pool (Take reports none), so callers need not special-case it.
func NewKernelPool(cfg KernelPoolConfig) (*KernelPool, error) {
	if cfg.Size < 0 {
		return nil, fmt.Errorf("new kernel pool: size %d is negative; use 0 to turn the pool off", cfg.Size)
	}
	if cfg.Size > 0 {
		if cfg.Dir == "" {
			return nil, errors.New("new kernel pool: KernelPoolConfig.Dir is required: give a directory only Sift writes, e.g. a hidden directory of the sessions root")
		}
		if cfg.Kernel.Python == "" {
			return nil, fmt.Errorf("new kernel pool: KernelPoolConfig.Kernel.Python is empty: %w; resolve an interpreter with FindPython", ErrNoPython)
		}
		dir, err := filepath.Abs(cfg.Dir)
		if err != nil {
			return nil, fmt.Errorf("new kernel pool: %w", err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("new kernel pool: make %s: %w", dir, err)
		}
		if cfg.Dir, err = filepath.EvalSymlinks(dir); err != nil {
			return nil, fmt.Errorf("new kernel pool: %w", err)
		}
	}
	cfg.Kernel.Root = ""
	ctx, cancel := context.WithCancel(context.Background())
	p := &KernelPool{cfg: cfg, ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1), changed: make(chan struct{}), locks: map[string]*os.File{}}
	if cfg.Size > 0 {
		// What processes that died with kernels waiting left goes before
		// this pool makes slots of its own.
		p.sweep()
		p.loop.Add(1)
		go p.refill()
	}
	return p, nil
}

// sweep sweeps the pool's directory (SweepKernelPool), and says on
// cfg.Warn when that fails.
func (p *KernelPool) sweep() {
	if _, err := SweepKernelPool(p.cfg.Dir); err != nil && p.cfg.Warn != nil {
		p.cfg.Warn(SweepWarning(p.cfg.Dir, err))
	}
}

// Size is the number of kernels the pool keeps ready (0: off).
func (p *KernelPool) Size() int {
	if p == nil {
		return 0
	}
	return p.cfg.Size
}

// Dir is the directory holding the pool's slots.
func (p *KernelPool) Dir() string { return p.cfg.Dir }

// Ready is how many started kernels wait in the pool now.
func (p *KernelPool) Ready() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ready)
}

// WaitReady waits until at least n kernels are ready in the pool (n is
// capped at its size), the pool is closed, or ctx is done. A server can
// call it at start-up so that its first sessions find the pool full.
func (p *KernelPool) WaitReady(ctx context.Context, n int) error {
	if p == nil {
		return nil
	}
	n = min(n, p.cfg.Size)
	for {
		p.mu.Lock()
		ready, closed, changed := len(p.ready), p.closed, p.changed
		p.mu.Unlock()
		switch {
		case ready >= n:
			return nil
		case closed:
			return fmt.Errorf("wait for the kernel pool: %w", ErrClosed)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("wait for the kernel pool: %w", ctx.Err())
		}
	}
}

// noteChange wakes WaitReady; called with p.mu held.
func (p *KernelPool) noteChange() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// Take hands out a started kernel, removing it from the pool for good,
// and asks the pool to start another; ok is false when none is ready (a
// nil or empty pool, or one that is closed): the caller then makes a
// fresh kernel as it would without a pool. The caller owns what it
// gets: its workspace is the slot directory op.Root(), which the caller
// makes its session's (session.Adopt links the session's workspace to
// it), and op.Close ends the kernel. A kernel whose interpreter died
// while it waited is discarded, never handed out.
func (p *KernelPool) Take() (op *KernelOperator, ok bool) {
	if p == nil {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.poke()
	for len(p.ready) > 0 && !p.closed {
		pk := p.ready[0]
		p.ready = p.ready[1:]
		close(pk.taken)
		p.noteChange()
		select {
		case <-pk.exited:
			p.subs.Add(1)
			go func() { defer p.subs.Done(); p.discard(pk.op) }()
			continue
		default:
		}
		return pk.op, true
	}
	return nil, false
}

// Adopted tells the pool that a session made op's slot its workspace
// (session.Adopt linked it): the slot is the session's from then on, and
// no sweep takes it, whether or not this process lives. Until then the
// pool keeps the slot's owner lock, so another process's sweep does not
// take a slot handed out but not yet linked.
func (p *KernelPool) Adopted(op *KernelOperator) {
	if p == nil {
		return
	}
	p.releaseSlot(op.Root())
}

// Discard ends a kernel Take handed out that no session used (its
// session could not adopt the slot) and removes its slot. A kernel a
// session used is closed with the session instead, its slot being the
// session's workspace.
func (p *KernelPool) Discard(op *KernelOperator) error {
	if filepath.Dir(op.Root()) != p.cfg.Dir {
		return fmt.Errorf("kernel pool: %s is not one of this pool's slots", op.Root())
	}
	return p.discard(op)
}

// Close ends every kernel still in the pool (and one being started),
// removes their slots, and waits until they are gone; Take then reports
// none. Kernels already taken are their takers' to close.
func (p *KernelPool) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	p.closed = true
	left := p.ready
	p.ready = nil
	p.noteChange()
	for _, pk := range left {
		close(pk.taken)
	}
	p.mu.Unlock()
	p.cancel()
	p.loop.Wait()
	var errs []error
	for _, pk := range left {
		errs = append(errs, p.discard(pk.op))
	}
	p.subs.Wait()
	return errors.Join(errs...)
}

// poke wakes the refill loop without waiting for it.
func (p *KernelPool) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// refill keeps the pool full, one start at a time (a start is mostly the
// interpreter's imports: CPU that sessions' cells also need), backing off
// after a failed start.
func (p *KernelPool) refill() {
	defer p.loop.Done()
	backoff := time.Second
	sweep := time.NewTicker(kernelPoolSweepEvery)
	defer sweep.Stop()
	for {
		p.mu.Lock()
		closed, short := p.closed, len(p.ready) < p.cfg.Size
		p.mu.Unlock()
		if closed {
			return
		}
		if !short {
			select {
			case <-p.wake:
				continue
			case <-sweep.C:
				p.sweep()
				continue
			case <-p.ctx.Done():
				return
			}
		}
		if err := p.startOne(); err != nil {
			if p.ctx.Err() != nil {
				return
			}
			select {
			case <-time.After(backoff):
			case <-p.ctx.Done():
				return
			}
			backoff = min(2*backoff, kernelPoolRetryMax)
			continue
		}
		backoff = time.Second
	}
}

// startOne makes a fresh slot, starts a kernel in it and puts it in the
// pool, with a watcher that discards it if its interpreter dies there.
func (p *KernelPool) startOne() error {
	root, err := p.newSlot()
	if err != nil {
		return err
	}
	cfg := p.cfg.Kernel
	cfg.Root = root
	op, err := NewKernelOperator(cfg)
	if err != nil {
		_ = os.RemoveAll(root)
		p.releaseSlot(root)
		return err
	}
	if err := op.Kernel().Start(p.ctx); err != nil {
		return errors.Join(err, p.discard(op))
	}
	exited, ok := op.Kernel().exitedCh()
	if !ok {
		return errors.Join(errors.New("kernel pool: the kernel started but has no interpreter"), p.discard(op))
	}
	pk := &pooledKernel{op: op, exited: exited, taken: make(chan struct{})}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errors.Join(ErrClosed, p.discard(op))
	}
	p.ready = append(p.ready, pk)
	p.noteChange()
	p.subs.Add(1)
	p.mu.Unlock()
	go p.watch(pk)
	return nil
}

// watch discards pk when its interpreter ends while it waits in the pool
// (killed from outside, out of memory), and has the pool start another.
func (p *KernelPool) watch(pk *pooledKernel) {
	defer p.subs.Done()
	select {
	case <-pk.taken:
		return
	case <-pk.exited:
	}
	p.mu.Lock()
	i := -1
	for j, r := range p.ready {
		if r == pk {
			i = j
		}
	}
	if i < 0 { // taken or closed meanwhile: its taker (or Close) has it
		p.mu.Unlock()
		return
	}
	p.ready = append(p.ready[:i:i], p.ready[i+1:]...)
	close(pk.taken)
	p.noteChange()
	p.mu.Unlock()
	_ = p.discard(pk.op)
	p.poke()
}

// newSlot makes a fresh, empty workspace for one pooled kernel, laid out
// as session.Create lays out a session's: the root the owner's alone
// (0700), input/, work/ and out/ inside it. Its owner lock
// <Dir>/slot-<hex>.lock is made and locked first, and held until a session
// adopts the slot or it is discarded: a slot is never without a live
// owner or a session while the process that made it lives.
func (p *KernelPool) newSlot() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("kernel pool: %w", err)
	}
	root := filepath.Join(p.cfg.Dir, kernelPoolSlotPrefix+hex.EncodeToString(b[:]))
	lock, err := lockSlot(root, true)
	if err != nil || lock == nil {
		return "", fmt.Errorf("kernel pool: lock a new slot: %v", err)
	}
	p.mu.Lock()
	p.locks[root] = lock
	p.mu.Unlock()
	if err := os.Mkdir(root, 0o700); err != nil {
		p.releaseSlot(root)
		return "", fmt.Errorf("kernel pool: make a slot: %w", err)
	}
	for _, d := range []string{InputDir, WorkDir, OutDir} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			_ = os.RemoveAll(root)
			p.releaseSlot(root)
			return "", fmt.Errorf("kernel pool: make a slot: %w", err)
		}
	}
	return root, nil
}

// releaseSlot removes and unlocks the owner lock of the slot at root, if
// this pool holds it.
func (p *KernelPool) releaseSlot(root string) {
	p.mu.Lock()
	lock := p.locks[root]
	delete(p.locks, root)
	p.mu.Unlock()
	if lock != nil {
		_ = os.Remove(root + kernelPoolLockSuffix)
		lock.Close()
	}
}

// discard ends a kernel no session took and removes its slot: nothing of
// it is ever handed out.
func (p *KernelPool) discard(op *KernelOperator) error {
	err := op.Close()
	if rerr := os.RemoveAll(op.Root()); rerr != nil {
		err = errors.Join(err, fmt.Errorf("kernel pool: remove slot %s: %w", op.Root(), rerr))
	}
	p.releaseSlot(op.Root())
	return err
}
