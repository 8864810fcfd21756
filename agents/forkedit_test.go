package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

const (
	askEast     = "Should East count in the regional totals?"
	codeAll     = "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\ns = df.groupby('region')['revenue'].sum().sort_values(ascending=False)\ns.to_csv('out/by_region.csv')\nprint(s.to_string())"
	codeNoEast  = "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\ns = df[df.region != 'East'].groupby('region')['revenue'].sum().sort_values(ascending=False)\ns.to_csv('out/by_region.csv')\nprint(s.to_string())"
	stepRegionQ = "Total revenue by region to out/by_region.csv"
)

// answeredThen runs code once the last tool result (ask_user's) holds
// want, and fails the step otherwise.
func answeredThen(want, code string) scripted.Reply {
	return scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
		last := req.Messages[len(req.Messages)-1]
		if last.Role != schema.Tool || !strings.Contains(last.Content, want) {
			return scripted.Text("FAILED: the answer " + want + " did not reach me: " + last.Content), nil
		}
		return scripted.ToolCall("python", fmt.Sprintf(`{"code": %q}`, code)), nil
	}}
}

// askedScript is a three-step analysis whose step 2 asks whether East
// counts; answered "yes", its totals include East.
func askedScript() []scripted.Reply {
	all := []string{stepLoad, stepRegionQ, stepMonth}
	return []scripted.Reply{
		call(toolCreatePlan, steps(all...)),
		call("python", map[string]string{"code": codeLoad}), echoToolResult("Done. Output:\n"),
		call(toolCreatePlan, steps(all[1:]...)),
		call("ask_user", map[string]any{"question": askEast, "choices": []string{"yes", "no"}}),
		answeredThen("yes", codeAll), echoToolResult("Done. Output:\n"),
		call(toolCreatePlan, steps(all[2:]...)),
		call("python", map[string]string{"code": codeMonth}), echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "North leads (150); East has 30."}),
		text("# Revenue\n\nNorth 150, South 70, East 30 [step 2].\n"),
	}
}

// askedSession runs askedScript to its end, answering "yes", and returns
// the Sift, the script and the session's id.
func askedSession(t *testing.T, script *scripted.Script) (*Sift, string) {
	t.Helper()
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Parallel: 1})
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion {
		t.Fatalf("want the run to wait on the question, got %+v (err %v)", done.Interrupt, done.Err)
	}
	meta, err := s.Session(context.Background(), done.Session)
	if err != nil || meta.Pending == nil {
		t.Fatalf("pending: %+v %v", meta, err)
	}
	var last event.Event
	for e := range s.Resume(context.Background(), done.Session, map[string]any{meta.Pending.ID: AnswerChoice(1)}) {
		last = e
	}
	if last.Err != nil || last.Interrupt != nil {
		t.Fatalf("resume: %v %+v", last.Err, last.Interrupt)
	}
	return s, done.Session
}

// TestForkWithAnEditedAnswer forks at the step that asked whether East
// counts, answering "no" this time: step 1 is kept, the step's agents
// are told the new answer (not the old one the memory holds), the
// question asked again is answered with it without waiting, and the
// totals leave East out.
func TestForkWithAnEditedAnswer(t *testing.T) {
	script := scripted.New(askedScript()...)
	s, parent := askedSession(t, script)
	calls := script.Calls()
	script.Push(
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			sys := req.Messages[0].Content
			if !strings.Contains(sys, fmt.Sprintf("Asked %q, the person answered: no", askEast)) || strings.Contains(sys, "answered: yes") {
				return scripted.Text("FAILED: the edited answer is not in my context:\n" + sys), nil
			}
			return scripted.ToolCall("ask_user", fmt.Sprintf(`{"question": %q, "choices": ["yes", "no"]}`, askEast)), nil
		}},
		answeredThen("no", codeNoEast), echoToolResult("Done. Output:\n"),
		call(toolCreatePlan, steps(stepMonth)),
		call("python", map[string]string{"code": codeMonth}), echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "Without East, North leads (150)."}),
		text("# Revenue without East\n\nNorth 150, South 70 [step 2].\n"),
	)
	var fevs []event.Event
	for e := range s.Fork(context.Background(), ForkRequest{Session: parent, At: 2, Answer: "no"}) {
		fevs = append(fevs, e)
	}
	done := fevs[len(fevs)-1]
	if done.Kind != event.Done || done.Err != nil || done.Interrupt != nil {
		t.Fatalf("fork: %s %v %+v", done.Kind, done.Err, done.Interrupt)
	}
	if got := script.Calls() - calls; got != 8 {
		t.Errorf("the fork made %d model calls, want 8 (3 for step 2, 2 for step 3, a replan, the answer, the report)", got)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	var started []int
	for _, e := range kinds(fevs, event.StepStarted) {
		started = append(started, e.Step.Index)
	}
	if fmt.Sprint(started) != "[2 3]" {
		t.Errorf("steps started = %v, want [2 3]", started)
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,150") || strings.Contains(got, "East") {
		t.Errorf("out/by_region.csv = %q, want the totals without East", got)
	}
	meta, err := s.Session(context.Background(), done.Session)
	if err != nil || meta.Parent != parent || meta.Origin != session.OriginFork {
		t.Errorf("meta = %+v, %v", meta, err)
	}

	for _, bad := range []struct {
		req  ForkRequest
		want string
	}{
		{ForkRequest{Session: parent, At: 3, Answer: "no"}, "step 3 asked no question; step 2 asked"},
		{ForkRequest{Session: parent, At: 2, Answer: "no", Step: "x", Plan: []string{"y"}}, "either"},
	} {
		err := s.CheckFork(context.Background(), bad.req)
		if !errors.Is(err, ErrCannotFork) || !strings.Contains(fmt.Sprint(err), bad.want) {
			t.Errorf("CheckFork(%+v) = %v, want ErrCannotFork saying %q", bad.req, err, bad.want)
		}
	}
}

