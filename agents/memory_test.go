package agents

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/memory"
)

// memorySift is a Sift over root whose every role is the script under
// the model name given (names decide the answer cache's settings).
func memorySift(t *testing.T, script *scripted.Script, root, name string) *Sift {
	t.Helper()
	s, err := New(Config{Models: Models{Default: script.Model(), Names: map[string]string{"default": name}}, SessionsRoot: root, Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// computed is the scripted work of one question answered by the agents:
// 5 model calls (planner, code agent twice, replanner, report writer).
func computed(answer string) []scripted.Reply {
	return append(append([]scripted.Reply{call(toolCreatePlan, steps("Sum the revenue"))}, oneStep("print("+answer+")")...),
		call(toolSubmitResult, map[string]any{"answer": answer}), text("# Revenue\n\n"+answer+" [step 1]."))
}

// entriesOf are the entries of kind s remembers, newest first.
func entriesOf(s *Sift, kind memory.Kind) ([]memory.Entry, error) {
	all, err := s.Memory().List(context.Background())
	var out []memory.Entry
	for _, e := range all {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out, err
}

func messagesOf(evs []event.Event, agent string) []string {
	var out []string
	for _, e := range evs {
		if e.Kind == event.Message && e.Agent == agent {
			out = append(out, e.Text)
		}
	}
	return out
}

func TestAnswerCache(t *testing.T) {
	root := t.TempDir()
	csv := salesCSV(t)
	script := scripted.New()
	m1 := memorySift(t, script, root, "model-one")
	ask := func(s *Sift, req Request, replies []scripted.Reply) ([]event.Event, int) {
		t.Helper()
		script.Push(replies...)
		before := script.Calls()
		evs := drain(t, s.Run(context.Background(), req))
		if done := evs[len(evs)-1]; done.Err != nil || done.Interrupt != nil {
			t.Fatalf("run failed: %v %+v", done.Err, done.Interrupt)
		}
		if script.Remaining() != 0 {
			t.Fatalf("%d replies unused", script.Remaining())
		}
		return evs, script.Calls() - before
	}
	q := "What is the total revenue?"
	evs, calls := ask(m1, Request{Mode: ModePlan, Question: q, Files: []string{csv}}, computed("250"))
	first := evs[len(evs)-1].Session
	if calls != 5 {
		t.Fatalf("the first run made %d model calls, want 5", calls)
	}

	t.Run("hit", func(t *testing.T) {
		evs, calls := ask(m1, Request{Mode: ModePlan, Question: "  what is the TOTAL revenue ", Files: []string{csv}}, nil)
		if calls != 0 {
			t.Errorf("the repeated question made %d model calls, want 0", calls)
		}
		done := evs[len(evs)-1]
		if done.Session == first || done.Plan.Result == nil || done.Plan.Result.Answer != "250" {
			t.Errorf("the hit must answer in a session of its own with the earlier answer: %s %+v", done.Session, done.Plan.Result)
		}
		if said := strings.Join(messagesOf(evs, MemoryAgent), "\n"); !strings.Contains(said, "Answered from memory: session "+first) {
			t.Errorf("the output must say where the answer came from: %q", said)
		}
		reports := kinds(evs, event.Report)
		if len(reports) != 1 || !strings.Contains(reports[0].Text, "**Answered from memory**") || !strings.Contains(reports[0].Text, first) || !strings.Contains(reports[0].Text, "250 [step 1]") {
			t.Fatalf("the report must be the earlier one, headed by where it came from: %+v", reports)
		}
		md, err := os.ReadFile(filepath.Join(done.Path, "report.md"))
		if err != nil || !strings.Contains(string(md), "Answered from memory") {
			t.Errorf("report.md: %v %q", err, md)
		}
		if u := done.Usage; u == nil || u.Calls != 0 {
			t.Errorf("usage: %+v", u)
		}
	})
	t.Run("same content, other name", func(t *testing.T) {
		data, _ := os.ReadFile(csv)
		other := filepath.Join(t.TempDir(), "copy.csv")
		if err := os.WriteFile(other, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, calls := ask(m1, Request{Mode: ModePlan, Question: q, Files: []string{other}}, nil); calls != 0 {
			t.Errorf("%d model calls, want 0", calls)
		}
	})
	t.Run("fresh", func(t *testing.T) {
		if _, calls := ask(m1, Request{Mode: ModePlan, Question: q, Files: []string{csv}, Fresh: true}, computed("250")); calls == 0 {
			t.Error("--fresh must compute again")
		}
	})
	t.Run("one byte changed", func(t *testing.T) {
		data, _ := os.ReadFile(csv)
		changed := filepath.Join(t.TempDir(), "sales.csv")
		if err := os.WriteFile(changed, []byte(strings.Replace(string(data), "100", "101", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, calls := ask(m1, Request{Mode: ModePlan, Question: q, Files: []string{changed}}, computed("251")); calls == 0 {
			t.Error("a changed file must miss")
		}
	})
	t.Run("other model", func(t *testing.T) {
		m2 := memorySift(t, script, root, "model-two")
		if _, calls := ask(m2, Request{Mode: ModePlan, Question: q, Files: []string{csv}}, computed("250")); calls == 0 {
			t.Error("another model must miss")
		}
	})
	t.Run("other mode", func(t *testing.T) {
		// The quick path: the code agent answers, then the report.
		replies := append(oneStep("print(250)"), text("# Revenue\n\n250."))
		if _, calls := ask(m1, Request{Mode: ModeQuick, Question: q, Files: []string{csv}}, replies); calls == 0 {
			t.Error("another route must miss")
		}
	})
	t.Run("similar question is only suggested", func(t *testing.T) {
		evs, calls := ask(m1, Request{Mode: ModePlan, Question: "What is the total revenue in 2024?", Files: []string{csv}}, computed("250"))
		if calls == 0 {
			t.Error("a similar question must not be answered from memory")
		}
		said := strings.Join(messagesOf(evs, MemoryAgent), "\n")
		if !strings.Contains(said, "A similar question was answered on the same data in session") || !strings.Contains(said, q) {
			t.Errorf("the similar question must be suggested: %q", said)
		}
	})
	t.Run("memory off", func(t *testing.T) {
		s, err := New(Config{Models: Models{Default: script.Model(), Names: map[string]string{"default": "model-one"}}, SessionsRoot: root, Python: pythonOrSkip(t), CodeTimeout: time.Minute, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, calls := ask(s, Request{Mode: ModePlan, Question: q, Files: []string{csv}}, computed("250")); calls == 0 {
			t.Error("with memory off every question is computed")
		}
	})
}

func TestFactsFromThePerson(t *testing.T) {
	root := t.TempDir()
	csv := salesCSV(t)
	script := scripted.New()
	// Unnamed models: no answer cache, facts only.
	s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: root, Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	const question = "Do refunds count as negative revenue?"
	askIt := call("ask_user", map[string]any{"question": question})
	// plannerSaw records whether the planner was shown the fact.
	var plannerSaw []bool
	planner := scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
		plannerSaw = append(plannerSaw, strings.Contains(req.Messages[0].Content, "yes, as negative revenue"))
		return scripted.ToolCall(toolCreatePlan, `{"steps":[{"index":1,"description":"Sum the revenue net of refunds"}]}`), nil
	}}
	// goOn checks the answer reached the code agent, then finishes.
	goOn := func(want string) []scripted.Reply {
		return []scripted.Reply{
			{Func: func(req scripted.Request) (*schema.Message, error) {
				last := req.Messages[len(req.Messages)-1]
				if last.Role != schema.Tool || !strings.Contains(last.Content, want) {
					return scripted.Text("FAILED: the answer did not reach me: " + last.Content), nil
				}
				return scripted.ToolCall("python", `{"code": "print(250)"}`), nil
			}},
			echoToolResult("Result: "),
			call(toolSubmitResult, map[string]any{"answer": "250"}),
			text("# Revenue\n\n250 [step 1]."),
		}
	}
	run := func(req Request) event.Event {
		t.Helper()
		evs := drain(t, s.Run(context.Background(), req))
		return evs[len(evs)-1]
	}

	// Session 1 asks, and the person answers.
	script.Push(planner, askIt)
	done := run(Request{Mode: ModePlan, Question: "What is the net revenue?", Files: []string{csv}})
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion {
		t.Fatalf("session 1 must ask: %+v %v", done.Interrupt, done.Err)
	}
	script.Push(goOn("yes, as negative revenue")...)
	evs := drain(t, s.Resume(context.Background(), done.Session, map[string]any{done.Interrupt.ID: AnswerText("yes, as negative revenue")}))
	if d := evs[len(evs)-1]; d.Err != nil || d.Interrupt != nil {
		t.Fatalf("session 1 must finish: %v %+v", d.Err, d.Interrupt)
	}
	first := done.Session
	facts, err := entriesOf(s, memory.KindFact)
	if err != nil || len(facts) != 1 || facts[0].Kind != memory.KindFact || facts[0].Question != question || facts[0].Session != first {
		t.Fatalf("the answer must be remembered: %+v %v", facts, err)
	}

	// Session 2, on the same data under another name, does not ask.
	data, _ := os.ReadFile(csv)
	copyCSV := filepath.Join(t.TempDir(), "renamed.csv")
	if err := os.WriteFile(copyCSV, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script.Push(planner, askIt)
	script.Push(goOn("you said so on " + time.Now().UTC().Format(time.DateOnly) + " in session " + first)...)
	evs = drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "What is the revenue net of refunds?", Files: []string{copyCSV}}))
	done = evs[len(evs)-1]
	if done.Err != nil || done.Interrupt != nil {
		t.Fatalf("session 2 must not ask again: %v %+v", done.Err, done.Interrupt)
	}
	if st := done.Plan.Steps[0]; !strings.Contains(st.Summary, "250") {
		t.Errorf("session 2's step: %+v", st)
	}
	if said := strings.Join(messagesOf(evs, MemoryAgent), "\n"); !strings.Contains(said, "Sift remembers 1 fact") || !strings.Contains(said, question) {
		t.Errorf("the run must say what it remembers: %q", said)
	}
	// plan.md and the report say which fact was used, and when the
	// person said it.
	said := question + " **yes, as negative revenue** — you said so on " + time.Now().UTC().Format(time.DateOnly) + " (session " + first + ", memory entry " + facts[0].ID + "); the agents asked this again and were given your answer, so you were not asked."
	for _, name := range []string{"plan.md", "report.md"} {
		md, err := os.ReadFile(filepath.Join(done.Path, name))
		if err != nil || !strings.Contains(string(md), "## What Sift remembered\n\n- "+said+"\n") {
			t.Errorf("%s must say what Sift remembered (%v):\n%s", name, err, md)
		}
	}
	if got := done.Plan.Remembered; len(got) != 1 || !got[0].Answered || got[0].Session != first {
		t.Errorf("the plan's facts used: %+v", got)
	}
	// The session records its data, by which its facts are listed.
	if m, err := s.store.Sessions.Get(context.Background(), done.Session); err != nil || !slices.Equal(m.Sources, facts[0].Sources) {
		t.Errorf("the session's sources: %v %v, want %v", m.Sources, err, facts[0].Sources)
	}
	if got, err := s.SessionFacts(context.Background(), done.Session); err != nil || len(got) != 1 || got[0].ID != facts[0].ID {
		t.Errorf("SessionFacts = %+v %v", got, err)
	}

	// Session 3, on other data, asks.
	other := filepath.Join(t.TempDir(), "other.csv")
	if err := os.WriteFile(other, []byte("date,region,revenue\n2024-03-01,West,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script.Push(planner, askIt)
	done = run(Request{Mode: ModePlan, Question: "What is the net revenue?", Files: []string{other}})
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion {
		t.Fatalf("session 3, on other data, must ask: %+v %v", done.Interrupt, done.Err)
	}
	if want := []bool{false, true, false}; len(plannerSaw) != 3 || plannerSaw[0] != want[0] || plannerSaw[1] != want[1] || plannerSaw[2] != want[2] {
		t.Errorf("the planner saw the fact in sessions 1-3: %v, want %v", plannerSaw, want)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
}

func TestPlanEditIsRemembered(t *testing.T) {
	root := t.TempDir()
	csv := salesCSV(t)
	script := scripted.New()
	s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: root, Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	script.Push(call(toolCreatePlan, steps("Sum the revenue")))
	evs := drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "net revenue", Files: []string{csv}, ReviewPlan: true}))
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptPlanReview {
		t.Fatalf("want a plan review: %+v %v", done.Interrupt, done.Err)
	}
	script.Push(computed("250")[1:]...)
	evs = drain(t, s.Resume(context.Background(), done.Session, map[string]any{done.Interrupt.ID: EditPlan("Sum the revenue, refunds as negative")}))
	if d := evs[len(evs)-1]; d.Err != nil || d.Interrupt != nil {
		t.Fatalf("the edited plan must run: %v %+v", d.Err, d.Interrupt)
	}
	es, err := entriesOf(s, memory.KindFact)
	if err != nil || len(es) != 1 || es[0].Origin != memory.OriginPlan || !strings.Contains(es[0].Answer, "refunds as negative") {
		t.Fatalf("the edit must be remembered: %+v %v", es, err)
	}
	// The next session on the same data shows it to the planner.
	script.Push(computed("250")...)
	drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "revenue by month", Files: []string{csv}}))
	reqs := script.Requests()
	if planner := reqs[len(reqs)-5]; !strings.Contains(planner.Messages[0].Content, `For "net revenue" the person changed the plan: the steps are Sum the revenue, refunds as negative`) {
		t.Errorf("the planner must be shown the edit:\n%s", planner.Messages[0].Content)
	}
}
