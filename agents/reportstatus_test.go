package agents

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// TestReportOverFailedStepsStatesNoFinding: every step fails with an
// IndexError, the replanner still submits a confident answer and the report
// model has a confident table ready; the report must say at its top that
// nothing was computed, name each step's error, and present none of the
// model's text as a finding.
func TestReportOverFailedStepsStatesNoFinding(t *testing.T) {
	descs := []string{"Load the sales", "Revenue by region", "Revenue by month"}
	bad := "rows = []\nprint(rows[3])"
	var replies []scripted.Reply
	replies = append(replies, call(toolCreatePlan, steps(descs...)))
	for i := range descs {
		replies = append(replies,
			call("python", map[string]string{"code": bad}),
			echoToolResult("FAILED: "),
		)
		if i < len(descs)-1 {
			replies = append(replies, call(toolCreatePlan, steps(descs[i+1:]...)))
		}
	}
	replies = append(replies,
		call(toolSubmitResult, map[string]any{"answer": "North leads with 4,210 in revenue.", "findings": []string{"North 4,210, South 3,005"}}),
		text("# Revenue report\n\n| region | revenue |\n|---|---|\n| North | 4,210 |\n\nNorth clearly leads [step 2]."),
	)
	script := scripted.New(replies...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	for _, st := range done.Plan.Steps {
		if st.Status != plans.StatusFailed {
			t.Fatalf("step %d is %s, want every step failed", st.Index, st.Status)
		}
	}
	report := readWS(t, done, "report.md")
	head, _, _ := strings.Cut(report, "## Steps")
	if !strings.Contains(head, noResultNote(false)) {
		t.Errorf("the report must say at its top that no step succeeded:\n%s", report)
	}
	if n := strings.Count(report, "IndexError"); n < 3 {
		t.Errorf("the report must give each failed step's IndexError, found %d:\n%s", n, report)
	}
	for _, claim := range []string{"4,210", "North leads", "North clearly leads"} {
		if strings.Contains(report, claim) {
			t.Errorf("the report presents %q, which no step computed:\n%s", claim, report)
		}
	}
	if r := kinds(evs, event.Report); len(r) != 1 || !strings.Contains(r[0].Text, noResultNote(false)) {
		t.Errorf("the report event must carry the same report, got %+v", r)
	}
}
