package report

import (
	"testing"

	"github.com/sift-agent/sift/plans"
)

// TestReportMarksClaimsOnFailedSteps: with one step done and one failed,
// the model's report gets Sift's note naming the failed step and its error
// under the title, and the claim citing the failed step is marked.
func TestReportMarksClaimsOnFailedSteps(t *testing.T) {
	fp := &plans.FullPlan{Question: "月度收入趋势如何？哪个地区卖得最好？"}
	fp.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Load input/sales.csv"}, {Description: "Monthly revenue with a line chart"}, {Description: "Revenue by region"}}})
	fp.Steps[0].Status, fp.Steps[0].Summary = plans.StatusDone, "504 rows, 6 columns, no missing values."
	fp.Steps[1].Status, fp.Steps[1].Summary, fp.Steps[1].Files = plans.StatusFailed, "FAILED: KeyError 'Date'; the column is 'date'.", []string{"out/partial.csv"}
	o := OutcomeOf(fp)
	if o.NoneSucceeded() {
		t.Fatal("one step is done: the run computed something")
	}
	md := WithUncomputed("# Sales\n\nThere are 504 rows [step 1]. Revenue peaks in March [step 2].\n", o)
	want := "# Sales\n\n> **Not computed:** these steps produced no result, so whatever this report says of what they were to find rests on no computed result; citations of them are marked.\n" +
		"> Step 2 failed: KeyError 'Date'; the column is 'date'.\n" +
		"> Step 3 was not run (todo).\n\n" +
		"There are 504 rows [step 1]. Revenue peaks in March [step 2: failed, no computed result].\n"
	if md != want {
		t.Errorf("got:\n%s\nwant:\n%s", md, want)
	}
	if got := WithUncomputed("# Sales\n\nok [step 1].\n", Outcome{done: 1}); got != "# Sales\n\nok [step 1].\n" {
		t.Errorf("with every step done the report must stay as written, got:\n%s", got)
	}
}
