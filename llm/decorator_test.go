package llm

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/trajectory"
)

// runCall runs one Generate or Stream call and returns the whole reply and the
// number of chunks seen.
func runCall(t *testing.T, m model.ToolCallingChatModel, stream bool, opts ...model.Option) (*schema.Message, int) {
	t.Helper()
	in := []*schema.Message{schema.UserMessage("analyse sales.csv")}
	if !stream {
		msg, err := m.Generate(context.Background(), in, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return msg, 1
	}
	sr, err := m.Stream(context.Background(), in, opts...)
	if err != nil {
		t.Fatal(err)
	}
	chunks := collect(t, sr)
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		t.Fatal(err)
	}
	return msg, len(chunks)
}

func modes() map[string]bool { return map[string]bool{"generate": false, "stream": true} }

func TestWrapRepairsToolArguments(t *testing.T) {
	for mode, stream := range modes() {
		t.Run(mode, func(t *testing.T) {
			// The calls need not be to the offered tools: what is tested
			// is their repair.
			s := scripted.New(scripted.Reply{Unoffered: true, Message: &schema.Message{
				Role:    schema.Assistant,
				Content: "Running both.",
				ToolCalls: []schema.ToolCall{
					{ID: "a", Function: schema.FunctionCall{Name: "run_python", Arguments: `{'code': 'df.head()',}`}},
					{ID: "b", Function: schema.FunctionCall{Name: "sql_query", Arguments: `{"sql": "select 1"`}},
				},
			}})
			m, err := Wrap(s.Model(), AgentCode, nil).WithTools([]*schema.ToolInfo{planTool})
			if err != nil {
				t.Fatal(err)
			}
			msg, _ := runCall(t, m, stream)
			var got []string
			for _, tc := range msg.ToolCalls {
				got = append(got, tc.ID+" "+tc.Function.Name+" "+tc.Function.Arguments)
			}
			want := []string{`a run_python {"code": "df.head()"}`, `b sql_query {"sql": "select 1"}`}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tool calls mismatch (-want +got):\n%s", diff)
			}
			if msg.Content != "Running both." {
				t.Errorf("content = %q, want it kept", msg.Content)
			}
		})
	}
}

func TestWrapStreamKeepsTextLive(t *testing.T) {
	s := scripted.New(scripted.Reply{Unoffered: true, Message: &schema.Message{
		Role:      schema.Assistant,
		Content:   "Loading the file and then summarising it.",
		ToolCalls: []schema.ToolCall{{ID: "a", Function: schema.FunctionCall{Name: "run_python", Arguments: `{"code": "1+1",}`}}},
	}})
	m, err := Wrap(s.Model(), AgentExecutor, nil).WithTools([]*schema.ToolInfo{planTool})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := m.Stream(context.Background(), []*schema.Message{schema.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	chunks := collect(t, sr)
	if len(chunks) < 3 {
		t.Fatalf("got %d chunks, want the text in several chunks", len(chunks))
	}
	for i, c := range chunks[:len(chunks)-1] {
		if len(c.ToolCalls) > 0 {
			t.Errorf("chunk %d carries tool calls; they must come joined in the last chunk", i)
		}
	}
	last := chunks[len(chunks)-1]
	if len(last.ToolCalls) != 1 || last.ToolCalls[0].Function.Arguments != `{"code": "1+1"}` {
		t.Errorf("last chunk tool calls = %+v, want the repaired call", last.ToolCalls)
	}
}

func TestWrapRecoversForcedToolCallFromText(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		tools    []*schema.ToolInfo
		wantName string
		wantArgs string
	}{
		{"one tool, fenced", "Here is my plan:\n```json\n{\"steps\": [\"load\", \"chart\"]}\n```", []*schema.ToolInfo{planTool}, "create_plan", `{"steps":["load","chart"]}`},
		{"one tool, bare", `{"steps": ["load"]}`, []*schema.ToolInfo{planTool}, "create_plan", `{"steps":["load"]}`},
		{"two tools, fenced, picks the plan", "```json\n{\"steps\": [\"again\"]}\n```", []*schema.ToolInfo{planTool, respondTool}, "create_plan", `{"steps":["again"]}`},
		{"two tools, bare with prose, picks the result", `All done. {"response": "Sales rose 12%."}`, []*schema.ToolInfo{planTool, respondTool}, "submit_result", `{"response":"Sales rose 12%."}`},
	}
	for _, tt := range tests {
		for mode, stream := range modes() {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				s := scripted.New(scripted.Reply{Message: scripted.Text(tt.content)})
				m, err := Wrap(s.Model(), AgentPlanner, nil).WithTools(tt.tools)
				if err != nil {
					t.Fatal(err)
				}
				msg, _ := runCall(t, m, stream, model.WithToolChoice(schema.ToolChoiceForced))
				if len(msg.ToolCalls) != 1 {
					t.Fatalf("tool calls = %+v, want one recovered from %q", msg.ToolCalls, tt.content)
				}
				tc := msg.ToolCalls[0]
				if tc.Function.Name != tt.wantName || tc.Function.Arguments != tt.wantArgs || !strings.HasPrefix(tc.ID, "call_recovered_") {
					t.Errorf("tool call = %s %s(%s), want call_recovered_* %s(%s)", tc.ID, tc.Function.Name, tc.Function.Arguments, tt.wantName, tt.wantArgs)
				}
				if msg.Content != "" || msg.Role != schema.Assistant {
					t.Errorf("message = %s %q, want an assistant message without the JSON text", msg.Role, msg.Content)
				}
				if got := s.Requests()[0].Tools; len(got) != len(tt.tools) {
					t.Errorf("inner model saw %d tools, want %d", len(got), len(tt.tools))
				}
			})
		}
	}
}

