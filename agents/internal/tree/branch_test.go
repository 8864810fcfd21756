package tree

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/plans"
)

// A branch sees the plan as it was when its batch started, with the
// steps it needs as they are now: not the steps beside it, whose state
// depends on timing, so its prompts replay the same.
func TestBranchViewLeavesOutTheStepsBeside(t *testing.T) {
	atStart := &plans.FullPlan{ExplicitNeeds: true, Steps: []plans.StepState{
		{Step: plans.Step{Index: 1}, Status: plans.StatusTodo},
		{Step: plans.Step{Index: 2, Needs: []int{1}}, Status: plans.StatusTodo},
		{Step: plans.Step{Index: 3}, Status: plans.StatusTodo},
		{Step: plans.Step{Index: 4, Needs: []int{2}}, Status: plans.StatusTodo},
	}}
	now := atStart.Clone()
	now.Steps[0].Status, now.Steps[0].Summary = plans.StatusDone, "one"
	now.Steps[1].Status, now.Steps[1].Summary = plans.StatusDone, "two"
	now.Steps[2].Status, now.Steps[2].Summary = plans.StatusDone, "three, beside"
	now.Steps[3].Status = plans.StatusDoing
	view := branchView(atStart, now, 3)
	var got []string
	for _, st := range view.Steps {
		got = append(got, fmt.Sprintf("%d %s %s", st.Index, st.Status, st.Summary))
	}
	want := []string{"1 done one", "2 done two", "3 todo ", "4 doing "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the branch of step 4 sees %q, want %q", got, want)
	}
	if atStart.Steps[3].Status != plans.StatusTodo || now.Steps[2].Summary != "three, beside" {
		t.Error("branchView changed the plans it was given")
	}
}
