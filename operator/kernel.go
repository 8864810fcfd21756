package operator

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

//go:embed kernel.py
var kernelPy string

// kernelScript is what the kernel runs: the disk filter (see filter.py),
// the shared value rendering (see render.py), then the kernel.
var kernelScript = filterPy + "\n" + renderPy + "\n" + kernelPy

// Defaults of KernelConfig.
const (
	// DefaultInterruptGrace is how long a cell has to stop after SIGINT
	// before the kernel is killed.
	DefaultInterruptGrace = 2 * time.Second
	// DefaultKernelStartTimeout bounds starting the interpreter and
	// importing the preloaded modules.
	DefaultKernelStartTimeout = 60 * time.Second
)

// kernelBootstrap is the -c program that runs the kernel script (its first
// argument) under the file name kernel.py's tracebacks leave out.
const kernelBootstrap = `import sys; exec(compile(sys.argv.pop(1), "<sift-kernel>", "exec"))`

// DefaultKernelPreload are the modules a kernel imports before it reports
// ready, so that the first cell does not pay for them.
var DefaultKernelPreload = []string{"numpy", "pandas", "matplotlib.pyplot"}

// maxKernelFrame bounds one protocol message from the kernel; a reply's
// value and error are capped inside the kernel far below this.
const maxKernelFrame = 64 << 20

// kernelLogBytes caps what is kept of the kernel's own output (outside any
// cell), shown when it fails to start.
const kernelLogBytes = 16 << 10

// pipeDrainWait bounds how long a dead kernel's pipes are drained before
// they are closed, in case a process outside its group still holds them.
const pipeDrainWait = time.Second

// KernelConfig configures a Kernel.
type KernelConfig struct {
	// Root is the workspace directory, holding input/, work/ and out/.
	// Required; handled as LocalConfig.Root.
	Root string
	// Python is the resolved interpreter (see FindPython). Optional: without
	// it Run fails with ErrNoPython.
	Python string
	// Sandbox starts the interpreter. Optional; default NoSandbox().
	Sandbox Sandbox
	// Timeout bounds each cell unless RunOptions.Timeout is set: the cell is
	// interrupted when it runs out, and killed with the kernel when it has
	// not stopped InterruptGrace later. Optional; default DefaultTimeout.
	Timeout time.Duration
	// InterruptGrace is how long an interrupted (timed out or cancelled)
	// cell has to stop before the kernel is killed. Optional; default
	// DefaultInterruptGrace (2s).
	InterruptGrace time.Duration
	// StartTimeout bounds starting the interpreter until it is ready.
	// Optional; default DefaultKernelStartTimeout (60s).
	StartTimeout time.Duration
	// MaxOutputBytes caps the stdout and the stderr kept from one cell,
	// each, head and tail kept; the whole text stays in
	// work/.cells/cell-NNNN.stdout.txt (or .stderr.txt) when cut. Optional;
	// default DefaultMaxOutputBytes (64 KiB).
	MaxOutputBytes int
	// ExtraEnv holds KEY=value entries added to the otherwise scrubbed
	// environment (see LocalConfig.ExtraEnv). Optional.
	ExtraEnv []string
	// Limits bound the interpreter's resources, through the sandbox.
	// Optional; zero means none.
	Limits Limits
	// Writable and ReadOnly are extra host paths the sandbox lets the
	// interpreter write or read. A Writable path is handed to the
	// session's sandbox user and shared with anything else that can write
	// it: never give two sessions the same one (matplotlib's directory is
	// already per session; see mplConfigDir). Optional.
	Writable, ReadOnly []string
	// Preload are modules imported before the kernel reports ready; one
	// that fails to import is skipped. Optional: nil means
	// DefaultKernelPreload, an empty non-nil slice none.
	Preload []string
}

