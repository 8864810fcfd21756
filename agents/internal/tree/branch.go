package tree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
)

// DefaultParallel is how many plan steps run at the same time when the
// Request does not say. Three covers the common "A, B and C, then a
// summary" plans while bounding the extra Python kernels (each holds a
// copy of the session's data) to three.
const DefaultParallel = 3

// Concurrent steps ("branches"). The execute/replan loop stays Eino's:
// when two or more steps are ready (their needs finished), the step
// tracker runs a batch instead of one step. Each step of the batch runs
// the executor in a session of its own (a copy of the run's session
// values naming the step), over a branch kernel started from the main
// kernel's state (see operator.Kernel.Branch); a step that needs only the
// step its branch just ran goes on in that branch's kernel. When a step
// finishes, the main kernel absorbs its cells, then the step is recorded
// done, so a crash never loses a finished step's state. The batch
// launches ready steps up to the bound as others finish, and ends when
// nothing runs and at most one step is ready, or when a step failed, the
// budget was reached or a pause was asked: the replanner then sees every
// finished branch's result at once. All changes to the plan happen in the
// batch's goroutine; branches send it events and results. A step that
// asks the person (ask_user, an approval) stops in its own run, whose
// checkpoint is kept in the workspace; the main kernel absorbs what it
// ran, the other steps go on, and then the step tracker interrupts the
// run with the step's question. The answer resumes the step's run from
// its checkpoint on the main kernel (see BranchWait).
//
// A pause, or a crash, while a step waits for the person does not start
// it again: the wait is recorded beside its checkpoint once the main
// kernel has absorbed what the step ran, and a run recovered from the
// plan (Sift.Resume of a paused or dead session) finds it there, rebuilds
// the main kernel from cells.jsonl (which holds those cells), and asks
// the person again, so the answer goes on from the checkpoint exactly as
// in the run that asked. Starting the step again instead would need a
// kernel without its cells, which cells.jsonl cannot give once other
// steps were absorbed after them; and the step's model calls would be
// paid twice. Only a crash between the absorb and the record (no model
// call or cell in between) leaves the step to run again, as any step in
// progress at a crash does. A budget that stops the batch ends the
// session (it cannot be resumed), and the waiting step is skipped with
// the others.

// branchRunner runs batches of ready steps.
type branchRunner struct {
	cfg      treeConfig
	parallel int
}

// newBranchRunner returns the runner for cfg, or nil when Python has no
// kernel to branch. With parallel 1 it runs no batch, but still goes on
// with the steps a session run with more left waiting for the person.
func newBranchRunner(cfg treeConfig) *branchRunner {
	if _, ok := cfg.op.(*operator.KernelOperator); !ok {
		return nil
	}
	return &branchRunner{cfg: cfg, parallel: cfg.parallel}
}

// wants reports whether the plan has steps to run as a batch.
func (b *branchRunner) wants(ctx context.Context, fp *plans.FullPlan) bool {
	if b == nil || b.parallel <= 1 {
		return false
	}
	if quick, _ := params.Quick.Get(ctx); quick {
		return false
	}
	return len(fp.Ready()) > 1
}

// branchOutcome is how one branch's step ended.
type branchOutcome struct {
	pos     int // the step's position in the plan
	kernel  *operator.KernelOperator
	summary string
	failed  bool // the step ran and failed
	err     error
	// wait: the step waits for the person (a question or an approval);
	// its executor's run is saved in a checkpoint, to go on from there
	// once the person answers.
	wait *BranchWait
}

// BranchWait is a branch's step that waits for the person. The executor's
// run is saved under CheckPointID in the workspace's branch checkpoints
// (see branchCheckpoints), interrupted at InnerID; Ask is what the
// person sees. It travels in the run's checkpoint as the state of the
// step tracker's own interrupt, so the answer reaches the branch's
// executor where it stopped, in this process or a later one.
type BranchWait struct {
	Step         int
	CheckPointID string
	InnerID      string
	Ask          event.Interrupt
	// Files are those under out/ the step wrote before it asked.
	Files []string
}

