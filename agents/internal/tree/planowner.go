package tree

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

// PlanOwner changes the plan fp and tells the events of its turn what
// changed: put saves fp, send announces a change, and fault (when set)
// reports a plan that could not be saved.
type PlanOwner struct {
	ctx   context.Context
	fp    *plans.FullPlan
	put   func() error
	send  func(event.Event)
	fault func(error)
}

// ownPlan returns the owner of the session's plan (fullPlan) for one agent
// turn: it saves the plan in the session (plans.FullPlanKey) and the
// workspace, and speaks through the turn's events (gen).
func ownPlan(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent]) *PlanOwner {
	return treeOwner(ctx, gen, fullPlan(ctx))
}

// treeOwner returns the owner of fp, the session's plan or the copy a
// branch or the report works on, for one agent turn.
func treeOwner(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *plans.FullPlan) *PlanOwner {
	return &PlanOwner{
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

// NewPlanOwner returns the owner of fp outside the agent tree (the
// runner's copy: the built-in analyses, the run's end, a resume): put saves
// fp, send announces a change.
func NewPlanOwner(ctx context.Context, fp *plans.FullPlan, put func() error, send func(event.Event)) *PlanOwner {
	return &PlanOwner{ctx: ctx, fp: fp, put: put, send: send}
}

// Save saves the plan.
func (o *PlanOwner) Save() error { return o.put() }

// Publish says the plan changed (note says how, or is empty).
func (o *PlanOwner) Publish(note string) {
	o.send(event.Event{Kind: event.Plan, Plan: o.fp.Clone(), Text: note})
}

// SaveAndPublish saves the plan and then says it changed, so whoever hears
// of a change finds it in plan.md and state.json; a plan not saved is not
// announced, and is reported as a fault when the owner has one.
func (o *PlanOwner) SaveAndPublish(note string) error {
	if err := o.Save(); err != nil {
		if o.fault != nil {
			o.fault(err)
		}
		return err
	}
	o.Publish(note)
	return nil
}

// Remaining makes p the steps still to run and returns it with its step
// indexes filled in.
func (o *PlanOwner) Remaining(p *plans.Plan) *plans.Plan { return o.fp.SetRemaining(p) }

// Plan makes p the steps still to run (the planner's or replanner's
// plan) and hands them to the executor.
func (o *PlanOwner) Plan(p *plans.Plan) {
	params.Plan.Set(o.ctx, o.Remaining(p))
}

// Drop drops the steps not yet run (a review's edit or reject).
func (o *PlanOwner) Drop() { o.fp.DropRemaining() }

// FollowUp turns the recorded plan into the start of a follow-up question
// and saves it: from now on the session's state is the new question's.
func (o *PlanOwner) FollowUp(question string) error {
	o.fp.FollowUp(question)
	return o.Save()
}

// Replace puts p in place of the planned steps (the person's edit); the
// steps earlier questions finished stay.
func (o *PlanOwner) Replace(p *plans.Plan) {
	o.Drop()
	o.Plan(p)
}

// Reject drops the planned steps and keeps the plan in the session
// without saving it: the planner makes the new one, saved then.
func (o *PlanOwner) Reject() {
	o.Drop()
	plans.FullPlanKey.Set(o.ctx, o.fp)
}

// Resumed hands the executor the steps a resumed run has still to do.
func (o *PlanOwner) Resumed() {
	var rest []plans.Step
	for _, s := range o.fp.Steps {
		if s.Status == plans.StatusTodo || s.Status == plans.StatusDoing {
			rest = append(rest, s.Step)
		}
	}
	params.Plan.Set(o.ctx, &plans.Plan{Steps: rest})
}

// Answer records the question's result; the steps not run are not needed.
func (o *PlanOwner) Answer(res *plans.SubmitResult) {
	o.fp.Result = res
	o.fp.SkipRemaining("not needed: the question was answered")
}

// SkipRest marks the steps not run as skipped, with why.
func (o *PlanOwner) SkipRest(why string) { o.fp.SkipRemaining(why) }

// Checked records the answer as the checks left it (its unverified
// numbers, its files that exist).
func (o *PlanOwner) Checked(res *plans.SubmitResult) { o.fp.Result = res }

// DropUnwritten removes the files in missing from the answer and, when
// it removed any, saves the plan.
func (o *PlanOwner) DropUnwritten(missing []string) error {
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
	return o.Save()
}

// Suggest records the answer's next questions and saves the plan.
func (o *PlanOwner) Suggest(next []string) error {
	o.fp.Result.NextQuestions = next
	return o.Save()
}

// Again puts st, which was in progress when its run stopped, back to do,
// with no summary: it runs again.
func (o *PlanOwner) Again(st *plans.StepState) {
	st.Status, st.Summary = plans.StatusTodo, ""
}

// Start marks st doing, saves the plan and says the step started; with
// side, it names the steps now running side by side.
func (o *PlanOwner) Start(st *plans.StepState, side bool) error {
	st.Status, st.Started = plans.StatusDoing, time.Now()
	if err := o.Save(); err != nil {
		return err
	}
	started := *st
	note := ""
	if now := o.fp.Running(); side && len(now) > 1 {
		note = fmt.Sprintf("running steps %s side by side", JoinSteps(now))
	}
	o.send(event.Event{Kind: event.StepStarted, Step: &started, Text: note})
	return nil
}

// Done records st's outcome: its summary and files; it failed when failed
// or when its summary says so.
func (o *PlanOwner) Done(st *plans.StepState, summary string, files []string, failed bool) {
	st.Summary = strings.TrimSpace(summary)
	st.SetFiles(files)
	st.Status = plans.StatusDone
	if failed || strings.HasPrefix(st.Summary, failedPrefix) || strings.HasPrefix(st.Summary, "Error:") {
		st.Status = plans.StatusFailed
	}
}

// Fail marks st failed by err, which stops the run.
func (o *PlanOwner) Fail(st *plans.StepState, err error) {
	st.Status = plans.StatusFailed
	st.Summary = "Stopped: " + PlainError(o.ctx, err).Error()
}

// Requeue puts st back to do: it did not run (a budget ran out first).
func (o *PlanOwner) Requeue(st *plans.StepState) { st.Status = plans.StatusTodo }

// Stop puts the step the run was stopped in (Ctrl-C twice, SIGTERM, a
// cancelled context) back to do and saves the plan: whatever it did is
// not a result, and it runs again when the session is resumed.
func (o *PlanOwner) Stop(st *plans.StepState) {
	st.Status = plans.StatusTodo
	st.Started = time.Time{}
	st.Summary = StoppedSummary
	st.Files, st.FilesOmitted = nil, 0
	_ = o.Save()
}

// StoppedSummary marks a step that was stopped while it ran.
const StoppedSummary = "stopped while running; runs again on resume"

// Finish saves the plan with st's outcome and, once st is done or
// failed, says so: each of its files, then the step.
func (o *PlanOwner) Finish(st *plans.StepState) error {
	if err := o.Save(); err != nil {
		return err
	}
	if st.Status != plans.StatusDone && st.Status != plans.StatusFailed {
		return nil
	}
	done := *st
	for _, f := range done.Files {
		o.send(artifactEvent(done, f))
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
	return WritePlanFileAt(dir, fp)
}

// PlanStateFile holds the FullPlan as JSON beside plan.md: what a resumed
// or recovered run starts from.
const PlanStateFile = "state.json"

// LoadPlanState reads the FullPlan a workspace last recorded.
func LoadPlanState(dir string) (*plans.FullPlan, error) {
	b, err := os.ReadFile(filepath.Join(dir, PlanStateFile))
	if err != nil {
		return nil, err
	}
	var fp plans.FullPlan
	if err := json.Unmarshal(b, &fp); err != nil {
		return nil, fmt.Errorf("read %s: %w", PlanStateFile, err)
	}
	return &fp, nil
}

// WritePlanFileAt rewrites plan.md and state.json in the workspace dir.
func WritePlanFileAt(dir string, fp *plans.FullPlan) error {
	if _, err := os.Stat(dir); err != nil {
		return err
	}
	b, err := json.MarshalIndent(fp, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", PlanStateFile, err)
	}
	// state.json is what a resume starts from: it is synced at step
	// boundaries, when no step is running; a plan with a step under way
	// is only progress, which a power loss may take back to the boundary
	// before (the step then runs again). plan.md is derived from it.
	d := session.Derived
	if len(fp.Running()) == 0 {
		d = session.Durable
	}
	if err := WriteWorkspaceFile(dir, PlanStateFile, b, d); err != nil {
		return err
	}
	return WriteWorkspaceFile(dir, "plan.md", []byte(plans.RenderPlanMarkdown(fp)), session.Derived)
}

// WriteWorkspaceFile replaces a file of the workspace at workdir
// atomically, as durable as d says (see session.Workspace.WriteFile), so a
// reader or a crash never sees half a plan or report.
func WriteWorkspaceFile(workdir, rel string, data []byte, d session.Durability) error {
	return (&session.Workspace{Root: workdir}).WriteFile(rel, data, d)
}

// AllStepsDone reports whether fp has steps and every one is done.
func AllStepsDone(fp *plans.FullPlan) bool {
	for _, s := range fp.Steps {
		if s.Status != plans.StatusDone {
			return false
		}
	}
	return len(fp.Steps) > 0
}
