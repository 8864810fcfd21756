package agents

import (
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
)

// treeInput is what the agent tree is told of one question through the
// ADK session (see params): the one description of it, whoever runs the
// tree (a new question, a resume, an embedder's own Runner).
type treeInput struct {
	question, dataContext string
	// inputs are the workspace-relative input files; workdir the
	// workspace's absolute path.
	inputs  []string
	workdir string
	mode    Mode
	// verbatim turns context management off; reviewPlan waits for the
	// person after planning.
	verbatim, reviewPlan bool
	// resumed: the run goes on from its recorded plan (no new planning);
	// feedback is the person's reason for rejecting the last plan.
	resumed  bool
	feedback string
	// plan is the question's plan, which the agents update in place.
	plan *plans.FullPlan
	// waits are branch steps that wait for the person, on a recovered run.
	waits []*tree.BranchWait
	// remembered are the facts from earlier sessions on the same data;
	// examples the code that worked on it.
	remembered, examples string
}

// treeValues is in as session values. Keys a run leaves at their zero
// value are left out, as they always were.
func treeValues(in treeInput) map[string]any {
	v := map[string]any{
		params.Question.Name():    in.question,
		params.DataContext.Name(): in.dataContext,
		params.Inputs.Name():      in.inputs,
		params.Workdir.Name():     in.workdir,
		params.Mode.Name():        string(in.mode),
		params.Verbatim.Name():    in.verbatim,
		params.ReviewPlan.Name():  in.reviewPlan,
		plans.FullPlanKey.Name():  in.plan,
	}
	if in.resumed {
		v[params.Resumed.Name()] = true
	}
	if in.feedback != "" {
		v[params.PlanFeedback.Name()] = in.feedback
	}
	if in.remembered != "" {
		v[params.Remembered.Name()] = in.remembered
	}
	if in.examples != "" {
		v[params.Examples.Name()] = in.examples
	}
	if in.waits != nil {
		v[tree.BranchWaitsKey] = in.waits
	}
	return v
}