// branchCheckpoints stores the checkpoints of branches that wait for the
// person in the session's workspace, under .branches/: they live and go
// with the session, whatever store holds the run's own checkpoint.
type branchCheckpoints struct{ dir string }

func (c branchCheckpoints) path(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return "", fmt.Errorf("branch checkpoint id %q: want a plain name", id)
	}
	return filepath.Join(c.dir, ".branches", id+".ckpt"), nil
}

// Get implements adk.CheckPointStore.
func (c branchCheckpoints) Get(_ context.Context, id string) ([]byte, bool, error) {
	p, err := c.path(id)
	if err != nil {
		return nil, false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read branch checkpoint %s: %w", id, err)
	}
	return b, true, nil
}

// Set implements adk.CheckPointStore: it writes atomically.
func (c branchCheckpoints) Set(_ context.Context, id string, data []byte) error {
	p, err := c.path(id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("save branch checkpoint %s: %w", id, err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("save branch checkpoint %s: %w", id, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("save branch checkpoint %s: %w", id, err)
	}
	return nil
}

// waitPath is where the wait of the branch checkpointed under id is
// recorded.
func (c branchCheckpoints) waitPath(id string) (string, error) {
	p, err := c.path(id)
	return strings.TrimSuffix(p, ".ckpt") + ".wait.json", err
}

// saveWait records w beside its checkpoint, atomically: a run recovered
// from the plan goes on with it.
func (c branchCheckpoints) saveWait(w *BranchWait) error {
	p, err := c.waitPath(w.CheckPointID)
	if err != nil {
		return err
	}
	b, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("record step %d's wait: %w", w.Step, err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("record step %d's wait: %w", w.Step, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("record step %d's wait: %w", w.Step, err)
	}
	return nil
}

// wait returns the recorded wait of the branch checkpointed under id, or
// nil when it does not wait (or its checkpoint is gone).
func (c branchCheckpoints) wait(id string) (*BranchWait, error) {
	p, err := c.waitPath(id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the wait of %s: %w", id, err)
	}
	if _, ok, err := c.Get(context.Background(), id); err != nil || !ok {
		return nil, err
	}
	var w BranchWait
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("read the wait of %s: %w", id, err)
	}
	return &w, nil
}

// dropWait forgets the recorded wait of the branch checkpointed under id:
// the step goes on, and a crash from now on runs it again.
func (c branchCheckpoints) dropWait(id string) error {
	p, err := c.waitPath(id)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget the wait of %s: %w", id, err)
	}
	return nil
}

// RecoveredWaits returns, for a run recovered from fp, the steps in
// progress that wait for the person (see branchCheckpoints.wait).
func RecoveredWaits(workdir string, fp *plans.FullPlan) []*BranchWait {
	var out []*BranchWait
	for _, st := range fp.Steps {
		if st.Status != plans.StatusDoing {
			continue
		}
		if w, err := (branchCheckpoints{workdir}).wait(branchCheckpointID(fp.QuestionNumber(), st.Index)); err == nil && w != nil && w.Step == st.Index {
			out = append(out, w)
		}
	}
	return out
}

// BranchEvent carries an event of a branch, tagged with its step, to the
// run that reports it.
type BranchEvent struct {
	Step  *plans.StepState
	Event *adk.AgentEvent
}

// branchResult is what a branch's executor left as its step's result.
type branchResult struct{ Summary string }

// run runs one batch. It returns the steps that wait for the person (those
// of waiting, which waited before the batch, and its own), in plan order,
// when the batch was not paused or stopped by the budget: the step
// tracker asks the person, one at a time, and each goes on where it
// stopped. Paused, they stay recorded for the resumed run.
func (b *branchRunner) run(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *plans.FullPlan, loopAgent string, budget *BudgetGuard, waiting []*BranchWait) []*BranchWait {
	main := b.cfg.op.(*operator.KernelOperator)
	own := treeOwner(ctx, gen, fp)
	events := make(chan BranchEvent)
	results := make(chan branchOutcome)
	running := 0
	idle := map[int]*operator.KernelOperator{} // by the step each last ran
	defer func() {
		for _, k := range idle {
			_ = k.Close()
		}
	}()
	var stopErr error
	paused, stop := false, false
	finished := map[int]string{} // by step index
	// What a branch sees of the plan must not depend on when the steps
	// beside it happen to start or finish, or a replay would not match.
	atStart := fp.Clone()
	waits := append([]*BranchWait(nil), waiting...)
	workdir, _ := params.Workdir.Get(ctx)

	launch := func(pos int) error {
		st := &fp.Steps[pos]
		var k *operator.KernelOperator
		if continues(fp, pos, idle) {
			needs := fp.NeedsOf(pos)
			k = idle[needs[0]]
			delete(idle, needs[0])
			k.Kernel().SetBranch(st.Index)
		} else {
			var err error
			if k, err = main.Branch(st.Index); err != nil {
				return err
			}
			// Its interpreter starts while the step's first model calls
			// run, as the main kernel's does.
			go func() { _ = k.Kernel().Start(ctx) }()
		}
		budget.stepStarted()
		if err := own.Start(st, true); err != nil {
			_ = k.Close()
			return err
		}
		running++
		started := *st
		view := branchView(atStart, fp, pos)
		go func() {
			results <- b.runStep(ctx, pos, started, k, view, events)
		}()
		return nil
	}

	for {
		if !stop {
			for _, pos := range fp.Ready() {
				if running >= b.parallel {
					break
				}
				if running == 0 && len(fp.Ready()) < 2 && !continues(fp, pos, idle) {
					break // one step alone runs on the main kernel
				}
				if err := budget.check(true); err != nil {
					stopErr, stop = err, true
					break
				}
				if PauseRequested(ctx) {
					paused, stop = true, true
					break
				}
				if err := launch(pos); err != nil {
					gen.Send(&adk.AgentEvent{Err: err})
					stop = true
					break
				}
			}
		}
		if running == 0 {
			break
		}
		select {
		case be := <-events:
			gen.Send(&adk.AgentEvent{Output: &adk.AgentOutput{CustomizedOutput: &be}})
		case out := <-results:
			running--
			st := &fp.Steps[out.pos]
			switch {
			case out.wait != nil:
				// It waits for the person; the others go on. What it ran
				// so far joins the session's kernel, where it goes on once
				// answered; it stays in progress.
				out.wait.Files = b.stepFiles(out.kernel, st.Index)
				if _, err := main.Kernel().Absorb(ctx, out.kernel.Kernel(), st.Index); err != nil {
					out.wait.Ask.Prompt += fmt.Sprintf("\n(Note: what step %d ran before asking could not be brought back to the session's kernel: %v)", st.Index, err)
				}
				// Now a resume after a pause or a crash can go on with it.
				if err := (branchCheckpoints{workdir}).saveWait(out.wait); err != nil {
					out.wait.Ask.Prompt += fmt.Sprintf("\n(Note: if the run stops before you answer, step %d runs again from its start: %v)", st.Index, err)
				}
				_ = out.kernel.Close()
				waits = append(waits, out.wait)
			case out.err != nil && errors.Is(out.err, ErrBudgetExceeded):
				_ = out.kernel.Close()
				stopErr, stop = out.err, true
				own.Requeue(st)
			case out.err != nil && fatal(ctx, out.err):
				_ = out.kernel.Close()
				own.Fail(st, out.err)
				stop = true
				gen.Send(&adk.AgentEvent{Err: out.err})
			default:
				if bad, err := main.Kernel().Absorb(ctx, out.kernel.Kernel(), st.Index); err != nil {
					out.failed, out.summary = true, fmt.Sprintf("%s its results could not be brought back to the session's kernel: %v", failedPrefix, err)
				} else if len(bad) > 0 {
					out.summary += fmt.Sprintf("\n(Note: cell(s) %v failed when brought back to the session's kernel.)", bad)
				}
				own.Done(st, out.summary, b.stepFiles(out.kernel, st.Index), out.failed || out.err != nil)
				if st.Status == plans.StatusFailed {
					stop = true // the replanner decides what next
				}
				if prev := idle[st.Index]; prev != nil {
					_ = prev.Close()
				}
				idle[st.Index] = out.kernel
				finished[st.Index] = fmt.Sprintf("Step %d: %s", st.Index, st.Summary)
			}
			if err := own.Finish(st); err != nil {
				gen.Send(&adk.AgentEvent{Err: err})
			}
		}
	}
	// The replanner reads what the executor did; here, every branch.
	// In plan order, whatever order they finished in.
	var executed []string
	for _, idx := range slices.Sorted(maps.Keys(finished)) {
		executed = append(executed, finished[idx])
	}
	params.ExecutedStep.Set(ctx, strings.Join(executed, "\n\n"))
	switch {
	case stopErr != nil:
		stopForBudget(gen, own, stopErr, loopAgent)
		return nil
	case paused:
		params.Paused.Set(ctx, true)
		gen.Send(siftEvent(event.Event{Kind: event.Paused, Text: "paused before steps " + JoinSteps(readyIndexes(fp))}))
		gen.Send(&adk.AgentEvent{Action: adk.NewBreakLoopAction(loopAgent)})
		return nil
	}
	sort.Slice(waits, func(i, j int) bool { return waits[i].Step < waits[j].Step })
	return waits
}

// runStep runs the executor for the step at pos in a session of its own,
// over kernel k, forwarding its events tagged with the step.
func (b *branchRunner) runStep(ctx context.Context, pos int, step plans.StepState, k *operator.KernelOperator, fp *plans.FullPlan, events chan<- BranchEvent) branchOutcome {
	out := branchOutcome{pos: pos, kernel: k}
	ctx = llm.WithStep(ctx, step.Index)
	ctx, endSpan := llm.StartAgent(ctx, fmt.Sprintf("step %d", step.Index))
	defer func() { endSpan(out.err) }()
	runner, err := b.runner(ctx, k)
	if err != nil {
		out.err = err
		return out
	}
	values := maps.Clone(adk.GetSessionValues(ctx))
	values[plans.FullPlanKey.Name()] = fp
	values[params.BranchStep.Name()] = step.Index
	delete(values, BranchWaitsKey)
	checkpoint := branchCheckpointID(fp.QuestionNumber(), step.Index)
	iter := runner.Run(ctx, nil, adk.WithSessionValues(values), adk.WithCheckPointID(checkpoint))
	codeFailed := false
	for {
		ev, ok := iter.Next()
		if !ok {
			break
		}
		if w := waitOf(ev, step.Index, checkpoint); w != nil {
			out.wait = w
			continue
		}
		if ev.Err != nil {
			if out.err == nil {
				out.err = ev.Err
			}
			continue
		}
		if ev.Output != nil {
			if r, ok := ev.Output.CustomizedOutput.(*branchResult); ok {
				out.summary = r.Summary
				continue
			}
		}
		if m := eventMessage(ev); m != nil && m.Role == schema.Tool && ev.Output.MessageOutput.ToolName == "python" {
			codeFailed = tools.PythonFailed(m.Content)
		}
		if out.wait == nil {
			select {
			case events <- BranchEvent{Step: &step, Event: ev}:
			case <-ctx.Done():
			}
		}
	}
	if out.wait != nil {
		return out
	}
	if over := b.cfg.budget.Exceeded(); over != nil && (out.err != nil || out.summary == "" || strings.Contains(out.summary, ErrBudgetExceeded.Error())) {
		// The budget stopped the step's model calls (the error may
		// reach here wrapped as text): the step did not run.
		out.err = over
	}
	if out.err != nil && !errors.Is(out.err, ErrBudgetExceeded) && !fatal(ctx, out.err) {
		out.summary = fmt.Sprintf("%s the step did not finish: %v", failedPrefix, out.err)
		out.failed, out.err = true, nil
	}
	out.failed = out.failed || codeFailed
	return out
}

// stepFiles lists the files under out/ that k's cells for step wrote:
// the step's own, not those of the steps beside it.
func (b *branchRunner) stepFiles(k *operator.KernelOperator, step int) []string {
	files, _ := k.Kernel().StepFiles(step)
	var out []string
	for _, f := range files {
		if strings.HasPrefix(f, operator.OutDir+"/") {
			out = append(out, f)
		}
	}
	return out
}

// runner returns a runner of the executor over kernel k, in a run of its
// own whose checkpoint, when it waits for the person, is kept in the
// workspace.
func (b *branchRunner) runner(ctx context.Context, k operator.Operator) (*adk.Runner, error) {
	cfg := b.cfg
	cfg.op = k
	cfg.models.executor = budgetModel{cfg.models.executor, cfg.budget}
	cfg.models.code = budgetModel{cfg.models.code, cfg.budget}
	exec, _, err := buildExecutor(ctx, cfg)
	if err != nil {
		return nil, err
	}
	workdir, _ := params.Workdir.Get(ctx)
	return adk.NewRunner(ctx, adk.RunnerConfig{Agent: &branchStep{inner: exec}, CheckPointStore: branchCheckpoints{dir: workdir}}), nil
}

// waitOf returns the wait of a branch's interrupt event, or nil.
func waitOf(ev *adk.AgentEvent, step int, checkpoint string) *BranchWait {
	in := InterruptOf(ev)
	if in == nil {
		return nil
	}
	w := &BranchWait{Step: step, CheckPointID: checkpoint, InnerID: in.ID, Ask: *in}
	w.Ask.ID = ""
	return w
}

// ask sends the step tracker's interrupt for w: the person sees w's
// question or approval, and the answer comes back to resume.
func (w *BranchWait) ask(ctx context.Context) *adk.AgentEvent {
	ask := w.Ask
	return adk.StatefulInterrupt(ctx, &ask, w)
}

// resume goes on with the branch step w waits in, on kernel k (the
// session's), with the person's answer: its executor's run continues
// from its checkpoint. The events are those of a step run alone; a new
// question of the step is sent as the step tracker's interrupt again, and
// the step's result is left in the run's session for the replanner.
func (b *branchRunner) resume(ctx context.Context, w *BranchWait, answer any) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		runner, err := b.runner(ctx, b.cfg.op)
		if err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
			return
		}
		// From here the main kernel runs the step's cells: after a crash
		// the checkpoint would repeat them, so the step runs again.
		workdir, _ := params.Workdir.Get(ctx)
		store := branchCheckpoints{workdir}
		if err := store.dropWait(w.CheckPointID); err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
			return
		}
		inner, err := runner.ResumeWithParams(ctx, w.CheckPointID, &adk.ResumeParams{Targets: map[string]any{w.InnerID: answer}})
		if err != nil {
			gen.Send(&adk.AgentEvent{Err: fmt.Errorf("go on with step %d from where it asked: %w", w.Step, err)})
			return
		}
		relay(inner, gen, func(ev *adk.AgentEvent) bool {
			if again := waitOf(ev, w.Step, w.CheckPointID); again != nil {
				again.Files = w.Files
				if err := store.saveWait(again); err != nil {
					again.Ask.Prompt += fmt.Sprintf("\n(Note: if the run stops before you answer, step %d runs again from its start: %v)", w.Step, err)
				}
				gen.Send(again.ask(ctx))
				return false
			}
			if ev.Output != nil {
				if r, ok := ev.Output.CustomizedOutput.(*branchResult); ok {
					params.ExecutedStep.Set(ctx, r.Summary)
					return false
				}
			}
			return true
		})
	})
}

