package tree

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
)

// TestCheckpointRoundTrip saves a checkpoint's session values holding one
// value of every registered type, behind interfaces as ADK keeps them,
// and reads them back unchanged. A type added to a checkpoint without a
// registration fails here (gob: type not registered for interface), and
// so does a registration in the manifest this test gives no value for.
func TestCheckpointRoundTrip(t *testing.T) {
	fp := &plans.FullPlan{Question: "Which region sells most?"}
	fp.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Sum revenue by region"}}})
	ask := event.Interrupt{ID: "i1", Kind: event.InterruptQuestion, Prompt: "Which sheet?", Choices: []string{"2023", "2024"}}
	wait := &BranchWait{Step: 2, CheckPointID: branchCheckpointID(1, 2), InnerID: "inner", Ask: ask, Files: []string{"out/a.csv"}}
	own := map[string]any{
		"sift_plan":              &plans.Plan{Steps: []plans.Step{{Index: 1, Description: "Load the data"}}},
		"sift_full_plan":         fp,
		"sift_event":             &event.Event{Kind: event.Message, Agent: NameRoot, Text: "hello"},
		"sift_interrupt":         &ask,
		"sift_plan_decision":     &event.PlanDecision{Action: event.PlanEdit, Steps: []string{"a", "b"}, Feedback: "shorter"},
		"sift_plan_review_state": &planReviewState{Round: 2},
		"sift_branch_event":      &BranchEvent{Step: &fp.Steps[0]},
		"sift_branch_wait":       wait,
		"sift_branch_waits":      []*BranchWait{wait},
	}
	for _, c := range checkpointed {
		if _, ok := own[c.name]; !ok {
			t.Errorf("the manifest registers %q: give it a value here", c.name)
		}
	}
	if len(own) != len(checkpointed) {
		t.Errorf("%d values for %d registered types", len(own), len(checkpointed))
	}
	// The tools register their own interrupt types; a checkpoint of Sift's
	// carries them too.
	values := map[string]any{
		"tools_question":          &tools.Question{ID: "q", Text: "Which sheet?", Choices: []string{"a"}, Why: "two sheets"},
		"tools_answer":            &tools.Answer{Text: "a", Choice: 1},
		"tools_approval_request":  &tools.ApprovalRequest{ID: "r", Tool: "python", Arguments: `{"code":"1"}`, Reason: "runs code"},
		"tools_approval_decision": &tools.ApprovalDecision{Action: tools.ApprovalApprove},
	}
	for k, v := range own {
		values[k] = v
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(values); err != nil {
		t.Fatalf("save: %v", err)
	}
	var back map[string]any
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if diff := cmp.Diff(values, back, cmp.AllowUnexported(planReviewState{})); diff != "" {
		t.Errorf("a checkpoint changed on the way (-saved +restored):\n%s", diff)
	}
}
