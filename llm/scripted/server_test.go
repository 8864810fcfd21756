package scripted

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/llm/tokens"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const chatRequestBody = `{
	"model": "scripted-1",
	"messages": [
		{"role": "system", "content": "You plan."},
		{"role": "user", "content": [{"type": "text", "text": "sales "}, {"type": "text", "text": "by region"}]},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c0", "type": "function", "function": {"name": "peek", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c0", "content": "3 columns"}
	],
	"tools": [{"type": "function", "function": {"name": "create_plan", "description": "Write the plan.",
		"parameters": {"type": "object", "properties": {"steps": {"type": "array", "items": {"type": "string"}}}, "required": ["steps"]}}}],
	"tool_choice": {"type": "function", "function": {"name": "create_plan"}}%s
}`

func TestServerNonStreaming(t *testing.T) {
	s := New(Reply{Message: ToolCall("create_plan", `{"steps":["load","group"]}`)})
	srv := NewServer(s)
	defer srv.Close()

	resp := post(t, srv.URL+"/v1/chat/completions", strings.Replace(chatRequestBody, "%s", "", 1))
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var got map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	rec := s.Requests()[0]
	prompt := tokens.Request("scripted-1", rec.Messages, rec.Tools)
	if prompt <= tokens.Request("scripted-1", rec.Messages, nil)+10 {
		t.Errorf("prompt tokens %d leave out the tool definition", prompt)
	}
	completion := tokens.Reply("scripted-1", ToolCall("create_plan", `{"steps":["load","group"]}`))
	want := map[string]any{
		"id": "chatcmpl-scripted-1", "object": "chat.completion", "created": float64(created), "model": "scripted-1",
		"choices": []any{map[string]any{
			"index": float64(0),
			"message": map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{
				"id": "call_1_0", "type": "function",
				"function": map[string]any{"name": "create_plan", "arguments": `{"steps":["load","group"]}`},
			}}},
			"finish_reason": "tool_calls",
		}},
		// Counted as a provider would: messages with framing, the tool's
		// definition, the reply priming; no cache below 1,024 tokens.
		"usage": map[string]any{"prompt_tokens": float64(prompt), "completion_tokens": float64(completion), "total_tokens": float64(prompt + completion)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reply mismatch (-want +got):\n%s", diff)
	}

	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests recorded, want 1", len(reqs))
	}
	req := reqs[0]
	wantMsgs := []*schema.Message{
		{Role: schema.System, Content: "You plan."},
		{Role: schema.User, Content: "sales by region"},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c0", Type: "function", Function: schema.FunctionCall{Name: "peek", Arguments: "{}"}}}},
		{Role: schema.Tool, ToolCallID: "c0", Content: "3 columns"},
	}
	if diff := cmp.Diff(wantMsgs, req.Messages); diff != "" {
		t.Errorf("recorded messages mismatch (-want +got):\n%s", diff)
	}
	if req.ToolChoice == nil || *req.ToolChoice != schema.ToolChoiceForced {
		t.Errorf("tool choice = %v, want forced", req.ToolChoice)
	}
	if len(req.Tools) != 1 || req.Tools[0].Name != "create_plan" || req.Tools[0].Desc != "Write the plan." {
		t.Fatalf("tools = %v, want create_plan", req.Tools)
	}
	js, err := req.Tools[0].ParamsOneOf.ToJSONSchema()
	if err != nil || js == nil || len(js.Required) != 1 || js.Required[0] != "steps" {
		t.Errorf("tool parameters = %v (%v), want the schema requiring steps", js, err)
	}
}

// readSSE returns the data payloads of a server-sent event stream.
func readSSE(t *testing.T, r io.Reader) []string {
	t.Helper()
	var events []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("unexpected SSE line %q", line)
		}
		events = append(events, data)
	}
	return events
}

func TestServerStreamsToolCallDeltas(t *testing.T) {
	s := New(Reply{Message: &schema.Message{Role: schema.Assistant, Content: "Planning now.",
		ToolCalls: []schema.ToolCall{{ID: "p1", Function: schema.FunctionCall{Name: "create_plan", Arguments: `{"steps":["load","group","chart"]}`}}}}})
	srv := NewServer(s)
	defer srv.Close()

	resp := post(t, srv.URL+"/chat/completions", strings.Replace(chatRequestBody, "%s", `, "stream": true, "stream_options": {"include_usage": true}`, 1))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	events := readSSE(t, resp.Body)
	if len(events) == 0 || events[len(events)-1] != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %q", events)
	}

	var content, args strings.Builder
	var idName []string
	var argPieces, indexed int
	var finish string
	var usage map[string]any
	for _, e := range events[:len(events)-1] {
		var chunk struct {
			Object  string `json:"object"`
			Choices []struct {
				Delta struct {
					Content   string         `json:"content"`
					ToolCalls []wireToolCall `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage map[string]any `json:"usage"`
		}
		if err := json.Unmarshal([]byte(e), &chunk); err != nil {
			t.Fatalf("chunk %q: %v", e, err)
		}
		if chunk.Object != "chat.completion.chunk" {
			t.Errorf("chunk object = %q", chunk.Object)
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
		for _, c := range chunk.Choices {
			content.WriteString(c.Delta.Content)
			for _, tc := range c.Delta.ToolCalls {
				if tc.Index != nil && *tc.Index == 0 {
					indexed++
				}
				if tc.ID != "" || tc.Function.Name != "" {
					idName = append(idName, tc.ID+" "+tc.Function.Name)
				}
				if tc.Function.Arguments != "" {
					argPieces++
					args.WriteString(tc.Function.Arguments)
				}
			}
			if c.FinishReason != nil {
				finish = *c.FinishReason
			}
		}
	}
	if content.String() != "Planning now." {
		t.Errorf("content = %q", content.String())
	}
	if diff := cmp.Diff([]string{"p1 create_plan"}, idName); diff != "" {
		t.Errorf("ID and name must come once, first (-want +got):\n%s", diff)
	}
	if args.String() != `{"steps":["load","group","chart"]}` || argPieces < 2 {
		t.Errorf("arguments %q in %d pieces, want them whole in several pieces", args.String(), argPieces)
	}
	if indexed != argPieces+1 {
		t.Errorf("%d tool-call deltas carry index 0, want %d", indexed, argPieces+1)
	}
	if finish != "tool_calls" {
		t.Errorf("finish_reason = %q, want tool_calls", finish)
	}
	rec := s.Requests()[0]
	if want := float64(tokens.Request("scripted-1", rec.Messages, rec.Tools)); usage == nil || usage["prompt_tokens"] != want {
		t.Errorf("usage = %v, want prompt_tokens %v in the last chunk", usage, want)
	}
}

