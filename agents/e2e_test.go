package agents

import (
	"context"
	"encoding/json"
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
	"github.com/sift-agent/sift/tools/templates"
)

// pythonOrSkip returns an interpreter with pandas and matplotlib, or skips.
func pythonOrSkip(t testing.TB) string {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	return py
}

// httpSift builds a Sift whose every model call goes through the real
// OpenAI-compatible client to a local server playing the script.
func httpSift(t testing.TB, script *scripted.Script, mutate func(*Config)) *Sift {
	t.Helper()
	srv := scripted.NewServer(script)
	t.Cleanup(srv.Close)
	m, err := llm.New(context.Background(), llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "test-key", Model: "scripted"},
		llm.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Models: Models{Default: m}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// salesCSV writes a small sales file whose totals the tests know:
// North 100+50=150, South 70, East 30.
func salesCSV(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sales.csv")
	data := "date,region,revenue\n2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func call(name string, args any) scripted.Reply {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return scripted.Reply{Message: scripted.ToolCall(name, string(b))}
}

func text(s string) scripted.Reply { return scripted.Reply{Message: scripted.Text(s)} }

// echoToolResult answers with the last tool result it was shown, as a code
// agent summarising what its code printed.
func echoToolResult(prefix string) scripted.Reply {
	return scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
		for i := len(req.Messages) - 1; i >= 0; i-- {
			if req.Messages[i].Role == schema.Tool {
				return scripted.Text(prefix + req.Messages[i].Content), nil
			}
		}
		return nil, fmt.Errorf("no tool result in the request")
	}}
}

func steps(descs ...string) map[string]any {
	var s []map[string]any
	for i, d := range descs {
		s = append(s, map[string]any{"index": i + 1, "description": d})
	}
	return map[string]any{"steps": s}
}

const (
	stepLoad   = "Load input/sales.csv and save work/sales.pkl"
	stepRegion = "Total revenue by region to out/by_region.csv with a bar chart out/by_region.png"
	stepMonth  = "Total revenue by month to out/by_month.csv"
)

const (
	codeLoad   = "import pandas as pd\ndf = pd.read_csv('input/sales.csv', parse_dates=['date'])\ndf.to_pickle('work/sales.pkl')\nprint(len(df), 'rows')"
	codeRegion = "import pandas as pd\nimport matplotlib.pyplot as plt\ndf = pd.read_pickle('work/sales.pkl')\ns = df.groupby('region')['revenue'].sum().sort_values(ascending=False)\ns.to_csv('out/by_region.csv')\ns.plot(kind='bar')\nplt.savefig('out/by_region.png')\nprint(s.to_string())"
	codeMonth  = "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\nm = df.groupby(df.date.dt.strftime('%Y-%m'))['revenue'].sum()\nm.to_csv('out/by_month.csv')\nprint(m.to_string())"
)

// threeStepScript is a whole run: plan, three steps each through the code
// agent, replans, submit, report. Steps go straight to the code agent; with
// executor, the executor delegates each (a run with a search provider).
func threeStepScript(executor bool) []scripted.Reply {
	all := []string{stepLoad, stepRegion, stepMonth}
	codes := []string{codeLoad, codeRegion, codeMonth}
	replies := []scripted.Reply{call(toolCreatePlan, steps(all...))}
	for i := range all {
		if executor {
			replies = append(replies, call(tree.NameCodeAgent, map[string]string{"request": all[i]}))
		}
		replies = append(replies,
			call("python", map[string]string{"code": codes[i]}),
			echoToolResult("Done. Output:\n"),
		)
		if i < len(all)-1 {
			replies = append(replies, call(toolCreatePlan, steps(all[i+1:]...)))
		}
	}
	return append(replies,
		call(toolSubmitResult, map[string]any{"answer": "North has the highest revenue (150).", "findings": []string{"North 150, South 70, East 30"}, "files": []string{"out/by_region.csv"}}),
		text("# Revenue report\n\nNorth leads with 150 [step 2].\n\n![Revenue by region](out/by_region.png)\n"),
	)
}