// TestForkWithAnEditedPlan forks at step 2 with the rest of the plan
// replaced by one step: step 1 is kept and not run, the new step runs,
// and the old step 3 is gone.
func TestForkWithAnEditedPlan(t *testing.T) {
	script := scripted.New(refreshedScript()...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Parallel: 1})
	parent := evs[len(evs)-1]
	if parent.Err != nil {
		t.Fatalf("the analysis failed: %v", parent.Err)
	}
	calls := script.Calls()
	script.Push(
		call("python", map[string]string{"code": codeNoEast}), echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "Without East, North leads (150)."}),
		text("# Revenue without East\n\nNorth 150, South 70 [step 2].\n"),
	)
	var fevs []event.Event
	for e := range s.Fork(context.Background(), ForkRequest{Session: parent.Session, At: 2, Plan: []string{stepRegionNoEast, " "}}) {
		fevs = append(fevs, e)
	}
	done := fevs[len(fevs)-1]
	if done.Kind != event.Done || done.Err != nil {
		t.Fatalf("fork: %s %v", done.Kind, done.Err)
	}
	if got := script.Calls() - calls; got != 4 {
		t.Errorf("the fork made %d model calls, want 4 (2 for the new step 2, the answer, the report)", got)
	}
	var started []int
	for _, e := range kinds(fevs, event.StepStarted) {
		started = append(started, e.Step.Index)
	}
	if fmt.Sprint(started) != "[2]" {
		t.Errorf("steps started = %v, want [2]", started)
	}
	fp, err := SessionPlan(done.Path)
	if err != nil || len(fp.Steps) != 2 || fp.Steps[0].Status != plans.StatusDone || fp.Steps[1].Description != stepRegionNoEast || fp.Steps[1].Status != plans.StatusDone {
		t.Errorf("plan = %+v, %v; want step 1 kept and the new step 2 done", fp, err)
	}
	if err := s.CheckFork(context.Background(), ForkRequest{Session: parent.Session, At: 2, Plan: []string{" "}}); !errors.Is(err, ErrCannotFork) {
		t.Errorf("a plan of blank steps: %v, want ErrCannotFork", err)
	}
}

// TestForkInProcessMode: with no kernel to replay step 1's cell, the
// fork gets the files that cell wrote (work/sales.pkl), which steps 2 and
// 3 read.
func TestForkInProcessMode(t *testing.T) {
	script := scripted.New(append(refreshedScript(), forkReplies()...)...)
	s := httpSift(t, script, func(c *Config) { c.PythonMode = operator.PythonProcess })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Parallel: 1})
	parent := evs[len(evs)-1]
	if parent.Err != nil {
		t.Fatalf("the analysis failed: %v", parent.Err)
	}
	var done event.Event
	for e := range s.Fork(context.Background(), ForkRequest{Session: parent.Session, At: 2, Step: stepRegionNoEast}) {
		done = e
	}
	if done.Err != nil {
		t.Fatalf("fork: %v", done.Err)
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,150") || strings.Contains(got, "East") {
		t.Errorf("out/by_region.csv = %q, want the edited step's totals", got)
	}
	fp, err := SessionPlan(done.Path)
	if err != nil || fp.Steps[1].Status != plans.StatusDone || fp.Steps[2].Status != plans.StatusDone {
		t.Errorf("plan = %+v, %v; want steps 2 and 3 done", fp, err)
	}
}
