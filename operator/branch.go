package operator

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Branch kernels let independent plan steps run at the same time without
// sharing one interpreter's globals. The design, and why:
//
//   - A branch is a Kernel of its own on the same workspace (files under
//     out/ and work/ are shared), started from the main kernel's state by
//     replaying the main kernel's successful cells into its first
//     interpreter. Forking the interpreter process would be cheaper in
//     time but cannot be done safely under the sandbox and with threads
//     that pandas' libraries start; a replay is what crash recovery
//     already does and trusts.
//   - The branch records its cells in the session's cells.jsonl tagged
//     with its step (CellRecord.Branch), numbered from the counter the
//     main kernel shares with it, so no two kernels write the same
//     cell file or generation.
//   - When a branch's step finishes, the main kernel absorbs it (Absorb):
//     it replays that step's cells, so later steps, the next branches and
//     a rebuild after a crash see what the step made (DataFrames and all).
//
// Memory: every branch is one more interpreter holding what the main
// kernel held when it started plus what the branch loads, so N branches
// cost up to N times the main kernel's memory on top of it (less the
// pyplot the branches do not import ahead, see branchPreload). Time: a
// branch's start replays the main kernel's cells once, and each finished
// step is replayed once more into the main kernel.

// kernelSeq numbers the cells and interpreters of a workspace's kernels:
// a kernel and its branches share one, so their cell files and
// generations never collide, and it serialises their cells.jsonl writes.
// It also knows which cells run at the same time (see cellFiles).
type kernelSeq struct {
	mu         sync.Mutex
	nextCell   int
	generation int
	running    map[*cellSpan]bool
	// cells is the workspace's cell log, shared with the branches.
	cells *cellLog
}

// cellSpan is a cell while it runs; overlapped: another kernel of the
// workspace ran a cell during it.
type cellSpan struct{ overlapped bool }

// begin notes a cell starting; end it with end.
func (s *kernelSeq) begin() *cellSpan {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := &cellSpan{}
	if s.running == nil {
		s.running = map[*cellSpan]bool{}
	}
	for o := range s.running {
		o.overlapped, sp.overlapped = true, true
	}
	s.running[sp] = true
	return sp
}

// end notes the cell of sp finished and reports whether another cell ran
// during it.
func (s *kernelSeq) end(sp *cellSpan) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.running, sp)
	return sp.overlapped
}

// cellFiles lists the files a cell created or changed, sorted: those that
// changed between the snapshots before and after it, and those the kernel
// saw it open for writing (a rewrite can keep size and time). When a cell
// of another kernel on the workspace ran meanwhile, what changed may be
// that cell's, so only the files the kernel saw this cell write count
// (files written by programs the cell started are then missed).
func cellFiles(before, after map[string]fileStamp, written []string, overlapped bool) []string {
	set := map[string]bool{}
	if !overlapped {
		for _, p := range changedFiles(before, after) {
			set[p] = true
		}
	}
	for _, p := range written {
		if _, ok := after[p]; ok {
			set[p] = true
		}
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// cell returns the next cell number.
func (s *kernelSeq) cell() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.nextCell
	s.nextCell++
	return n
}

// newGeneration returns the number of a new interpreter.
func (s *kernelSeq) newGeneration() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generation++
	return s.generation
}

// record appends rec to cells.jsonl, tagged with the kernel's branch;
// notice says when it used up its step's share of the log.
func (k *Kernel) record(rec CellRecord) (notice string, err error) {
	k.mu.Lock()
	rec.Branch = k.branch
	k.mu.Unlock()
	k.seq.mu.Lock()
	defer k.seq.mu.Unlock()
	return k.seq.cells.append(rec)
}

