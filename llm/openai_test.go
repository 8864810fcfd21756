package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/tokens"
)

// newScripted starts a scripted server and returns a real OpenAI-compatible
// client for it whose retries do not wait.
func newScripted(t *testing.T, replies ...scripted.Reply) (model.ToolCallingChatModel, *scripted.Script, *sleepRecorder) {
	t.Helper()
	s := scripted.New(replies...)
	srv := scripted.NewServer(s)
	t.Cleanup(srv.Close)
	var rec sleepRecorder
	m, err := New(context.Background(), Endpoint{BaseURL: srv.URL + "/v1", APIKey: "test-key", Model: "scripted-1"}, WithSleep(rec.sleep))
	if err != nil {
		t.Fatal(err)
	}
	return m, s, &rec
}

var (
	planTool = &schema.ToolInfo{
		Name: "create_plan",
		Desc: "Write the plan.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"steps": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Required: true},
		}),
	}
	respondTool = &schema.ToolInfo{
		Name: "submit_result",
		Desc: "Finish with an answer.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"response": {Type: schema.String, Required: true},
			"files":    {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}},
		}),
	}
)

func collect(t *testing.T, sr *schema.StreamReader[*schema.Message]) []*schema.Message {
	t.Helper()
	defer sr.Close()
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return chunks
		}
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		chunks = append(chunks, c)
	}
}

func TestNewPlainTextReply(t *testing.T) {
	m, s, _ := newScripted(t, scripted.Reply{Message: scripted.Text("Revenue grew 12% in Q3.")})
	in := []*schema.Message{schema.SystemMessage("You analyse data."), schema.UserMessage("How did revenue change?")}
	msg, err := m.Generate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Role != schema.Assistant || msg.Content != "Revenue grew 12% in Q3." {
		t.Errorf("reply = %s %q, want the scripted text", msg.Role, msg.Content)
	}
	if diff := cmp.Diff(in, s.Requests()[0].Messages); diff != "" {
		t.Errorf("the server saw other messages (-want +got):\n%s", diff)
	}
}

func TestNewStreamedToolCallIsReassembled(t *testing.T) {
	const args = `{"steps":["load sales.csv","group by region","plot totals"]}`
	m, s, _ := newScripted(t, scripted.Reply{Message: scripted.ToolCall("create_plan", args)})
	mt, err := m.WithTools([]*schema.ToolInfo{planTool})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := mt.Stream(context.Background(), []*schema.Message{schema.UserMessage("plan it")}, model.WithToolChoice(schema.ToolChoiceForced))
	if err != nil {
		t.Fatal(err)
	}
	chunks := collect(t, sr)
	if len(chunks) < 3 {
		t.Errorf("got %d chunks, want the arguments to arrive in pieces", len(chunks))
	}
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.ToolCalls) != 1 {
		t.Fatalf("tool calls = %v, want one", msg.ToolCalls)
	}
	tc := msg.ToolCalls[0]
	if tc.ID != "call_1_0" || tc.Function.Name != "create_plan" || tc.Function.Arguments != args {
		t.Errorf("tool call = %+v, want create_plan(%s) with ID call_1_0", tc, args)
	}
	req := s.Requests()[0]
	if req.ToolChoice == nil || *req.ToolChoice != schema.ToolChoiceForced || len(req.Tools) != 1 {
		t.Errorf("server saw tools %v and choice %v, want create_plan forced", req.Tools, req.ToolChoice)
	}
}

