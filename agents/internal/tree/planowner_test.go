package tree

import (
	"testing"

	"github.com/sift-agent/sift/plans"
)

// TestPlanOwnerFailsAStepWhoseSummarySaysSo: one rule for every step, the
// agents' and a built-in analysis's alike: a summary that starts with
// "Error:" or failedPrefix is a failed step, whatever its runner said.
func TestPlanOwnerFailsAStepWhoseSummarySaysSo(t *testing.T) {
	for _, c := range []struct {
		summary string
		failed  bool
		want    plans.StepStatus
	}{
		{"North leads with 150.", false, plans.StatusDone},
		{"Error: no column named revenue", false, plans.StatusFailed},
		{failedPrefix + " the cell raised", false, plans.StatusFailed},
		{"North leads with 150.", true, plans.StatusFailed},
	} {
		var st plans.StepState
		(&PlanOwner{}).Done(&st, c.summary, nil, c.failed)
		if st.Status != c.want {
			t.Errorf("done(%q, failed=%v): status %s, want %s", c.summary, c.failed, st.Status, c.want)
		}
	}
}