// Branch returns a new kernel on the same workspace for plan step step,
// started from this kernel's state: before its first cell it replays the
// successful cells of this kernel's current interpreter (or of the one
// this kernel would rebuild after a restart). It records its cells tagged
// with step. Close it when the step is done (or hand it on with
// SetBranch). See the design note above.
func (k *Kernel) Branch(step int) (*Kernel, error) {
	if step <= 0 {
		return nil, fmt.Errorf("branch kernel: step must be positive, got %d", step)
	}
	records, err := ReadCells(k.ws.root)
	if err != nil {
		return nil, fmt.Errorf("branch kernel for step %d: %w", step, err)
	}
	k.mu.Lock()
	gen := 0
	switch {
	case k.lost != "":
		// The state to start from is the one the next run rebuilds (an
		// interpreter started ahead of it holds nothing yet).
		gen = k.lostGeneration
	case k.proc != nil:
		gen = k.proc.generation
	}
	k.mu.Unlock()
	var seed []CellRecord
	for _, rec := range records {
		if gen > 0 && rec.Generation == gen && rec.OK {
			seed = append(seed, rec)
		}
	}
	cfg := k.cfg
	cfg.Preload = branchPreload(cfg.Preload)
	b, err := NewKernel(cfg)
	if err != nil {
		return nil, fmt.Errorf("branch kernel for step %d: %w", step, err)
	}
	b.seq, b.branch, b.seed = k.seq, step, seed
	return b, nil
}

// branchPreload is what a branch kernel imports before it is ready: what
// the main kernel does, but matplotlib's pyplot. The branches of a batch
// start together, as the batch starts, and their imports (a second of CPU
// each for pandas, two thirds of one more and 20 MB for pyplot) then
// compete for the cores while their steps' first model calls run: pyplot
// imported by the few steps that plot, in their own cell, costs less
// than in every branch. Figures are saved all the same (kernel.py looks
// for pyplot once a cell ran).
func branchPreload(main []string) []string {
	out := []string{}
	for _, m := range main {
		if m != "matplotlib.pyplot" {
			out = append(out, m)
		}
	}
	return out
}

// SetBranch tags the cells the kernel records from now on with step: a
// branch kernel goes on with a step that needs only the one it just ran.
func (k *Kernel) SetBranch(step int) {
	k.mu.Lock()
	k.branch = step
	k.mu.Unlock()
}

// replaySeed runs a branch kernel's seed cells in p, once, and returns a
// notice naming those that failed. Called with the run right held.
func (k *Kernel) replaySeed(ctx context.Context, p *kernelProc) (string, error) {
	k.mu.Lock()
	seed := k.seed
	k.seed = nil
	k.mu.Unlock()
	var failed []string
	for _, rec := range seed {
		start := time.Now()
		res, err := k.runCell(ctx, p, cellRun{cell: rec.Cell, code: rec.Code, timeout: k.cfg.Timeout, replay: true})
		if err != nil {
			return "", fmt.Errorf("run python: start the branch from the shared state: cell %d: %w", rec.Cell, err)
		}
		if !res.OK() {
			failed = append(failed, strconv.Itoa(rec.Cell))
		}
		out := newCellRecord(rec.Cell, p.generation, rec.Code, res, start)
		out.Replayed = true
		_, _ = k.record(out)
	}
	if len(failed) == 0 {
		return "", nil
	}
	return "This step's kernel started from the session's state, but cell(s) " + strings.Join(failed, ", ") + " failed on replay, so what they defined may be missing.", nil
}

