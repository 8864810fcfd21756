package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/session/sessiontest"
)

// twoSifts builds two Sift instances over one sessions root and one
// scripted endpoint: the second stands for a new process resuming what the
// first left.
func twoSifts(t *testing.T, script *scripted.Script) (*Sift, *Sift, string) {
	t.Helper()
	return twoSiftsWith(t, script, nil)
}

// twoSiftsWith is twoSifts with mutate applied to both configurations.
func twoSiftsWith(t *testing.T, script *scripted.Script, mutate func(*Config)) (*Sift, *Sift, string) {
	t.Helper()
	srv := scripted.NewServer(script)
	t.Cleanup(srv.Close)
	root := t.TempDir()
	py := pythonOrSkip(t)
	mk := func() *Sift {
		m, err := llm.New(context.Background(), llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "scripted"})
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Models: Models{Default: m}, SessionsRoot: root, Python: py, CodeTimeout: time.Minute}
		if mutate != nil {
			mutate(&cfg)
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return mk(), mk(), root
}

func drain(t *testing.T, seq func(func(event.Event) bool)) []event.Event {
	t.Helper()
	var evs []event.Event
	for e := range seq {
		evs = append(evs, e)
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != event.Done {
		t.Fatalf("the last event must be done")
	}
	return evs
}

// oneStep is the scripted work of one step that prints what code computes.
func oneStep(code string) []scripted.Reply {
	return []scripted.Reply{
		call("python", map[string]string{"code": code}),
		echoToolResult("Result: "),
	}
}

func TestPlanReview(t *testing.T) {
	finish := []scripted.Reply{call(toolSubmitResult, map[string]any{"answer": "done"}), text("# Report\n\ndone [step 1].")}
	tests := []struct {
		name      string
		replies   []scripted.Reply
		decisions []*event.PlanDecision
		wantStep  string
		check     func(t *testing.T, script *scripted.Script)
	}{
		{
			name:      "approved",
			replies:   append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7"))}, oneStep("print(6*7)")...), finish...),
			decisions: []*event.PlanDecision{{Action: event.PlanApprove}},
			wantStep:  "Print 6*7",
		},
		{
			name:      "edited",
			replies:   append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7"))}, oneStep("print(7*7)")...), finish...),
			decisions: []*event.PlanDecision{{Action: event.PlanEdit, Steps: []string{"Print 7*7 instead"}}},
			wantStep:  "Print 7*7 instead",
			check: func(t *testing.T, script *scripted.Script) {
				if !requestSaid(script, "Step 1 of the plan: Print 7*7 instead") {
					t.Error("the code agent must be given the edited step")
				}
			},
		},
		{
			name: "rejected then replanned",
			replies: append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7")), call(toolCreatePlan, steps("Print 8*8"))},
				oneStep("print(8*8)")...), finish...),
			decisions: []*event.PlanDecision{{Action: event.PlanReject, Feedback: "use eight, not six"}, {Action: event.PlanApprove}},
			wantStep:  "Print 8*8",
			check: func(t *testing.T, script *scripted.Script) {
				if !requestSaid(script, "use eight, not six") {
					t.Error("the planner must be given the person's feedback")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := scripted.New(tt.replies...)
			first, second, root := twoSifts(t, script)
			evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "a number", ReviewPlan: true}))
			done := evs[len(evs)-1]
			id := strings.TrimPrefix(done.Path, root+"/")
			for i, d := range tt.decisions {
				if done.Err != nil || done.Interrupt == nil || done.Interrupt.Kind != event.InterruptPlanReview || done.Interrupt.Plan == nil {
					t.Fatalf("round %d: want the run to wait for a plan review, got %+v (err %v)", i+1, done.Interrupt, done.Err)
				}
				if meta, err := first.store.Sessions.Get(context.Background(), id); err != nil || meta.Status != session.StatusWaiting || meta.Pending == nil {
					t.Fatalf("the registry must say the session waits: %+v %v", meta, err)
				}
				// Every answer comes from a new process.
				evs = drain(t, second.Resume(context.Background(), id, map[string]any{done.Interrupt.ID: d}))
				done = evs[len(evs)-1]
			}
			if done.Err != nil || done.Interrupt != nil {
				t.Fatalf("want the run finished, got err %v, interrupt %+v", done.Err, done.Interrupt)
			}
			if len(done.Plan.Steps) != 1 || done.Plan.Steps[0].Description != tt.wantStep || done.Plan.Steps[0].Status != plans.StatusDone {
				t.Errorf("plan: %+v", done.Plan.Steps)
			}
			if script.Remaining() != 0 {
				t.Errorf("%d replies unused", script.Remaining())
			}
			if tt.check != nil {
				tt.check(t, script)
			}
			if meta, _ := second.store.Sessions.Get(context.Background(), id); meta.Status != session.StatusDone {
				t.Errorf("status = %s, want done", meta.Status)
			}
		})
	}
}

