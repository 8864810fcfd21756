package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
)

// writeSuite writes a native suite of n questions whose scripts answer on
// the quick path without running code: question i answers @n[i], except
// that question 3 answers a wrong value and question 4 no tag at all.
func writeSuite(t *testing.T, n int) *Suite {
	t.Helper()
	dir := t.TempDir()
	s := Suite{Name: "tiny"}
	for i := 1; i <= n; i++ {
		answer := fmt.Sprintf("The count is @n[%d].", i)
		switch i {
		case 3:
			// Wrong, and small enough that the answer check (which
			// skips bare counts up to 10) asks no correction round
			// the script has no reply for.
			answer = "The count is @n[7]."
		case 4:
			answer = "The count is four."
		}
		script := fmt.Sprintf(`{"replies": [{"content": %q}, {"content": "# Report\n\n{{section:Answer submitted}}"}]}`, answer)
		name := fmt.Sprintf("q%d.json", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		cat := "even"
		if i%2 == 1 {
			cat = "odd"
		}
		s.Questions = append(s.Questions, Question{ID: fmt.Sprintf("q%d", i), Question: fmt.Sprintf("What is the count of question %d?", i), Mode: "quick", Script: name, Category: cat, Expected: []Expected{{Name: "n", Value: fmt.Sprint(i)}}})
	}
	b, _ := json.Marshal(s)
	if err := os.WriteFile(filepath.Join(dir, "suite.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadSuite(dir)
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}

func evalOptions(t *testing.T, results string) Options {
	return Options{Config: agents.Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute}, Scripted: true, ResultPath: results}
}

func TestRunInterruptedThenResumed(t *testing.T) {
	suite := writeSuite(t, 5)
	results := filepath.Join(t.TempDir(), "results.json")

	ctx, cancel := context.WithCancel(context.Background())
	opts := evalOptions(t, results)
	var first []string
	opts.Progress = func(q QuestionResult) {
		first = append(first, q.ID)
		if len(first) == 2 {
			cancel() // interrupted while the third question starts
		}
	}
	if _, err := Run(ctx, suite, opts); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("interrupted run: err = %v", err)
	}
	saved, err := LoadResults(results)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Questions) != 2 || strings.Join(first, ",") != "q1,q2" {
		t.Fatalf("after the interruption: saved %d questions, progress %v; want q1 and q2", len(saved.Questions), first)
	}

	opts = evalOptions(t, results)
	var second []string
	opts.Progress = func(q QuestionResult) { second = append(second, q.ID) }
	res, err := Run(context.Background(), suite, opts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(second, ",") != "q3,q4,q5" {
		t.Errorf("resumed run asked %v, want only q3, q4, q5", second)
	}
	entries, _ := os.ReadDir(opts.Config.SessionsRoot)
	if len(entries) != 3 {
		t.Errorf("resumed run made %d sessions, want 3", len(entries))
	}
	s := res.Summary
	if s.Questions != 5 || s.Correct != 3 || s.Failures[FailValue] != 1 || s.Failures[FailFormat] != 1 {
		t.Errorf("summary = %+v, want 3 of 5 with one wrong value and one wrong format", s)
	}
	if ids := []string{res.Questions[0].ID, res.Questions[4].ID}; ids[0] != "q1" || ids[1] != "q5" {
		t.Errorf("questions out of suite order: %v", ids)
	}
	if q := res.Questions[0]; q.Calls != 2 || q.PromptTokens == 0 || q.WallMS <= 0 || q.Session == "" {
		t.Errorf("question cost not recorded: %+v", q)
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "<table", "60.0%", "q4", "wrong_format"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML summary lacks %q", want)
		}
	}
}