func TestNewUsageReachesMeter(t *testing.T) {
	m, s, _ := newScripted(t,
		scripted.Reply{Message: scripted.Text("twelve chars")},
		scripted.Reply{Message: scripted.Text("a streamed answer")},
		scripted.Reply{Message: scripted.ToolCall("create_plan", `{"steps":["a"]}`)},
	)
	var meter Meter
	in := []*schema.Message{schema.UserMessage("0123456789abcdef")}
	ctx := context.Background()

	if _, err := Wrap(m, AgentReport, &meter).Generate(ctx, in); err != nil {
		t.Fatal(err)
	}
	sr, err := Wrap(m, AgentExecutor, &meter).Stream(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)
	planner, err := Wrap(m, AgentPlanner, &meter).WithTools([]*schema.ToolInfo{planTool})
	if err != nil {
		t.Fatal(err)
	}
	sr, err = planner.Stream(ctx, in, model.WithToolChoice(schema.ToolChoiceForced))
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)

	got := meter.Snapshot()
	for name, c := range got {
		if c.Latency <= 0 {
			t.Errorf("%s latency = %s, want it measured", name, c.Latency)
		}
		c.Latency = 0
		got[name] = c
	}
	// The server counts as a provider would: the planner's prompt holds
	// its tool's definition too.
	bare, withTool := CountTokens("scripted-1", in, nil), CountTokens("scripted-1", in, []*schema.ToolInfo{planTool})
	if reqs := s.Requests(); reqs[0].PromptTokens != bare || reqs[2].PromptTokens != withTool || withTool <= bare {
		t.Errorf("server counted %d, %d and %d prompt tokens; want %d, %d and %d", reqs[0].PromptTokens, reqs[1].PromptTokens, reqs[2].PromptTokens, bare, bare, withTool)
	}
	want := map[string]Counts{
		AgentReport:   {Calls: 1, PromptTokens: bare, CompletionTokens: CountText("scripted-1", "twelve chars")},
		AgentExecutor: {Calls: 1, PromptTokens: bare, CompletionTokens: CountText("scripted-1", "a streamed answer")},
		AgentPlanner:  {Calls: 1, PromptTokens: withTool, CompletionTokens: tokens.Reply("scripted-1", scripted.ToolCall("create_plan", `{"steps":["a"]}`))},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("meter mismatch (-want +got):\n%s", diff)
	}
}

func TestNewRetriesRateLimit(t *testing.T) {
	m, s, rec := newScripted(t,
		scripted.Reply{Status: http.StatusTooManyRequests, RetryAfter: "2"},
		scripted.Reply{Status: http.StatusServiceUnavailable},
		scripted.Reply{Message: scripted.Text("finally")},
	)
	msg, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("q")})
	if err != nil {
		t.Fatal(err)
	}
	if msg.Content != "finally" {
		t.Errorf("content = %q, want finally", msg.Content)
	}
	if s.Calls() != 3 {
		t.Errorf("server saw %d calls, want 3", s.Calls())
	}
	if len(rec.slept) != 2 || rec.slept[0] != 2*time.Second {
		t.Errorf("slept %v, want 2s (Retry-After) then a backoff", rec.slept)
	}
}

func TestNewAuthFailure(t *testing.T) {
	for _, stream := range []bool{false, true} {
		name := "generate"
		if stream {
			name = "stream"
		}
		t.Run(name, func(t *testing.T) {
			m, s, rec := newScripted(t,
				scripted.Reply{Status: http.StatusUnauthorized},
				scripted.Reply{Message: scripted.Text("must not be reached")},
			)
			var err error
			in := []*schema.Message{schema.UserMessage("q")}
			if stream {
				_, err = m.Stream(context.Background(), in)
			} else {
				_, err = m.Generate(context.Background(), in)
			}
			if !errors.Is(err, ErrAuth) {
				t.Fatalf("error = %v, want ErrAuth", err)
			}
			var ae *AuthError
			if !errors.As(err, &ae) || ae.StatusCode != 401 || !strings.Contains(ae.Message, "HTTP 401") {
				t.Errorf("AuthError = %+v, want status 401 and the server's message", ae)
			}
			if !strings.Contains(err.Error(), "--api-key") {
				t.Errorf("error %q does not say how to fix it", err)
			}
			if s.Calls() != 1 || len(rec.slept) != 0 {
				t.Errorf("calls = %d, sleeps = %v; an auth failure must not be retried", s.Calls(), rec.slept)
			}
		})
	}
}

func TestNewOtherErrorIsNotAuth(t *testing.T) {
	m, _, _ := newScripted(t, scripted.Reply{Status: http.StatusBadRequest})
	_, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("q")})
	if err == nil || errors.Is(err, ErrAuth) {
		t.Fatalf("error = %v, want a non-auth error", err)
	}
}

