// Package scripted provides a scripted chat model: a queue of written replies
// played back in order, recording every request. It stands in for a real
// model in tests, benchmarks and offline demos, either in process
// (Script.Model) or behind a local OpenAI-compatible HTTP server (NewServer),
// and it always calls itself what it is.
package scripted

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/tokens"
)

// ErrExhausted is wrapped by the error a Script returns when a request
// arrives after its last reply was used.
var ErrExhausted = errors.New("scripted model: script exhausted")

// Reply is one scripted answer. Exactly one of Message, Func, Err or Status
// is normally set.
type Reply struct {
	// Message is returned as the model's reply. Tool calls without an ID get
	// one ("call_<reply>_<index>").
	Message *schema.Message
	// Func computes the reply from the request, for replies that depend on
	// what was asked.
	Func func(req Request) (*schema.Message, error)
	// Err is returned as the call's error. Through the server it becomes an
	// HTTP error (status Status, default 400) carrying Err's text.
	Err error
	// Status makes the server answer with this HTTP status and an
	// OpenAI-style error body, consuming the reply, so a test can script
	// "429, then success". In process it is returned as an error.
	Status int
	// RetryAfter is sent as the Retry-After header with Status.
	RetryAfter string
	// Midway, when set, is called in an answer streamed by the server
	// (NewServer) after its first piece of content was sent and before
	// the rest, so a test can hold a stream half-written.
	Midway func()
	// Unoffered lets the reply call a tool the request does not offer, as
	// a model that invents one does. Otherwise such a reply is an error:
	// the script is out of step with the agents it plays.
	Unoffered bool
	// file is the script file's reply this one was made from, if any: it
	// says what a Func reply will do (see ResumeAfter).
	file *FileReply
}

// Request is what the model was asked.
type Request struct {
	// Agent is the name given to Script.ModelFor, or "" when unknown (always
	// for requests through the server).
	Agent string
	// Messages is the conversation sent.
	Messages []*schema.Message
	// Tools are the tools offered.
	Tools []*schema.ToolInfo
	// ToolChoice is the tool choice in effect, or nil.
	ToolChoice *schema.ToolChoice
	// PromptTokens is what the request costs as a provider counts it:
	// messages with their framing and the tool definitions (see
	// tokens.Request).
	PromptTokens int
	// CachedTokens is the part of PromptTokens the simulated prefix cache
	// served (see CacheMinTokens).
	CachedTokens int
}

// Script is a queue of replies. It is safe for concurrent use.
type Script struct {
	mu       sync.Mutex
	replies  []Reply
	used     int
	requests []Request
	cache    prefixCache
	// respond answers the requests that come after the queued replies.
	respond func(Request) (*schema.Message, error)
	// delay is how long each in-process reply takes.
	delay time.Duration
}

// NewResponder returns a script that answers every request with f, from
// what was asked: for runs whose requests arrive at the same time (plan
// steps running side by side), where the order of a queue would not hold.
func NewResponder(f func(Request) (*schema.Message, error)) *Script {
	return &Script{respond: f}
}

// SetDelay makes every in-process reply take d, as a provider's latency
// would (a cancelled context ends the wait).
func (s *Script) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// New returns a script that plays replies in order.
func New(replies ...Reply) *Script {
	return &Script{replies: append([]Reply(nil), replies...)}
}

// Push appends replies to the script.
func (s *Script) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Remaining returns how many replies have not been used.
func (s *Script) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies) - s.used
}

