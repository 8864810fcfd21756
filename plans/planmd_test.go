package plans

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRenderPlanMarkdownGolden(t *testing.T) {
	fp := &FullPlan{Question: "Which region sells most?"}
	fp.SetRemaining(&Plan{Steps: []Step{{Description: "Load input/sales.csv"}, {Description: "Sum revenue by region"}, {Description: "Chart it"}}})
	fp.Steps[0].Status = StatusDone
	fp.Steps[0].Summary = "1,000 rows, 5 columns.\nNo missing values."
	fp.Steps[1].Status = StatusFailed
	fp.Steps[1].Summary = "KeyError: 'Region'"
	fp.SetRemaining(&Plan{Steps: []Step{{Description: "Sum revenue by region (column region)"}}})
	fp.Steps[2].Status = StatusDone
	fp.Steps[2].Files = []string{"out/revenue_by_region.csv"}
	fp.Result = &SubmitResult{Answer: "North sells most.", Findings: []string{"North: 1,200"}, Files: []string{"out/revenue_by_region.csv"}}

	got := RenderPlanMarkdown(fp)
	golden := filepath.Join("testdata", "plan.md.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with UPDATE_GOLDEN=1 to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("plan.md mismatch (-want +got):\n%s", diff)
	}
}

func TestSetRemainingKeepsFinishedStepsAndNumbering(t *testing.T) {
	fp := &FullPlan{}
	p := fp.SetRemaining(&Plan{Steps: []Step{{Description: "a"}, {Description: "b"}}})
	if p.Steps[1].Index != 2 {
		t.Fatalf("second step index = %d, want 2", p.Steps[1].Index)
	}
	fp.Steps[0].Status = StatusDone
	p = fp.SetRemaining(&Plan{Steps: []Step{{Description: "c"}}})
	want := []StepState{{Step: Step{Index: 1, Description: "a"}, Status: StatusDone}, {Step: Step{Index: 2, Description: "c"}, Status: StatusTodo}}
	if diff := cmp.Diff(want, fp.Steps); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if p.FirstStep() != "c" || fp.Revisions != 1 {
		t.Errorf("first step %q revisions %d", p.FirstStep(), fp.Revisions)
	}
}

func TestPlanUnmarshalTolerant(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Step
	}{
		{"objects", `{"steps":[{"index":1,"description":"a"},{"index":2,"description":"b"}]}`, []Step{{Index: 1, Description: "a"}, {Index: 2, Description: "b"}}},
		{"strings", `{"steps":["a","b"]}`, []Step{{Index: 0, Description: "a"}, {Index: 0, Description: "b"}}},
		{"bare array", `[{"step":"a"},{"task":"b"}]`, []Step{{Index: 0, Description: "a"}, {Index: 0, Description: "b"}}},
		{"plan key", `{"plan":[{"title":"a"}]}`, []Step{{Index: 0, Description: "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Plan
			if err := p.UnmarshalJSON([]byte(tt.in)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, p.Steps); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	var p Plan
	if err := p.UnmarshalJSON([]byte(`{"steps":[{"index":1}]}`)); err == nil {
		t.Error("a plan whose steps have no description must be refused")
	}
}

func TestSubmitResultAliases(t *testing.T) {
	var r SubmitResult
	if err := r.UnmarshalJSON([]byte(`{"response":"42","findings":"one"}`)); err != nil {
		t.Fatal(err)
	}
	if r.Answer != "42" || len(r.Findings) != 1 {
		t.Errorf("got %+v", r)
	}
}

// TestPlanMarkdownKeepsEarlierQuestions: a follow-up's plan.md still says
// what each earlier question found, with its own report.
func TestPlanMarkdownKeepsEarlierQuestions(t *testing.T) {
	fp := &FullPlan{Question: "what is x?", Result: &SubmitResult{Answer: "x is 20"}}
	fp.SetRemaining(&Plan{Steps: []Step{{Description: "Compute x"}}})
	fp.Steps[0].Status = StatusDone
	fp.FollowUp("and x+1?")
	got := RenderPlanMarkdown(fp)
	want := "## Earlier questions\n\n1. **what is x?** — x is 20 ([report-01.md](report-01.md))\n"
	if !strings.Contains(got, want) || !strings.Contains(got, "[x] **1. Compute x**") {
		t.Errorf("plan.md lacks the earlier question %q or its step:\n%s", want, got)
	}
}

func TestPlanMarkdownCountsOneStep(t *testing.T) {
	fp := &FullPlan{Question: "q"}
	fp.SetRemaining(&Plan{Steps: []Step{{Description: "a"}}})
	if got := RenderPlanMarkdown(fp); !strings.Contains(got, "1 step: 0 done") {
		t.Errorf("one step must be counted in the singular:\n%s", got)
	}
}