func collect(t testing.TB, s *Sift, req Request) []event.Event {
	t.Helper()
	var evs []event.Event
	for e := range s.Run(context.Background(), req) {
		evs = append(evs, e)
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != event.Done {
		t.Fatalf("the last event must be done; got %d events", len(evs))
	}
	return evs
}

func kinds(evs []event.Event, want ...event.Kind) []event.Event {
	var out []event.Event
	for _, e := range evs {
		for _, k := range want {
			if e.Kind == k {
				out = append(out, e)
			}
		}
	}
	return out
}

func readWS(t testing.TB, done event.Event, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(done.Path, rel))
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	return string(b)
}

func TestThreeStepAnalysisThroughHTTP(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d scripted replies unused", script.Remaining())
	}
	if got := script.Calls(); got != 11 {
		t.Errorf("model calls = %d, want 11 (the plan, 3 steps of 2 code agent calls and a replan each, the report)", got)
	}
	var order []string
	for _, e := range kinds(evs, event.StepStarted, event.StepFinished) {
		order = append(order, fmt.Sprintf("%s %d %s", e.Kind, e.Step.Index, e.Step.Status))
	}
	want := []string{"step_started 1 doing", "step_finished 1 done", "step_started 2 doing", "step_finished 2 done", "step_started 3 doing", "step_finished 3 done"}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Errorf("step events:\n got %v\nwant %v", order, want)
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,150") || !strings.Contains(got, "South,70") {
		t.Errorf("out/by_region.csv has wrong totals:\n%s", got)
	}
	plan := readWS(t, done, "plan.md")
	for _, w := range []string{"[x] **1.", "[x] **2.", "[x] **3.", "out/by_region.png", "North has the highest revenue"} {
		if !strings.Contains(plan, w) {
			t.Errorf("plan.md lacks %q:\n%s", w, plan)
		}
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "out/by_region.png") || !strings.Contains(r, "out/by_month.csv") {
		t.Errorf("report.md must embed the chart and list every artifact:\n%s", r)
	}
	if h := readWS(t, done, "report.html"); !strings.Contains(h, "data:image/png;base64,") {
		t.Error("report.html must inline the chart")
	}
	if arts := kinds(evs, event.Artifact); len(arts) < 3 {
		t.Errorf("artifact events = %d, want at least 3", len(arts))
	}
	if u := done.Usage; u == nil || u.Calls != 11 || u.PromptTokens == 0 {
		t.Errorf("usage = %+v, want 11 calls with prompt tokens", u)
	}
	logged, err := os.ReadFile(filepath.Join(done.Path, "events.jsonl"))
	if err != nil || !strings.Contains(string(logged), `"kind":"done"`) {
		t.Errorf("events.jsonl must end with the done event: %v", err)
	}
}

func TestFailingStepIsReplannedAndRunSucceeds(t *testing.T) {
	bad := "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nprint(df['Region'].sum())"
	script := scripted.New(
		call(toolCreatePlan, steps("Sum revenue by Region")),
		call("python", map[string]string{"code": bad}),
		text("FAILED: there is no column 'Region'; the columns are date, region, revenue."),
		call(toolCreatePlan, steps("Sum revenue by region (lower-case column)")),
		call("python", map[string]string{"code": "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nprint(df.groupby('region')['revenue'].sum().to_string())"}),
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "North: 150"}),
		text("# Report\n\nNorth: 150 [step 2]."),
	)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Revenue by region?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	fin := kinds(evs, event.StepFinished)
	if len(fin) != 2 || fin[0].Step.Status != plans.StatusFailed || fin[1].Step.Status != plans.StatusDone {
		t.Fatalf("want step 1 failed then step 2 done, got %+v", fin)
	}
	var pyErr bool
	for _, e := range kinds(evs, event.ToolResult) {
		if e.Tool == "python" && strings.Contains(e.Text, "KeyError") {
			pyErr = true
		}
	}
	if !pyErr {
		t.Error("the failing cell's KeyError must reach the events")
	}
	plan := readWS(t, done, "plan.md")
	if !strings.Contains(plan, "[!] **1.") || !strings.Contains(plan, "[x] **2.") || !strings.Contains(plan, "revised") {
		t.Errorf("plan.md must show the failed step, the revision and the done step:\n%s", plan)
	}
}

