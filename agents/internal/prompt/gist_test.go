package prompt

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/plans"
)

// TestExecutorGetsGistsReplannerGetsResults: a finished step that printed
// a wide table reaches the executor as one bounded line with its files,
// while the replanner, which adapts the plan to the results, gets its
// head and tail within replanLatestChars; with Verbatim both get it whole.
func TestExecutorGetsGistsReplannerGetsResults(t *testing.T) {
	table := "Done. Output:\nstdout:\n" + strings.Repeat("2021     19.33     12.28         1344.3\n", 40)
	v := View{Question: "How did it change?", Inputs: []string{"input/weather.csv"}, Plan: &plans.FullPlan{Steps: []plans.StepState{
		{Step: plans.Step{Index: 1, Description: "Yearly means"}, Status: plans.StatusDone, Summary: table, Files: []string{"out/by_year.csv"}},
		{Step: plans.Step{Index: 2, Description: "Chart"}, Status: plans.StatusTodo},
	}}}
	exec := Executor(v, Offer{})[1].Content
	want := "- Step 1 (done): Done. Output: stdout: 2021 19.33 12.28 1344.3 2021"
	if !strings.Contains(exec, want) {
		t.Errorf("executor's finished steps lack the folded gist %q:\n%s", want, exec)
	}
	if !strings.Contains(exec, "… Files: out/by_year.csv\n") {
		t.Errorf("executor's gist is not cut at %d characters with its files:\n%s", gistChars, exec)
	}
	if n := len([]rune(exec)); n > 600 {
		t.Errorf("executor's user message is %d characters; a step's gist keeps it short:\n%s", n, exec)
	}
	if re := Replanner(v)[1].Content; !strings.Contains(re, table[:replanLatestChars/2]) || !strings.Contains(re, "lines cut") {
		t.Errorf("replanner does not get the step's result's head, cut:\n%s", re)
	}
	v.Verbatim = true
	if re := Replanner(v)[1].Content; !strings.Contains(re, strings.TrimSpace(table)) {
		t.Errorf("with Verbatim the replanner does not get the result whole:\n%s", re)
	}
	if exec := Executor(v, Offer{})[1].Content; !strings.Contains(exec, strings.TrimSpace(table)) {
		t.Errorf("with Verbatim the executor does not get the result whole:\n%s", exec)
	}
}
