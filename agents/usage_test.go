package agents

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

func TestUsageSumsAgreeWithTheModelsReports(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	u := done.Usage
	var agents, steps event.AgentUsage
	for _, a := range u.PerAgent {
		agents.Calls += a.Calls
		agents.PromptTokens += a.PromptTokens
		agents.CompletionTokens += a.CompletionTokens
	}
	for _, st := range u.PerStep {
		steps.Calls += st.Calls
		steps.PromptTokens += st.PromptTokens
		steps.CompletionTokens += st.CompletionTokens
	}
	if agents != steps || agents.Calls != u.Calls || agents.PromptTokens != u.PromptTokens || agents.CompletionTokens != u.CompletionTokens {
		t.Errorf("per agent %+v, per step %+v, total %+v must agree", agents, steps, u.AgentUsage)
	}
	if u.Calls != script.Calls() {
		t.Errorf("metered %d calls, the model answered %d", u.Calls, script.Calls())
	}
	// Steps 1-3 each cost 2 code calls + the replan after them.
	for i := 1; i <= 3; i++ {
		if got := u.PerStep[i]; got == nil || got.Calls != 3 {
			t.Errorf("step %d: %+v, want 3 calls", i, got)
		}
	}
	// The trajectory recorded the same calls with the same usage the
	// provider reported.
	f, err := os.Open(filepath.Join(done.Path, "trajectory.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls, prompt int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Usage *struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		calls++
		if rec.Usage != nil {
			prompt += rec.Usage.PromptTokens
		}
	}
	if calls != u.Calls || prompt != u.PromptTokens {
		t.Errorf("trajectory: %d calls, %d prompt tokens; usage: %d, %d", calls, prompt, u.Calls, u.PromptTokens)
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "## Usage") || !strings.Contains(r, "11 model calls") {
		t.Errorf("the report must end with the usage summary:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(done.Path, "usage.json")); err != nil {
		t.Error(err)
	}
}

func TestMaxCostStopsTheRun(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, func(c *Config) {
		c.Models.Names = map[string]string{"default": "gpt-4o"}
		c.Prices = llm.PriceTable{"gpt-4o": {Input: 1e6, Output: 1e6}} // $1 a token
	})
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Budget: Budget{MaxCost: 1}})
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrBudgetExceeded) || !strings.Contains(done.Err.Error(), "--max-cost") {
		t.Fatalf("want the cost budget reached, got %v", done.Err)
	}
	if done.Usage.Cost <= 1 {
		t.Errorf("cost = %v", done.Usage.Cost)
	}
}

func TestRunExportsASpanTree(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(t.Context()) })

	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatal(done.Err)
	}
	spans := exp.GetSpans()
	byID := map[string]tracetest.SpanStub{}
	for _, sp := range spans {
		byID[sp.SpanContext.SpanID().String()] = sp
	}
	parentName := func(sp tracetest.SpanStub) string {
		return byID[sp.Parent.SpanID().String()].Name
	}
	var root, stepSpans, chats, pythons int
	for _, sp := range spans {
		switch {
		case sp.Name == "sift.run":
			root++
		case strings.HasPrefix(sp.Name, "invoke_agent step"):
			stepSpans++
			if parentName(sp) == "" {
				t.Errorf("%s has no parent", sp.Name)
			}
		case strings.HasPrefix(sp.Name, "chat"):
			chats++
			var hasTokens bool
			for _, kv := range sp.Attributes {
				if kv.Key == "gen_ai.usage.input_tokens" && kv.Value.AsInt64() > 0 {
					hasTokens = true
				}
			}
			if !hasTokens {
				t.Errorf("model span %s lacks token counts", sp.Name)
			}
		case strings.HasSuffix(sp.Name, "python"):
			pythons++
			// python runs inside the code agent, inside a step.
			p := byID[sp.Parent.SpanID().String()]
			for p.Name != "" && !strings.HasPrefix(p.Name, "invoke_agent step") {
				p = byID[p.Parent.SpanID().String()]
			}
			if p.Name == "" {
				t.Errorf("the python tool span must sit under its step's span")
			}
		}
	}
	if root != 1 || stepSpans != 3 || chats != 11 || pythons != 3 {
		names := []string{}
		for _, sp := range spans {
			names = append(names, sp.Name+" <- "+parentName(sp))
		}
		t.Errorf("root %d, steps %d, chats %d, python %d; spans:\n%s", root, stepSpans, chats, pythons, strings.Join(names, "\n"))
	}
}

