package tree

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
)

// TestFailureReadsAsTheAnalystNeedsIt: a failed step's summary as the
// issue saw it, a traceback cut for the model with a hint for the model,
// reads as the exception in one sentence with the traceback apart, and
// neither the hint nor the cut marker.
func TestFailureReadsAsTheAnalystNeedsIt(t *testing.T) {
	summary := "FAILED: Error: the code failed.\nTraceback (most recent call last):\n  File \"<cell>\", line 3, in <module> ra [... 88 characters cut ...] ing\nKeyError: 'Region'\nHint: read the traceback, fix the line it points to, and run again."
	sentence, detail := report.FailureOf(summary)
	if sentence != "the code failed: KeyError: 'Region'" {
		t.Errorf("sentence = %q, want what failed and the exception", sentence)
	}
	for _, s := range []string{sentence, detail} {
		if strings.Contains(s, "Hint") || strings.Contains(s, "characters cut") || strings.Contains(s, "88") {
			t.Errorf("model-directed text shown to the analyst: %q", s)
		}
	}
	if !strings.HasPrefix(detail, "Traceback (most recent call last)") || !strings.Contains(detail, "line 3") {
		t.Errorf("detail = %q, want the traceback", detail)
	}
	// The report's note on it is checked for no number: Sift wrote it.
	o := report.OutcomeOf(&plans.FullPlan{Steps: []plans.StepState{
		{Step: plans.Step{Index: 1, Description: "x"}, Status: plans.StatusFailed, Summary: summary},
		{Step: plans.Step{Index: 2, Description: "y"}, Status: plans.StatusFailed, Summary: "FAILED: ValueError: could not convert '4,210.57' to float"},
	}})
	md := report.WithUncomputed("# Report\n\nNothing.\n", o)
	marked, bad := markReport(md, runEvidence("", prompt.View{}, nil), o.SiftText()...)
	if len(bad) > 0 || strings.Contains(marked, "⚠") {
		t.Errorf("the number check flagged Sift's own text: %v\n%s", bad, marked)
	}
	if !strings.Contains(md, "```traceback\n") {
		t.Errorf("the traceback is not in a folded block:\n%s", md)
	}
	html, err := report.HTML("r", []byte(md), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "<details class=\"traceback\"><summary>Traceback</summary>") || !strings.Contains(string(html), "KeyError: &#39;Region&#39;") {
		t.Errorf("report.html does not fold the traceback:\n%s", html)
	}
}
