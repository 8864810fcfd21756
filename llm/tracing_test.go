package llm

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/sift-agent/sift/llm/scripted"
)

// newRecorder returns a tracer provider that keeps ended spans in memory.
func newRecorder(t *testing.T) (*sdktrace.TracerProvider, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, exp
}

// attrs returns a span's attributes by key.
func attrs(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	out := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes {
		out[kv.Key] = kv.Value
	}
	return out
}

func TestSpanTree(t *testing.T) {
	tp, exp := newRecorder(t)
	s := scripted.New(
		scripted.Reply{Message: &schema.Message{Role: schema.Assistant,
			ToolCalls:    []schema.ToolCall{{ID: "call_1", Function: schema.FunctionCall{Name: "run_python", Arguments: `{"code": "1"}`}}},
			ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls", Usage: &schema.TokenUsage{PromptTokens: 300, CompletionTokens: 20, PromptTokenDetails: schema.PromptTokenDetails{CachedTokens: 256}}}}},
		scripted.Reply{Message: noUsage(scripted.Text("The answer is 1."))},
	)
	m := Wrap(s.Model(), AgentExecutor, nil, WithModelName("gpt-4o"), WithPrices(DefaultPrices()))

	// A fake run: the root span comes from the test's provider, and every
	// span below follows its parent there.
	ctx, root := tp.Tracer("test").Start(context.Background(), "test")
	runCtx, endRun := StartRun(ctx, "sess-1")
	agentCtx, endAgent := StartAgent(WithStep(runCtx, 1), AgentExecutor)
	if _, err := m.Generate(agentCtx, []*schema.Message{schema.UserMessage("go")}); err != nil {
		t.Fatal(err)
	}
	_, endTool := StartTool(agentCtx, "run_python", "call_1")
	endTool(errors.New("NameError: df"))
	sr, err := m.Stream(agentCtx, []*schema.Message{schema.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)
	endAgent(nil)
	endRun(nil)
	root.End()

	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	children := map[string][]string{} // parent name -> child names, in end order
	names := map[[8]byte]string{}
	for _, sp := range spans {
		names[sp.SpanContext.SpanID()] = sp.Name
	}
	for _, sp := range spans {
		if prev, dup := byName[sp.Name]; dup && sp.Name != "chat gpt-4o" {
			t.Fatalf("two spans named %s: %v and %v", sp.Name, prev, sp)
		}
		byName[sp.Name] = sp
		children[names[sp.Parent.SpanID()]] = append(children[names[sp.Parent.SpanID()]], sp.Name)
	}
	wantTree := map[string][]string{
		"":                      {"test"},
		"test":                  {"sift.run"},
		"sift.run":              {"invoke_agent executor"},
		"invoke_agent executor": {"chat gpt-4o", "execute_tool run_python", "chat gpt-4o"},
	}
	if diff := cmp.Diff(wantTree, children); diff != "" {
		t.Errorf("span tree mismatch (-want +got):\n%s", diff)
	}

	var chats []tracetest.SpanStub
	for _, sp := range spans {
		if sp.Name == "chat gpt-4o" {
			chats = append(chats, sp)
		}
	}
	first, second := attrs(chats[0]), attrs(chats[1])
	for key, want := range map[attribute.Key]attribute.Value{
		"gen_ai.operation.name":            attribute.StringValue("chat"),
		"gen_ai.system":                    attribute.StringValue("openai"),
		"gen_ai.request.model":             attribute.StringValue("gpt-4o"),
		"gen_ai.usage.input_tokens":        attribute.IntValue(300),
		"gen_ai.usage.output_tokens":       attribute.IntValue(20),
		"gen_ai.usage.cached_input_tokens": attribute.IntValue(256),
		"gen_ai.response.finish_reasons":   attribute.StringSliceValue([]string{"tool_calls"}),
		AttrAgent:                          attribute.StringValue(AgentExecutor),
		AttrStep:                           attribute.IntValue(1),
	} {
		if got := first[key]; got != want {
			t.Errorf("first chat span %s = %v, want %v", key, got.Emit(), want.Emit())
		}
	}
	if _, ok := first[AttrCost]; !ok {
		t.Error("first chat span has no cost")
	}
	if _, ok := first[AttrEstimated]; ok {
		t.Error("first chat span is marked estimated; its provider reported usage")
	}
	if got := second[AttrEstimated]; got != attribute.BoolValue(true) {
		t.Errorf("streamed chat span %s = %v, want true", AttrEstimated, got.Emit())
	}
	if got := second["gen_ai.usage.output_tokens"]; got.AsInt64() != int64(CountText("gpt-4o", "The answer is 1.")) {
		t.Errorf("streamed chat span output tokens = %v, want the estimate", got.Emit())
	}
	if chats[0].SpanKind.String() != "client" {
		t.Errorf("chat span kind = %s, want client", chats[0].SpanKind)
	}

	tool := byName["execute_tool run_python"]
	if tool.Status.Code != codes.Error || attrs(tool)["gen_ai.tool.call.id"] != attribute.StringValue("call_1") {
		t.Errorf("tool span status %v, attributes %v; want an error with the call ID", tool.Status, tool.Attributes)
	}
	if got := attrs(byName["sift.run"])[AttrSession]; got != attribute.StringValue("sess-1") {
		t.Errorf("run span session = %v, want sess-1", got.Emit())
	}
	if got := attrs(byName["invoke_agent executor"])["gen_ai.agent.name"]; got != attribute.StringValue(AgentExecutor) {
		t.Errorf("agent span gen_ai.agent.name = %v", got.Emit())
	}
}

func TestModelCallErrorSpan(t *testing.T) {
	tp, exp := newRecorder(t)
	boom := errors.New("boom")
	s := scripted.New(scripted.Reply{Err: boom})
	ctx, root := tp.Tracer("test").Start(context.Background(), "test")
	if _, err := Wrap(s.Model(), AgentCode, nil).Generate(ctx, nil); !errors.Is(err, boom) {
		t.Fatalf("error = %v, want boom", err)
	}
	root.End()
	for _, sp := range exp.GetSpans() {
		if sp.Name == "chat" {
			if sp.Status.Code != codes.Error || len(sp.Events) == 0 {
				t.Errorf("failed call span: status %v, %d events; want an error recorded", sp.Status, len(sp.Events))
			}
			return
		}
	}
	t.Error("no span for the failed call")
}

func TestTracingOffByDefault(t *testing.T) {
	// Without a provider installed, spans are no-ops: nothing records.
	ctx, end := StartRun(context.Background(), "s")
	defer end(nil)
	agentCtx, endAgent := StartAgent(ctx, "a")
	defer endAgent(nil)
	for name, c := range map[string]context.Context{"run": ctx, "agent": agentCtx} {
		if trace.SpanFromContext(c).IsRecording() {
			t.Errorf("%s span records without a tracer provider", name)
		}
	}
}
