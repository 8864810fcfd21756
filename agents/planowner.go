package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/prebuilt/planexecute"
	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/session"
)

// The plan's owner: the one place that changes a question's plan in the
// session — starts, finishes, stops and skips its steps, takes the
// planner's, replanner's and review's plans and the answer — and saves it
// as plan.md and state.json. The agents of the tree say what happened
// through a planOwner; the run saves its own copy once the agents have
// stopped.

// planOwner changes the session's plan fp for one agent turn and tells
// the turn's events (gen) what changed.
type planOwner struct {
	ctx context.Context
	gen *adk.AsyncGenerator[*adk.AgentEvent]
	fp  *generic.FullPlan
}

// ownPlan returns the owner of the session's plan (fullPlan) for a turn.
func ownPlan(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent]) *planOwner {
	return &planOwner{ctx: ctx, gen: gen, fp: fullPlan(ctx)}
}

// save puts the plan in the session (generic.FullPlanKey) and saves it in
// the workspace.
func (o *planOwner) save() error {
	generic.FullPlanKey.Set(o.ctx, o.fp)
	return writePlanFile(o.ctx, o.fp)
}

// publish says the plan changed (note says how, or is empty).
func (o *planOwner) publish(note string) {
	o.gen.Send(siftEvent(generic.Event{Kind: generic.EventPlan, Plan: o.fp.Clone(), Text: note}))
}

// saveAndPublish saves the plan and says it changed; a plan not saved
// is an error event.
func (o *planOwner) saveAndPublish(note string) error {
	if err := o.save(); err != nil {
		o.gen.Send(&adk.AgentEvent{Err: err})
		return err
	}
	o.publish(note)
	return nil
}

// plan makes p the steps still to run (the planner's or replanner's
// plan) and hands them to the executor.
func (o *planOwner) plan(p *generic.Plan) {
	adk.AddSessionValue(o.ctx, planexecute.PlanSessionKey, o.fp.SetRemaining(p))
}

// replace puts p in place of the planned steps (the person's edit); the
// steps earlier questions finished stay.
func (o *planOwner) replace(p *generic.Plan) {
	o.fp.DropRemaining()
	o.plan(p)
}

// reject drops the planned steps and keeps the plan in the session
// without saving it: the planner makes the new one, saved then.
func (o *planOwner) reject() {
	o.fp.DropRemaining()
	generic.FullPlanKey.Set(o.ctx, o.fp)
}

// resumed hands the executor the steps a resumed run has still to do.
func (o *planOwner) resumed() {
	var rest []generic.Step
	for _, s := range o.fp.Steps {
		if s.Status == generic.StatusTodo || s.Status == generic.StatusDoing {
			rest = append(rest, s.Step)
		}
	}
	adk.AddSessionValue(o.ctx, planexecute.PlanSessionKey, &generic.Plan{Steps: rest})
}

// answer records the question's result; the steps not run are not needed.
func (o *planOwner) answer(res *generic.SubmitResult) {
	o.fp.Result = res
	o.fp.SkipRemaining("not needed: the question was answered")
}

// skipRest marks the steps not run as skipped, with why.
func (o *planOwner) skipRest(why string) { o.fp.SkipRemaining(why) }

// checked records the answer as the checks left it (its unverified
// numbers, its files that exist).
func (o *planOwner) checked(res *generic.SubmitResult) { o.fp.Result = res }

// start marks st doing, saves the plan and says the step started; with
// side, it names the steps now running side by side.
func (o *planOwner) start(st *generic.StepState, side bool) error {
	st.Status, st.Started = generic.StatusDoing, time.Now()
	if err := o.save(); err != nil {
		return err
	}
	started := *st
	note := ""
	if now := o.fp.Running(); side && len(now) > 1 {
		note = fmt.Sprintf("running steps %s side by side", joinSteps(now))
	}
	o.gen.Send(siftEvent(generic.Event{Kind: generic.EventStepStarted, Step: &started, Text: note}))
	return nil
}

// done records st's outcome: its summary and files; it failed when failed
// or when its summary says so.
func (o *planOwner) done(st *generic.StepState, summary string, files []string, failed bool) {
	st.Summary, st.Files = strings.TrimSpace(summary), files
	st.Status = generic.StatusDone
	if failed || strings.HasPrefix(st.Summary, failedPrefix) || strings.HasPrefix(st.Summary, "Error:") {
		st.Status = generic.StatusFailed
	}
}

// fail marks st failed by err, which stops the run.
func (o *planOwner) fail(st *generic.StepState, err error) {
	st.Status = generic.StatusFailed
	st.Summary = "Stopped: " + plainError(o.ctx, err).Error()
}

// requeue puts st back to do: it did not run (a budget ran out first).
func (o *planOwner) requeue(st *generic.StepState) { st.Status = generic.StatusTodo }

// stop puts the step the run was stopped in (Ctrl-C twice, SIGTERM, a
// cancelled context) back to do and saves the plan: whatever it did is
// not a result, and it runs again when the session is resumed.
func (o *planOwner) stop(st *generic.StepState) {
	st.Status = generic.StatusTodo
	st.Started = time.Time{}
	st.Summary = stoppedSummary
	st.Files = nil
	_ = o.save()
}

// stoppedSummary marks a step that was stopped while it ran.
const stoppedSummary = "stopped while running; runs again on resume"

// finish saves the plan with st's outcome and, once st is done or
// failed, says so: each of its files, then the step.
func (o *planOwner) finish(st *generic.StepState) error {
	if err := o.save(); err != nil {
		return err
	}
	if st.Status != generic.StatusDone && st.Status != generic.StatusFailed {
		return nil
	}
	done := *st
	for _, f := range done.Files {
		o.gen.Send(siftEvent(generic.Event{Kind: generic.EventArtifact, Path: f, Step: &done}))
	}
	o.gen.Send(siftEvent(generic.Event{Kind: generic.EventStepFinished, Step: &done}))
	return nil
}

// savePlan saves the run's plan in its workspace.
func (r *run) savePlan() error { return writePlanFileAt(r.ws.Root, r.plan) }

// fullPlan returns the run's FullPlan, creating it on first use.
func fullPlan(ctx context.Context) *generic.FullPlan {
	if fp, ok := generic.FullPlanKey.Get(ctx); ok && fp != nil {
		return fp
	}
	q, _ := params.Question.Get(ctx)
	return &generic.FullPlan{Question: q}
}

// writePlanFile rewrites plan.md in the workspace, atomically, so a reader
// or a crash never sees half a plan.
func writePlanFile(ctx context.Context, fp *generic.FullPlan) error {
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
func loadPlanState(dir string) (*generic.FullPlan, error) {
	b, err := os.ReadFile(filepath.Join(dir, planStateFile))
	if err != nil {
		return nil, err
	}
	var fp generic.FullPlan
	if err := json.Unmarshal(b, &fp); err != nil {
		return nil, fmt.Errorf("read %s: %w", planStateFile, err)
	}
	return &fp, nil
}

// writePlanFileAt rewrites plan.md and state.json in the workspace dir.
func writePlanFileAt(dir string, fp *generic.FullPlan) error {
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
	return writeWorkspaceFile(dir, "plan.md", []byte(generic.RenderPlanMarkdown(fp)))
}

// writeWorkspaceFile replaces a file of the workspace at workdir
// atomically (see session.Workspace.WriteFileAtomic), so a reader or a
// crash never sees half a plan or report.
func writeWorkspaceFile(workdir, rel string, data []byte) error {
	return (&session.Workspace{Root: workdir}).WriteFileAtomic(rel, data)
}