// Kernel is one long-lived Python interpreter for a session workspace:
// variables, imports and loaded data persist from one cell to the next. It
// is started through the configured Sandbox on the first Run (or Start), and
// restarted on the next Run after it was killed or crashed, with a notice
// that its state was lost (see RunOptions.Replay to rebuild it). Every cell
// is saved as work/.cells/cell-NNNN.py and recorded in cells.jsonl. Safe
// for concurrent use; cells run one at a time.
type Kernel struct {
	ws     *Local // the workspace: root, scrubbed environment, file snapshots
	cfg    KernelConfig
	runSem chan struct{} // one cell (or start) at a time

	// seq numbers cells and interpreters; a kernel's branches share it.
	seq *kernelSeq

	mu     sync.Mutex
	closed bool
	proc   *kernelProc // the live interpreter; nil before the first start and after a loss
	// branch tags the cells this kernel records: 0 for a session's main
	// kernel, else the plan step a branch kernel runs (see Branch).
	branch int
	// seed are the cells a branch kernel replays into its first
	// interpreter before anything else; nil once done.
	seed []CellRecord
	// generations are the interpreters this kernel started.
	generations []int
	// lost says why the last interpreter is gone, until the next Run
	// reports it; lostGeneration is that interpreter's generation.
	lost           string
	lostGeneration int
	// state names the data the live interpreter's globals held after its
	// last cell (see State); "" before any cell and after a loss.
	state string
}

// NewKernel returns a Kernel for the workspace at cfg.Root, filling
// defaults and creating work/ and out/ when missing. It starts nothing:
// the interpreter starts on the first Run or Start.
func NewKernel(cfg KernelConfig) (*Kernel, error) {
	ws, err := NewLocal(LocalConfig{
		Root:           cfg.Root,
		Python:         cfg.Python,
		Timeout:        cfg.Timeout,
		MaxOutputBytes: cfg.MaxOutputBytes,
		ExtraEnv:       cfg.ExtraEnv,
		Sandbox:        cfg.Sandbox,
		Limits:         cfg.Limits,
	})
	if err != nil {
		return nil, fmt.Errorf("new kernel: %w", err)
	}
	cfg.Root, cfg.Timeout, cfg.MaxOutputBytes, cfg.Sandbox = ws.cfg.Root, ws.cfg.Timeout, ws.cfg.MaxOutputBytes, ws.cfg.Sandbox
	if cfg.InterruptGrace <= 0 {
		cfg.InterruptGrace = DefaultInterruptGrace
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultKernelStartTimeout
	}
	if cfg.Preload == nil {
		cfg.Preload = DefaultKernelPreload
	}
	records, err := ReadCells(ws.root)
	if err != nil {
		return nil, fmt.Errorf("new kernel: %w", err)
	}
	// A reopened workspace numbers its cells and kernels on, so that a
	// replay never mixes in a generation of an earlier process.
	return &Kernel{
		ws:     ws,
		cfg:    cfg,
		runSem: make(chan struct{}, 1),
		seq: &kernelSeq{
			nextCell:   max(lastCellNumber(ws.root), lastRecordedCell(records)) + 1,
			generation: lastRecordedGeneration(records),
			cells:      openCellLog(ws.root, records),
		},
	}, nil
}

// Root is the workspace's absolute, symlink-free path.
func (k *Kernel) Root() string { return k.ws.root }

// Start starts the interpreter if none is running and waits until it is
// ready (its preloaded modules imported). Run does this itself; call Start
// ahead of the first cell to overlap the start with other work.
func (k *Kernel) Start(ctx context.Context) error {
	if err := k.acquire(ctx, "start python kernel"); err != nil {
		return err
	}
	defer k.release()
	// The directories the kernel writes must exist before it starts: under
	// a root-run sandbox they are handed to the sandbox user at start, and
	// ones made later would stay root's.
	if err := k.prepareDirs(); err != nil {
		return err
	}
	_, err := k.live(ctx)
	return err
}

