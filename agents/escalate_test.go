package agents

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// failingQuick is a trivial request whose one code run fails: the planner
// rates it trivial, the code agent's cell raises, and it answers FAILED.
func failingQuick() []scripted.Reply {
	return []scripted.Reply{
		call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": "Total revenue by Region"}}, "complexity": "trivial"}),
		call("python", map[string]string{"code": "import pandas as pd\nprint(pd.read_csv('input/sales.csv').groupby('Region')['revenue'].sum())"}),
		text("FAILED: there is no column 'Region'; the columns are date, region, revenue."),
	}
}

func TestFailedQuickAnswerEscalatesToThePlannerOnce(t *testing.T) {
	var replan string
	replies := append(failingQuick(),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			replan = req.Messages[len(req.Messages)-1].Content
			return call(toolCreatePlan, steps("Total revenue by region (lower-case column)")).Message, nil
		}},
		call("python", map[string]string{"code": "import pandas as pd\nprint(pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum().to_string())"}),
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "North: 150"}),
		text("# Revenue\n\nNorth: 150 [step 2]."),
	)
	script := scripted.New(replies...)
	evs := collect(t, httpSift(t, script, nil), Request{Question: "Explain the revenue of each Region in one sentence", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		for _, e := range evs {
			t.Logf("%s %s %s %.200s", e.Kind, e.Agent, e.Tool, e.Text)
		}
		t.Errorf("%d replies unused", script.Remaining())
	}
	if !strings.Contains(replan, "no column 'Region'") {
		t.Errorf("the replanner must see the failed attempt's summary:\n%s", replan)
	}
	fin := kinds(evs, event.StepFinished)
	if len(fin) != 2 || fin[0].Step.Status != plans.StatusFailed || fin[1].Step.Status != plans.StatusDone {
		t.Fatalf("want the quick step failed, then a planned step done; got %d finished steps", len(fin))
	}
	if r := done.Plan.Result; r == nil || r.Answer != "North: 150" {
		t.Errorf("the escalated run's answer must be the final one: %+v", done.Plan.Result)
	}
}

func TestQuickModeDoesNotEscalate(t *testing.T) {
	// --mode quick: no planner; with its one step failed, Sift writes the
	// report itself, so no report-model reply is scripted.
	script := scripted.New(failingQuick()[1:]...)
	evs := collect(t, httpSift(t, script, nil), Request{Mode: ModeQuick, Question: "Explain the revenue of each Region in one sentence", Files: []string{salesCSV(t)}})
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	if fin := kinds(evs, event.StepFinished); len(fin) != 1 || fin[0].Step.Status != plans.StatusFailed {
		t.Errorf("quick mode keeps its one failed step; got %d finished steps", len(fin))
	}
}