func TestRecoveriesThroughHTTP(t *testing.T) {
	tests := []struct {
		name    string
		replies []scripted.Reply
		check   func(t *testing.T, evs []event.Event, script *scripted.Script)
	}{
		{
			name: "malformed tool arguments are repaired",
			replies: []scripted.Reply{
				call(toolCreatePlan, steps("Print 2+3")),
				{Message: scripted.ToolCall("python", `{"code": "print(2+3)",}`)},
				echoToolResult(""),
			},
			check: func(t *testing.T, evs []event.Event, script *scripted.Script) {
				if !toolResultContains(evs, "python", "5") {
					t.Error("the repaired call must run and print 5")
				}
			},
		},
		{
			name: "an unknown tool is answered with a hint",
			replies: []scripted.Reply{
				call(toolCreatePlan, steps("Print 2+3")),
				{Message: scripted.ToolCall("pyhton", `{"code":"print(2+3)"}`), Unoffered: true},
				call("python", map[string]string{"code": "print(2+3)"}),
				echoToolResult(""),
			},
			check: func(t *testing.T, evs []event.Event, script *scripted.Script) {
				// The hint reaches the model as the unknown call's tool result.
				var hinted bool
				for _, req := range script.Requests() {
					for _, m := range req.Messages {
						if m.Role == schema.Tool && strings.Contains(m.Content, "pyhton") && strings.Contains(m.Content, "python") {
							hinted = true
						}
					}
				}
				if !hinted {
					t.Error("the reply to an unknown tool must name the nearest real one")
				}
			},
		},
		{
			name: "a plan sent as plain JSON text is recovered",
			replies: []scripted.Reply{
				text("Here is the plan:\n```json\n{\"steps\":[{\"index\":1,\"description\":\"Print 2+3\"}]}\n```"),
				call("python", map[string]string{"code": "print(2+3)"}),
				echoToolResult(""),
			},
			check: func(t *testing.T, evs []event.Event, script *scripted.Script) {
				if p := kinds(evs, event.Plan); len(p) == 0 || p[0].Plan.Steps[0].Description != "Print 2+3" {
					t.Errorf("the plan must be recovered from the text, got %+v", p)
				}
			},
		},
		{
			name: "a 429 is retried",
			replies: []scripted.Reply{
				{Status: 429, RetryAfter: "1"},
				call(toolCreatePlan, steps("Print 2+3")),
				call("python", map[string]string{"code": "print(2+3)"}),
				echoToolResult(""),
			},
			check: func(t *testing.T, evs []event.Event, script *scripted.Script) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replies := append(tt.replies,
				call(toolSubmitResult, map[string]any{"answer": "5"}),
				text("# Report\n\n5 [step 1]."))
			script := scripted.New(replies...)
			s := httpSift(t, script, nil)
			evs := collect(t, s, Request{Question: "What is 2+3?"})
			if done := evs[len(evs)-1]; done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			if script.Remaining() != 0 {
				t.Errorf("%d replies unused", script.Remaining())
			}
			tt.check(t, evs, script)
		})
	}
}

func toolResultContains(evs []event.Event, tool, substr string) bool {
	for _, e := range kinds(evs, event.ToolResult) {
		if e.Tool == tool && strings.Contains(e.Text, substr) {
			return true
		}
	}
	return false
}

func TestStreamingRunEmitsDeltas(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, func(c *Config) { c.Stream = true })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	var deltas int
	var text strings.Builder
	for _, e := range kinds(evs, event.Message) {
		if e.Delta {
			deltas++
			text.WriteString(e.Text)
		}
	}
	if deltas < 2 || !strings.Contains(text.String(), "North") {
		t.Errorf("want streamed text deltas holding the answer, got %d: %q", deltas, text.String())
	}
	if fin := kinds(evs, event.StepFinished); len(fin) != 3 || fin[2].Step.Status != plans.StatusDone {
		t.Errorf("want three finished steps, got %d", len(fin))
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,150") {
		t.Errorf("out/by_region.csv:\n%s", got)
	}
}