func TestPauseThenResumeInANewProcess(t *testing.T) {
	pause := make(chan struct{})
	var replies []scripted.Reply
	replies = append(replies, call(toolCreatePlan, steps("Save x", "Print x", "Print x+1")))
	replies = append(replies, call("python", map[string]string{"code": "x = 20\nopen('out/x.txt','w').write(str(x))\nprint(x)"}),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			close(pause) // Ctrl-C while step 1 runs: pause at the next safe point
			return scripted.Text("Saved x = 20."), nil
		}})
	// No replan before the pause: the resumed run starts step 2.
	replies = append(replies, oneStep("print(x)")...)
	replies = append(replies, call(toolCreatePlan, steps("Print x+1")))
	replies = append(replies, oneStep("print(x+1)")...)
	replies = append(replies, call(toolSubmitResult, map[string]any{"answer": "21"}), text("# Report\n\n21 [step 3]."))
	script := scripted.New(replies...)
	first, second, root := twoSifts(t, script)

	ctx := WithPause(context.Background(), pause)
	evs := drain(t, first.Run(ctx, Request{Mode: ModePlan, Question: "x things", Files: nil}))
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrPaused) || done.Text != "paused" || len(kinds(evs, event.Paused)) != 1 {
		t.Fatalf("want a paused run, got %q, %v", done.Text, done.Err)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	if meta, _ := first.store.Sessions.Get(context.Background(), id); meta.Status != session.StatusPaused {
		t.Fatalf("status = %s, want paused", meta.Status)
	}
	// The pause costs no model call: the planner and step 1's two, no
	// replanner after them.
	callsBefore := script.Calls()
	if callsBefore != 3 {
		t.Errorf("the paused run made %d model calls, want 3 (no replan before pausing)", callsBefore)
	}
	for _, e := range kinds(evs, event.ModelStarted) {
		if e.Call != nil && e.Call.Agent == "replanner" {
			t.Errorf("the replanner was called after the pause was asked: %q", e.Text)
		}
	}
	if p := kinds(evs, event.Paused); p[0].Text != "paused before step 2" {
		t.Errorf("paused event says %q, want \"paused before step 2\"", p[0].Text)
	}

	evs = drain(t, second.Resume(context.Background(), id, nil))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("resume failed: %v", done.Err)
	}
	// No planner call, no step 1 again: steps 2 and 3, the replans and the report.
	if got := script.Calls() - callsBefore; got != 7 {
		t.Errorf("the resumed run made %d model calls, want 7", got)
	}
	var results []string
	for _, e := range kinds(evs, event.ToolResult) {
		if e.Tool == "python" {
			results = append(results, e.Text)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "20") || !strings.Contains(results[1], "21") {
		t.Errorf("steps 2 and 3 must see x from step 1 (rebuilt from the cell log): %q", results)
	}
	if !strings.Contains(results[0], "rebuilt by replaying") {
		t.Errorf("the person must be told the kernel state was rebuilt: %q", results[0])
	}
	var stepsDone []int
	for _, st := range done.Plan.Steps {
		if st.Status == plans.StatusDone {
			stepsDone = append(stepsDone, st.Index)
		}
	}
	if len(stepsDone) != 3 {
		t.Errorf("all three steps must end done: %+v", done.Plan.Steps)
	}
}

// requestSaid reports whether any request to the model contained s.
func requestSaid(script *scripted.Script, s string) bool {
	for _, req := range script.Requests() {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, s) {
				return true
			}
		}
	}
	return false
}