// Calls returns how many requests have arrived, including any that found the
// script exhausted.
func (s *Script) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Requests returns a copy of every request received, in order.
func (s *Script) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// next counts req's tokens (modelName picks the tokenizer), records it and
// returns the reply for it with its 1-based number, or an error when the
// script is exhausted.
func (s *Script) next(modelName string, req Request) (Request, Reply, int, error) {
	segs := tokens.Segments(modelName, req.Messages, req.Tools)
	for _, seg := range segs {
		req.PromptTokens += seg.Tokens
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	req.CachedTokens = s.cache.serve(modelName, req.Agent, segs)
	s.requests = append(s.requests, req)
	if s.used >= len(s.replies) && s.respond != nil {
		return req, Reply{Func: s.respond}, len(s.requests), nil
	}
	if s.used >= len(s.replies) {
		return req, Reply{}, 0, fmt.Errorf("%w after %d replies; the last request was %s", ErrExhausted, len(s.replies), describe(req))
	}
	r := s.replies[s.used]
	s.used++
	return req, r, s.used, nil
}

// play returns the message for a reply, or its error. Status replies become
// errors; the server handles them before calling play.
func (r Reply) play(req Request, n int) (*schema.Message, error) {
	var msg *schema.Message
	switch {
	case r.Err != nil:
		return nil, r.Err
	case r.Status != 0:
		return nil, fmt.Errorf("scripted model: reply %d is HTTP status %d, which only the server can send", n, r.Status)
	case r.Func != nil:
		m, err := r.Func(req)
		if err != nil {
			return nil, err
		}
		msg = m
	default:
		msg = r.Message
	}
	if msg == nil {
		return nil, fmt.Errorf("scripted model: reply %d has no message", n)
	}
	if !r.Unoffered {
		if err := checkOffered(req, msg, n); err != nil {
			return nil, err
		}
	}
	out := *msg
	if out.Role == "" {
		out.Role = schema.Assistant
	}
	if msg.ResponseMeta != nil {
		meta := *msg.ResponseMeta
		out.ResponseMeta = &meta
	}
	out.ToolCalls = append([]schema.ToolCall(nil), msg.ToolCalls...)
	for i := range out.ToolCalls {
		if out.ToolCalls[i].ID == "" {
			out.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", n, i)
		}
		if out.ToolCalls[i].Type == "" {
			out.ToolCalls[i].Type = "function"
		}
	}
	return &out, nil
}

// checkOffered fails a reply whose tool call names a tool req does not
// offer: a script written for another shape of the agents (say, a step
// that went through the executor) would otherwise play on, each reply one
// call out of step, and a test could pass for the wrong reason. A request
// that offers no tools at all (a bare model call) is not checked.
func checkOffered(req Request, msg *schema.Message, n int) error {
	if len(req.Tools) == 0 {
		return nil
	}
	for _, tc := range msg.ToolCalls {
		offered := false
		var names []string
		for _, t := range req.Tools {
			offered = offered || t.Name == tc.Function.Name
			names = append(names, t.Name)
		}
		if !offered {
			return fmt.Errorf("scripted model: reply %d calls %q, which the request does not offer (it offers %s): the script is out of step with the agents; the request was %s",
				n, tc.Function.Name, strings.Join(names, ", "), describe(req))
		}
	}
	return nil
}

// describe says who sent req and what it last asked, for exhaustion errors.
func describe(req Request) string {
	var b strings.Builder
	if req.Agent != "" {
		fmt.Fprintf(&b, "from agent %q, ", req.Agent)
	}
	if len(req.Messages) == 0 {
		b.WriteString("with no messages")
	} else {
		last := req.Messages[len(req.Messages)-1]
		fmt.Fprintf(&b, "%d message(s); the last (%s) was %q", len(req.Messages), last.Role, clip(messageText(last), 200))
	}
	if len(req.Tools) > 0 {
		names := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			names[i] = t.Name
		}
		fmt.Fprintf(&b, ", offering tools [%s]", strings.Join(names, ", "))
	}
	return b.String()
}