func TestInterruptedRunKeepsFinishedWork(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	replies := threeStepScript(false)
	// The first replan (reply 5) is where the person presses Ctrl-C.
	plan := replies[4]
	replies[4] = scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
		cancel()
		return plan.Message, nil
	}}
	s := httpSift(t, scripted.New(replies...), nil)
	var evs []event.Event
	for e := range s.Run(ctx, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}}) {
		evs = append(evs, e)
	}
	done := evs[len(evs)-1]
	if done.Kind != event.Done || !errors.Is(done.Err, context.Canceled) || !errors.Is(done.Err, ErrRunFailed) {
		t.Fatalf("want a done event with an interruption error, got %v: %v", done.Kind, done.Err)
	}
	if !strings.HasPrefix(strings.TrimPrefix(done.Err.Error(), ErrRunFailed.Error()+": "), "interrupted") {
		t.Errorf("the error must say the run was interrupted, got %q", done.Err)
	}
	plan1 := readWS(t, done, "plan.md")
	if !strings.Contains(plan1, "[x] **1.") || strings.Contains(plan1, "— skipped") || !strings.Contains(plan1, "— todo") {
		t.Errorf("plan.md must keep step 1 done and the rest to do:\n%s", plan1)
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "was stopped") || !strings.Contains(r, "sift resume") || !strings.Contains(r, "rows") {
		t.Errorf("report.md must say the run stopped, how to go on, and hold step 1's result:\n%s", r)
	}
	if meta, err := s.Session(context.Background(), filepath.Base(done.Path)); err != nil || meta.Status != session.StatusPaused {
		t.Errorf("a stopped run stays resumable (paused): %+v %v", meta, err)
	}
	if _, err := os.Stat(filepath.Join(done.Path, "work", "sales.pkl")); err != nil {
		t.Errorf("step 1's file must survive: %v", err)
	}
}

func TestModelAuthFailureEndsRunWithTypedError(t *testing.T) {
	script := scripted.New(call(toolCreatePlan, steps("Print 2+3")), scripted.Reply{Status: 401})
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Question: "What is 2+3?"})
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, llm.ErrAuth) || !errors.Is(done.Err, ErrRunFailed) {
		t.Fatalf("want ErrAuth inside ErrRunFailed, got %v", done.Err)
	}
	var me *ModelError
	if !errors.As(done.Err, &me) || me.Agent != "code" {
		t.Errorf("the error must name the agent whose call failed, got %v", done.Err)
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "stopped early") {
		t.Errorf("a report must still be written:\n%s", r)
	}
}

func TestQuickPath(t *testing.T) {
	python := call("python", map[string]string{"code": "import pandas as pd\nprint(pd.read_csv('input/sales.csv')['revenue'].sum())"})
	tests := []struct {
		name     string
		mode     Mode
		replies  []scripted.Reply
		calls    int
		perAgent map[string]int
	}{
		{
			name: "auto takes it when the planner rates the request trivial",
			mode: ModeAuto,
			replies: []scripted.Reply{
				call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": "Sum the revenue column"}}, "complexity": "trivial"}),
				python, echoToolResult("Total revenue: "), text("# Total revenue\n\n250 [step 1]."),
			},
			calls:    4,
			perAgent: map[string]int{"planner": 1, "code": 2, "report": 1},
		},
		{
			name:     "quick mode skips the planner",
			mode:     ModeQuick,
			replies:  []scripted.Reply{python, echoToolResult("Total revenue: "), text("# Total revenue\n\n250 [step 1].")},
			calls:    3,
			perAgent: map[string]int{"code": 2, "report": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := scripted.New(tt.replies...)
			s := httpSift(t, script, nil)
			evs := collect(t, s, Request{Mode: tt.mode, Question: "What is the total revenue?", Files: []string{salesCSV(t)}})
			done := evs[len(evs)-1]
			if done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			if done.Usage.Calls != tt.calls {
				t.Errorf("model calls = %d, want %d", done.Usage.Calls, tt.calls)
			}
			got := map[string]int{}
			for a, u := range done.Usage.PerAgent {
				got[a] = u.Calls
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.perAgent) {
				t.Errorf("calls per agent = %v, want %v", got, tt.perAgent)
			}
			if done.Plan.Result == nil || !strings.Contains(done.Plan.Result.Answer, "250") {
				t.Errorf("the result must be the code agent's answer, got %+v", done.Plan.Result)
			}
			if plan := readWS(t, done, "plan.md"); !strings.Contains(plan, "[x] **1.") {
				t.Errorf("plan.md:\n%s", plan)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": ModeAuto, "AUTO": ModeAuto, "quick": ModeQuick, " plan ": ModePlan} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMode("fast"); err == nil {
		t.Error("an unknown mode must be refused")
	}
}

func TestBudgetsStopAtASafePointWithAPartialReport(t *testing.T) {
	tests := []struct {
		name   string
		budget Budget
		// steps done before the stop
		done int
	}{
		{"max steps", Budget{MaxSteps: 1}, 1},
		{"max model calls", Budget{MaxModelCalls: 4}, 1},
		{"max tokens", Budget{MaxTokens: 1}, 0},
		{"max time", Budget{MaxTime: time.Nanosecond}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := scripted.New(threeStepScript(false)...)
			s := httpSift(t, script, nil)
			evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Budget: tt.budget})
			done := evs[len(evs)-1]
			if !errors.Is(done.Err, ErrBudgetExceeded) {
				t.Fatalf("want ErrBudgetExceeded, got %v", done.Err)
			}
			var finished, skipped int
			for _, st := range done.Plan.Steps {
				switch st.Status {
				case plans.StatusDone:
					finished++
				case plans.StatusSkipped:
					skipped++
					if !strings.Contains(st.Summary, "budget") {
						t.Errorf("a skipped step must say why: %q", st.Summary)
					}
				}
			}
			if finished != tt.done || skipped != 3-tt.done {
				t.Errorf("done %d skipped %d, want %d and %d", finished, skipped, tt.done, 3-tt.done)
			}
			r := readWS(t, done, "report.md")
			if !strings.Contains(r, "budget") || !strings.Contains(r, "skipped") {
				t.Errorf("the report must say the budget stopped the run and what is missing:\n%s", r)
			}
			if len(kinds(evs, event.Report)) != 1 {
				t.Error("a report event must be emitted")
			}
		})
	}
}