// acquire takes the right to run, refusing when closed or without Python.
func (k *Kernel) acquire(ctx context.Context, op string) error {
	if k.cfg.Python == "" {
		return fmt.Errorf("%s: KernelConfig.Python is empty: %w; resolve an interpreter with FindPython", op, ErrNoPython)
	}
	select {
	case k.runSem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	k.mu.Lock()
	closed := k.closed
	k.mu.Unlock()
	if closed {
		<-k.runSem
		return fmt.Errorf("%s: %w", op, ErrClosed)
	}
	return nil
}

// release gives back what acquire took.
func (k *Kernel) release() { <-k.runSem }

// live returns the running interpreter, starting one when there is none
// (noting a loss it detects on the way).
func (k *Kernel) live(ctx context.Context) (*kernelProc, error) {
	k.mu.Lock()
	p := k.proc
	k.mu.Unlock()
	if p != nil {
		select {
		case <-p.exited: // died between cells (out of memory, killed from outside)
			k.noteLost(p, "exited between cells ("+exitReason(p.waitErr)+")")
		default:
			return p, nil
		}
	}
	return k.startProc(ctx)
}

// exitedCh returns the channel closed when the live interpreter ends;
// ok is false when none is running.
func (k *Kernel) exitedCh() (exited <-chan struct{}, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.proc == nil {
		return nil, false
	}
	return k.proc.exited, true
}

// noteLost records that p is gone and why, if it is still the current
// interpreter.
func (k *Kernel) noteLost(p *kernelProc, why string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.proc == p {
		k.proc = nil
		k.lost = why
		k.lostGeneration = p.generation
		k.state = ""
	}
}

// State names the data the kernel's globals held after its last cell, a
// line per variable: each DataFrame with its shape and its columns'
// dtypes, each Series and array with its length or shape, other values by
// type. It is gathered by the kernel after every cell without reading any
// data, and is "" before the first cell and once the interpreter is lost.
func (k *Kernel) State() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.state
}

// Run runs one cell of code in the kernel and reports what it printed,
// raised and produced; the value of a trailing expression is rendered
// (DataFrames as bounded tables) and open figures are saved to
// out/figure-NNNN-N.png. A cell that runs past its timeout, or whose ctx is
// cancelled, is interrupted (KeyboardInterrupt; the kernel and its
// variables survive), and killed with the kernel when it has not stopped
// InterruptGrace later. A failing cell is a result, not an error; a
// cancelled ctx returns the partial result together with ctx's error.
func (k *Kernel) Run(ctx context.Context, code string, opts RunOptions) (*RunResult, error) {
	if err := k.acquire(ctx, "run python"); err != nil {
		return nil, err
	}
	defer k.release()
	if err := k.prepareDirs(); err != nil {
		return nil, err
	}
	p, err := k.live(ctx)
	if err != nil {
		return nil, err
	}
	var restart *restartReport
	k.mu.Lock()
	if k.lost != "" {
		restart = &restartReport{why: k.lost, lostGeneration: k.lostGeneration}
		k.lost = ""
	}
	k.mu.Unlock()
	if restart != nil && opts.Replay {
		if p, err = k.replay(ctx, p, restart); err != nil {
			return nil, err
		}
	}
	seedNotice, err := k.replaySeed(ctx, p)
	if err != nil {
		return nil, err
	}

	cell := k.seq.cell()
	timeout := k.cfg.Timeout
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	start := time.Now()
	res, runErr := k.runCell(ctx, p, cellRun{cell: cell, code: code, timeout: timeout})
	if res == nil {
		return nil, runErr
	}
	if restart != nil {
		res.Restarted = true
		res.Replayed, res.ReplayFailed = restart.replayed, restart.failed
		res.Notice = joinNotices(restart.notice(), res.Notice)
	}
	res.Notice = joinNotices(seedNotice, res.Notice)
	rec := newCellRecord(cell, p.generation, code, res, start)
	rec.Step = stepOf(ctx, opts)
	notice, err := k.record(rec)
	if err != nil && runErr == nil {
		res.Notice = joinNotices(res.Notice, "This cell could not be recorded in "+CellsLogFile+": "+err.Error())
	}
	res.Notice = joinNotices(res.Notice, notice)
	return res, runErr
}