// TestSessionUsageSumsEveryRun: a session of two questions, the second
// reviewed and resumed, is three runs; usage.json holds the last one's
// calls only, and SessionUsage all of them, split per question.
func TestSessionUsageSumsEveryRun(t *testing.T) {
	finish := append(oneStep("print(x + 1)"), call(toolSubmitResult, map[string]any{"answer": "21"}), text("# x+1\n\n21 [step 2]."))
	script := scripted.New(append(append(firstQuestion(), call(toolCreatePlan, steps("Add one to x"))), finish...)...)
	first, second, root := twoSifts(t, script)
	id := askFirst(t, first, root)
	firstCalls := script.Calls()
	evs := drain(t, second.Run(context.Background(), Request{Mode: ModePlan, SessionID: id, Question: "and x+1?", ReviewPlan: true}))
	review := evs[len(evs)-1].Interrupt
	if review == nil {
		t.Fatal("want a plan review")
	}
	evs = drain(t, first.Resume(context.Background(), id, map[string]any{review.ID: &event.PlanDecision{Action: event.PlanApprove}}))
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	if done.Usage.Calls >= script.Calls() {
		t.Fatalf("the last run metered %d calls of %d: the test needs earlier runs", done.Usage.Calls, script.Calls())
	}
	u, err := SessionUsage(done.Path)
	if err != nil {
		t.Fatal(err)
	}
	if u.Calls != script.Calls() {
		t.Errorf("SessionUsage counts %d calls; the model answered %d over the session's runs", u.Calls, script.Calls())
	}
	var perAgent, perQuestion int
	for _, a := range u.PerAgent {
		perAgent += a.Calls
	}
	for _, q := range u.Questions {
		perQuestion += q.Calls
	}
	if len(u.Questions) != 2 || u.Questions[0].Question != 1 || u.Questions[0].Calls != firstCalls || u.Questions[1].Question != 2 {
		t.Errorf("questions = %+v, want questions 1 and 2, with %d calls in question 1", u.Questions, firstCalls)
	}
	if perAgent != u.Calls || perQuestion != u.Calls {
		t.Errorf("per agent %d, per question %d, total %d must agree", perAgent, perQuestion, u.Calls)
	}
}

// TestBuiltInStepsHaveSpans: a built-in analysis (no model) exports the
// run's span with one "invoke_agent step N" span per step below it, as an
// agent run does, so its trace shows what each step took.
func TestBuiltInStepsHaveSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(t.Context()) })

	s, err := New(Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, s, Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil || len(done.Plan.Steps) != 1 {
		t.Fatalf("the built-in run: err %v, plan %+v", done.Err, done.Plan)
	}
	run, step, tool := builtinSpans(t, exp.GetSpans())
	if step.Parent.SpanID() != run.SpanContext.SpanID() {
		t.Errorf("the step's span is not below the run's")
	}
	if tool.Parent.SpanID() != step.SpanContext.SpanID() {
		t.Errorf("the analysis's tool span is not below its step's")
	}
	for _, sp := range []tracetest.SpanStub{step, tool} {
		if got := spanAttrs(sp); got[llm.AttrAnalysis] != "trend" || got[llm.AttrTable] != "input/sales.csv" {
			t.Errorf("%s: analysis %q, table %q; want trend on input/sales.csv", sp.Name, got[llm.AttrAnalysis], got[llm.AttrTable])
		}
		if sp.Status.Code != codes.Unset {
			t.Errorf("%s of a step that succeeded has status %v", sp.Name, sp.Status)
		}
	}
}

// TestFailedBuiltInStepSpansAreErrors: a built-in analysis that fails (its
// engine cannot read a date that turns to text past the rows the reader
// sampled: a number column that does is now read as text) marks its
// step's and its tool's spans as errors, so the trace shows where a run
// without a model went wrong.
func TestFailedBuiltInStepSpansAreErrors(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(t.Context()) })

	var b strings.Builder
	b.WriteString("date,region,revenue\n")
	for i := range 30000 {
		fmt.Fprintf(&b, "2024-01-%02d,North,%d\n", i%28+1, i)
	}
	b.WriteString("sometime,North,5\n")
	csv := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, s, Request{Question: "monthly revenue trend", Files: []string{csv}})
	if done := evs[len(evs)-1]; done.Err == nil {
		t.Fatalf("the built-in run on an unreadable date succeeded: %+v", done.Plan)
	}
	_, step, tool := builtinSpans(t, exp.GetSpans())
	for _, sp := range []tracetest.SpanStub{step, tool} {
		if sp.Status.Code != codes.Error || sp.Status.Description == "" {
			t.Errorf("%s of a failed step: status %v, want an error saying why", sp.Name, sp.Status)
		}
	}
}

// builtinSpans returns a one-step built-in run's run, step and tool spans.
func builtinSpans(t *testing.T, spans tracetest.SpanStubs) (run, step, tool tracetest.SpanStub) {
	t.Helper()
	for _, sp := range spans {
		switch sp.Name {
		case "sift.run":
			run = sp
		case "invoke_agent step 1":
			step = sp
		case "execute_tool run_template":
			tool = sp
		}
	}
	if run.Name == "" || step.Name == "" || tool.Name == "" {
		t.Fatalf("spans %v; want sift.run, invoke_agent step 1 and execute_tool run_template", spanNames(spans))
	}
	return run, step, tool
}

func spanAttrs(sp tracetest.SpanStub) map[attribute.Key]string {
	out := map[attribute.Key]string{}
	for _, kv := range sp.Attributes {
		out[kv.Key] = kv.Value.Emit()
	}
	return out
}

func spanNames(spans tracetest.SpanStubs) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, sp.Name)
	}
	return out
}
