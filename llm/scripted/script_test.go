package scripted

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sift-agent/sift/llm/tokens"
)

var planTool = &schema.ToolInfo{
	Name: "create_plan",
	Desc: "Write the plan.",
	ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"steps": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Required: true},
	}),
}

func TestGeneratePlaysRepliesInOrder(t *testing.T) {
	ctx := context.Background()
	s := New(
		Reply{Message: ToolCall("create_plan", `{"steps":["load"]}`)},
		Reply{Message: Text("done")},
	)
	m, err := s.ModelFor("planner").WithTools([]*schema.ToolInfo{planTool})
	if err != nil {
		t.Fatal(err)
	}
	in := []*schema.Message{schema.SystemMessage("plan"), schema.UserMessage("sales by region")}

	got1, err := m.Generate(ctx, in, model.WithToolChoice(schema.ToolChoiceForced))
	if err != nil {
		t.Fatal(err)
	}
	got2, err := s.Model().Generate(ctx, in)
	if err != nil {
		t.Fatal(err)
	}

	// Usage as a provider counts it: the first request offers create_plan.
	p1 := tokens.Request("", in, []*schema.ToolInfo{planTool})
	c1 := tokens.Reply("", ToolCall("create_plan", `{"steps":["load"]}`))
	p2 := tokens.Request("", in, nil)
	want1 := &schema.Message{
		Role: schema.Assistant,
		ToolCalls: []schema.ToolCall{{ID: "call_1_0", Type: "function",
			Function: schema.FunctionCall{Name: "create_plan", Arguments: `{"steps":["load"]}`}}},
		ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls",
			Usage: &schema.TokenUsage{PromptTokens: p1, CompletionTokens: c1, TotalTokens: p1 + c1}},
	}
	if diff := cmp.Diff(want1, got1); diff != "" {
		t.Errorf("first reply mismatch (-want +got):\n%s", diff)
	}
	want2 := &schema.Message{Role: schema.Assistant, Content: "done",
		ResponseMeta: &schema.ResponseMeta{FinishReason: "stop", Usage: &schema.TokenUsage{PromptTokens: p2, CompletionTokens: 1, TotalTokens: p2 + 1}}}
	if diff := cmp.Diff(want2, got2); diff != "" {
		t.Errorf("second reply mismatch (-want +got):\n%s", diff)
	}

	forced := schema.ToolChoiceForced
	wantReqs := []Request{
		{Agent: "planner", Messages: in, Tools: []*schema.ToolInfo{planTool}, ToolChoice: &forced},
		{Messages: in},
	}
	if diff := cmp.Diff(wantReqs, s.Requests(), cmpopts.IgnoreUnexported(schema.ParamsOneOf{}), cmpopts.IgnoreFields(Request{}, "PromptTokens", "CachedTokens")); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
	if s.Calls() != 2 || s.Remaining() != 0 {
		t.Errorf("Calls() = %d, Remaining() = %d; want 2, 0", s.Calls(), s.Remaining())
	}
}

func TestWithToolsReturnsCopy(t *testing.T) {
	s := New(Reply{Message: Text("a")}, Reply{Message: Text("b")})
	base := s.Model()
	if _, err := base.WithTools([]*schema.ToolInfo{planTool}); err != nil {
		t.Fatal(err)
	}
	if _, err := base.Generate(context.Background(), []*schema.Message{schema.UserMessage("q")}); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests()[0]; got.Tools != nil || got.ToolChoice != nil {
		t.Errorf("base model request has tools %v and choice %v; WithTools must not change the original", got.Tools, got.ToolChoice)
	}
	// Per-call tools replace bound ones and default to "allowed".
	if _, err := base.Generate(context.Background(), nil, model.WithTools([]*schema.ToolInfo{planTool})); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests()[1]; len(got.Tools) != 1 || got.ToolChoice == nil || *got.ToolChoice != schema.ToolChoiceAllowed {
		t.Errorf("per-call tools recorded as %v with choice %v; want create_plan, allowed", got.Tools, got.ToolChoice)
	}
}

func TestReplyKinds(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		reply   Reply
		want    string
		wantErr string
	}{
		{"func sees the request", Reply{Func: func(req Request) (*schema.Message, error) {
			return Text("you asked: " + req.Messages[0].Content), nil
		}}, "you asked: hi", ""},
		{"func error", Reply{Func: func(Request) (*schema.Message, error) { return nil, boom }}, "", "boom"},
		{"error", Reply{Err: boom}, "", "boom"},
		{"status in process", Reply{Status: 429}, "", "HTTP status 429, which only the server can send"},
		{"no message", Reply{}, "", "reply 1 has no message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.reply)
			msg, err := s.Model().Generate(context.Background(), []*schema.Message{schema.UserMessage("hi")})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if msg.Content != tt.want {
				t.Errorf("content = %q, want %q", msg.Content, tt.want)
			}
		})
	}
}