func TestTemplateRoute(t *testing.T) {
	py := pythonOrSkip(t)
	offline := func(t *testing.T) *Sift { return offlineSift(t, py) }
	t.Run("without a model a matching request runs the built-in analysis", func(t *testing.T) {
		evs := collect(t, offline(t), Request{Question: "Top 3 regions by revenue", Files: []string{salesCSV(t)}})
		done := evs[len(evs)-1]
		if done.Err != nil {
			t.Fatalf("run failed: %v", done.Err)
		}
		if done.Usage.Calls != 0 {
			t.Errorf("a built-in analysis must not call a model, got %d calls", done.Usage.Calls)
		}
		r := readWS(t, done, "report.md")
		for _, w := range []string{"North", "150", "no language model was called", ".png)"} {
			if !strings.Contains(r, w) {
				t.Errorf("report.md lacks %q:\n%s", w, r)
			}
		}
		if h := readWS(t, done, "report.html"); !strings.Contains(h, "data:image/png;base64,") {
			t.Error("report.html must inline the chart")
		}
		if p := readWS(t, done, "plan.md"); !strings.Contains(p, "[x] **1. Built-in analysis \"topn\"") {
			t.Errorf("plan.md:\n%s", p)
		}
	})
	t.Run("without a model anything else says what works offline", func(t *testing.T) {
		evs := collect(t, offline(t), Request{Question: "Why did North grow, and what should we do next?", Files: []string{salesCSV(t)}})
		done := evs[len(evs)-1]
		// Both: the CLI exits as for a missing model, and the server
		// counts it as not understood.
		if !errors.Is(done.Err, ErrNoModel) || !errors.Is(done.Err, ErrNoTemplateMatch) {
			t.Fatalf("want ErrNoModel and ErrNoTemplateMatch, got %v", done.Err)
		}
		for _, w := range []string{"profile", "trend", "SIFT_MODEL"} {
			if !strings.Contains(done.Err.Error(), w) {
				t.Errorf("the error must mention %q: %v", w, done.Err)
			}
		}
	})
	t.Run("without a model an unreadable input is named with its reason", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.xlsx")
		if err := os.WriteFile(bad, []byte("PK\x03\x04 not a workbook"), 0o644); err != nil {
			t.Fatal(err)
		}
		evs := collect(t, offline(t), Request{Question: "profile this data", Files: []string{bad}})
		done := evs[len(evs)-1]
		if !errors.Is(done.Err, ErrNoModel) || !strings.Contains(done.Err.Error(), "bad.xlsx could not be read") || !strings.Contains(done.Err.Error(), "corrupt") {
			t.Fatalf("the error must say the workbook could not be read and why: %v", done.Err)
		}
	})
	t.Run("template mode refuses a request no template matches", func(t *testing.T) {
		evs := collect(t, offline(t), Request{Mode: ModeTemplate, Question: "Write a poem about sales", Files: []string{salesCSV(t)}})
		if done := evs[len(evs)-1]; !errors.Is(done.Err, ErrNoTemplateMatch) {
			t.Fatalf("want ErrNoTemplateMatch, got %v", done.Err)
		}
	})
	t.Run("with a model auto mode still takes the template", func(t *testing.T) {
		script := scripted.New(text("must not be called"))
		s := httpSift(t, script, nil)
		evs := collect(t, s, Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}})
		if done := evs[len(evs)-1]; done.Err != nil || done.Usage.Calls != 0 || script.Calls() != 0 {
			t.Fatalf("want a template run with no model call, got err=%v calls=%d", done.Err, script.Calls())
		}
	})
}

