package agents

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

const stepRegionNoEast = "Total revenue by region without East to out/by_region.csv"

// forkReplies are what the agents say in a fork at step 2 of
// refreshedScript's analysis: steps 2 and 3, the replan between them, the
// answer and the report. Step 1 is not asked for.
func forkReplies() []scripted.Reply {
	code := "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\ns = df[df.region != 'East'].groupby('region')['revenue'].sum().sort_values(ascending=False)\ns.to_csv('out/by_region.csv')\nprint(s.to_string())"
	return []scripted.Reply{
		call("python", map[string]string{"code": code}), echoToolResult("Done. Output:\n"),
		call(toolCreatePlan, steps(stepMonth)),
		call("python", map[string]string{"code": codeMonth}), echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "Without East, North leads (150)."}),
		text("# Revenue without East\n\nNorth 150, South 70 [step 2].\n"),
	}
}

// TestForkAtStepTwoRunsOnlyStepsTwoAndThree: the fork keeps step 1 (its
// cell is replayed into the kernel, not asked of the model), runs the
// edited step 2 and step 3, and links its parent.
func TestForkAtStepTwoRunsOnlyStepsTwoAndThree(t *testing.T) {
	script := scripted.New(append(refreshedScript(), forkReplies()...)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Parallel: 1})
	parent := evs[len(evs)-1]
	if parent.Err != nil {
		t.Fatalf("the analysis failed: %v", parent.Err)
	}
	calls := script.Calls()

	var fevs []event.Event
	for e := range s.Fork(context.Background(), ForkRequest{Session: parent.Session, At: 2, Step: stepRegionNoEast}) {
		fevs = append(fevs, e)
	}
	done := fevs[len(fevs)-1]
	if done.Kind != event.Done || done.Err != nil {
		t.Fatalf("fork: %s %v", done.Kind, done.Err)
	}
	if got := script.Calls() - calls; got != 7 {
		t.Errorf("the fork made %d model calls, want 7 (2 code agent calls for each of steps 2 and 3, a replan, the answer, the report)", got)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	u := done.Usage
	if u == nil || u.PerAgent["code"] == nil || u.PerAgent["code"].Calls != 4 || u.PerStep[1] != nil || u.PerStep[2] == nil || u.PerStep[3] == nil {
		t.Errorf("usage = %+v, want 4 code agent calls, for steps 2 and 3 only", u)
	}
	var started []int
	for _, e := range kinds(fevs, event.StepStarted) {
		started = append(started, e.Step.Index)
	}
	if len(started) != 2 || started[0] != 2 || started[1] != 3 {
		t.Errorf("steps started = %v, want [2 3]", started)
	}
	cells, _ := operator.ReadCells(done.Path)
	ran, replayed := 0, 0
	for _, c := range cells {
		switch {
		case c.Replayed:
			replayed++
		case c.Generation > 1:
			ran++
		}
	}
	var notice string
	for _, e := range kinds(fevs, event.ToolResult) {
		if strings.Contains(e.Text, "forked from") {
			notice = e.Text
		}
	}
	if !strings.Contains(notice, "session "+parent.Session+", which this session was forked from") || strings.Contains(notice, "earlier Sift process") {
		t.Errorf("the first cell's notice must say the kernel's state comes from the parent session: %q", notice)
	}
	if ran != 2 || replayed != 1 {
		t.Errorf("cells run %d, replayed %d; want 2 (steps 2 and 3) and 1 (step 1's, to rebuild the kernel)", ran, replayed)
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,150") || strings.Contains(got, "East") {
		t.Errorf("out/by_region.csv = %q, want the edited step's totals", got)
	}
	fp, err := SessionPlan(done.Path)
	if err != nil || len(fp.Steps) != 3 || fp.Steps[1].Description != stepRegionNoEast || fp.Steps[0].Status != plans.StatusDone || !strings.Contains(fp.Steps[0].Summary, "4 rows") {
		t.Errorf("plan = %+v, %v", fp, err)
	}
	meta, err := s.Session(context.Background(), done.Session)
	if err != nil || meta.Parent != parent.Session || meta.Origin != session.OriginFork || meta.Status != session.StatusDone || done.Session == parent.Session {
		t.Errorf("meta = %+v, %v; want a new session, done, linked to %s", meta, err, parent.Session)
	}

	for _, bad := range []ForkRequest{{Session: parent.Session, At: 4}, {Session: "no-such-session", At: 1}} {
		var last event.Event
		for e := range s.Fork(context.Background(), bad) {
			last = e
		}
		if !errors.Is(last.Err, ErrCannotFork) {
			t.Errorf("fork %+v: err = %v, want ErrCannotFork", bad, last.Err)
		}
	}
}