func TestQuestionAnsweredInANewProcess(t *testing.T) {
	replies := []scripted.Reply{
		call(toolCreatePlan, steps("Count the rows of the right sheet")),
		call("ask_user", map[string]any{"question": "Which sheet?", "choices": []string{"2023", "2024"}}),
		// After the answer: the code agent goes on with what it was told.
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			last := req.Messages[len(req.Messages)-1]
			if last.Role != schema.Tool || !strings.Contains(last.Content, "2024") {
				return scripted.Text("FAILED: no answer reached me: " + last.Content), nil
			}
			return scripted.ToolCall("python", `{"code": "print('rows in 2024: 12')"}`), nil
		}},
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "12 rows in 2024"}),
		text("# Rows\n\n12 [step 1]."),
	}
	script := scripted.New(replies...)
	first, second, root := twoSifts(t, script)
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "how many rows?"}))
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion || done.Interrupt.Prompt != "Which sheet?" || len(done.Interrupt.Choices) != 2 {
		t.Fatalf("want the run to wait on the question, got %+v (err %v)", done.Interrupt, done.Err)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	meta, err := second.Session(context.Background(), id)
	if err != nil || meta.Pending == nil || meta.Pending.Kind != session.PendingQuestion {
		t.Fatalf("the registry must hold the pending question: %+v %v", meta, err)
	}
	answer, err := AnswerFor(event.InterruptQuestion, meta.Pending.Choices, false, "2", "")
	if err != nil {
		t.Fatal(err)
	}
	evs = drain(t, second.Resume(context.Background(), id, map[string]any{meta.Pending.ID: answer}))
	done = evs[len(evs)-1]
	if done.Err != nil || done.Interrupt != nil {
		t.Fatalf("want the run finished, got %v %+v", done.Err, done.Interrupt)
	}
	if st := done.Plan.Steps[0]; st.Status != plans.StatusDone || !strings.Contains(st.Summary, "12") {
		t.Errorf("step: %+v", st)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
}

func TestApprovalDeniedThenTheRunAdapts(t *testing.T) {
	replies := []scripted.Reply{
		call(toolCreatePlan, steps("Fetch the exchange rate from the web")),
		call(tree.NameWebAgent, map[string]string{"request": "fetch the EUR/USD rate"}),
		call("web_fetch", map[string]string{"url": "https://rates.example.org/eurusd"}),
		// The web researcher sees the denial and says so.
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			last := req.Messages[len(req.Messages)-1]
			if !strings.Contains(last.Content, "denied") {
				return nil, fmt.Errorf("the denial must reach the model, got %q", last.Content)
			}
			return scripted.Text("FAILED: the person denied fetching the page."), nil
		}},
		// The replanner adapts: use a fixed rate the person gave.
		call(toolCreatePlan, steps("Use the rate 1.1 the person allows")),
		call(tree.NameCodeAgent, map[string]string{"request": "use 1.1"}),
		call("python", map[string]string{"code": "print(100 * 1.1)"}),
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "110"}),
		text("# Converted\n\n110 [step 2]."),
	}
	script := scripted.New(replies...)
	// With a search provider, the executor is offered the web researcher.
	first, second, root := twoSiftsWith(t, script, func(cfg *Config) { cfg.Search = noSearch{} })
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "convert 100 EUR to USD"}))
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptApproval {
		t.Fatalf("want the run to wait for an approval, got %+v (err %v)", done.Interrupt, done.Err)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	deny, err := AnswerFor(event.InterruptApproval, nil, false, "", "no web access for this data")
	if err != nil {
		t.Fatal(err)
	}
	evs = drain(t, second.Resume(context.Background(), id, map[string]any{done.Interrupt.ID: deny}))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if len(done.Plan.Steps) != 2 || done.Plan.Steps[0].Status != plans.StatusFailed || done.Plan.Steps[1].Status != plans.StatusDone {
		t.Errorf("want the denied step failed and the revised one done: %+v", done.Plan.Steps)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
}

// TestInterruptResumeOnEveryStore answers a plan review from a new process
// with the checkpoint and registry in each backend: the file store, SQLite
// and a real Redis server (skipped where redis-server is not installed).
func TestInterruptResumeOnEveryStore(t *testing.T) {
	var redisAddr string
	backends := map[string]func(t *testing.T, root string) *session.Backend{
		"file": func(t *testing.T, root string) *session.Backend {
			b, err := session.OpenFileBackend(root)
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
		"sqlite": func(t *testing.T, root string) *session.Backend {
			b, err := session.OpenBackend(context.Background(), "sqlite:"+filepath.Join(root, "sift.db"))
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
		"redis": func(t *testing.T, root string) *session.Backend {
			if redisAddr == "" {
				redisAddr = sessiontest.StartRedis(t, t)
			}
			b, err := session.OpenBackend(context.Background(), "redis://"+redisAddr+"/0")
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
	}
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			redisAddr = "" // one server per subtest, shared by its two "processes"
			py := pythonOrSkip(t)
			root := t.TempDir()
			script := scripted.New(append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7"))}, oneStep("print(6*7)")...),
				call(toolSubmitResult, map[string]any{"answer": "42"}), text("# 42"))...)
			srv := scripted.NewServer(script)
			t.Cleanup(srv.Close)
			mk := func() *Sift {
				m, err := llm.New(context.Background(), llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "scripted"})
				if err != nil {
					t.Fatal(err)
				}
				store := open(t, root)
				t.Cleanup(func() { _ = store.Close() })
				s, err := New(Config{Models: Models{Default: m}, SessionsRoot: root, Python: py, Store: store})
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			evs := drain(t, mk().Run(context.Background(), Request{Mode: ModePlan, Question: "6*7?", ReviewPlan: true}))
			done := evs[len(evs)-1]
			if done.Interrupt == nil {
				t.Fatalf("want a plan review, got err %v", done.Err)
			}
			id := filepath.Base(done.Path)
			evs = drain(t, mk().Resume(context.Background(), id, map[string]any{done.Interrupt.ID: &event.PlanDecision{Action: event.PlanApprove}}))
			if done = evs[len(evs)-1]; done.Err != nil || done.Plan.Steps[0].Status != plans.StatusDone {
				t.Fatalf("resume on %s: %v %+v", name, done.Err, done.Plan)
			}
			if script.Remaining() != 0 {
				t.Errorf("%d replies unused", script.Remaining())
			}
		})
	}
}