// Absorb brings into this (main) kernel what branch ran for step: it
// replays, in order, the cells branch ran and recorded for step that
// succeeded, recording them as replayed in this kernel's interpreter. So
// the steps that come after, new branches and a rebuild from cells.jsonl
// all see what the step made. It returns the cells that failed on replay.
func (k *Kernel) Absorb(ctx context.Context, branch *Kernel, step int) ([]int, error) {
	if err := k.acquire(ctx, "absorb step "+strconv.Itoa(step)); err != nil {
		return nil, err
	}
	defer k.release()
	if err := k.prepareDirs(); err != nil {
		return nil, err
	}
	records, err := ReadCells(k.ws.root)
	if err != nil {
		return nil, fmt.Errorf("absorb step %d: %w", step, err)
	}
	branch.mu.Lock()
	gens := map[int]bool{}
	for _, g := range branch.generations {
		gens[g] = true
	}
	branch.mu.Unlock()
	var cells []CellRecord
	for _, rec := range records {
		if rec.Branch == step && rec.OK && !rec.Replayed && gens[rec.Generation] {
			cells = append(cells, rec)
		}
	}
	if len(cells) == 0 {
		return nil, nil
	}
	p, err := k.live(ctx)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	var restart *restartReport
	if k.lost != "" {
		restart = &restartReport{why: k.lost, lostGeneration: k.lostGeneration}
		k.lost = ""
	}
	k.mu.Unlock()
	if restart != nil {
		if p, err = k.replay(ctx, p, restart); err != nil {
			return nil, err
		}
	}
	var failed []int
	for _, rec := range cells {
		start := time.Now()
		res, err := k.runCell(ctx, p, cellRun{cell: rec.Cell, code: rec.Code, timeout: k.cfg.Timeout, replay: true})
		if err != nil {
			return failed, fmt.Errorf("absorb step %d: cell %d: %w", step, rec.Cell, err)
		}
		if !res.OK() {
			failed = append(failed, rec.Cell)
		}
		out := newCellRecord(rec.Cell, p.generation, rec.Code, res, start)
		out.Replayed = true
		_, _ = k.record(out)
	}
	return failed, nil
}

// StepFiles lists the files the cells this kernel ran for step created or
// changed, and the figures they saved, that still exist: a branch's own
// files, told from those of the steps that ran beside it.
func (k *Kernel) StepFiles(step int) ([]string, error) {
	records, err := ReadCells(k.ws.root)
	if err != nil {
		return nil, fmt.Errorf("files of step %d: %w", step, err)
	}
	k.mu.Lock()
	gens := map[int]bool{}
	for _, g := range k.generations {
		gens[g] = true
	}
	k.mu.Unlock()
	set := map[string]bool{}
	for _, rec := range records {
		if rec.Branch != step || rec.Replayed || !gens[rec.Generation] {
			continue
		}
		for _, p := range existingFiles(k.ws.root, append(append([]string(nil), rec.Files...), rec.Figures...)) {
			set[p] = true
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// PeakMemory returns the peak resident memory in bytes of the kernel's
// live interpreter with the processes it runs under (the sandbox): the sum
// of their VmHWM on Linux, or 0 when none runs or the system does not say.
func (k *Kernel) PeakMemory() int64 {
	k.mu.Lock()
	p := k.proc
	k.mu.Unlock()
	if p == nil || p.cmd.Process == nil {
		return 0
	}
	return peakRSS(p.cmd.Process.Pid, 0)
}

// ChildrenPeakMemory sums the peak resident memory (VmHWM) in bytes of
// the live processes started by pid, and theirs: for a Sift process, its
// kernels with their sandboxes. 0 where the system does not say.
func ChildrenPeakMemory(pid int) int64 {
	return peakRSS(pid, 0) - vmHWM(pid)
}

// peakRSS sums VmHWM of pid and its descendants, in bytes.
func peakRSS(pid, depth int) int64 {
	if depth > 8 {
		return 0
	}
	total := vmHWM(pid)
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, t := range tasks {
		kids, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		for _, c := range strings.Fields(string(kids)) {
			if n, err := strconv.Atoi(c); err == nil {
				total += peakRSS(n, depth+1)
			}
		}
	}
	return total
}

// vmHWM is the peak resident memory of pid in bytes, 0 when unknown.
func vmHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Branch returns an operator whose Python runs in a branch of this
// operator's kernel for step (see Kernel.Branch); its file operations are
// on the same workspace. Close it when the branch is done.
func (o *KernelOperator) Branch(step int) (*KernelOperator, error) {
	b, err := o.kernel.Branch(step)
	if err != nil {
		return nil, err
	}
	return &KernelOperator{Local: b.ws, kernel: b}, nil
}