func TestNewSendsKeyAndModel(t *testing.T) {
	s := scripted.New(scripted.Reply{Message: scripted.Text("ok")})
	srv := scripted.NewServer(s)
	defer srv.Close()
	var auth, path string
	spy := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		auth, path = r.Header.Get("Authorization"), r.URL.Path
		return http.DefaultTransport.RoundTrip(r)
	})
	m, err := New(context.Background(), Endpoint{BaseURL: srv.URL + "/v1/", APIKey: "sk-test", Model: "m"}, WithTransport(spy))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("q")}); err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer sk-test" || path != "/v1/chat/completions" {
		t.Errorf("Authorization %q to %q, want the bearer key to /v1/chat/completions", auth, path)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestNewNotConfigured(t *testing.T) {
	tests := []struct {
		name string
		ep   Endpoint
		want string
	}{
		{"nothing", Endpoint{}, "missing base URL and model name"},
		{"no model", Endpoint{BaseURL: "http://localhost:11434/v1"}, "missing model name"},
		{"no base URL or key", Endpoint{Model: "qwen"}, "missing base URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.ep)
			if !errors.Is(err, ErrNotConfigured) {
				t.Fatalf("error = %v, want ErrNotConfigured", err)
			}
			for _, s := range []string{tt.want, "SIFT_MODEL", "--base-url", "--api-key", "--model", "config.json"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
	if _, err := New(context.Background(), Endpoint{APIKey: "k", Model: "gpt"}); err != nil {
		t.Errorf("a key and a model are enough (default OpenAI URL), got %v", err)
	}
}

// BenchmarkNewStreamScriptedServer measures one streamed tool call through
// the real OpenAI client, the retry transport and the scripted server.
func BenchmarkNewStreamScriptedServer(b *testing.B) {
	replies := make([]scripted.Reply, b.N)
	for i := range replies {
		replies[i] = scripted.Reply{Message: scripted.ToolCall("create_plan", `{"steps":["load sales.csv","group by region","plot totals"]}`)}
	}
	s := scripted.New(replies...)
	srv := scripted.NewServer(s)
	defer srv.Close()
	m, err := New(context.Background(), Endpoint{BaseURL: srv.URL + "/v1", Model: "scripted-1"})
	if err != nil {
		b.Fatal(err)
	}
	m = Wrap(m, AgentPlanner, &Meter{})
	if m, err = m.WithTools([]*schema.ToolInfo{planTool}); err != nil {
		b.Fatal(err)
	}
	in := []*schema.Message{schema.UserMessage("plan it")}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sr, err := m.Stream(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := schema.ConcatMessageStream(sr); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCachedTokensArePricedApart sends two requests sharing a long prefix
// through the OpenAI client to the scripted server: the second's cached
// tokens reach the meter, and its cost bills them at the cached rate.
func TestCachedTokensArePricedApart(t *testing.T) {
	m, s, _ := newScripted(t, scripted.Reply{Message: scripted.Text("a")}, scripted.Reply{Message: scripted.Text("b")})
	var meter Meter
	prices := PriceTable{"scripted": {Input: 2, CachedInput: 0.5, Output: 8}}
	w := Wrap(m, AgentCode, &meter, WithModelName("scripted-1"), WithPrices(prices))
	sys := schema.SystemMessage(strings.Repeat("Load the data once and print every number you report. ", 150))
	for _, q := range []string{"step 1", "step 2"} {
		if _, err := w.Generate(context.Background(), []*schema.Message{sys, schema.UserMessage(q)}); err != nil {
			t.Fatal(err)
		}
	}
	got := meter.Snapshot()[AgentCode]
	second := s.Requests()[1]
	if second.CachedTokens == 0 || got.CachedTokens != second.CachedTokens {
		t.Fatalf("meter has %d cached tokens, the server served %d; want them equal and non-zero", got.CachedTokens, second.CachedTokens)
	}
	uncached := got
	uncached.CachedTokens = 0
	full, _ := prices.Cost("scripted-1", uncached)
	want, _ := prices.Cost("scripted-1", got)
	if got.Cost != want || want >= full {
		t.Errorf("cost %.6f, want %.6f (cached at the lower rate, below %.6f)", got.Cost, want, full)
	}
}