func TestExhaustedScriptSaysWhatWasAsked(t *testing.T) {
	s := New(Reply{Message: Text("only one")})
	m, _ := s.ModelFor("executor").WithTools([]*schema.ToolInfo{planTool})
	ctx := context.Background()
	if _, err := m.Generate(ctx, []*schema.Message{schema.UserMessage("first")}); err != nil {
		t.Fatal(err)
	}
	_, err := m.Generate(ctx, []*schema.Message{schema.UserMessage("first"), schema.UserMessage("now plot it")})
	if !errors.Is(err, ErrExhausted) {
		t.Fatalf("error = %v, want ErrExhausted", err)
	}
	for _, want := range []string{"exhausted after 1 replies", `agent "executor"`, `"now plot it"`, "create_plan"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if s.Calls() != 2 {
		t.Errorf("Calls() = %d, want 2 (exhausted requests are recorded too)", s.Calls())
	}
}

func TestStreamConcatenatesToTheMessage(t *testing.T) {
	reply := &schema.Message{Role: schema.Assistant, Content: "The total is 42, up 3% on last year.",
		ToolCalls: []schema.ToolCall{{ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "save", Arguments: `{"x":1}`}}}}
	s := New(Reply{Message: reply}, Reply{Message: reply})
	ctx := context.Background()
	in := []*schema.Message{schema.UserMessage("total?")}

	want, err := s.Model().Generate(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	sr, err := s.Model().Stream(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if err != nil {
			break
		}
		chunks = append(chunks, c)
	}
	if len(chunks) < 3 {
		t.Errorf("stream has %d chunks, want the content split into several", len(chunks))
	}
	got, err := schema.ConcatMessages(chunks)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("concatenated stream mismatch (-want +got):\n%s", diff)
	}
}

