package agents

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// regionScript is a one-step run whose code prints North 150, South 70,
// East 30; submit is the submitted result, then come the given replies
// (a correction, the report).
func regionScript(submit map[string]any, rest ...scripted.Reply) []scripted.Reply {
	code := "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nprint(df.groupby('region')['revenue'].sum().to_string())"
	return append([]scripted.Reply{
		call(toolCreatePlan, steps("Total revenue by region")),
		call("python", map[string]string{"code": code}),
		echoToolResult("Totals:\n"),
		call(toolSubmitResult, submit),
	}, rest...)
}

func TestInventedNumberIsSentBackOnceAndCorrected(t *testing.T) {
	var asked string
	correction := scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
		asked = req.Messages[len(req.Messages)-1].Content
		return scripted.ToolCall(toolSubmitResult, `{"answer":"North sells most: 150.","findings":["North 150, South 70"]}`), nil
	}}
	script := scripted.New(regionScript(
		map[string]any{"answer": "North sells most: 175.", "findings": []string{"North 175, South 70"}},
		correction,
		text("# Revenue\n\nNorth sells most with 150 [step 1], South 70."),
	)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Fatalf("%d replies unused: the correction round must be asked exactly once", script.Remaining())
	}
	if !strings.Contains(asked, "175") || strings.Contains(strings.SplitN(asked, "Numbers found in no output", 2)[1], "70") {
		t.Errorf("the correction request must list 175 (and not the supported 70) as unsupported:\n%s", asked)
	}
	if r := done.Plan.Result; r == nil || r.Answer != "North sells most: 150." || len(r.Unverified) != 0 {
		t.Errorf("the corrected result must replace the first: %+v", r)
	}
	if rep := readWS(t, done, "report.md"); strings.Contains(rep, unverifiedMark) {
		t.Errorf("nothing is left to mark:\n%s", rep)
	}
	if plan := readWS(t, done, "plan.md"); strings.Contains(plan, "175") {
		t.Errorf("plan.md must show the corrected answer:\n%s", plan)
	}
}

func TestNumberStillInventedIsMarkedInTheReport(t *testing.T) {
	stubborn := call(toolSubmitResult, map[string]any{"answer": "North sells most: 175."})
	script := scripted.New(regionScript(
		map[string]any{"answer": "North sells most: 175."},
		stubborn,
		text("# Revenue\n\nNorth sells most with 175 [step 1], South 70, a 12.5% lead."),
	)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Fatalf("%d replies unused", script.Remaining())
	}
	if r := done.Plan.Result; r == nil || strings.Join(r.Unverified, ",") != "175" {
		t.Errorf("the result must carry its unverified numbers: %+v", r)
	}
	rep := readWS(t, done, "report.md")
	for _, want := range []string{"175" + unverifiedMark, "12.5%" + unverifiedMark, "Numbers not found in any step's output"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report.md lacks %q:\n%s", want, rep)
		}
	}
	if strings.Contains(rep, "70"+unverifiedMark) {
		t.Errorf("a supported number must not be marked:\n%s", rep)
	}
	var said bool
	for _, e := range kinds(evs, event.Message) {
		said = said || strings.Contains(e.Text, "answer check") && strings.Contains(e.Text, "175")
	}
	if !said {
		t.Error("the run must say which numbers it could not trace")
	}
}
