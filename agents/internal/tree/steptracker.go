package tree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/tools"
)

// failedPrefix starts a code agent's answer when it could not do its task.
const failedPrefix = report.FailedPrefix

// stepTracker wraps the executor: it marks the current step doing, runs the
// executor, then records the step's result, status and new files in the
// FullPlan and plan.md, reporting each change as an event.
type stepTracker struct {
	inner adk.Agent
	// quick runs the code agent directly in place of the executor, on the
	// quick path.
	quick  *directStep
	budget *BudgetGuard
	// branches runs ready steps side by side; nil runs one at a time.
	branches *branchRunner
}

func (a *stepTracker) Name(ctx context.Context) string        { return a.inner.Name(ctx) }
func (a *stepTracker) Description(ctx context.Context) string { return a.inner.Description(ctx) }

func (a *stepTracker) Run(ctx context.Context, input *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		own := ownPlan(ctx, gen)
		fp := own.fp
		cur := fp.Current()
		if cur == nil && afterLastStep(ctx, fp) {
			return
		}
		if cur == nil {
			gen.Send(&adk.AgentEvent{Err: errors.New("executor: the plan has no step left to run")})
			return
		}
		if err := a.budget.check(true); err != nil {
			stopForBudget(gen, own, err, a.Name(ctx))
			return
		}
		if PauseRequested(ctx) {
			// A safe point: nothing of this step has run yet.
			params.Paused.Set(ctx, true)
			gen.Send(siftEvent(event.Event{Kind: event.Paused, Text: fmt.Sprintf("paused before step %d", cur.Index)}))
			gen.Send(&adk.AgentEvent{Action: adk.NewBreakLoopAction(a.Name(ctx))})
			return
		}
		// Steps a recovered run found waiting for the person.
		waiting, _ := branchWaits.Get(ctx)
		if a.branches.wants(ctx, fp) {
			// The replanner sees the batch's results, once the steps that
			// wait for the person are answered and done.
			a.askNext(ctx, gen, a.branches.run(ctx, gen, fp, a.Name(ctx), a.budget, waiting))
			return
		}
		if len(waiting) > 0 {
			a.askNext(ctx, gen, waiting)
			return
		}
		a.budget.stepStarted()
		// Model calls made for this step are metered under its index.
		ctx = llm.WithStep(ctx, cur.Index)
		ctx, endSpan := llm.StartAgent(ctx, fmt.Sprintf("step %d", cur.Index))
		var spanErr error
		defer func() { endSpan(spanErr) }()
		if err := own.Start(cur, false); err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
			return
		}

		quick, _ := params.Quick.Get(ctx)
		a.follow(ctx, gen, fp, cur, cur.Started, nil, func() *adk.AsyncIterator[*adk.AgentEvent] {
			if quick {
				return a.quick.runTask(ctx, quickRequest(ctx, cur))
			}
			return a.inner.Run(ctx, input, opts...)
		}, func(err error) { spanErr = err })
	})
}

// follow runs the step's agent (start gives its events: a fresh run or a
// resume), forwards its events, and records the step's result, status and
// files when it ends. A step that waits for the person stays doing. Its
// files are those under out/ changed since since, and known.
func (a *stepTracker) follow(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *plans.FullPlan, cur *plans.StepState,
	since time.Time, known []string, start func() *adk.AsyncIterator[*adk.AgentEvent], setErr func(error)) {
	workdir, _ := params.Workdir.Get(ctx)
	own := treeOwner(ctx, gen, fp)
	codeFailed := false
	var stepErr error
	inner := start()
	interrupted := false
	for {
		ev, ok := inner.Next()
		if !ok {
			break
		}
		if ev.Action != nil && ev.Action.Interrupted != nil {
			// The step waits for the person; it goes on when resumed.
			interrupted = true
			gen.Send(ev)
			continue
		}
		if ev.Err != nil {
			if ctx.Err() != nil {
				own.Stop(cur)
				gen.Send(ev)
				return
			}
			if fatal(ctx, ev.Err) {
				own.Fail(cur, ev.Err)
				_ = own.Save()
				gen.Send(ev)
				return
			}
			stepErr = ev.Err
			continue
		}
		if m := eventMessage(ev); m != nil && m.Role == schema.Tool && ev.Output.MessageOutput.ToolName == "python" {
			codeFailed = tools.PythonFailed(m.Content)
		}
		gen.Send(ev)
	}
	if interrupted {
		return
	}
	if ctx.Err() != nil {
		own.Stop(cur)
		return
	}

	text, _ := params.ExecutedStep.Get(ctx)
	setErr(stepErr)
	if stepErr != nil {
		// The executor gave up (iteration bound, a tool that failed
		// hard): the step fails, and the replanner decides what next.
		text = fmt.Sprintf("%s the step did not finish: %s", failedPrefix, stepFailure(stepErr))
		params.ExecutedStep.Set(ctx, text)
	}
	own.Done(cur, text, unionSorted(known, filesSince(workdir, "out", since)), stepErr != nil || codeFailed)
	if err := own.Finish(cur); err != nil {
		gen.Send(&adk.AgentEvent{Err: err})
	}
}