// prepareDirs makes the directories a cell needs.
func (k *Kernel) prepareDirs() error {
	// Under k.mu, and not once closed: a Start still on its way when the
	// kernel is closed (one begun alongside the planner of a run that
	// ended at once) must not make directories in a workspace its owner
	// may already be removing.
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return fmt.Errorf("run python: %w", ErrClosed)
	}
	if err := k.ws.holdDisk(); err != nil {
		return fmt.Errorf("run python: %w", err)
	}
	if err := prepareDirsIn(k.ws.root); err != nil {
		return fmt.Errorf("run python: prepare the workspace: %w", err)
	}
	return nil
}

// runCell sends one cell to p and waits for its reply, interrupting and
// then killing it when it runs out of time or ctx is cancelled.
func (k *Kernel) runCell(ctx context.Context, p *kernelProc, c cellRun) (*RunResult, error) {
	id := fmt.Sprintf("%04d", c.cell)
	req := kernelRequest{
		Op:     "run",
		Cell:   id,
		File:   CellsDir + "/cell-" + id + ".py",
		Code:   c.code,
		Stdout: CellsDir + "/cell-" + id + ".stdout.txt",
		Stderr: CellsDir + "/cell-" + id + ".stderr.txt",
		Replay: c.replay,

		MaxOutput: k.cfg.MaxOutputBytes,
	}
	if c.replay {
		req.Stdout = CellsDir + "/cell-" + id + ".replay.stdout.txt"
		req.Stderr = CellsDir + "/cell-" + id + ".replay.stderr.txt"
	}
	if err := writeIn(k.ws.root, req.File, []byte(c.code)); err != nil && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) {
		// A full disk still runs the cell (the code goes in the request;
		// the file serves only its traceback), so the cell that deletes
		// what filled it can run.
		return nil, fmt.Errorf("run python: save cell: %w", err)
	}
	span := k.seq.begin()
	before := k.ws.snapshot()
	// The session's disk budget: measured now, and watched while the cell
	// runs.
	budget, diskBefore, diskOver, stopWatch := sandbox.WatchDisk(k.cfg.Sandbox, k.ws.root, k.cfg.Limits)
	defer stopWatch()
	var overUse *sandbox.DiskUsage

	start := time.Now()
	sent := p.send(req)
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	var (
		reply    kernelReply
		got      bool
		died     bool
		killed   bool
		stop     = stopNone
		canceled error
		done     = ctx.Done()
	)
	interrupt := func(why int) {
		stop = why
		_ = k.cfg.Sandbox.Signal(p.cmd, syscall.SIGINT)
		timer.Reset(k.cfg.InterruptGrace)
	}
	for !got && !died {
		select {
		case r, ok := <-p.replies:
			if !ok {
				died = true
			} else if r.Cell == id {
				reply, got = r, true
			}
		case <-p.exited:
			died = true
		case err := <-sent:
			sent = nil
			if err != nil {
				died = true
			}
		case <-timer.C:
			if stop == stopNone {
				interrupt(stopTimeout)
			} else {
				killed = true
				p.kill()
			}
		case <-done:
			done, canceled = nil, ctx.Err()
			if stop == stopNone {
				interrupt(stopCancel)
			}
		case u := <-diskOver:
			diskOver, overUse = nil, &u
			if stop == stopNone {
				interrupt(stopDisk)
			}
		}
	}
	if died {
		p.kill() // take down what the dead kernel left running
		<-p.exited
	}
	// Nothing the cell started outlives it, wherever it went (a new
	// session, a double fork): only the kernel itself stays.
	var strays int
	if !died {
		strays = k.endStrays(p)
	}
	if got && !reply.Interrupted {
		stop = stopNone // it finished before the interrupt landed
	}
	if budget != nil && overUse == nil {
		if u := budget.Measure(); budget.Grew(diskBefore, u) {
			overUse = &u // passed it since the last look, or on the way out
		}
	}
	duration := time.Since(start)

	res := &RunResult{Cell: c.cell, Duration: duration}
	res.Stdout, res.StdoutFile = k.cellOutput(got, reply.Stdout, req.Stdout, c.replay)
	res.Stderr, res.StderrFile = k.cellOutput(got, reply.Stderr, req.Stderr, c.replay)
	if got {
		k.mu.Lock()
		if k.proc == p {
			k.state = reply.State
		}
		k.mu.Unlock()
		res.Value = capString(reply.Value, k.cfg.MaxOutputBytes)
		res.Error = capString(reply.Error, k.cfg.MaxOutputBytes)
		res.Figures = existingFiles(k.ws.root, reply.Figures)
	}
	if !c.replay {
		res.Files, res.FilesOmitted = boundFiles(cellFiles(before, k.ws.snapshot(), reply.Written, k.seq.end(span)))
	} else {
		k.seq.end(span)
		k.keepStamps(before, reply.Written)
	}

	k.mu.Lock()
	closed := k.closed
	k.mu.Unlock()
	switch {
	case died && closed:
		res.Error = "stopped: the session was closed during the cell and its kernel shut down"
	case died && killed:
		what := fmt.Sprintf("timed out after %s", c.timeout)
		switch stop {
		case stopCancel:
			what = "was cancelled"
		case stopDisk:
			what = "went past the session's disk budget"
		}
		res.TimedOut = stop == stopTimeout
		res.Error = fmt.Sprintf("%s and did not stop within %s of being interrupted: the kernel was killed, and its variables are lost; the next cell starts a fresh kernel",
			what, k.cfg.InterruptGrace)
		k.noteLost(p, fmt.Sprintf("was killed because cell %d %s and ignored the interrupt", c.cell, what))
		res.Notice = "The Python kernel was killed: all variables, imports and loaded data are lost."
	case died:
		why := exitReason(p.waitErr)
		res.Error = fmt.Sprintf("the kernel died during the cell (%s), and its variables are lost; the next cell starts a fresh kernel", why)
		k.noteLost(p, fmt.Sprintf("died during cell %d (%s)", c.cell, why))
		res.Notice = "The Python kernel died: all variables, imports and loaded data are lost."
	case stop == stopTimeout:
		res.TimedOut = true
		res.Error = joinLines(fmt.Sprintf("timed out after %s: the cell was interrupted (KeyboardInterrupt); the kernel and the variables set before the interrupt are kept", c.timeout), res.Error)
	case stop == stopCancel:
		res.Error = joinLines("cancelled: the cell was interrupted (KeyboardInterrupt); the kernel and its variables are kept", res.Error)
	}
	if strays > 0 {
		res.Notice = joinNotices(res.Notice, fmt.Sprintf("%d process(es) this cell started were still running when it ended and were stopped: "+
			"nothing a cell starts outlives it; wait for background work within the cell.", strays))
	}
	if full := budget != nil && stop != stopDisk && sandbox.DiskFull(k.ws.root); full {
		if u := budget.Measure(); sandbox.QuotaStopped(k.ws.root, diskBefore, u, res.Error, res.Stderr) {
			res.Error = joinLines(budget.FullMessage(u), res.Error)
		} else {
			res.Notice = joinNotices(res.Notice, "The session's disk is full: "+budget.UsageLine(u)+"; delete files in work/ or out/ before writing more.")
		}
	} else if overUse != nil {
		res.Error = joinLines(budget.Message(*overUse, stop == stopDisk), res.Error)
	} else if budget.Over(diskBefore) {
		res.Notice = joinNotices(res.Notice, "This session was already over its disk budget when the cell started: "+
			budget.UsageLine(diskBefore)+"; delete files in work/ or out/ before writing more.")
	}
	res.Notice = joinNotices(res.Notice, k.ws.takeDiskNote())
	if canceled != nil {
		return res, fmt.Errorf("run python: %w", canceled)
	}
	return res, nil
}