// offlineSift is a Sift with no model: it runs only built-in analyses.
func offlineSift(t *testing.T, py string) *Sift {
	t.Helper()
	s, err := New(Config{SessionsRoot: t.TempDir(), Python: py})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRequestTemplate runs the built-in analysis the request names, with no
// model, even when the question alone would match another or none.
func TestRequestTemplate(t *testing.T) {
	py := pythonOrSkip(t)
	offline := func(t *testing.T) *Sift { return offlineSift(t, py) }
	t.Run("the named analysis runs", func(t *testing.T) {
		evs := collect(t, offline(t), Request{Template: "topn", Question: "revenue by region", Files: []string{salesCSV(t)}})
		done := evs[len(evs)-1]
		if done.Err != nil {
			t.Fatalf("run failed: %v", done.Err)
		}
		report := readWS(t, done, "report.md")
		// North 150, South 70, East 30: the top group is North.
		if !strings.Contains(report, "Top N") || !strings.Contains(report, "North") || !strings.Contains(report, "150") {
			t.Fatalf("want the top-N report with North at 150, got:\n%s", report)
		}
	})
	t.Run("the question defaults to the analysis's title", func(t *testing.T) {
		evs := collect(t, offline(t), Request{Template: "profile", Files: []string{salesCSV(t)}})
		if done := evs[len(evs)-1]; done.Err != nil {
			t.Fatalf("run failed: %v", done.Err)
		}
	})
	t.Run("an unknown name is refused with the known ones", func(t *testing.T) {
		evs := collect(t, offline(t), Request{Template: "horoscope", Files: []string{salesCSV(t)}})
		done := evs[len(evs)-1]
		if !errors.Is(done.Err, templates.ErrUnknownTemplate) || !strings.Contains(done.Err.Error(), "profile") {
			t.Fatalf("want ErrUnknownTemplate listing the names, got %v", done.Err)
		}
	})
	t.Run("no table among the files is refused", func(t *testing.T) {
		txt := filepath.Join(t.TempDir(), "notes.txt")
		if err := os.WriteFile(txt, []byte("just prose\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		evs := collect(t, offline(t), Request{Template: "trend", Files: []string{txt}})
		if done := evs[len(evs)-1]; !errors.Is(done.Err, ErrNoTemplateMatch) || !strings.Contains(done.Err.Error(), "needs a table") {
			t.Fatalf("want ErrNoTemplateMatch saying a table is needed, got %v", done.Err)
		}
	})
}

// A cell that fails right after the kernel was restarted starts its reply
// with the restart's note, not with "Error": the step must still fail.
func TestFailingCellAfterAKernelRestartFailsTheStep(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Print the total")),
		call("python", map[string]string{"code": "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"}),
		call("python", map[string]string{"code": "print(total_that_was_never_defined)"}),
		text("The total is 250."),
		call(toolCreatePlan, steps("Print the total again")),
		call("python", map[string]string{"code": "print(250)"}),
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "250"}),
		text("# Report\n\nTotal: 250 [step 2]."),
	)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Total?", Files: []string{salesCSV(t)}})
	var noted bool
	for _, e := range kinds(evs, event.ToolResult) {
		if e.Tool == "python" && strings.HasPrefix(e.Text, "Note: ") && strings.Contains(e.Text, "NameError") {
			noted = true
		}
	}
	if !noted {
		t.Fatal("the test needs a failing cell whose reply starts with the restart's note")
	}
	fin := kinds(evs, event.StepFinished)
	if len(fin) == 0 || fin[0].Step.Status != plans.StatusFailed {
		t.Fatalf("a step whose last cell failed after a restart must fail, got %+v", fin)
	}
}