// Resume goes on with a step whose agent waited for the person (a question
// or an approval inside the executor or the code agent).
// afterLastStep reports whether fp's run was resumed after its last step;
// then the replanner, next, gives the answer from the recorded results,
// and the last step's result is what it is given as executed.
func afterLastStep(ctx context.Context, fp *plans.FullPlan) bool {
	if resumed, _ := params.Resumed.Get(ctx); !resumed || !AllStepsDone(fp) {
		return false
	}
	last := fp.Steps[len(fp.Steps)-1]
	params.ExecutedStep.Set(ctx, fmt.Sprintf("Step %d: %s", last.Index, last.Summary))
	return true
}

func (a *stepTracker) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		fp := fullPlan(ctx)
		if w, ok := info.InterruptState.(*BranchWait); ok && info.WasInterrupted {
			a.resumeBranch(ctx, gen, fp, w, info)
			return
		}
		cur := fp.Current()
		if cur == nil && afterLastStep(ctx, fp) {
			return
		}
		if cur == nil {
			gen.Send(&adk.AgentEvent{Err: errors.New("executor: resumed, but the plan has no step in progress")})
			return
		}
		ctx = llm.WithStep(ctx, cur.Index)
		ctx, endSpan := llm.StartAgent(ctx, fmt.Sprintf("step %d", cur.Index))
		var spanErr error
		defer func() { endSpan(spanErr) }()
		quick, _ := params.Quick.Get(ctx)
		target := a.inner
		if quick {
			target = a.quick
		}
		resumable, ok := target.(adk.ResumableAgent)
		if !ok {
			gen.Send(&adk.AgentEvent{Err: fmt.Errorf("executor: %s cannot be resumed", target.Name(ctx))})
			return
		}
		a.follow(ctx, gen, fp, cur, cur.Started, nil, func() *adk.AsyncIterator[*adk.AgentEvent] {
			return resumable.Resume(ctx, info, opts...)
		}, func(err error) { spanErr = err })
	})
}

// askNext asks the person what the first of waits (branch steps waiting
// for the person) needs, keeping the others for after it.
func (a *stepTracker) askNext(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], waits []*BranchWait) {
	if len(waits) == 0 {
		branchWaits.Set(ctx, []*BranchWait(nil))
		return
	}
	branchWaits.Set(ctx, waits[1:])
	gen.Send(waits[0].ask(ctx))
}

