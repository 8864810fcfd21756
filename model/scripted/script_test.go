package scripted

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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

	want1 := &schema.Message{
		Role: schema.Assistant,
		ToolCalls: []schema.ToolCall{{ID: "call_1_0", Type: "function",
			Function: schema.FunctionCall{Name: "create_plan", Arguments: `{"steps":["load"]}`}}},
		ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls",
			// "plan" + "sales by region" = 19 chars → 5; "create_plan" + 18 chars of args = 29 → 8.
			Usage: &schema.TokenUsage{PromptTokens: 5, CompletionTokens: 8, TotalTokens: 13}},
	}
	if diff := cmp.Diff(want1, got1); diff != "" {
		t.Errorf("first reply mismatch (-want +got):\n%s", diff)
	}
	want2 := &schema.Message{Role: schema.Assistant, Content: "done",
		ResponseMeta: &schema.ResponseMeta{FinishReason: "stop", Usage: &schema.TokenUsage{PromptTokens: 5, CompletionTokens: 1, TotalTokens: 6}}}
	if diff := cmp.Diff(want2, got2); diff != "" {
		t.Errorf("second reply mismatch (-want +got):\n%s", diff)
	}

	forced := schema.ToolChoiceForced
	wantReqs := []Request{
		{Agent: "planner", Messages: in, Tools: []*schema.ToolInfo{planTool}, ToolChoice: &forced},
		{Messages: in},
	}
	if diff := cmp.Diff(wantReqs, s.Requests(), cmpopts.IgnoreUnexported(schema.ParamsOneOf{})); diff != "" {
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

func TestEstimateTokens(t *testing.T) {
	for text, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "日本語のテキスト": 2} {
		if got := EstimateTokens(text); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", text, got, want)
		}
	}
}
