package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/memory"
)

// TestCodeThatWorkedIsShownAsAnExample: the last good cell of a finished
// step is kept about the run's data, and the code agent of a later
// session on the same data (not on other data) is shown it, which the run
// says in an event.
func TestCodeThatWorkedIsShownAsAnExample(t *testing.T) {
	root := t.TempDir()
	csv := salesCSV(t)
	script := scripted.New()
	// Unnamed models: no answer cache, so each question is computed.
	s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: root, Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	const good = "import pandas as pd\ntotal = pd.read_csv('input/sales.csv')['revenue'].sum()\nprint(total)"
	// The failed cell first, then the one that worked.
	replies := append([]scripted.Reply{call(toolCreatePlan, steps("Sum the revenue")), call("python", map[string]string{"code": "print(undefined_name)"})},
		oneStep(good)...)
	replies = append(replies, call(toolSubmitResult, map[string]any{"answer": "250"}), text("# Revenue\n\n250 [step 1]."))
	script.Push(replies...)
	evs := drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "What is the total revenue?", Files: []string{csv}}))
	first := evs[len(evs)-1]
	if first.Err != nil {
		t.Fatal(first.Err)
	}
	es, err := s.Memory().List(context.Background())
	if err != nil || len(es) != 1 || es[0].Kind != memory.KindExample || es[0].Answer != good || es[0].Question != "Sum the revenue" || es[0].Session != first.Session {
		t.Fatalf("the step's last good cell must be kept: %+v %v", es, err)
	}

	codeSystem := func() string {
		t.Helper()
		// The code agent's request is the second of computed's five.
		reqs := script.Requests()
		return reqs[len(reqs)-4].Messages[0].Content
	}
	script.Push(computed("250")...)
	evs = drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "Total revenue by region?", Files: []string{csv}}))
	if d := evs[len(evs)-1]; d.Err != nil {
		t.Fatal(d.Err)
	}
	sys := codeSystem()
	if !strings.Contains(sys, "## Code that worked before on this data") || !strings.Contains(sys, "```python\n"+good+"\n```") || strings.Contains(sys, "undefined_name") {
		t.Errorf("the code agent must be shown the code that worked, not the cell that failed:\n%s", sys)
	}
	if said := strings.Join(messagesOf(evs, MemoryAgent), "\n"); !strings.Contains(said, "The code agent is shown 1 example of code that worked before on this data") || !strings.Contains(said, es[0].ID) {
		t.Errorf("the run must say which examples it shows: %q", said)
	}

	other := filepath.Join(t.TempDir(), "other.csv")
	if err := os.WriteFile(other, []byte("date,region,revenue\n2024-03-01,West,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script.Push(computed("5")...)
	drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "Total revenue by region?", Files: []string{other}}))
	if sys := codeSystem(); strings.Contains(sys, "Code that worked before") {
		t.Errorf("other data must not be shown the examples:\n%s", sys)
	}
}