// joinLines puts a headline above a (possibly empty) text.
func joinLines(head, text string) string {
	if text == "" {
		return head
	}
	return head + "\n" + text
}

// endedHere holds the interpreters (endedKernel) that a Kernel of this
// process closed, so that a kernel adopting their cells later in the same
// process (a chat's next turn, a resume) says that the session's previous
// run ended, not that an earlier process did.
var endedHere sync.Map

// endedKernel names one interpreter of a workspace.
type endedKernel struct {
	root       string
	generation int
}

// Close kills the interpreter and everything it started, and refuses
// further runs; a cell running at that moment ends as stopped.
func (k *Kernel) Close() error {
	k.mu.Lock()
	k.closed = true
	p := k.proc
	k.proc = nil
	for _, g := range k.generations {
		endedHere.Store(endedKernel{k.ws.root, g}, struct{}{})
	}
	k.mu.Unlock()
	if p != nil {
		p.kill()
		<-p.exited
		<-p.drained
	}
	return k.ws.Close()
}

// kernelProc is one running interpreter and the Go side of its pipes.
type kernelProc struct {
	cmd        *exec.Cmd
	pgid       int   // its process group; 0 when it shares ours (never group-killed then)
	keep       []int // the interpreter's host pid and the sandbox's processes above it; nil until needed
	generation int
	requests   *os.File         // write end of the interpreter's stdin
	replies    chan kernelReply // closed when the reply pipe ends
	exited     chan struct{}    // closed once the interpreter has exited and been reaped
	waitErr    error            // how it exited; set before exited is closed
	drained    chan struct{}    // closed once its pipes are closed
	log        *cappedBuffer    // its own stdout and stderr, outside cells
}