func TestFollowUpInTheSameSession(t *testing.T) {
	replies := []scripted.Reply{
		call(toolCreatePlan, steps("Compute x")),
		call("python", map[string]string{"code": "x = 20\nopen('out/x.csv', 'w').write('x\\n20\\n')\nprint(x)"}),
		echoToolResult("x is "),
		call(toolSubmitResult, map[string]any{"answer": "x is 20", "files": []string{"out/x.csv"}}),
		text("# x\n\n20 [step 1]."),
		// The follow-up: the planner sees the earlier answer; the new step
		// uses x from the kernel.
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			if !strings.Contains(req.Messages[0].Content, "A: x is 20") {
				return nil, fmt.Errorf("the planner must see the earlier answer")
			}
			return scripted.ToolCall(toolCreatePlan, `{"steps":[{"index":1,"description":"Add one to x"}]}`), nil
		}},
		call("python", map[string]string{"code": "print(x + 1)"}),
		echoToolResult("x+1 is "),
		call(toolSubmitResult, map[string]any{"answer": "21"}),
		text("# x+1\n\n21 [step 2]."),
	}
	script := scripted.New(replies...)
	first, second, root := twoSifts(t, script)
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "what is x?"}))
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	evs = drain(t, second.Run(context.Background(), Request{Mode: ModePlan, SessionID: id, Question: "and x+1?"}))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("follow-up failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	if len(done.Plan.Steps) != 2 || done.Plan.Steps[1].Index != 2 || !strings.Contains(done.Plan.Steps[1].Summary, "21") {
		t.Errorf("want step 1 kept and step 2 = 21: %+v", done.Plan.Steps)
	}
	if len(done.Plan.Earlier) != 1 || done.Plan.Earlier[0].Question != "what is x?" {
		t.Errorf("earlier: %+v", done.Plan.Earlier)
	}
	cells, err := operator.ReadCells(done.Path)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range cells {
		if strings.HasPrefix(c.Code, "x = 20") && !c.Replayed {
			ran++
		}
	}
	if ran != 1 {
		t.Errorf("step 1's cell must not run again (only be replayed): ran %d times", ran)
	}
	if _, err := os.Stat(filepath.Join(done.Path, "out", "x.csv")); err != nil {
		t.Error(err)
	}
}