// branchStep runs a branch's executor and reports the step's result it
// left in the branch's session.
type branchStep struct{ inner adk.Agent }

func (a *branchStep) Name(ctx context.Context) string        { return a.inner.Name(ctx) }
func (a *branchStep) Description(ctx context.Context) string { return a.inner.Description(ctx) }

func (a *branchStep) Run(ctx context.Context, input *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return a.relay(ctx, func() *adk.AsyncIterator[*adk.AgentEvent] { return a.inner.Run(ctx, input, opts...) })
}

// Resume goes on with the executor where it waited for the person.
func (a *branchStep) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return a.relay(ctx, func() *adk.AsyncIterator[*adk.AgentEvent] {
		resumable, ok := a.inner.(adk.ResumableAgent)
		if !ok {
			return Once(&adk.AgentEvent{Err: fmt.Errorf("executor: %s cannot be resumed", a.inner.Name(ctx))})
		}
		return resumable.Resume(ctx, info, opts...)
	})
}

// relay forwards the executor's events, then the step's result, unless
// the executor waits for the person.
func (a *branchStep) relay(ctx context.Context, start func() *adk.AsyncIterator[*adk.AgentEvent]) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		waiting := false
		failed := relay(start(), gen, func(ev *adk.AgentEvent) bool {
			waiting = waiting || (ev.Action != nil && ev.Action.Interrupted != nil)
			return true
		})
		if waiting || failed != nil {
			return
		}
		text, _ := params.ExecutedStep.Get(ctx)
		gen.Send(&adk.AgentEvent{Output: &adk.AgentOutput{CustomizedOutput: &branchResult{Summary: text}}})
	})
}