// startProc starts a new interpreter and waits until it is ready.
func (k *Kernel) startProc(ctx context.Context) (*kernelProc, error) {
	p, err := k.spawn()
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(k.cfg.StartTimeout)
	defer timer.Stop()
	var problem string
	select {
	case r, ok := <-p.replies:
		if ok && r.Ready {
			return p, nil
		}
		problem = "it did not say it was ready"
		if !ok { // the reply pipe closed: it is exiting
			select {
			case <-p.exited:
				problem = "the interpreter exited before it was ready (" + exitReason(p.waitErr) + ")"
			case <-timer.C:
			}
		}
	case <-p.exited:
		problem = "the interpreter exited before it was ready (" + exitReason(p.waitErr) + ")"
	case <-timer.C:
		problem = fmt.Sprintf("it was not ready within %s", k.cfg.StartTimeout)
	case <-ctx.Done():
		p.kill()
		<-p.exited
		k.noteStartFailed(p)
		return nil, fmt.Errorf("start python kernel: %w", ctx.Err())
	}
	p.kill()
	<-p.exited
	<-p.drained
	k.noteStartFailed(p)
	k.mu.Lock()
	closed := k.closed
	k.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("start python kernel: %w", ErrClosed)
	}
	// What the probe cache said works did not: the next run probes again.
	_ = ForgetProbes()
	msg := fmt.Sprintf("start python kernel with %s: %s", k.cfg.Python, problem)
	if out := strings.TrimSpace(p.log.String()); out != "" {
		msg += "; it printed:\n" + out
	}
	return nil, errors.New(msg + "\nCheck that the interpreter runs, or use --python-mode process")
}

// noteStartFailed forgets an interpreter that never became ready, keeping
// what is known about the one lost before it.
func (k *Kernel) noteStartFailed(p *kernelProc) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.proc == p {
		k.proc = nil
	}
}

