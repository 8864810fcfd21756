package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/session"
)

// The plan's owner: the one place that puts a question's plan in the
// session and saves it as plan.md and state.json. The agents change a
// step (started, finished, stopped, skipped) or the plan (planned,
// replanned, reviewed, answered) and hand the plan here; the run does the
// same with its own copy once the agents have stopped.

// savePlan puts fp in the session (generic.FullPlanKey) and saves it in
// the workspace, for the agents of the tree.
func savePlan(ctx context.Context, fp *generic.FullPlan) error {
	generic.FullPlanKey.Set(ctx, fp)
	return writePlanFile(ctx, fp)
}

// setPlan puts fp in the session without saving it: the plan review's
// rejected plan, saved once the planner has made the new one.
func setPlan(ctx context.Context, fp *generic.FullPlan) { generic.FullPlanKey.Set(ctx, fp) }

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

// startStep marks st doing, saves the plan and says the step started;
// with side, it names the steps now running side by side.
func startStep(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *generic.FullPlan, st *generic.StepState, side bool) error {
	st.Status, st.Started = generic.StatusDoing, time.Now()
	if err := savePlan(ctx, fp); err != nil {
		return err
	}
	started := *st
	note := ""
	if now := fp.Running(); side && len(now) > 1 {
		note = fmt.Sprintf("running steps %s side by side", joinSteps(now))
	}
	gen.Send(siftEvent(generic.Event{Kind: generic.EventStepStarted, Step: &started, Text: note}))
	return nil
}

// finishStep saves the plan with st's outcome and, once st is done or
// failed, says so: each of its files, then the step.
func finishStep(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *generic.FullPlan, st *generic.StepState) error {
	if err := savePlan(ctx, fp); err != nil {
		return err
	}
	if st.Status != generic.StatusDone && st.Status != generic.StatusFailed {
		return nil
	}
	done := *st
	for _, f := range done.Files {
		gen.Send(siftEvent(generic.Event{Kind: generic.EventArtifact, Path: f, Step: &done}))
	}
	gen.Send(siftEvent(generic.Event{Kind: generic.EventStepFinished, Step: &done}))
	return nil
}
