package agents

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// nextQuestions returns the done event's next questions and checks that
// report.md ends its text with them.
func nextQuestions(t *testing.T, evs []event.Event) []string {
	t.Helper()
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if done.Plan == nil || done.Plan.Result == nil {
		t.Fatal("the done event must carry the result")
	}
	qs := done.Plan.Result.NextQuestions
	rep := readWS(t, done, "report.md")
	_, tail, ok := strings.Cut(rep, "## Next questions")
	if !ok {
		t.Fatalf("report.md has no next questions:\n%s", rep)
	}
	for _, q := range qs {
		if !strings.Contains(tail, "- "+q) {
			t.Errorf("report.md's next questions lack %q:\n%s", q, tail)
		}
	}
	return qs
}

func TestTemplateRunSuggestsNextQuestionsFromColumns(t *testing.T) {
	offline, err := New(Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t)})
	if err != nil {
		t.Fatal(err)
	}
	qs := nextQuestions(t, collect(t, offline, Request{Question: "Top 3 regions by revenue", Files: []string{salesCSV(t)}}))
	if len(qs) < 2 || len(qs) > 3 {
		t.Fatalf("want 2 or 3 next questions, got %q", qs)
	}
	for _, q := range qs {
		if !strings.Contains(q, "revenue") && !strings.Contains(q, "Profile") {
			t.Errorf("%q must build on the measure just ranked (revenue)", q)
		}
		if strings.Contains(strings.ToLower(q), "top 10") {
			t.Errorf("%q repeats the analysis just run", q)
		}
	}
}

func TestAgentRunPassesTheModelsNextQuestions(t *testing.T) {
	want := []string{"How did North's revenue change by month?", "Which dates drove South's 70?"}
	script := scripted.New(regionScript(
		map[string]any{"answer": "North sells most: 150.", "next_questions": want},
		text("# Revenue\n\nNorth sells most with 150 [step 1]."),
	)...)
	qs := nextQuestions(t, collect(t, httpSift(t, script, nil), Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}}))
	if strings.Join(qs, "|") != strings.Join(want, "|") {
		t.Errorf("next questions = %q, want the model's %q", qs, want)
	}
}

func TestAgentRunWithoutSuggestionsFallsBackToRules(t *testing.T) {
	script := scripted.New(regionScript(
		map[string]any{"answer": "North sells most: 150."},
		text("# Revenue\n\nNorth sells most with 150 [step 1]."),
	)...)
	qs := nextQuestions(t, collect(t, httpSift(t, script, nil), Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}}))
	// The ranking of regions by revenue is what was asked: not offered.
	if len(qs) < 2 || !strings.Contains(qs[0], "revenue") || strings.Contains(strings.Join(qs, "|"), "highest total revenue") {
		t.Errorf("want rule-based questions over revenue, the ranking just asked left out, got %q", qs)
	}
}
