package scripted

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// NewServer starts a local OpenAI-compatible chat server that plays s. It
// serves POST /v1/chat/completions and /chat/completions, answering in JSON
// or, when the request asks to stream, in server-sent events: content in a
// few chunks, each tool call as deltas (index, ID and name first, then the
// arguments in pieces), a finish reason, and a usage chunk when
// stream_options.include_usage is set. Usage is what a provider would report
// (prompt tokens with tool definitions and framing, counted with the request
// model's tokenizer, and prompt_tokens_details.cached_tokens from the
// simulated prefix cache; see CacheMinTokens) unless the scripted message
// carries its own.
//
// A Reply with Status answers with that status (and Retry-After), consuming
// the reply; a Reply with Err answers 400 (or Status) with Err's text; an
// exhausted script answers 400 with ErrExhausted's description. Point an
// OpenAI client at server.URL + "/v1". Close the server when done.
func NewServer(s *Script) *httptest.Server {
	h := &handler{script: s}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", h.chatCompletions)
	mux.HandleFunc("/chat/completions", h.chatCompletions)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("scripted model server: no route for %s %s; it serves POST /v1/chat/completions", r.Method, r.URL.Path))
	})
	return httptest.NewServer(mux)
}

// created is the fixed timestamp of every reply, for reproducible output.
const created = 1700000000

type handler struct {
	script *Script
}

// Wire types of the OpenAI chat completions API, as far as the server needs.
type (
	chatRequest struct {
		Model         string          `json:"model"`
		Messages      []wireMessage   `json:"messages"`
		Tools         []wireTool      `json:"tools"`
		ToolChoice    json.RawMessage `json:"tool_choice"`
		Stream        bool            `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	wireMessage struct {
		Role             string          `json:"role,omitempty"`
		Content          json.RawMessage `json:"content,omitempty"`
		ReasoningContent string          `json:"reasoning_content,omitempty"`
		Name             string          `json:"name,omitempty"`
		ToolCalls        []wireToolCall  `json:"tool_calls,omitempty"`
		ToolCallID       string          `json:"tool_call_id,omitempty"`
	}
	wireToolCall struct {
		Index    *int         `json:"index,omitempty"`
		ID       string       `json:"id,omitempty"`
		Type     string       `json:"type,omitempty"`
		Function wireFunction `json:"function"`
	}
	wireFunction struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	wireTool struct {
		Type     string `json:"type"`
		Function struct {
			Name        string             `json:"name"`
			Description string             `json:"description"`
			Parameters  *jsonschema.Schema `json:"parameters"`
		} `json:"function"`
	}
	wireUsage struct {
		PromptTokens        int               `json:"prompt_tokens"`
		CompletionTokens    int               `json:"completion_tokens"`
		TotalTokens         int               `json:"total_tokens"`
		PromptTokensDetails *wireTokenDetails `json:"prompt_tokens_details,omitempty"`
	}
	wireTokenDetails struct {
		CachedTokens int `json:"cached_tokens"`
	}
	wireChoice struct {
		Index        int          `json:"index"`
		Message      *wireMessage `json:"message,omitempty"`
		Delta        *wireMessage `json:"delta,omitempty"`
		FinishReason *string      `json:"finish_reason"`
	}
	completion struct {
		ID      string       `json:"id"`
		Object  string       `json:"object"`
		Created int64        `json:"created"`
		Model   string       `json:"model"`
		Choices []wireChoice `json:"choices"`
		Usage   *wireUsage   `json:"usage,omitempty"`
	}
)

func (h *handler) chatCompletions(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "scripted model server: use POST for chat completions")
		return
	}
	var body chatRequest
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "scripted model server: request body is not a chat completion request: "+err.Error())
		return
	}
	req, err := body.request()
	if err != nil {
		writeError(w, http.StatusBadRequest, "scripted model server: "+err.Error())
		return
	}

	req, reply, n, err := h.script.next(body.Model, req)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if reply.Status != 0 && reply.Err == nil {
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		writeError(w, reply.Status, fmt.Sprintf("scripted model: reply %d answers HTTP %d", n, reply.Status))
		return
	}
	if reply.Err != nil {
		status := reply.Status
		if status == 0 {
			status = http.StatusBadRequest
		}
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		writeError(w, status, reply.Err.Error())
		return
	}
	msg, err := reply.play(req, n)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}

	usage := usageFor(body.Model, req, msg)
	finish := "stop"
	if len(msg.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	if msg.ResponseMeta != nil {
		if msg.ResponseMeta.Usage != nil {
			usage = msg.ResponseMeta.Usage
		}
		if msg.ResponseMeta.FinishReason != "" {
			finish = msg.ResponseMeta.FinishReason
		}
	}
	wu := &wireUsage{PromptTokens: usage.PromptTokens, CompletionTokens: usage.CompletionTokens, TotalTokens: usage.PromptTokens + usage.CompletionTokens}
	if cached := usage.PromptTokenDetails.CachedTokens; cached > 0 {
		wu.PromptTokensDetails = &wireTokenDetails{CachedTokens: cached}
	}
	id := fmt.Sprintf("chatcmpl-scripted-%d", n)

	if body.Stream {
		includeUsage := body.StreamOptions != nil && body.StreamOptions.IncludeUsage
		writeStream(w, id, body.Model, msg, finish, wu, includeUsage, reply.Midway)
		return
	}
	out := completion{
		ID: id, Object: "chat.completion", Created: created, Model: body.Model,
		Choices: []wireChoice{{Message: toWire(msg), FinishReason: &finish}},
		Usage:   wu,
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// request converts the wire request to a Request.
func (b *chatRequest) request() (Request, error) {
	var req Request
	for i, wm := range b.Messages {
		content, err := contentText(wm.Content)
		if err != nil {
			return Request{}, fmt.Errorf("message %d: %w", i, err)
		}
		m := &schema.Message{
			Role:             schema.RoleType(wm.Role),
			Content:          content,
			ReasoningContent: wm.ReasoningContent,
			Name:             wm.Name,
			ToolCallID:       wm.ToolCallID,
		}
		for _, tc := range wm.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, schema.ToolCall{
				ID: tc.ID, Type: tc.Type,
				Function: schema.FunctionCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments},
			})
		}
		req.Messages = append(req.Messages, m)
	}
	for _, t := range b.Tools {
		ti := &schema.ToolInfo{Name: t.Function.Name, Desc: t.Function.Description}
		if t.Function.Parameters != nil {
			ti.ParamsOneOf = schema.NewParamsOneOfByJSONSchema(t.Function.Parameters)
		}
		req.Tools = append(req.Tools, ti)
	}
	tc, err := toolChoice(b.ToolChoice)
	if err != nil {
		return Request{}, err
	}
	req.ToolChoice = tc
	return req, nil
}

// contentText reads a message's content: a string, or an array of parts
// whose text parts are joined.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("content is neither a string nor an array of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// toolChoice maps the wire tool_choice to Eino's.
func toolChoice(raw json.RawMessage) (*schema.ToolChoice, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	choice := func(c schema.ToolChoice) (*schema.ToolChoice, error) { return &c, nil }
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "none":
			return choice(schema.ToolChoiceForbidden)
		case "auto":
			return choice(schema.ToolChoiceAllowed)
		case "required":
			return choice(schema.ToolChoiceForced)
		}
		return nil, fmt.Errorf("unknown tool_choice %q", s)
	}
	var obj struct {
		Type         string `json:"type"`
		AllowedTools struct {
			Mode string `json:"mode"`
		} `json:"allowed_tools"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("tool_choice is neither a string nor an object: %w", err)
	}
	if obj.Type == "allowed_tools" && obj.AllowedTools.Mode != "required" {
		return choice(schema.ToolChoiceAllowed)
	}
	return choice(schema.ToolChoiceForced)
}

