package agents

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// TestDirectStepsGoStraightToTheCodeAgent runs a 3-step analysis with no
// web researcher: the executor would only pass each step on, so no request
// offers code_agent, each step takes the code agent's two calls and the
// replanner's, the code agent is given the step as its task with the
// question in its system message, and its answer is the step's result.
func TestDirectStepsGoStraightToTheCodeAgent(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	reqs := script.Requests()
	// planner, then per step: code agent twice and the replanner; report.
	if want := 1 + 3*3 + 1; len(reqs) != want {
		t.Errorf("%d model calls, want %d (3 a step)", len(reqs), want)
	}
	steps := []string{stepLoad, stepRegion, stepMonth}
	var tasks []string
	for i, req := range reqs {
		if offers(req, tree.NameCodeAgent) {
			t.Errorf("request %d offers code_agent: the executor ran", i+1)
		}
		if !offers(req, "python") {
			continue
		}
		if sys := req.Messages[0].Content; !strings.Contains(sys, "## Question\nWhich region sells most?") {
			t.Errorf("request %d: the code agent's system message lacks the question:\n%s", i+1, sys)
		}
		if last := req.Messages[len(req.Messages)-1]; last.Role == "user" {
			tasks = append(tasks, last.Content)
		}
	}
	if len(tasks) != len(steps) {
		t.Fatalf("the code agent got %d tasks, want %d: %q", len(tasks), len(steps), tasks)
	}
	for i, task := range tasks {
		if want := fmt.Sprintf("Step %d of the plan: %s", i+1, steps[i]); task != want {
			t.Errorf("task %d = %q, want %q", i+1, task, want)
		}
	}
	var results []string
	for _, e := range kinds(evs, event.StepFinished) {
		results = append(results, e.Step.Summary)
	}
	if len(results) != 3 || !strings.HasPrefix(results[1], "Done. Output:") || !strings.Contains(results[1], "North    150") {
		t.Errorf("the steps' results must be the code agent's answers, got %q", results)
	}
	var agents []string
	for _, e := range kinds(evs, event.ToolCall) {
		agents = append(agents, e.Agent)
	}
	if strings.Join(agents, ",") != "code_agent,code_agent,code_agent" {
		t.Errorf("the python calls must be the code agent's, got %q", agents)
	}
}

// TestDirectStepAsksAndGoesOnInANewProcess pauses a direct step on the
// code agent's question and answers it from another Sift over the same
// sessions: the code agent goes on from its checkpoint with the answer,
// and its answer is the step's result.
func TestDirectStepAsksAndGoesOnInANewProcess(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Look at input/sales.csv")),
		call("ask_user", map[string]any{"question": "Which year?", "choices": []string{"2023", "2024"}}),
		echoToolResult("Looked at "),
		call(toolSubmitResult, map[string]any{"answer": "Looked."}),
		text("# Report\n\nLooked [step 1]."),
	)
	first, second, root := twoSifts(t, script)
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "Which customers look unusual, and why?", Files: []string{salesCSV(t)}}))
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion || done.Interrupt.Prompt != "Which year?" {
		t.Fatalf("want the run to wait on the code agent's question, got %+v (err %v)", done.Interrupt, done.Err)
	}
	answer, err := AnswerFor(event.InterruptQuestion, done.Interrupt.Choices, false, "2", "")
	if err != nil {
		t.Fatal(err)
	}
	evs = drain(t, second.Resume(context.Background(), strings.TrimPrefix(done.Path, root+"/"), map[string]any{done.Interrupt.ID: answer}))
	if done = evs[len(evs)-1]; done.Err != nil || done.Interrupt != nil {
		t.Fatalf("want the run finished, got %v %+v", done.Err, done.Interrupt)
	}
	finished := kinds(evs, event.StepFinished)
	if len(finished) != 1 || !strings.Contains(finished[0].Step.Summary, "Looked at") || !strings.Contains(finished[0].Step.Summary, "2024") {
		t.Errorf("the step's result must be the code agent's answer after the person's, got %+v", finished)
	}
	resumed := script.Requests()[2]
	if !offers(resumed, "python") || !strings.Contains(resumed.Messages[len(resumed.Messages)-1].Content, "2024") {
		t.Errorf("the code agent must go on with the answer; its request was %+v", resumed.Messages)
	}
}