func TestWrapLeavesTextAlone(t *testing.T) {
	const text = `The answer is {"total": 42}.`
	tests := []struct {
		name  string
		tools []*schema.ToolInfo
		opts  []model.Option
	}{
		{"tool not forced", []*schema.ToolInfo{planTool}, nil},
		{"forced but no tools known", nil, []model.Option{model.WithToolChoice(schema.ToolChoiceForced)}},
		{"forced, two tools, no key matches", []*schema.ToolInfo{planTool, respondTool}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced)}},
		{"forced, allowed names exclude the only match", []*schema.ToolInfo{planTool}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced, "other")}},
	}
	for _, tt := range tests {
		for mode, stream := range modes() {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				s := scripted.New(scripted.Reply{Message: scripted.Text(text)})
				var m model.ToolCallingChatModel = Wrap(s.Model(), AgentExecutor, nil)
				if tt.tools != nil {
					var err error
					if m, err = m.WithTools(tt.tools); err != nil {
						t.Fatal(err)
					}
				}
				msg, _ := runCall(t, m, stream, tt.opts...)
				if msg.Content != text || len(msg.ToolCalls) != 0 {
					t.Errorf("reply = %q with %d tool calls, want the text unchanged", msg.Content, len(msg.ToolCalls))
				}
			})
		}
	}
}

func TestWrapUsesPerCallTools(t *testing.T) {
	s := scripted.New(scripted.Reply{Message: scripted.Text(`{"response": "ok"}`)})
	m := Wrap(s.Model(), AgentExecutor, nil)
	msg, _ := runCall(t, m, false, model.WithTools([]*schema.ToolInfo{respondTool}), model.WithToolChoice(schema.ToolChoiceForced))
	if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Name != "submit_result" {
		t.Errorf("tool calls = %+v, want submit_result recovered", msg.ToolCalls)
	}
}

