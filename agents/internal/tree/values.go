package tree

import (
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
)

// Input is what the agent tree is told of one question through the
// ADK session (see params): the one description of it, whoever runs the
// tree (a new question, a resume, an embedder's own Runner).
type Input struct {
	Question, DataContext string
	// Inputs are the workspace-relative input files; Workdir the
	// workspace's absolute path.
	Inputs  []string
	Workdir string
	Mode    string
	// Verbatim turns context management off; ReviewPlan waits for the
	// person after planning.
	Verbatim, ReviewPlan bool
	// Resumed: the run goes on from its recorded plan (no new planning);
	// Feedback is the person's reason for rejecting the last plan.
	Resumed  bool
	Feedback string
	// Plan is the question's plan, which the agents update in place.
	Plan *plans.FullPlan
	// Waits are branch steps that wait for the person, on a recovered run.
	Waits []*BranchWait
}

// SessionValues is in as session values. Keys a run leaves at their zero
// value are left out, as they always were.
func SessionValues(in Input) map[string]any {
	v := map[string]any{
		params.Question.Name():    in.Question,
		params.DataContext.Name(): in.DataContext,
		params.Inputs.Name():      in.Inputs,
		params.Workdir.Name():     in.Workdir,
		params.Mode.Name():        in.Mode,
		params.Verbatim.Name():    in.Verbatim,
		params.ReviewPlan.Name():  in.ReviewPlan,
		plans.FullPlanKey.Name():  in.Plan,
	}
	if in.Resumed {
		v[params.Resumed.Name()] = true
	}
	if in.Feedback != "" {
		v[params.PlanFeedback.Name()] = in.Feedback
	}
	if in.Waits != nil {
		v[branchWaitsKey] = in.Waits
	}
	return v
}
