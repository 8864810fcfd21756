package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/prebuilt/planexecute"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// The plan's owner: the one place that changes a question's plan — starts,
// finishes, stops, re-queues and skips its steps, takes the planner's,
// replanner's, review's and built-in analysis's plans and the answer — and
// saves it as plan.md and state.json and says what changed. The agents of
// the tree own the session's plan through ownPlan; the run owns its own
// copy (the built-in analyses, the run's end, a resume) through
// run.ownPlan.

// planOwner changes the plan fp and tells the events of its turn what
// changed: put saves fp, send announces a change, and fault (when set)
// reports a plan that could not be saved.
type planOwner struct {
	ctx   context.Context
	fp    *plans.FullPlan
	put   func() error
	send  func(event.Event)
	fault func(error)
}

// ownPlan returns the owner of the session's plan (fullPlan) for one agent
// turn: it saves the plan in the session (plans.FullPlanKey) and the
// workspace, and speaks through the turn's events (gen).
func ownPlan(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent]) *planOwner {
	return treeOwner(ctx, gen, fullPlan(ctx))
}

// treeOwner returns the owner of fp, the session's plan or the copy a
// branch or the report works on, for one agent turn.
func treeOwner(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *plans.FullPlan) *planOwner {
	return &planOwner{
		ctx: ctx,
		fp:  fp,
		put: func() error {
			plans.FullPlanKey.Set(ctx, fp)
			return writePlanFile(ctx, fp)
		},
		send:  func(e event.Event) { gen.Send(siftEvent(e)) },
		fault: func(err error) { gen.Send(&adk.AgentEvent{Err: err}) },
	}
}

// ownPlan returns the owner of the run's own plan (r.plan, outside the
// agent tree): it saves the plan in the run's workspace and speaks through
// the run's events. Ask again after r.plan is replaced.
func (r *run) ownPlan(ctx context.Context) *planOwner {
	fp := r.plan
	return &planOwner{
		ctx:  ctx,
		fp:   fp,
		put:  func() error { return writePlanFileAt(r.ws.Root, fp) },
		send: func(e event.Event) { r.emit(e) },
	}
}

// save saves the plan.
func (o *planOwner) save() error { return o.put() }

// publish says the plan changed (note says how, or is empty).
func (o *planOwner) publish(note string) {
	o.send(event.Event{Kind: event.Plan, Plan: o.fp.Clone(), Text: note})
}

// saveAndPublish saves the plan and then says it changed, so whoever hears
// of a change finds it in plan.md and state.json; a plan not saved is not
// announced, and is reported as a fault when the owner has one.
func (o *planOwner) saveAndPublish(note string) error {
	if err := o.save(); err != nil {
		if o.fault != nil {
			o.fault(err)
		}
		return err
	}
	o.publish(note)
	return nil
}

// remaining makes p the steps still to run and returns it with its step
// indexes filled in.
func (o *planOwner) remaining(p *plans.Plan) *plans.Plan { return o.fp.SetRemaining(p) }

// plan makes p the steps still to run (the planner's or replanner's
// plan) and hands them to the executor.
func (o *planOwner) plan(p *plans.Plan) {
	adk.AddSessionValue(o.ctx, planexecute.PlanSessionKey, o.remaining(p))
}

// drop drops the steps not yet run (a review's edit or reject).
func (o *planOwner) drop() { o.fp.DropRemaining() }

// followUp turns the recorded plan into the start of a follow-up question
// and saves it: from now on the session's state is the new question's.
func (o *planOwner) followUp(question string) error {
	o.fp.FollowUp(question)
	return o.save()
}

// replace puts p in place of the planned steps (the person's edit); the
// steps earlier questions finished stay.
func (o *planOwner) replace(p *plans.Plan) {
	o.drop()
	o.plan(p)
}

// reject drops the planned steps and keeps the plan in the session
// without saving it: the planner makes the new one, saved then.
func (o *planOwner) reject() {
	o.drop()
	plans.FullPlanKey.Set(o.ctx, o.fp)
}

// resumed hands the executor the steps a resumed run has still to do.
func (o *planOwner) resumed() {
	var rest []plans.Step
	for _, s := range o.fp.Steps {
		if s.Status == plans.StatusTodo || s.Status == plans.StatusDoing {
			rest = append(rest, s.Step)
		}
	}
	adk.AddSessionValue(o.ctx, planexecute.PlanSessionKey, &plans.Plan{Steps: rest})
}

// answer records the question's result; the steps not run are not needed.
func (o *planOwner) answer(res *plans.SubmitResult) {
	o.fp.Result = res
	o.fp.SkipRemaining("not needed: the question was answered")
}

// skipRest marks the steps not run as skipped, with why.
func (o *planOwner) skipRest(why string) { o.fp.SkipRemaining(why) }

// checked records the answer as the checks left it (its unverified
// numbers, its files that exist).
func (o *planOwner) checked(res *plans.SubmitResult) { o.fp.Result = res }

// dropUnwritten removes the files in missing from the answer and, when
// it removed any, saves the plan.
func (o *planOwner) dropUnwritten(missing []string) error {
	if o.fp == nil || o.fp.Result == nil || len(missing) == 0 {
		return nil
	}
	var kept []string
	for _, f := range o.fp.Result.Files {
		if !slices.Contains(missing, strings.TrimPrefix(f, "./")) {
			kept = append(kept, f)
		}
	}
	if len(kept) == len(o.fp.Result.Files) {
		return nil
	}
	o.fp.Result.Files = kept
	return o.save()
}