func TestWrapMetersCallsAndErrors(t *testing.T) {
	boom := errors.New("boom")
	s := scripted.New(
		scripted.Reply{Message: &schema.Message{Role: schema.Assistant, Content: "x",
			ResponseMeta: &schema.ResponseMeta{Usage: &schema.TokenUsage{PromptTokens: 100, CompletionTokens: 7}}}},
		scripted.Reply{Err: boom},
		scripted.Reply{Message: &schema.Message{Role: schema.Assistant, Content: "streamed",
			ResponseMeta: &schema.ResponseMeta{Usage: &schema.TokenUsage{PromptTokens: 50, CompletionTokens: 3}}}},
		scripted.Reply{Err: boom},
	)
	var meter Meter
	m := Wrap(s.Model(), AgentCode, &meter)
	ctx := context.Background()
	if _, err := m.Generate(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(ctx, nil); !errors.Is(err, boom) || !strings.Contains(err.Error(), AgentCode) {
		t.Fatalf("error = %v, want boom, naming the agent", err)
	}
	sr, err := m.Stream(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)
	if _, err := m.Stream(ctx, nil); !errors.Is(err, boom) {
		t.Fatalf("error = %v, want boom", err)
	}
	got := meter.Snapshot()[AgentCode]
	got.Latency = 0
	want := Counts{Calls: 4, Errors: 2, PromptTokens: 150, CompletionTokens: 10}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}
}

