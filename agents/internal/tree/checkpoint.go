package tree

import (
	"fmt"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
)

// The checkpoint manifest: every name a saved run depends on, and every
// type that travels in a checkpoint. A run waiting for the person is saved
// as one ADK checkpoint (gob) under its session ID, in the session store's
// CheckPointStore; a branch step waiting for the person is saved under
// branchCheckpointID in the workspace (branchCheckpoints). Resume rebuilds
// the tree by position and finds each agent by name, so renaming an agent
// or a registered type breaks every session saved before: add, never
// rename. TestCheckpointRoundTrip saves and restores each registered type.

// Agent names: the tree's shape and names are part of the checkpoint
// format.
const (
	// NameRoot is the tree's root, Sequential[planner, plan review,
	// loop, report].
	NameRoot = "sift"
	// NamePlanReview names the plan review agent.
	NamePlanReview = "plan_review"
	// NameLoop is the execute/replan loop.
	NameLoop = "execute_replan"
	// NameExecutor is the executor's name (planexecute's); a direct step
	// takes it, so that the tree's shape, checkpoints and events name the
	// same stage whichever way a step runs.
	NameExecutor = "executor"
	// NameCodeAgent and NameWebAgent are the executor's agent tools.
	NameCodeAgent = "code_agent"
	NameWebAgent  = prompt.WebResearcher
	// NameReport is the report agent.
	NameReport = "report"
)

// Tool names the planner and the replanner are forced to call; recorded
// model replies (trajectories) name them.
const (
	ToolCreatePlan   = "create_plan"
	ToolSubmitResult = "submit_result"
)

// Session values of Sift's own that live only in the tree and travel in
// checkpoints (the typed ones are in package params, plans.FullPlanKey
// beside the plan).
const (
	// BranchWaitsKey holds the branch steps waiting for the person not
	// yet asked ([]*BranchWait), in the run's session: those after the
	// one being asked, or, in a run recovered after a pause or a crash,
	// those found recorded (see branchCheckpoints.wait).
	BranchWaitsKey = "sift.branch_waits"
	// escalatedKey marks a run whose quick answer failed and went to the
	// planner, so it escalates only once.
	escalatedKey = "sift_quick_escalated"
)

// branchWaits and escalated are those keys, typed.
var (
	branchWaits = params.NewKey[[]*BranchWait](BranchWaitsKey)
	escalated   = params.NewKey[bool](escalatedKey)
)

// branchCheckpointID names the checkpoint of the branch that runs step of
// the session's question-th question.
func branchCheckpointID(question, step int) string {
	return fmt.Sprintf("q%d-step-%d", question, step)
}

// checkpointed lists every type the tree puts behind an interface in a
// checkpoint (session values, interrupt info, interrupt state), with the
// name gob knows it by. The tools register their own interrupt types the
// same way (tools.Question, tools.Answer, tools.ApprovalRequest,
// tools.ApprovalDecision: see tools/askuser.go and tools/approval.go),
// since they interrupt under any Runner, Sift's or an embedder's.
var checkpointed = []struct {
	name     string
	register func(name string)
}{
	{"sift_plan", schema.RegisterName[*plans.Plan]},
	{"sift_full_plan", schema.RegisterName[*plans.FullPlan]},
	{"sift_event", schema.RegisterName[*event.Event]},
	{"sift_interrupt", schema.RegisterName[*event.Interrupt]},
	{"sift_plan_decision", schema.RegisterName[*event.PlanDecision]},
	{"sift_plan_review_state", schema.RegisterName[*planReviewState]},
	{"sift_branch_event", schema.RegisterName[*BranchEvent]},
	{"sift_branch_wait", schema.RegisterName[*BranchWait]},
	{"sift_branch_waits", schema.RegisterName[[]*BranchWait]},
}

func init() {
	for _, c := range checkpointed {
		c.register(c.name)
	}
}

// RecordedWait returns the wait recorded beside the checkpoint of the
// branch that runs step of the session's question-th question in workdir,
// or nil when that branch waits for nothing.
func RecordedWait(workdir string, question, step int) (*BranchWait, error) {
	return branchCheckpoints{workdir}.wait(branchCheckpointID(question, step))
}