// budgetModel refuses a model call once the run's budget is reached, so
// branches in flight stop within one call each.
type budgetModel struct {
	inner  model.ToolCallingChatModel
	budget *BudgetGuard
}

func (m budgetModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	if err := m.budget.check(false); err != nil {
		return nil, err
	}
	return m.inner.Generate(ctx, in, opts...)
}

func (m budgetModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	if err := m.budget.check(false); err != nil {
		return nil, err
	}
	return m.inner.Stream(ctx, in, opts...)
}

func (m budgetModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	inner, err := m.inner.WithTools(tools)
	if err != nil {
		return nil, err
	}
	return budgetModel{inner, m.budget}, nil
}

// branchView is the plan as the branch running the step at pos sees it:
// as it was when the batch started (atStart), with the steps it needs,
// directly or not, as they are now (finished) and itself in progress.
// The steps beside it stay as they were, so the branch's prompts are the
// same whichever of them started or finished first.
func branchView(atStart, now *plans.FullPlan, pos int) *plans.FullPlan {
	view := atStart.Clone()
	cur := now.Clone()
	byIndex := map[int]int{}
	for i, st := range cur.Steps {
		byIndex[st.Index] = i
	}
	seen := map[int]bool{}
	var walk func(int)
	walk = func(i int) {
		if i >= len(view.Steps) || seen[i] {
			return
		}
		seen[i] = true
		view.Steps[i] = cur.Steps[i]
		for _, n := range cur.NeedsOf(i) {
			if j, ok := byIndex[n]; ok {
				walk(j)
			}
		}
	}
	walk(pos)
	return view
}

// continues reports whether the step at pos needs only a step whose
// branch kernel is idle: it goes on in that kernel, with no replay.
func continues(fp *plans.FullPlan, pos int, idle map[int]*operator.KernelOperator) bool {
	needs := fp.NeedsOf(pos)
	return len(needs) == 1 && idle[needs[0]] != nil
}

// readyIndexes are the indexes of the steps ready to run.
func readyIndexes(fp *plans.FullPlan) []int {
	var out []int
	for _, pos := range fp.Ready() {
		out = append(out, fp.Steps[pos].Index)
	}
	return out
}

// JoinSteps lists step indexes as "1, 3 and 5".
func JoinSteps(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