func TestWrapDelegatesCallbacksAndType(t *testing.T) {
	s := scripted.New()
	m := Wrap(s.Model(), AgentCode, nil)
	if components.IsCallbacksEnabled(m) {
		t.Error("the wrapped scripted model claims to run callbacks itself; Eino would then skip them")
	}
	if typ, _ := components.GetType(m); typ != "Scripted" {
		t.Errorf("type = %q, want the inner model's", typ)
	}
	real, err := New(context.Background(), Endpoint{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if !components.IsCallbacksEnabled(Wrap(real, AgentCode, nil)) {
		t.Error("the wrapped OpenAI client hides that it runs callbacks itself; Eino would run them twice")
	}
}

// BenchmarkWrapGenerate measures the decorator's overhead (metering and
// tool-call repair) over an in-process scripted model.
func BenchmarkWrapGenerate(b *testing.B) {
	replies := make([]scripted.Reply, b.N)
	for i := range replies {
		replies[i] = scripted.Reply{Message: scripted.ToolCall("create_plan", `{"steps": ["load", "group", "plot"],}`)}
	}
	s := scripted.New(replies...)
	var meter Meter
	m, err := Wrap(s.Model(), AgentPlanner, &meter).WithTools([]*schema.ToolInfo{planTool})
	if err != nil {
		b.Fatal(err)
	}
	in := []*schema.Message{schema.UserMessage("plan")}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.Generate(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrapStreamRecovery measures a forced tool call recovered from
// streamed JSON text.
func BenchmarkWrapStreamRecovery(b *testing.B) {
	replies := make([]scripted.Reply, b.N)
	for i := range replies {
		replies[i] = scripted.Reply{Message: scripted.Text("Plan:\n```json\n{\"steps\": [\"load\", \"group\", \"plot\"]}\n```")}
	}
	s := scripted.New(replies...)
	m, err := Wrap(s.Model(), AgentPlanner, &Meter{}).WithTools([]*schema.ToolInfo{planTool, respondTool})
	if err != nil {
		b.Fatal(err)
	}
	in := []*schema.Message{schema.UserMessage("plan")}
	ctx := context.Background()
	forced := model.WithToolChoice(schema.ToolChoiceForced)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sr, err := m.Stream(ctx, in, forced)
		if err != nil {
			b.Fatal(err)
		}
		msg, err := schema.ConcatMessageStream(sr)
		if err != nil || len(msg.ToolCalls) != 1 {
			b.Fatalf("reply %v, %v; want one recovered call", msg, err)
		}
	}
}

// noUsage is a reply whose provider reports no usage.
func noUsage(msg *schema.Message) *schema.Message {
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: "stop"}
	return msg
}

func TestWrapEstimatesMissingUsage(t *testing.T) {
	const modelName = "gpt-4o"
	in := []*schema.Message{schema.SystemMessage("You analyse data."), schema.UserMessage("Which region sells best?")}
	reply := "The north region sells best: 1,204 units."
	for mode, stream := range modes() {
		t.Run(mode, func(t *testing.T) {
			s := scripted.New(scripted.Reply{Message: noUsage(scripted.Text(reply))})
			var meter Meter
			m, err := Wrap(s.Model(), AgentExecutor, &meter, WithModelName(modelName)).WithTools([]*schema.ToolInfo{planTool})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if stream {
				sr, err := m.Stream(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				collect(t, sr)
			} else if _, err := m.Generate(ctx, in); err != nil {
				t.Fatal(err)
			}
			got := meter.Snapshot()[AgentExecutor]
			got.Latency = 0
			want := Counts{Calls: 1, Estimated: 1,
				PromptTokens:     CountTokens(modelName, in, []*schema.ToolInfo{planTool}),
				CompletionTokens: CountText(modelName, reply)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("counts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWrapMetersDetailsCostAndSteps(t *testing.T) {
	usage := &schema.TokenUsage{PromptTokens: 1000, CompletionTokens: 200,
		PromptTokenDetails:      schema.PromptTokenDetails{CachedTokens: 600},
		CompletionTokensDetails: schema.CompletionTokensDetails{ReasoningTokens: 150}}
	withUsage := func() *schema.Message {
		return &schema.Message{Role: schema.Assistant, Content: "x", ResponseMeta: &schema.ResponseMeta{Usage: usage}}
	}
	s := scripted.New(scripted.Reply{Message: withUsage()}, scripted.Reply{Message: withUsage()}, scripted.Reply{Message: withUsage()})
	prices := PriceTable{"test-model": {Input: 2, CachedInput: 1, Output: 10}}
	var meter Meter
	var recorded bytes.Buffer
	traj := trajectory.NewWriter(&recorded, trajectory.Config{})
	priced := Wrap(s.Model(), AgentCode, &meter, WithModelName("test-model"), WithPrices(prices), WithTrajectory(traj))
	unpriced := Wrap(s.Model(), AgentReport, &meter, WithModelName("other"), WithPrices(prices), WithTrajectory(traj))

	ctx := context.Background()
	if _, err := priced.Generate(WithStep(ctx, 2), nil); err != nil {
		t.Fatal(err)
	}
	sr, err := priced.Stream(WithStep(ctx, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)
	if _, err := unpriced.Generate(ctx, nil); err != nil {
		t.Fatal(err)
	}

	cost := (400*2.0 + 600*1.0 + 200*10.0) / 1e6
	one := Counts{Calls: 1, PromptTokens: 1000, CompletionTokens: 200, CachedTokens: 600, ReasoningTokens: 150, Cost: cost}
	got := meter.ByAgentStep()
	for k, c := range got {
		c.Latency = 0
		got[k] = c
	}
	unpricedCounts := one
	unpricedCounts.Cost, unpricedCounts.Unpriced = 0, 1
	want := map[AgentStep]Counts{
		{Agent: AgentCode, Step: 2}:        one,
		{Agent: AgentCode, Step: 3}:        one,
		{Agent: AgentReport, Step: NoStep}: unpricedCounts,
	}
	if diff := cmp.Diff(want, got, cmpFloat); diff != "" {
		t.Errorf("ByAgentStep mismatch (-want +got):\n%s", diff)
	}
	// The trajectory's records count the same, so a session's usage can
	// be summed from it over every run.
	fromRecords := map[AgentStep]Counts{}
	for _, rec := range readRecords(t, recorded.Bytes()) {
		c := RecordedCounts(rec)
		c.Latency = 0
		k := AgentStep{Agent: rec.Agent, Step: rec.Step}
		fromRecords[k] = fromRecords[k].Add(c)
	}
	if diff := cmp.Diff(want, fromRecords, cmpFloat); diff != "" {
		t.Errorf("trajectory records' Counts (-want +got):\n%s", diff)
	}
}

// cmpFloat compares costs up to rounding.
var cmpFloat = cmp.Comparer(func(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 })

func TestWrapWindowTrimsRequest(t *testing.T) {
	const modelName = "gpt-4o"
	long := strings.Repeat("row,value,区域\n", 400)
	in := []*schema.Message{
		schema.SystemMessage("You analyse data."),
		schema.UserMessage("Task: find the best region."),
		&schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c1", Function: schema.FunctionCall{Name: "run_python", Arguments: `{"code": "df"}`}}}},
		schema.ToolMessage(long, "c1"),
		schema.UserMessage("Now summarise."),
	}
	sys, task, last := CountMessage(modelName, in[0]), CountMessage(modelName, in[1]), CountMessage(modelName, in[4])
	tests := []struct {
		name   string
		window Window
		want   []string
	}{
		{"no window sends all", Window{}, []string{"system", "user", "assistant", "tool", "user"}},
		{"big window sends all", Window{Tokens: 100_000}, []string{"system", "user", "assistant", "tool", "user"}},
		// The tool exchange does not fit, and trimming stops there: the
		// older task goes too.
		{"small window drops the tool exchange and what is older", Window{Tokens: sys + task + last + tokensReplyPrime + 10 + 5, OutputReserve: 10, Margin: 5},
			[]string{"system", "user"}},
		{"keep first user pins the task", Window{Tokens: sys + task + last + tokensReplyPrime + 10 + 5, OutputReserve: 10, Margin: 5, KeepFirstUser: true},
			[]string{"system", "user", "user"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scripted.New(scripted.Reply{Message: scripted.Text("ok")})
			m := Wrap(s.Model(), AgentExecutor, nil, WithModelName(modelName), WithWindow(tt.window))
			if _, err := m.Generate(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, msg := range s.Requests()[0].Messages {
				got = append(got, string(msg.Role))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("sent roles mismatch (-want +got):\n%s", diff)
			}
			if len(in) != 5 || in[3].Content != long {
				t.Error("the caller's messages were changed")
			}
		})
	}
}

func TestWrapWindowCountsTools(t *testing.T) {
	const modelName = "gpt-4o"
	in := []*schema.Message{schema.SystemMessage("You analyse data."), schema.AssistantMessage("Loaded.", nil), schema.UserMessage("Now plot it.")}
	w := Window{OutputReserve: 10, Margin: 5}
	for _, m := range in {
		w.Tokens += CountMessage(modelName, m)
	}
	w.Tokens += tokensReplyPrime + 10 + 5
	for _, tt := range []struct {
		name  string
		tools []*schema.ToolInfo
		want  int
	}{{"without tools all fit", nil, 3}, {"tool definitions push the oldest turn out", []*schema.ToolInfo{planTool}, 2}} {
		t.Run(tt.name, func(t *testing.T) {
			s := scripted.New(scripted.Reply{Message: scripted.Text("ok")})
			m := Wrap(s.Model(), AgentExecutor, nil, WithModelName(modelName), WithWindow(w))
			if _, err := m.Generate(context.Background(), in, model.WithTools(tt.tools)); err != nil {
				t.Fatal(err)
			}
			if got := len(s.Requests()[0].Messages); got != tt.want {
				t.Errorf("sent %d messages, want %d", got, tt.want)
			}
		})
	}
}

func TestWindowDefaults(t *testing.T) {
	got := Window{Tokens: 128_000}.WithDefaults()
	want := Window{Tokens: 128_000, OutputReserve: DefaultOutputReserve, Margin: 6400}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WithDefaults mismatch (-want +got):\n%s", diff)
	}
	set := Window{Tokens: 8000, OutputReserve: 1000, Margin: 10}
	if diff := cmp.Diff(set, set.WithDefaults()); diff != "" {
		t.Errorf("WithDefaults changed set fields (-want +got):\n%s", diff)
	}
}

func TestWrapWindowDropsDuplicates(t *testing.T) {
	call := func(id string) *schema.Message {
		return &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: id, Function: schema.FunctionCall{Name: "read_file", Arguments: `{"path": "input/a.csv"}`}}}}
	}
	in := []*schema.Message{
		schema.SystemMessage("You analyse data."),
		schema.UserMessage("Task."),
		call("c1"), schema.ToolMessage("a,b\n1,2", "c1"),
		call("c2"), schema.ToolMessage("a,b\n1,2", "c2"), // the same read again
		schema.UserMessage("Go on."),
	}
	for _, drop := range []bool{false, true} {
		s := scripted.New(scripted.Reply{Message: scripted.Text("ok")})
		m := Wrap(s.Model(), AgentCode, nil, WithWindow(Window{Tokens: 100_000, DropDuplicates: drop}))
		if _, err := m.Generate(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		want := 7
		if drop {
			want = 5
		}
		if got := len(s.Requests()[0].Messages); got != want {
			t.Errorf("DropDuplicates=%v: sent %d messages, want %d", drop, got, want)
		}
	}
}