func TestCancelledContext(t *testing.T) {
	s := New(Reply{Message: Text("x")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Model().Generate(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if s.Remaining() != 1 {
		t.Errorf("Remaining() = %d, want 1: a cancelled call must not use a reply", s.Remaining())
	}
}

func TestScriptIsSafeForConcurrentUse(t *testing.T) {
	const n = 50
	replies := make([]Reply, n)
	for i := range replies {
		replies[i] = Reply{Message: Text(fmt.Sprint(i))}
	}
	s := New(replies...)
	var wg sync.WaitGroup
	seen := make([]string, n)
	for i := range n {
		wg.Go(func() {
			msg, err := s.ModelFor(fmt.Sprint("agent", i)).Generate(context.Background(), nil)
			if err != nil {
				t.Error(err)
				return
			}
			seen[i] = msg.Content
		})
	}
	wg.Wait()
	got := map[string]bool{}
	for _, c := range seen {
		got[c] = true
	}
	if len(got) != n || s.Remaining() != 0 || s.Calls() != n {
		t.Errorf("%d distinct replies, Remaining() = %d, Calls() = %d; want %d, 0, %d", len(got), s.Remaining(), s.Calls(), n, n)
	}
}

func TestPush(t *testing.T) {
	s := New()
	s.Push(Reply{Message: Text("late")})
	msg, err := s.Model().Generate(context.Background(), nil)
	if err != nil || msg.Content != "late" {
		t.Fatalf("Generate = %v, %v; want the pushed reply", msg, err)
	}
}

// TestUsageCountsWhatProvidersBill checks that the in-process model's usage
// counts tool definitions and per-message framing: offering a tool raises
// the prompt by the tool's serialised size, and splitting a text into two
// messages costs their framing.
func TestUsageCountsWhatProvidersBill(t *testing.T) {
	tool := &schema.ToolInfo{Name: "run_template", Desc: "Run a built-in analysis on one table.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"template": {Type: schema.String, Required: true, Enum: []string{"profile", "trend", "topn"}},
			"file":     {Type: schema.String, Required: true, Desc: "workspace-relative path"},
		})}
	prompt := func(tools []*schema.ToolInfo, msgs ...*schema.Message) int {
		s := New(Reply{Message: Text("ok")})
		m, err := s.Model().WithTools(tools)
		if err != nil {
			t.Fatal(err)
		}
		out, err := m.Generate(context.Background(), msgs)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Requests()[0].PromptTokens; got != out.ResponseMeta.Usage.PromptTokens {
			t.Errorf("recorded %d prompt tokens, reported %d", got, out.ResponseMeta.Usage.PromptTokens)
		}
		return out.ResponseMeta.Usage.PromptTokens
	}
	q := schema.UserMessage("Which region sells most?")
	bare := prompt(nil, q)
	withTool := prompt([]*schema.ToolInfo{tool}, q)
	js := tokens.ToolSchema(tool)
	if serialised := tokens.Text("", tool.Name+tool.Desc+js); withTool-bare < serialised {
		t.Errorf("a tool of %d serialised tokens (%s) raised the prompt by only %d", serialised, js, withTool-bare)
	}
	one := prompt(nil, schema.UserMessage("Which region sells most? Answer briefly."))
	two := prompt(nil, q, schema.UserMessage(" Answer briefly."))
	if two-one < 3 {
		t.Errorf("a second message cost %d tokens more than one; want its framing counted", two-one)
	}
}

// TestPrefixCacheServesSharedPrefix checks the simulated prompt cache: a
// request sharing a long prefix with an earlier one of the same agent has
// it cached (at least CacheMinTokens, in CacheIncrement steps); a short
// prefix, another agent or other tools get nothing.
func TestPrefixCacheServesSharedPrefix(t *testing.T) {
	long := schema.SystemMessage(strings.Repeat("Follow the plan step by step and print what you compute. ", 120))
	short := schema.SystemMessage("Be brief.")
	tool := &schema.ToolInfo{Name: "python", Desc: "Run Python."}
	s := New()
	for range 6 {
		s.Push(Reply{Message: Text("ok")})
	}
	ask := func(agent string, tools []*schema.ToolInfo, msgs ...*schema.Message) Request {
		m, err := s.ModelFor(agent).WithTools(tools)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(context.Background(), msgs); err != nil {
			t.Fatal(err)
		}
		rs := s.Requests()
		return rs[len(rs)-1]
	}
	if r := ask("code", nil, long, schema.UserMessage("step 1")); r.CachedTokens != 0 {
		t.Errorf("first request cached %d tokens", r.CachedTokens)
	}
	r := ask("code", nil, long, schema.UserMessage("step 2"))
	if r.CachedTokens < CacheMinTokens || r.CachedTokens > r.PromptTokens || (r.CachedTokens-CacheMinTokens)%CacheIncrement != 0 {
		t.Errorf("second request: %d of %d prompt tokens cached; want the shared system prompt, in steps of %d", r.CachedTokens, r.PromptTokens, CacheIncrement)
	}
	if r.PromptTokens-r.CachedTokens > CacheIncrement+10 {
		t.Errorf("second request: %d of %d tokens not cached, want only the changed end", r.PromptTokens-r.CachedTokens, r.PromptTokens)
	}
	if r := ask("executor", nil, long, schema.UserMessage("step 2")); r.CachedTokens != 0 {
		t.Errorf("another agent's first request cached %d tokens", r.CachedTokens)
	}
	if r := ask("code", []*schema.ToolInfo{tool}, long, schema.UserMessage("step 3")); r.CachedTokens != 0 {
		t.Errorf("tools put before the prompt changed, yet %d tokens were cached", r.CachedTokens)
	}
	ask("writer", nil, short, schema.UserMessage("a"))
	if r := ask("writer", nil, short, schema.UserMessage("a")); r.CachedTokens != 0 {
		t.Errorf("a %d-token request, under the %d-token threshold, cached %d", r.PromptTokens, CacheMinTokens, r.CachedTokens)
	}
}

func TestResponderAnswersFromTheRequestAfterADelay(t *testing.T) {
	s := NewResponder(func(req Request) (*schema.Message, error) {
		return Text(req.Agent + ": " + req.Messages[len(req.Messages)-1].Content), nil
	})
	s.SetDelay(20 * time.Millisecond)
	start := time.Now()
	for _, agent := range []string{"a", "b"} {
		msg, err := s.ModelFor(agent).Generate(context.Background(), []*schema.Message{schema.UserMessage("hi")})
		if err != nil {
			t.Fatal(err)
		}
		if want := agent + ": hi"; msg.Content != want {
			t.Errorf("reply = %q, want %q", msg.Content, want)
		}
	}
	if elapsed := time.Since(start); elapsed < 40*time.Millisecond {
		t.Errorf("two replies took %s, want each to wait the delay", elapsed)
	}
	if s.Calls() != 2 {
		t.Errorf("calls = %d, want 2", s.Calls())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Model().Generate(ctx, []*schema.Message{schema.UserMessage("hi")}); err == nil {
		t.Error("a cancelled call must fail")
	}
}

// TestReplyCallingAToolNotOfferedFails checks that a scripted tool call the
// request does not offer fails the call, naming the tool and what was
// offered, unless the reply is marked Unoffered.
func TestReplyCallingAToolNotOfferedFails(t *testing.T) {
	offered := []*schema.ToolInfo{{Name: "python"}}
	s := New(Reply{Message: ToolCall("code_agent", `{}`)})
	_, err := s.Model().Generate(context.Background(), []*schema.Message{schema.UserMessage("go")}, model.WithTools(offered))
	if err == nil || !strings.Contains(err.Error(), `calls "code_agent", which the request does not offer (it offers python)`) {
		t.Fatalf("want an out-of-step error, got %v", err)
	}
	s = New(Reply{Message: ToolCall("code_agent", `{}`), Unoffered: true})
	if _, err := s.Model().Generate(context.Background(), []*schema.Message{schema.UserMessage("go")}, model.WithTools(offered)); err != nil {
		t.Fatalf("an Unoffered reply must play: %v", err)
	}
}
