package operator

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sift-agent/sift/confined"
)

// A kernel that died is restarted; its successful cells are replayed into
// the new interpreter from cells.jsonl (here in this process, or adopted
// from an earlier one), and the Run that restarted it says what that cost.

// restartReport is what a Run says about the kernel it had to restart.
type restartReport struct {
	why            string
	lostGeneration int
	replayAsked    bool
	replayed       int
	failed         []int
	// replayLost says why replay stopped early: the kernel died during it.
	replayLost string
}

// notice says in plain words what the restart cost and what replay did.
func (r *restartReport) notice() string {
	msg := "The Python kernel was restarted: the previous one " + r.why + "."
	switch {
	case !r.replayAsked:
		return msg + " Its variables, imports and loaded data are lost: this cell ran in a fresh interpreter, so import, load and define again what it needs."
	case r.replayLost != "":
		return msg + fmt.Sprintf(" Replaying its earlier cells to rebuild its state stopped after %d because the kernel %s; this cell ran in a fresh interpreter, so import, load and define again what it needs.", r.replayed, r.replayLost)
	}
	msg += fmt.Sprintf(" Its state was rebuilt by replaying %d earlier successful cell(s).", r.replayed)
	if len(r.failed) > 0 {
		cells := make([]string, len(r.failed))
		for i, c := range r.failed {
			cells[i] = fmt.Sprint(c)
		}
		msg += " Cell(s) " + strings.Join(cells, ", ") + " failed on replay, so what they defined may be missing."
	}
	return msg
}

// joinNotices joins non-empty notices with a space.
func joinNotices(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// replay re-runs, in the fresh interpreter p, the cells that succeeded in
// the lost kernel, recording each in cells.jsonl as replayed. When the
// kernel dies during replay it starts a fresh one and stops replaying. It
// returns the interpreter the cell is to run in.
func (k *Kernel) replay(ctx context.Context, p *kernelProc, r *restartReport) (*kernelProc, error) {
	r.replayAsked = true
	records, err := ReadCells(k.ws.root)
	if err != nil {
		return nil, fmt.Errorf("run python: replay: %w", err)
	}
	for _, rec := range records {
		if rec.Generation != r.lostGeneration || !rec.OK {
			continue
		}
		start := time.Now()
		res, err := k.runCell(ctx, p, cellRun{cell: rec.Cell, code: rec.Code, timeout: k.cfg.Timeout, replay: true})
		if err != nil {
			return nil, fmt.Errorf("run python: replay cell %d: %w", rec.Cell, err)
		}
		r.replayed++
		if !res.OK() {
			r.failed = append(r.failed, rec.Cell)
		}
		out := newCellRecord(rec.Cell, p.generation, rec.Code, res, start)
		out.Replayed = true
		_, _ = k.record(out) // provenance only; the replay itself went through
		k.mu.Lock()
		lost, why := k.proc != p, k.lost
		k.lost = ""
		k.mu.Unlock()
		if lost {
			r.replayLost = why
			return k.live(ctx)
		}
	}
	return p, nil
}

// keepStamps gives the files a replayed cell wrote again, the same size
// as before, their earlier modification time: replay rebuilds state, it
// makes nothing new, so the step that runs next (a follow-up, a resumed
// step) must not count them among the files it produced.
func (k *Kernel) keepStamps(before map[string]fileStamp, written []string) {
	r, err := confined.OpenRoot(k.ws.root)
	if err != nil {
		return
	}
	defer r.Close()
	for _, p := range written {
		was, ok := before[p]
		if !ok {
			continue
		}
		if st, err := r.Stat(p); err == nil && st.Mode().IsRegular() && st.Size() == was.size {
			setModTime(r, p, was.modTime)
		}
	}
}

// cellRun is one cell to run.
type cellRun struct {
	cell    int
	code    string
	timeout time.Duration
	replay  bool // rebuilding state: no figures, no file report, output dropped
}

// kernelRequest is a run request as kernel.py reads it.
type kernelRequest struct {
	Op     string `json:"op"`
	Cell   string `json:"cell"`
	File   string `json:"file"`
	Code   string `json:"code"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Replay bool   `json:"replay,omitempty"`
	// MaxOutput is how much captured output the reply carries whole.
	MaxOutput int `json:"max_output"`
}

// kernelReply is a message from kernel.py: the ready message, or the
// result of a cell.
type kernelReply struct {
	Ready       bool     `json:"ready"`
	Python      string   `json:"python"`
	Cell        string   `json:"cell"`
	Value       string   `json:"value"`
	Error       string   `json:"error"`
	Figures     []string `json:"figures"`
	Interrupted bool     `json:"interrupted"`
	// Written are the workspace-relative paths the cell opened for
	// writing (or renamed or copied to).
	Written []string `json:"written"`
	// State names the data the globals hold after the cell (see
	// Kernel.State).
	State string `json:"state"`
	// Stdout and Stderr are what the cell wrote to fds 1 and 2, read by
	// the kernel from its own descriptors; nil when it could not.
	Stdout, Stderr *capturedOutput
}

// How a cell was stopped from outside.
const (
	stopNone = iota
	stopTimeout
	stopCancel
	stopDisk // it went past the session's disk budget
)

// AdoptLog makes a fresh kernel take over a workspace whose earlier kernel
// (in another Sift process, say one that crashed or was resumed later, or
// closed by this process when the session's previous run ended) is gone: the next Run with RunOptions.Replay rebuilds that kernel's state by
// replaying its successful cells from cells.jsonl, and says so in its
// notice. It reports the generation adopted and how many cells it holds; a
// workspace without cells adopts nothing.
func (k *Kernel) AdoptLog() (generation, cells int, err error) {
	records, err := ReadCells(k.ws.root)
	if err != nil {
		return 0, 0, fmt.Errorf("adopt the cell log: %w", err)
	}
	for _, rec := range records {
		// Branch kernels' cells came back to the main kernel when their
		// step finished (see Absorb); unfinished ones are run again.
		if rec.Branch == 0 && rec.Generation > generation {
			generation = rec.Generation
		}
	}
	for _, rec := range records {
		if rec.Generation == generation && rec.OK {
			cells++
		}
	}
	if cells == 0 {
		return 0, 0, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.proc != nil {
		return 0, 0, fmt.Errorf("adopt the cell log: the kernel has already started")
	}
	k.lost = "belonged to an earlier Sift process"
	if _, ok := endedHere.Load(endedKernel{k.ws.root, generation}); ok {
		k.lost = "was shut down when the session's previous run ended"
	}
	k.lostGeneration = generation
	// The log as it is now (copied in by a fork, say) is what each step's
	// share counts from.
	k.seq.mu.Lock()
	k.seq.cells = openCellLog(k.ws.root, records)
	k.seq.mu.Unlock()
	return generation, cells, nil
}

// AdoptForkedLog is AdoptLog for a workspace made as a fork of session
// parent, whose cells it holds: the notice says the state is rebuilt
// from that session, not that an earlier process had it.
func (k *Kernel) AdoptForkedLog(parent string) (generation, cells int, err error) {
	if generation, cells, err = k.AdoptLog(); err != nil || cells == 0 {
		return generation, cells, err
	}
	k.mu.Lock()
	k.lost = "belongs to session " + parent + ", which this session was forked from"
	k.mu.Unlock()
	return generation, cells, nil
}