// resumeBranch goes on with the branch step w, which waited for the
// person, from where it stopped, on the session's kernel (which absorbed
// what the step ran before it asked). Once it is done, the next waiting
// step is asked; after the last, the replanner runs.
func (a *stepTracker) resumeBranch(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *plans.FullPlan, w *BranchWait, info *adk.ResumeInfo) {
	if !info.IsResumeTarget {
		gen.Send(w.ask(ctx)) // not answered: it still waits
		return
	}
	var cur *plans.StepState
	for i := range fp.Steps {
		if fp.Steps[i].Index == w.Step {
			cur = &fp.Steps[i]
		}
	}
	if cur == nil || a.branches == nil {
		gen.Send(&adk.AgentEvent{Err: fmt.Errorf("executor: resumed step %d, which the plan no longer has", w.Step)})
		return
	}
	ctx = llm.WithStep(ctx, cur.Index)
	ctx, endSpan := llm.StartAgent(ctx, fmt.Sprintf("step %d", cur.Index))
	var spanErr error
	defer func() { endSpan(spanErr) }()
	// The replanner reads what the batch's other steps did too.
	batch, _ := params.ExecutedStep.Get(ctx)
	// Its files: those its branch wrote before it asked, and those written
	// since it goes on alone (the steps beside it have finished).
	a.follow(ctx, gen, fp, cur, time.Now(), w.Files, func() *adk.AsyncIterator[*adk.AgentEvent] {
		return a.branches.resume(ctx, w, info.ResumeData)
	}, func(err error) { spanErr = err })
	if cur.Status == plans.StatusDoing || cur.Status == plans.StatusTodo || strings.HasPrefix(cur.Summary, "Stopped:") || ctx.Err() != nil {
		return // it asks again, or the run stopped
	}
	if text := batch; text != "" {
		params.ExecutedStep.Set(ctx, fmt.Sprintf("%s\n\nStep %d: %s", text, cur.Index, cur.Summary))
	}
	rest, _ := branchWaits.Get(ctx)
	a.askNext(ctx, gen, rest)
}

// stopForBudget ends the execute/replan loop at a safe point: the steps
// not run are marked skipped with the reason.
func stopForBudget(gen *adk.AsyncGenerator[*adk.AgentEvent], own *PlanOwner, err error, agent string) {
	own.SkipRest("not run: " + err.Error())
	if own.SaveAndPublish(err.Error()) != nil {
		return
	}
	gen.Send(&adk.AgentEvent{Action: adk.NewBreakLoopAction(agent)})
}

// quickRequest is the code agent's task on the quick path: the question,
// which its system message holds, or the step when the planner rephrased
// it.
func quickRequest(ctx context.Context, cur *plans.StepState) string {
	q, _ := params.Question.Get(ctx)
	if strings.TrimSpace(cur.Description) == strings.TrimSpace(q) {
		return "Answer the question."
	}
	return "Plan: " + cur.Description
}

// fatal tells errors that end the run (cancellation, model configuration or
// transport) from those that only fail the step.
func fatal(ctx context.Context, err error) bool {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	return isModelError(err)
}

// eventMessage returns an event's message. A streamed message is read from
// a copy of its stream, and the event keeps the other copy, so the caller
// downstream still receives the whole stream.
func eventMessage(ev *adk.AgentEvent) *schema.Message {
	if ev == nil || ev.Output == nil || ev.Output.MessageOutput == nil {
		return nil
	}
	mo := ev.Output.MessageOutput
	if !mo.IsStreaming || mo.MessageStream == nil {
		return mo.Message
	}
	copies := mo.MessageStream.Copy(2)
	mo.MessageStream = copies[0]
	msg, err := schema.ConcatMessageStream(copies[1])
	if err != nil {
		return nil
	}
	return msg
}

type fileStamp struct {
	size int64
	mod  time.Time
}

// snapshotFiles records size and mtime of every regular file under
// root/dir, keyed by workspace-relative path.
func snapshotFiles(root, dir string) map[string]fileStamp {
	out := map[string]fileStamp{}
	if root == "" {
		return out
	}
	// Walked beneath the workspace by descriptor: a directory code swaps
	// for a link is never descended into.
	r, err := confined.OpenRoot(root)
	if err != nil {
		return out
	}
	defer r.Close()
	_ = r.Walk(dir, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[rel] = fileStamp{info.Size(), info.ModTime()}
		}
		return nil
	})
	return out
}

// unionSorted returns the paths in a or b, sorted, each once.
func unionSorted(a, b []string) []string {
	set := map[string]bool{}
	for _, p := range append(append([]string(nil), a...), b...) {
		set[p] = true
	}
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// filesSince lists the files under root/dir changed at or after t.
func filesSince(root, dir string, t time.Time) []string {
	var out []string
	for p, st := range snapshotFiles(root, dir) {
		if !st.mod.Before(t) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
