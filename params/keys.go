package params

// Run parameters every agent of a run can read from the ADK session. Keys
// whose values are domain types live beside those types (plans.FullPlanKey).
var (
	// Question is the person's request, as they wrote it.
	Question = NewKey[string]("sift.question")
	// DataContext is the compact preview of the run's inputs, for prompts.
	DataContext = NewKey[string]("sift.data_context")
	// Inputs are the workspace-relative paths of the run's input files.
	Inputs = NewKey[[]string]("sift.inputs")
	// Workdir is the absolute path of the session workspace.
	Workdir = NewKey[string]("sift.workdir")
	// Mode is the run's routing mode: ModeAuto, ModeQuick or ModePlan.
	Mode = NewKey[string]("sift.mode")
	// ReviewPlan asks the person to approve, edit or reject the plan
	// before it runs.
	ReviewPlan = NewKey[bool]("sift.review_plan")
	// PlanFeedback is the person's reason for rejecting the last plan; the
	// planner reads it when planning again.
	PlanFeedback = NewKey[string]("sift.plan_feedback")
	// BranchStep is the index of the plan step a branch runs, in the
	// branch's own session; unset outside branches.
	BranchStep = NewKey[int]("sift.branch_step")
	// Paused is set once the run stopped at a safe point to pause.
	Paused = NewKey[bool]("sift.paused")
	// Resumed is set on a run recovered from its recorded plan: the planner
	// does not plan again.
	Resumed = NewKey[bool]("sift.resumed")
	// Verbatim is set when context management is off (see
	// agents.Config.Verbatim).
	Verbatim = NewKey[bool]("sift.verbatim")
	// Remembered are the facts the person gave in earlier sessions about
	// the run's data (answers to questions, plan edits), one line each,
	// bounded in tokens; empty when there are none (see package memory).
	Remembered = NewKey[string]("sift.remembered")
	// Examples are code that worked in earlier sessions on the run's data,
	// for the code agent, bounded in tokens; empty when there is none (see
	// memory.Examples).
	Examples = NewKey[string]("sift.examples")
	// Quick is set when the run takes the quick path: one code-agent
	// loop, no executor and no replanning.
	Quick = NewKey[bool]("sift.quick")
)

// The values of Mode (see agents.Mode, which names them for callers).
const (
	// ModeAuto lets the planner rate the request: a trivial one takes the
	// quick path, others the full plan-execute-replan loop.
	ModeAuto = "auto"
	// ModeQuick skips planning: one code-agent loop answers the request.
	ModeQuick = "quick"
	// ModePlan always plans, executes and replans.
	ModePlan = "plan"
	// ModeTemplate only runs a built-in analysis, never a model.
	ModeTemplate = "template"
)