// toWire converts a reply message for a non-streamed answer.
func toWire(msg *schema.Message) *wireMessage {
	content, _ := json.Marshal(msg.Content)
	wm := &wireMessage{Role: string(msg.Role), Content: content, ReasoningContent: msg.ReasoningContent}
	for _, tc := range msg.ToolCalls {
		wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
			ID: tc.ID, Type: tc.Type,
			Function: wireFunction{Name: tc.Function.Name, Arguments: tc.Function.Arguments},
		})
	}
	return wm
}

// writeStream sends msg as server-sent events.
func writeStream(w http.ResponseWriter, id, modelName string, msg *schema.Message, finish string, usage *wireUsage, includeUsage bool, midway func()) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)

	send := func(c completion) {
		c.ID, c.Object, c.Created, c.Model = id, "chat.completion.chunk", created, modelName
		data, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
	delta := func(d wireMessage) {
		send(completion{Choices: []wireChoice{{Delta: &d}}})
	}
	text := func(s string) json.RawMessage {
		b, _ := json.Marshal(s)
		return b
	}

	delta(wireMessage{Role: string(msg.Role), Content: text("")})
	for _, p := range split(msg.ReasoningContent, 3) {
		delta(wireMessage{ReasoningContent: p})
	}
	for i, p := range split(msg.Content, 3) {
		delta(wireMessage{Content: text(p)})
		if i == 0 && midway != nil {
			midway()
		}
	}
	for i, tc := range msg.ToolCalls {
		index := i
		delta(wireMessage{ToolCalls: []wireToolCall{{
			Index: &index, ID: tc.ID, Type: tc.Type,
			Function: wireFunction{Name: tc.Function.Name},
		}}})
		for _, p := range split(tc.Function.Arguments, 3) {
			delta(wireMessage{ToolCalls: []wireToolCall{{Index: &index, Function: wireFunction{Arguments: p}}}})
		}
	}
	send(completion{Choices: []wireChoice{{Delta: &wireMessage{}, FinishReason: &finish}}})
	if includeUsage {
		send(completion{Choices: []wireChoice{}, Usage: usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// writeError sends an OpenAI-style error body.
func writeError(w http.ResponseWriter, status int, message string) {
	errType := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		errType = "rate_limit_error"
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		errType = "authentication_error"
	case status >= 500:
		errType = "server_error"
	}
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    int    `json:"code"`
		} `json:"error"`
	}
	body.Error.Message, body.Error.Type, body.Error.Code = message, errType, status
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}