func TestServerStreamWithoutUsageOption(t *testing.T) {
	srv := NewServer(New(Reply{Message: Text("hi")}))
	defer srv.Close()
	resp := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}],"stream":true}`)
	for _, e := range readSSE(t, resp.Body) {
		if strings.Contains(e, `"usage"`) {
			t.Errorf("chunk %s has usage, but the request did not ask for it", e)
		}
	}
}

func TestServerErrors(t *testing.T) {
	tests := []struct {
		name           string
		replies        []Reply
		method, path   string
		body           string
		wantStatus     int
		wantRetryAfter string
		wantMessage    string
	}{
		{"status reply", []Reply{{Status: 429, RetryAfter: "3"}}, "POST", "/v1/chat/completions", `{"messages":[]}`, 429, "3", "reply 1 answers HTTP 429"},
		{"error reply", []Reply{{Err: io.ErrUnexpectedEOF}}, "POST", "/v1/chat/completions", `{"messages":[]}`, 400, "", "unexpected EOF"},
		{"error reply with status", []Reply{{Err: io.ErrUnexpectedEOF, Status: 500}}, "POST", "/v1/chat/completions", `{"messages":[]}`, 500, "", "unexpected EOF"},
		{"exhausted", nil, "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"more?"}]}`, 400, "", `script exhausted after 0 replies; the last request was 1 message(s); the last (user) was "more?"`},
		{"bad body", nil, "POST", "/v1/chat/completions", `not json`, 400, "", "not a chat completion request"},
		{"wrong route", nil, "POST", "/v1/completions", `{}`, 404, "", "no route"},
		{"wrong method", nil, "GET", "/v1/chat/completions", ``, 405, "", "use POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.replies...)
			srv := NewServer(s)
			defer srv.Close()
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if got := resp.Header.Get("Retry-After"); got != tt.wantRetryAfter {
				t.Errorf("Retry-After = %q, want %q", got, tt.wantRetryAfter)
			}
			var body struct {
				Error struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(body.Error.Message, tt.wantMessage) {
				t.Errorf("error message %q does not contain %q", body.Error.Message, tt.wantMessage)
			}
			if s.Remaining() != 0 {
				t.Errorf("Remaining() = %d, want 0: error replies are consumed", s.Remaining())
			}
		})
	}
}

// TestServerReportsCachedTokens sends the same long prefix twice: the second
// answer reports the shared prefix as prompt_tokens_details.cached_tokens,
// which the OpenAI client hands on as PromptTokenDetails.CachedTokens.
func TestServerReportsCachedTokens(t *testing.T) {
	s := New(Reply{Message: Text("one")}, Reply{Message: Text("two")})
	srv := NewServer(s)
	defer srv.Close()
	system, _ := json.Marshal(strings.Repeat("Answer with care; cite the numbers you computed. ", 150))
	body := func(q string) string {
		return `{"model": "gpt-4o", "messages": [{"role": "system", "content": ` + string(system) + `}, {"role": "user", "content": "` + q + `"}]}`
	}
	usage := func(q string) map[string]any {
		resp := post(t, srv.URL+"/v1/chat/completions", body(q))
		var got struct {
			Usage map[string]any `json:"usage"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		return got.Usage
	}
	if first := usage("first question"); first["prompt_tokens_details"] != nil {
		t.Errorf("the first request was served from the cache: %v", first)
	}
	second := usage("second question")
	details, _ := second["prompt_tokens_details"].(map[string]any)
	cached, _ := details["cached_tokens"].(float64)
	if cached < CacheMinTokens || cached > second["prompt_tokens"].(float64) || (int(cached)-CacheMinTokens)%CacheIncrement != 0 {
		t.Errorf("second request's usage %v: want the shared system prompt cached, at least %d tokens, in steps of %d", second, CacheMinTokens, CacheIncrement)
	}
	if got := s.Requests()[1].CachedTokens; got != int(cached) {
		t.Errorf("recorded CachedTokens %d, reported %v", got, cached)
	}
}
