package agents

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// TestPlanWithStringsThroughHTTP: a real model's plan whose numbers and
// lists come as strings runs, through the real OpenAI-compatible client;
// a plan that cannot be read goes back to the model as the tool's answer
// instead of ending the run with "unmarshal plan error".
func TestPlanWithStringsThroughHTTP(t *testing.T) {
	raw := func(name, args string) scripted.Reply { return scripted.Reply{Message: scripted.ToolCall(name, args)} }
	const step = "Total revenue by region to out/by_region.csv"
	script := scripted.New(
		raw(toolCreatePlan, `{"steps": [{"index": "first", "description": "`+step+`"}]}`),
		raw(toolCreatePlan, `{"steps": [{"index": "1", "description": "`+step+`", "needs": null}], "complexity": "normal"}`),
		call("python", map[string]string{"code": "import pandas as pd\ns = pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum()\ns.to_csv('out/by_region.csv')\nprint(s.to_string())"}),
		echoToolResult("Done. Output:\n"),
		raw(toolSubmitResult, `{"answer": "North has the highest revenue (150).", "findings": "North 150", "files": "out/by_region.csv", "next_questions": null}`),
		text("# Revenue\n\nNorth leads with 150 [step 1].\n"),
	)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d scripted replies unused", script.Remaining())
	}
	retry := script.Requests()[1].Messages
	last := retry[len(retry)-1]
	if last.Role != schema.Tool || !strings.Contains(last.Content, "index") || !strings.Contains(last.Content, `"first" is not a number`) {
		t.Errorf("the unreadable plan did not go back to the model as the tool's answer: %+v", last)
	}
	if fp := done.Plan; fp == nil || len(fp.Steps) != 1 || fp.Steps[0].Status != plans.StatusDone || fp.Steps[0].Index != 1 {
		t.Fatalf("plan = %+v, want step 1 done", done.Plan)
	}
	r := done.Plan.Result
	if r == nil || len(r.Files) != 1 || r.Files[0] != "out/by_region.csv" || len(r.Findings) != 1 {
		t.Errorf("result = %+v, want the single file and finding taken as lists", r)
	}
}
