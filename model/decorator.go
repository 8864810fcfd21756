package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Wrap decorates m for one agent. Every Generate and Stream call is metered
// into meter under agent (calls, errors, prompt and completion tokens from
// the reply's ResponseMeta.Usage, latency up to the end of a stream); nil
// meter meters nothing. Tool-call arguments that are not valid JSON are
// repaired. When a call forces a tool choice (model.WithToolChoice with
// schema.ToolChoiceForced) and the model answers with the call written as
// JSON text instead of a tool call, the call is recovered from the text.
//
// WithTools returns a wrapped copy that remembers the tools. Streams stay
// live: text chunks pass through as they arrive, while tool-call fragments
// are held back and sent, joined and repaired, in one final chunk. A stream
// whose call forces a tool choice is collected and re-sent as one message, so
// a call written as text can be recovered.
func Wrap(m model.ToolCallingChatModel, agent string, meter *Meter) model.ToolCallingChatModel {
	return &decorated{inner: m, agent: agent, meter: meter}
}

// decorated is the model returned by Wrap.
type decorated struct {
	inner model.ToolCallingChatModel
	agent string
	meter *Meter
	tools []*schema.ToolInfo
}

// WithTools binds tools to the inner model and returns a wrapped copy that
// remembers them.
func (d *decorated) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	inner, err := d.inner.WithTools(tools)
	if err != nil {
		return nil, fmt.Errorf("model: bind %d tools for %s: %w", len(tools), d.agent, err)
	}
	return &decorated{inner: inner, agent: d.agent, meter: d.meter, tools: tools}, nil
}

// GetType reports the inner model's type.
func (d *decorated) GetType() string {
	if t, ok := components.GetType(d.inner); ok {
		return t
	}
	return "Decorated"
}

// IsCallbacksEnabled reports whether the inner model runs callbacks itself,
// so that Eino neither skips nor doubles them.
func (d *decorated) IsCallbacksEnabled() bool {
	return components.IsCallbacksEnabled(d.inner)
}

// callTools is what a call knows about its tools.
type callTools struct {
	tools  []*schema.ToolInfo
	forced bool
}

// toolsFor reads the tools in effect for one call: per-call tools replace
// bound ones, and allowed tool names narrow them.
func (d *decorated) toolsFor(opts []model.Option) callTools {
	o := model.GetCommonOptions(nil, opts...)
	tools := d.tools
	if o.Tools != nil {
		tools = o.Tools
	}
	if len(o.AllowedToolNames) > 0 {
		allowed := make(map[string]bool, len(o.AllowedToolNames))
		for _, n := range o.AllowedToolNames {
			allowed[n] = true
		}
		var narrowed []*schema.ToolInfo
		for _, t := range tools {
			if allowed[t.Name] {
				narrowed = append(narrowed, t)
			}
		}
		tools = narrowed
	}
	return callTools{tools: tools, forced: o.ToolChoice != nil && *o.ToolChoice == schema.ToolChoiceForced}
}

// fix repairs a complete reply's tool calls and, when a tool was forced,
// recovers a call written as text. It returns a copy; msg is not changed.
func (ct callTools) fix(msg *schema.Message) *schema.Message {
	if msg == nil {
		return nil
	}
	out := *msg
	out.ToolCalls = append([]schema.ToolCall(nil), msg.ToolCalls...)
	repairToolCalls(&out)
	if len(out.ToolCalls) == 0 && ct.forced && len(ct.tools) > 0 {
		if tc, ok := recoverToolCall(out.Content, ct.tools); ok {
			out.ToolCalls = []schema.ToolCall{tc}
			out.Content = ""
			if out.Role == "" {
				out.Role = schema.Assistant
			}
		}
	}
	return &out
}

// Generate calls the inner model, meters the call and fixes the reply.
func (d *decorated) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	start := time.Now()
	msg, err := d.inner.Generate(ctx, in, opts...)
	d.meter.record(d.agent, usageOf(msg), time.Since(start), err)
	if err != nil {
		return nil, fmt.Errorf("model: %s model call: %w", d.agent, err)
	}
	return d.toolsFor(opts).fix(msg), nil
}

// Stream calls the inner model and meters the stream when it ends, holding
// back tool-call fragments (or, when a tool is forced, the whole reply) to
// repair them.
func (d *decorated) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	start := time.Now()
	sr, err := d.inner.Stream(ctx, in, opts...)
	if err != nil {
		d.meter.record(d.agent, nil, time.Since(start), err)
		return nil, fmt.Errorf("model: %s model stream: %w", d.agent, err)
	}
	ct := d.toolsFor(opts)
	if ct.forced && len(ct.tools) > 0 {
		msg, err := schema.ConcatMessageStream(sr)
		d.meter.record(d.agent, usageOf(msg), time.Since(start), err)
		if err != nil {
			return nil, fmt.Errorf("model: %s model stream: %w", d.agent, err)
		}
		return schema.StreamReaderFromArray([]*schema.Message{ct.fix(msg)}), nil
	}

	out, w := schema.Pipe[*schema.Message](1)
	go d.relay(sr, w, start)
	return out, nil
}

// relay copies sr to w, holding back tool-call fragments until the end, then
// meters the call. It stops early when the reader of w closes it.
func (d *decorated) relay(sr *schema.StreamReader[*schema.Message], w *schema.StreamWriter[*schema.Message], start time.Time) {
	defer sr.Close()
	defer w.Close()

	var (
		usage  *schema.TokenUsage
		frags  []schema.ToolCall
		role   schema.RoleType
		recErr error
	)
	defer func() { d.meter.record(d.agent, usage, time.Since(start), recErr) }()

	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			recErr = err
			w.Send(nil, fmt.Errorf("model: %s model stream: %w", d.agent, err))
			return
		}
		if chunk == nil {
			continue
		}
		usage = maxUsage(usage, usageOf(chunk))
		if chunk.Role != "" {
			role = chunk.Role
		}
		if len(chunk.ToolCalls) > 0 {
			frags = append(frags, chunk.ToolCalls...)
			c := *chunk
			c.ToolCalls = nil
			chunk = &c
		}
		if w.Send(chunk, nil) {
			return
		}
	}

	if len(frags) == 0 {
		return
	}
	if role == "" {
		role = schema.Assistant
	}
	joined, err := schema.ConcatMessages([]*schema.Message{{Role: role, ToolCalls: frags}})
	if err != nil {
		recErr = err
		w.Send(nil, fmt.Errorf("model: %s model stream: join tool-call fragments: %w", d.agent, err))
		return
	}
	repairToolCalls(joined)
	w.Send(joined, nil)
}

// usageOf returns msg's token usage, or nil.
func usageOf(msg *schema.Message) *schema.TokenUsage {
	if msg == nil || msg.ResponseMeta == nil {
		return nil
	}
	return msg.ResponseMeta.Usage
}

// maxUsage combines stream usage as schema.ConcatMessages does: field by
// field maximum, since providers report running totals.
func maxUsage(a, b *schema.TokenUsage) *schema.TokenUsage {
	if b == nil {
		return a
	}
	if a == nil {
		c := *b
		return &c
	}
	return &schema.TokenUsage{
		PromptTokens:     max(a.PromptTokens, b.PromptTokens),
		CompletionTokens: max(a.CompletionTokens, b.CompletionTokens),
		TotalTokens:      max(a.TotalTokens, b.TotalTokens),
	}
}