// messageText is the text a message carries: content, or its tool calls.
func messageText(m *schema.Message) string {
	if m.Content != "" || len(m.ToolCalls) == 0 {
		return m.Content
	}
	parts := make([]string, len(m.ToolCalls))
	for i, tc := range m.ToolCalls {
		parts[i] = tc.Function.Name + "(" + tc.Function.Arguments + ")"
	}
	return strings.Join(parts, "; ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Text returns an assistant message with content s.
func Text(s string) *schema.Message {
	return schema.AssistantMessage(s, nil)
}

// ToolCall returns an assistant message calling tool name with the given
// JSON arguments. The script gives the call an ID when it is played.
func ToolCall(name, argsJSON string) *schema.Message {
	return schema.AssistantMessage("", []schema.ToolCall{{
		Type:     "function",
		Function: schema.FunctionCall{Name: name, Arguments: argsJSON},
	}})
}

// usageFor is the usage a provider would report for req and its reply
// out: the request's prompt and cached tokens, and the reply's tokens
// counted with the tokenizer of modelName.
func usageFor(modelName string, req Request, out *schema.Message) *schema.TokenUsage {
	c := tokens.Reply(modelName, out)
	return &schema.TokenUsage{
		PromptTokens:       req.PromptTokens,
		PromptTokenDetails: schema.PromptTokenDetails{CachedTokens: req.CachedTokens},
		CompletionTokens:   c,
		TotalTokens:        req.PromptTokens + c,
	}
}

// Model returns the script as an in-process chat model.
func (s *Script) Model() model.ToolCallingChatModel {
	return s.ModelFor("")
}

// ModelFor returns the script as an in-process chat model whose requests are
// recorded with Agent set to agent. Several agents can share one script.
func (s *Script) ModelFor(agent string) model.ToolCallingChatModel {
	return &chatModel{script: s, agent: agent}
}

// chatModel plays a Script in process.
type chatModel struct {
	script *Script
	agent  string
	tools  []*schema.ToolInfo
}

// WithTools returns a copy that offers tools.
func (m *chatModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &chatModel{script: m.script, agent: m.agent, tools: tools}, nil
}

// GetType names the model as scripted.
func (m *chatModel) GetType() string { return "Scripted" }

// Script returns the script the model plays.
func (m *chatModel) Script() *Script { return m.script }

// request builds the recorded request: per-call tools replace bound ones,
// and bound tools without a per-call choice mean "allowed", as for the
// OpenAI client.
func (m *chatModel) request(in []*schema.Message, opts []model.Option) Request {
	o := model.GetCommonOptions(nil, opts...)
	req := Request{Agent: m.agent, Tools: m.tools, ToolChoice: o.ToolChoice}
	if o.Tools != nil {
		req.Tools = o.Tools
	}
	if req.ToolChoice == nil && len(req.Tools) > 0 {
		allowed := schema.ToolChoiceAllowed
		req.ToolChoice = &allowed
	}
	req.Messages = make([]*schema.Message, len(in))
	for i, msg := range in {
		c := *msg
		req.Messages[i] = &c
	}
	return req
}

// Generate returns the next scripted reply, with the usage a provider would
// report (see Request.PromptTokens and CachedTokens) when the reply does not
// give its own.
func (m *chatModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("scripted model: %w", err)
	}
	req, r, n, err := m.script.next("", m.request(in, opts))
	if err != nil {
		return nil, err
	}
	m.script.mu.Lock()
	delay := m.script.delay
	m.script.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, fmt.Errorf("scripted model: %w", ctx.Err())
		}
	}
	msg, err := r.play(req, n)
	if err != nil {
		return nil, err
	}
	if msg.ResponseMeta == nil {
		finish := "stop"
		if len(msg.ToolCalls) > 0 {
			finish = "tool_calls"
		}
		msg.ResponseMeta = &schema.ResponseMeta{FinishReason: finish, Usage: usageFor("", req, msg)}
	}
	return msg, nil
}

// Stream returns the next scripted reply as a stream: the content split into
// a few chunks, with tool calls and the response metadata in the last one.
func (m *chatModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray(chunks(msg)), nil
}

// chunks splits msg for streaming; concatenating them gives msg back.
func chunks(msg *schema.Message) []*schema.Message {
	pieces := split(msg.Content, 3)
	out := make([]*schema.Message, 0, len(pieces)+1)
	for _, p := range pieces {
		out = append(out, &schema.Message{Role: msg.Role, Content: p})
	}
	last := *msg
	last.Content = ""
	return append(out, &last)
}

// split cuts s into at most n non-empty pieces on rune boundaries.
func split(s string, n int) []string {
	r := []rune(s)
	if len(r) == 0 {
		return nil
	}
	size := (len(r) + n - 1) / n
	var out []string
	for len(r) > 0 {
		k := min(size, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