// suggest records the answer's next questions and saves the plan.
func (o *planOwner) suggest(next []string) error {
	o.fp.Result.NextQuestions = next
	return o.save()
}

// again puts st, which was in progress when its run stopped, back to do,
// with no summary: it runs again.
func (o *planOwner) again(st *plans.StepState) {
	st.Status, st.Summary = plans.StatusTodo, ""
}

// start marks st doing, saves the plan and says the step started; with
// side, it names the steps now running side by side.
func (o *planOwner) start(st *plans.StepState, side bool) error {
	st.Status, st.Started = plans.StatusDoing, time.Now()
	if err := o.save(); err != nil {
		return err
	}
	started := *st
	note := ""
	if now := o.fp.Running(); side && len(now) > 1 {
		note = fmt.Sprintf("running steps %s side by side", joinSteps(now))
	}
	o.send(event.Event{Kind: event.StepStarted, Step: &started, Text: note})
	return nil
}

// done records st's outcome: its summary and files; it failed when failed
// or when its summary says so.
func (o *planOwner) done(st *plans.StepState, summary string, files []string, failed bool) {
	st.Summary, st.Files = strings.TrimSpace(summary), files
	st.Status = plans.StatusDone
	if failed || strings.HasPrefix(st.Summary, failedPrefix) || strings.HasPrefix(st.Summary, "Error:") {
		st.Status = plans.StatusFailed
	}
}

// fail marks st failed by err, which stops the run.
func (o *planOwner) fail(st *plans.StepState, err error) {
	st.Status = plans.StatusFailed
	st.Summary = "Stopped: " + plainError(o.ctx, err).Error()
}

// requeue puts st back to do: it did not run (a budget ran out first).
func (o *planOwner) requeue(st *plans.StepState) { st.Status = plans.StatusTodo }

// stop puts the step the run was stopped in (Ctrl-C twice, SIGTERM, a
// cancelled context) back to do and saves the plan: whatever it did is
// not a result, and it runs again when the session is resumed.
func (o *planOwner) stop(st *plans.StepState) {
	st.Status = plans.StatusTodo
	st.Started = time.Time{}
	st.Summary = stoppedSummary
	st.Files = nil
	_ = o.save()
}

// stoppedSummary marks a step that was stopped while it ran.
const stoppedSummary = "stopped while running; runs again on resume"

// finish saves the plan with st's outcome and, once st is done or
// failed, says so: each of its files, then the step.
func (o *planOwner) finish(st *plans.StepState) error {
	if err := o.save(); err != nil {
		return err
	}
	if st.Status != plans.StatusDone && st.Status != plans.StatusFailed {
		return nil
	}
	done := *st
	for _, f := range done.Files {
		o.send(event.Event{Kind: event.Artifact, Path: f, Step: &done})
	}
	o.send(event.Event{Kind: event.StepFinished, Step: &done})
	return nil
}

// fullPlan returns the run's FullPlan, creating it on first use.
func fullPlan(ctx context.Context) *plans.FullPlan {
	if fp, ok := plans.FullPlanKey.Get(ctx); ok && fp != nil {
		return fp
	}
	q, _ := params.Question.Get(ctx)
	return &plans.FullPlan{Question: q}
}

// writePlanFile rewrites plan.md in the workspace, atomically, so a reader
// or a crash never sees half a plan.
func writePlanFile(ctx context.Context, fp *plans.FullPlan) error {
	dir, ok := params.Workdir.Get(ctx)
	if !ok || dir == "" {
		return nil
	}
	return writePlanFileAt(dir, fp)
}

// planStateFile holds the FullPlan as JSON beside plan.md: what a resumed
// or recovered run starts from.
const planStateFile = "state.json"

// loadPlanState reads the FullPlan a workspace last recorded.
func loadPlanState(dir string) (*plans.FullPlan, error) {
	b, err := os.ReadFile(filepath.Join(dir, planStateFile))
	if err != nil {
		return nil, err
	}
	var fp plans.FullPlan
	if err := json.Unmarshal(b, &fp); err != nil {
		return nil, fmt.Errorf("read %s: %w", planStateFile, err)
	}
	return &fp, nil
}

// writePlanFileAt rewrites plan.md and state.json in the workspace dir.
func writePlanFileAt(dir string, fp *plans.FullPlan) error {
	if _, err := os.Stat(dir); err != nil {
		return err
	}
	b, err := json.MarshalIndent(fp, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", planStateFile, err)
	}
	if err := writeWorkspaceFile(dir, planStateFile, b); err != nil {
		return err
	}
	return writeWorkspaceFile(dir, "plan.md", []byte(plans.RenderPlanMarkdown(fp)))
}

// writeWorkspaceFile replaces a file of the workspace at workdir
// atomically (see session.Workspace.WriteFileAtomic), so a reader or a
// crash never sees half a plan or report.
func writeWorkspaceFile(workdir, rel string, data []byte) error {
	return (&session.Workspace{Root: workdir}).WriteFileAtomic(rel, data)
}