// spawn starts the interpreter through the sandbox with its three pipes and
// the goroutines that serve them.
func (k *Kernel) spawn() (_ *kernelProc, err error) {
	var files []*os.File // every pipe end; the child's are closed after start
	defer func() {
		if err != nil {
			for _, f := range files {
				f.Close()
			}
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	reqR, reqW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("start python kernel: %w", err)
	}
	repR, repW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("start python kernel: %w", err)
	}
	logR, logW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("start python kernel: %w", err)
	}
	argv := append([]string{k.cfg.Python, "-u", "-c", kernelBootstrap, kernelScript}, k.cfg.Preload...)
	// The workspace's sandbox user (its own uid, when Sift runs as root) is
	// held until the interpreter has ended.
	release, err := sandbox.Hold(k.cfg.Sandbox, k.ws.root)
	if err != nil {
		return nil, fmt.Errorf("start python kernel: %w", err)
	}
	defer func() {
		if err != nil {
			release()
		}
	}()
	fontEnv, fontDirs := fontCacheSpec(k.cfg.Sandbox, k.cfg.Python)
	cmd, err := k.cfg.Sandbox.Command(ProcSpec{
		Root:     k.ws.root,
		Argv:     argv,
		Env:      append(k.ws.env(), fontEnv...),
		Limits:   k.cfg.Limits,
		Writable: k.cfg.Writable,
		ReadOnly: append(slices.Clip(k.cfg.ReadOnly), fontDirs...),
	})
	if err != nil {
		return nil, fmt.Errorf("start python kernel: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = reqR, logW, logW
	cmd.ExtraFiles = []*os.File{repW}

	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return nil, fmt.Errorf("start python kernel: %w", ErrClosed)
	}
	if err := cmd.Start(); err != nil {
		k.mu.Unlock()
		return nil, fmt.Errorf("start python kernel: start %s: %w", k.cfg.Python, err)
	}
	gen := k.seq.newGeneration()
	k.generations = append(k.generations, gen)
	p := &kernelProc{
		cmd:        cmd,
		generation: gen,
		requests:   reqW,
		replies:    make(chan kernelReply, 4),
		exited:     make(chan struct{}),
		drained:    make(chan struct{}),
		log:        newCappedBuffer(kernelLogBytes),
	}
	if pgid, err := syscall.Getpgid(cmd.Process.Pid); err == nil && pgid != syscall.Getpgrp() {
		p.pgid = pgid
	}
	k.proc = p
	k.mu.Unlock()
	reqR.Close()
	repW.Close()
	logW.Close()

	readDone := make(chan struct{})
	logDone := make(chan struct{})
	go func() { defer close(readDone); p.readReplies(repR) }()
	go func() { defer close(logDone); _, _ = io.Copy(p.log, logR) }()
	go func() {
		p.waitErr = cmd.Wait()
		p.kill() // a dead kernel leaves nothing running behind it
		sandbox.Finished(cmd)
		release()
		close(p.exited)
		p.requests.Close() // also ends a write still blocked on it
		drain := time.NewTimer(pipeDrainWait)
		defer drain.Stop()
		for _, ch := range []chan struct{}{readDone, logDone} {
			select {
			case <-ch:
			case <-drain.C:
			}
		}
		repR.Close()
		logR.Close()
		close(p.drained)
	}()
	return p, nil
}

// readReplies decodes frames from the reply pipe until it ends.
func (p *kernelProc) readReplies(r io.Reader) {
	defer close(p.replies)
	br := bufio.NewReader(r)
	var head [4]byte
	for {
		if _, err := io.ReadFull(br, head[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(head[:])
		if n > maxKernelFrame {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var rep kernelReply
		if json.Unmarshal(body, &rep) != nil {
			return
		}
		select {
		case p.replies <- rep:
		default: // nobody asked for it: not a reply to a request of ours
		}
	}
}

// send writes one request frame in the background; the returned channel
// yields the write's error (nil when it went through).
func (p *kernelProc) send(req kernelRequest) <-chan error {
	out := make(chan error, 1)
	body, err := json.Marshal(req)
	if err != nil {
		out <- err
		return out
	}
	frame := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	go func() {
		_, err := p.requests.Write(frame)
		out <- err
	}()
	return out
}

// endStrays stops every process in p's control group but the interpreter
// and the sandbox around it, and returns how many there were; 0 when the
// sandbox keeps no groups here.
func (k *Kernel) endStrays(p *kernelProc) int {
	return sandbox.EndStrays(k.cfg.Sandbox, p.cmd, &p.keep)
}

// kill kills the interpreter's process group (or, when it shares ours, the
// interpreter alone).
func (p *kernelProc) kill() {
	if p.pgid > 0 {
		_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
	}
	_ = p.cmd.Process.Kill()
}