func TestRunScriptlessQuestionIsAnError(t *testing.T) {
	suite := writeSuite(t, 1)
	suite.Questions[0].Script = ""
	res, err := Run(context.Background(), suite, evalOptions(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	if q := res.Questions[0]; q.Kind != FailError || !strings.Contains(q.Error, "no script") {
		t.Errorf("result = %+v, want an error saying there is no script", q)
	}
}

func TestWriteCompare(t *testing.T) {
	q := func(id, cat string, ok bool, kind FailureKind) QuestionResult {
		return QuestionResult{ID: id, Category: cat, Correct: ok, Kind: kind, Calls: 2, PromptTokens: 100, CompletionTokens: 10, WallMS: 1000, Answers: []SubAnswer{{Name: "x", OK: ok}}}
	}
	a := &Results{Suite: "s", Model: "small", Questions: []QuestionResult{q("1", "agg", true, ""), q("2", "agg", false, FailValue), q("3", "join", true, "")}}
	b := &Results{Suite: "s", Model: "large", Questions: []QuestionResult{q("1", "agg", true, ""), q("2", "agg", true, ""), q("3", "join", false, FailFormat), q("4", "join", true, "")}}
	var out bytes.Buffer
	if err := WriteCompare(&out, a, b); err != nil {
		t.Fatal(err)
	}
	want := `             A: small      B: large      B − A
accuracy     66.7% (2/3)   75.0% (3/4)   +8.3 pts
sub-answers  66.7%         75.0%         +8.3 pts
  agg        50.0% (1/2)   100.0% (2/2)  +50.0 pts
  join       100.0% (1/1)  50.0% (1/2)   -50.0 pts
model calls  6             8             +2
tokens       330           440           +110
cost         $0.0000       $0.0000       +0.0000
wall time    3.0s          4.0s          +1.0s

Right in B only (1): 2 (was wrong_value)
Right in A only (1): 3 (now wrong_format)
Only in B (1): 4
`
	if out.String() != want {
		t.Errorf("compare output:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestLoadDABench(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("da-dev-questions.jsonl", `{"id": 0, "question": "What is the mean fare?", "concepts": ["Summary Statistics"], "constraints": "Round to two decimals.", "format": "@mean_fare[mean_fare_value] where mean_fare_value is a float.", "file_name": "test_ave.csv", "level": "easy"}
{"id": 5, "question": "Unlabelled?", "constraints": "", "format": "@x[x]", "file_name": "test_ave.csv", "level": "hard"}
{"id": 7, "question": "Two answers?", "constraints": "", "format": "@a[a] @b[b]", "file_name": "other.csv", "level": "medium"}
`)
	write("da-dev-labels.jsonl", `{"id": 0, "common_answers": [["mean_fare", "34.65"]]}
{"id": 7, "common_answers": [["a", "1"], ["b", "Yes"]]}
`)
	write("da-dev-tables/test_ave.csv", "fare\n1\n")
	s, err := LoadSuite(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "da-dev-questions" || len(s.Questions) != 2 {
		t.Fatalf("suite %s with %d questions, want 2 labelled ones", s.Name, len(s.Questions))
	}
	q := s.Questions[0]
	if q.ID != "0" || q.Category != "easy" || q.Files[0] != filepath.Join("da-dev-tables", "test_ave.csv") || q.Expected[0] != (Expected{Name: "mean_fare", Value: "34.65"}) {
		t.Errorf("question = %+v", q)
	}
	if p := q.Prompt(); !strings.Contains(p, "Round to two decimals.") || !strings.Contains(p, "@mean_fare[mean_fare_value]") {
		t.Errorf("prompt = %q", p)
	}
	if _, err := s.Files(q); err != nil {
		t.Error(err)
	}
	if _, err := s.Files(s.Questions[1]); err == nil || !strings.Contains(err.Error(), "other.csv") {
		t.Errorf("missing table: err = %v", err)
	}
	if _, err := LoadDABench(filepath.Join(dir, "da-dev-questions.jsonl"), filepath.Join(dir, "nope.jsonl"), ""); err == nil || !strings.Contains(err.Error(), "--labels") {
		t.Errorf("missing labels: err = %v", err)
	}
}

func TestRunBudgetFailure(t *testing.T) {
	suite := writeSuite(t, 3)
	suite.Questions = suite.Questions[2:] // q3 answers a wrong value
	opts := evalOptions(t, "")
	opts.Budget = agents.Budget{MaxModelCalls: 1}
	res, err := Run(context.Background(), suite, opts)
	if err != nil {
		t.Fatal(err)
	}
	if q := res.Questions[0]; q.Kind != FailBudget || q.Calls != 1 || !strings.Contains(q.Error, "budget") {
		t.Errorf("result = %+v, want a budget failure after one call", q)
	}
	if res.Summary.Failures[FailBudget] != 1 {
		t.Errorf("failures = %v", res.Summary.Failures)
	}
}