// TestBuiltInStepRunsWithoutAModel plans a step written as a built-in
// analysis: it runs the analysis with no model call (the planner, the
// replanner and the report are the run's only calls), its tables are
// written, and its result is the step's, which the replanner reads. The
// planner is told how to write such steps when a built-in could fit.
func TestBuiltInStepRunsWithoutAModel(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Run the built-in topn analysis on input/sales.csv: top 2 regions by total revenue")),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			if last := req.Messages[len(req.Messages)-1].Content; !strings.Contains(last, "| 1 | North |") {
				return nil, fmt.Errorf("the replanner did not see the ranking: %q", last)
			}
			return scripted.ToolCall(toolSubmitResult, `{"answer":"North sells most.","files":["out/topn_ranking.csv"]}`), nil
		}},
		text("# Top regions\n\nNorth leads [step 1]."),
	)
	evs := collect(t, httpSift(t, script, nil), Request{Mode: ModePlan, Question: "Which two regions sell most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if n := script.Calls(); n != 3 {
		t.Errorf("%d model calls, want 3: the planner, the replanner and the report", n)
	}
	if csv := readWS(t, done, "out/topn_ranking.csv"); !strings.Contains(csv, "North") || !strings.Contains(csv, "150") {
		t.Errorf("out/topn_ranking.csv:\n%s", csv)
	}
	if st := done.Plan.Steps[0]; st.Status != plans.StatusDone || !strings.Contains(st.Summary, "North") {
		t.Errorf("the step must be done with the ranking as its result: %+v", st)
	}
	if calls := kinds(evs, event.ToolCall); len(calls) != 1 || calls[0].Tool != "run_template" {
		t.Errorf("the built-in analysis must show as one run_template call, got %+v", calls)
	}
	if sys := script.Requests()[0].Messages[0].Content; !strings.Contains(sys, `"Run the built-in <name> analysis on <file>: <what to compute>"`) {
		t.Errorf("the planner must be told how to write a built-in step:\n%s", sys)
	}
}

// TestWaitingStepKeepsItsLayoutOnResume: a step that waits for the person
// resumes in the layout it ran in, though the configuration changed in
// between (a search provider added or removed), so the answer reaches the
// agent that asked instead of the question being asked again.
func TestWaitingStepKeepsItsLayoutOnResume(t *testing.T) {
	for _, tt := range []struct {
		name                string
		searchFirst, search bool
	}{{"direct, then a search provider", false, true}, {"through the executor, then none", true, false}} {
		t.Run(tt.name, func(t *testing.T) {
			replies := []scripted.Reply{call(toolCreatePlan, steps("Look at input/sales.csv"))}
			if tt.searchFirst {
				replies = append(replies, call(tree.NameCodeAgent, map[string]string{"request": "look"}))
			}
			replies = append(replies,
				call("ask_user", map[string]any{"question": "Which year?", "choices": []string{"2023", "2024"}}),
				echoToolResult("Looked at "),
				call(toolSubmitResult, map[string]any{"answer": "Looked."}),
				text("# Report\n\nLooked [step 1]."))
			script := scripted.New(replies...)
			srv := scripted.NewServer(script)
			t.Cleanup(srv.Close)
			root, py := t.TempDir(), pythonOrSkip(t)
			mk := func(search bool) *Sift {
				m, err := llm.New(context.Background(), llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "scripted"})
				if err != nil {
					t.Fatal(err)
				}
				cfg := Config{Models: Models{Default: m}, SessionsRoot: root, Python: py, CodeTimeout: time.Minute}
				if search {
					cfg.Search = noSearch{}
				}
				s, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			evs := drain(t, mk(tt.searchFirst).Run(context.Background(), Request{Mode: ModePlan, Question: "Which customers look unusual, and why?", Files: []string{salesCSV(t)}}))
			done := evs[len(evs)-1]
			if done.Interrupt == nil {
				t.Fatalf("want the run to wait on the question, got err %v", done.Err)
			}
			answer, err := AnswerFor(event.InterruptQuestion, done.Interrupt.Choices, false, "2", "")
			if err != nil {
				t.Fatal(err)
			}
			evs = drain(t, mk(tt.search).Resume(context.Background(), strings.TrimPrefix(done.Path, root+"/"), map[string]any{done.Interrupt.ID: answer}))
			if done = evs[len(evs)-1]; done.Err != nil || done.Interrupt != nil {
				t.Fatalf("want the run finished with the answer, got err %v, asked again %+v", done.Err, done.Interrupt)
			}
			if st := done.Plan.Steps[0]; !strings.Contains(st.Summary, "2024") {
				t.Errorf("the step's result must follow the answer: %+v", st)
			}
		})
	}
}
