package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"go.opentelemetry.io/otel/trace"

	"github.com/sift-agent/sift/internal/call"
	"github.com/sift-agent/sift/llm/tokens"
	"github.com/sift-agent/sift/llm/trajectory"
)

// Wrap decorates m for one agent. Every Generate and Stream call is metered
// into meter under agent and the plan step in the call's context (see
// WithStep): calls, errors, latency up to the end of a stream, and the
// tokens of the reply's ResponseMeta.Usage (prompt, completion, cached,
// reasoning). When a reply reports no usage, its prompt and completion
// tokens are estimated with the offline tokenizer (see CountTokens) and the
// call is counted as Estimated. nil meter meters nothing. Every call is
// also an OpenTelemetry span (see StartRun), a no-op unless an application
// installed a tracer provider.
//
// Tool-call arguments that are not valid JSON are repaired. When a call
// forces a tool choice (model.WithToolChoice with schema.ToolChoiceForced)
// and the model answers with the call written as JSON text instead of a
// tool call, the call is recovered from the text.
//
// Options name the model (for the tokenizer, prices and spans), price the
// calls, record them in a trajectory, and trim requests to a context
// window: see WithModelName, WithPrices, WithTrajectory and WithWindow.
//
// WithTools returns a wrapped copy that remembers the tools. Streams stay
// live: text chunks pass through as they arrive, while tool-call fragments
// are held back and sent, joined and repaired, in one final chunk. A stream
// whose call forces a tool choice is collected and re-sent as one message, so
// a call written as text can be recovered.
func Wrap(m model.ToolCallingChatModel, agent string, meter *Meter, opts ...WrapOption) model.ToolCallingChatModel {
	cfg := &wrapConfig{}
	for _, o := range opts {
		o(cfg)
	}
	return &decorated{inner: m, agent: agent, meter: meter, cfg: cfg}
}

// WrapOption configures Wrap.
type WrapOption func(*wrapConfig)

// wrapConfig holds Wrap's options; it is shared by the copies WithTools
// makes.
type wrapConfig struct {
	modelName  string
	prices     PriceTable
	trajectory *trajectory.Writer
	window     Window
	check      ArgumentCheck
}

// ArgumentCheck decodes a tool call's arguments as their reader will, and
// says what it could not read; nil when it reads them.
type ArgumentCheck func(tool, args string) error

// WithArgumentCheck checks the arguments of every forced tool call (a plan,
// a final answer) with check once they are repaired and taken as the
// tool's schema means them. Arguments it refuses go back to the model as
// the call's tool answer, saying what is wrong, and the model is asked
// again, at most twice; then the reply is returned as it is. Without it,
// nothing is checked.
func WithArgumentCheck(check ArgumentCheck) WrapOption {
	return func(c *wrapConfig) { c.check = check }
}

// WithModelName names the model behind the decorated one: the tokenizer
// counts for it (see EncodingFor), prices are looked up by it, and spans
// and trajectory records carry it. Without it, estimates use the fallback
// encoding and calls have no price.
func WithModelName(name string) WrapOption {
	return func(c *wrapConfig) { c.modelName = name }
}

// WithPrices prices every call with t (see PriceTable.Cost) into
// Counts.Cost; calls whose model t lacks are counted in Counts.Unpriced.
func WithPrices(t PriceTable) WrapOption {
	return func(c *wrapConfig) { c.prices = t }
}

// WithTrajectory records every call in t (see trajectory.Writer).
func WithTrajectory(t *trajectory.Writer) WrapOption {
	return func(c *wrapConfig) { c.trajectory = t }
}

// WithWindow trims each request to fit the context window w before it is
// sent (see Window). The caller's messages are not changed; only the
// request is shorter. Without it, requests are sent whole.
func WithWindow(w Window) WrapOption {
	return func(c *wrapConfig) { c.window = w }
}

// decorated is the model returned by Wrap.
type decorated struct {
	inner model.ToolCallingChatModel
	agent string
	meter *Meter
	cfg   *wrapConfig
	tools []*schema.ToolInfo
}

// WithTools binds tools to the inner model and returns a wrapped copy that
// remembers them.
func (d *decorated) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	inner, err := d.inner.WithTools(tools)
	if err != nil {
		return nil, fmt.Errorf("model: bind %d tools for %s: %w", len(tools), d.agent, err)
	}
	return &decorated{inner: inner, agent: d.agent, meter: d.meter, cfg: d.cfg, tools: tools}, nil
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
	check  ArgumentCheck
}

// toolsFor reads the tools in effect for one call: per-call tools replace
// bound ones, and allowed tool names narrow them.
func (d *decorated) toolsFor(opts []model.Option) callTools {
	tools, forced := call.Tools(d.tools, opts)
	ct := callTools{tools: tools, forced: forced}
	if d.cfg != nil {
		ct.check = d.cfg.check
	}
	return ct
}

// fix repairs a complete reply's tool calls and, when a tool was forced,
// recovers a call written as text. It returns a copy; msg is not changed.
func (ct callTools) fix(msg *schema.Message) *schema.Message {
	if msg == nil {
		return nil
	}
	out := *msg
	out.ToolCalls = append([]schema.ToolCall(nil), msg.ToolCalls...)
	repairToolCalls(&out, ct.tools)
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

// Generate calls the inner model, meters the call and fixes the reply. A
// forced tool call whose arguments the WithArgumentCheck check refuses goes
// back to the model with what is wrong, at most maxArgumentRetries times.
func (d *decorated) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	for attempt := 0; ; attempt++ {
		c, sent := d.begin(ctx, in, opts, false)
		msg, err := d.inner.Generate(c.ctx, sent, opts...)
		if err != nil {
			c.end(nil, nil, err)
			return nil, fmt.Errorf("model: %s model call: %w", d.agent, err)
		}
		fixed := c.tools.fix(msg)
		c.end(fixed, usageOf(msg), nil)
		bad := c.tools.bad(fixed)
		if bad == nil || attempt >= maxArgumentRetries {
			return fixed, nil
		}
		in = retryInput(in, fixed, bad)
	}
}

// bad lists the reply's forced tool calls whose arguments the check
// refuses; nil when the call was not forced or every call passes.
func (ct callTools) bad(msg *schema.Message) map[string]string {
	if !ct.forced || msg == nil {
		return nil
	}
	return badCalls(msg, ct.check)
}

// Stream calls the inner model and meters the stream when it ends, holding
// back tool-call fragments (or, when a tool is forced, the whole reply) to
// repair them.
func (d *decorated) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	c, in := d.begin(ctx, in, opts, true)
	sr, err := d.inner.Stream(c.ctx, in, opts...)
	if err != nil {
		c.end(nil, nil, err)
		return nil, fmt.Errorf("model: %s model stream: %w", d.agent, err)
	}
	if c.tools.forced && len(c.tools.tools) > 0 {
		for attempt := 0; ; attempt++ {
			msg, err := schema.ConcatMessageStream(sr)
			if err != nil {
				c.end(msg, usageOf(msg), err)
				return nil, fmt.Errorf("model: %s model stream: %w", d.agent, err)
			}
			fixed := c.tools.fix(msg)
			c.end(fixed, usageOf(msg), nil)
			bad := c.tools.bad(fixed)
			if bad == nil || attempt >= maxArgumentRetries {
				return schema.StreamReaderFromArray([]*schema.Message{fixed}), nil
			}
			// The arguments go back to the model, as Generate does.
			in = retryInput(in, fixed, bad)
			var sent []*schema.Message
			c, sent = d.begin(ctx, in, opts, true)
			if sr, err = d.inner.Stream(c.ctx, sent, opts...); err != nil {
				c.end(nil, nil, err)
				return nil, fmt.Errorf("model: %s model stream: %w", d.agent, err)
			}
		}
	}

	out, w := schema.Pipe[*schema.Message](1)
	go d.relay(sr, w, c)
	return out, nil
}

// relay copies sr to w, holding back tool-call fragments until the end, then
// ends the call. It stops early when the reader of w closes it.
func (d *decorated) relay(sr *schema.StreamReader[*schema.Message], w *schema.StreamWriter[*schema.Message], c *modelCall) {
	defer sr.Close()
	defer w.Close()

	var (
		usage     *schema.TokenUsage
		frags     []schema.ToolCall
		role      schema.RoleType
		content   strings.Builder
		reasoning strings.Builder
		finish    string
		calls     []schema.ToolCall
		recErr    error
	)
	defer func() {
		reply := &schema.Message{Role: role, Content: content.String(), ReasoningContent: reasoning.String(), ToolCalls: calls}
		if finish != "" {
			reply.ResponseMeta = &schema.ResponseMeta{FinishReason: finish}
		}
		c.end(reply, usage, recErr)
	}()

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
		content.WriteString(chunk.Content)
		reasoning.WriteString(chunk.ReasoningContent)
		if chunk.ResponseMeta != nil && chunk.ResponseMeta.FinishReason != "" {
			finish = chunk.ResponseMeta.FinishReason
		}
		if len(chunk.ToolCalls) > 0 {
			frags = append(frags, chunk.ToolCalls...)
			cp := *chunk
			cp.ToolCalls = nil
			chunk = &cp
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
	repairToolCalls(joined, c.tools.tools)
	calls = joined.ToolCalls
	w.Send(joined, nil)
}

// modelCall is one Generate or Stream call in flight.
type modelCall struct {
	d       *decorated
	ctx     context.Context
	span    trace.Span
	start   time.Time
	step    int
	req     []*schema.Message
	tools   callTools
	trimmed int
	stream  bool
	// observe is told when the call starts and ends (see
	// WithCallObserver); nil when nobody asked.
	observe CallObserver
}

// info describes the call for its observer.
func (c *modelCall) info() CallInfo {
	return CallInfo{Role: c.d.agent, Agent: AgentFrom(c.ctx), Step: c.step, Started: c.start}
}

// begin starts a call: it trims the request to the window, reads the step
// and starts the span. It returns the request to send.
func (d *decorated) begin(ctx context.Context, in []*schema.Message, opts []model.Option, stream bool) (*modelCall, []*schema.Message) {
	ct := d.toolsFor(opts)
	sent := d.fit(in, ct.tools)
	step, stepSet := StepFrom(ctx)
	c := &modelCall{d: d, start: time.Now(), step: step, req: sent, tools: ct, trimmed: len(in) - len(sent), stream: stream}
	c.ctx, c.span = startModelSpan(ctx, d.agent, d.cfg.modelName, step, stepSet)
	if c.observe = callObserverFrom(ctx); c.observe != nil {
		c.observe(c.info())
	}
	return c, sent
}

// fit trims in to the configured window, if any.
func (d *decorated) fit(in []*schema.Message, tools []*schema.ToolInfo) []*schema.Message {
	w := d.cfg.window
	if w.Tokens <= 0 {
		return in
	}
	w = w.WithDefaults()
	if w.DropDuplicates {
		in = DropDuplicates(in)
	}
	pin := isSystem
	if w.KeepFirstUser {
		first := slices.IndexFunc(in, func(m *schema.Message) bool { return m != nil && m.Role == schema.User })
		pin = func(i int, m *schema.Message) bool { return m.Role == schema.System || i == first }
	}
	// A request that fits even counting a token per byte, with nothing
	// to drop, needs no tokenizer: the first call of a run then leaves at
	// once, instead of after the encoder's second of loading.
	if tokens.RequestAtMost(in, tools) <= w.Tokens-w.OutputReserve-w.Margin && len(split(in, pin).orphans) == 0 {
		return in
	}
	name := d.cfg.modelName
	budget := w.Tokens - w.OutputReserve - w.Margin - CountTools(name, tools) - tokensReplyPrime
	return trimHistory(in, max(budget, 0), func(m *schema.Message) int { return CountMessage(name, m) }, pin)
}

// end meters, records and traces the finished call. reply is what the
// caller received (possibly partial, or nil); usage is what the provider
// reported (possibly nil).
func (c *modelCall) end(reply *schema.Message, usage *schema.TokenUsage, err error) {
	d := c.d
	counts := countsOf(usage)
	counts.Latency = time.Since(c.start)
	if err != nil {
		counts.Errors = 1
	} else if usage == nil || usage.PromptTokens+usage.CompletionTokens == 0 {
		counts.PromptTokens = CountTokens(d.cfg.modelName, c.req, c.tools.tools)
		counts.CompletionTokens = tokens.Reply(d.cfg.modelName, reply)
		counts.Estimated = 1
	}
	priced := false
	if d.cfg.prices != nil {
		if cost, ok := d.cfg.prices.Cost(d.cfg.modelName, counts); ok {
			counts.Cost, priced = cost, true
		} else {
			counts.Unpriced = 1
		}
	}
	d.meter.AddStep(d.agent, c.step, counts)

	finish := ""
	if reply != nil && reply.ResponseMeta != nil {
		finish = reply.ResponseMeta.FinishReason
	}
	if t := d.cfg.trajectory; t != nil {
		rec := trajectory.Record{
			Time: c.start, Agent: d.agent, Step: c.step, Turn: TurnFrom(c.ctx), Model: d.cfg.modelName, Stream: c.stream,
			Request: t.Messages(c.req), Trimmed: c.trimmed, ToolChoiceForced: c.tools.forced,
			LatencyMS: counts.Latency.Milliseconds(), Error: errText(err),
		}
		rec.Tools, rec.ToolDefs = t.Tools(c.tools.tools)
		if reply != nil && (reply.Role != "" || reply.Content != "" || reply.ReasoningContent != "" || len(reply.ToolCalls) > 0) {
			m := t.Message(reply)
			rec.Response = &m
		}
		if err == nil {
			rec.Usage = &trajectory.Usage{
				PromptTokens: counts.PromptTokens, CompletionTokens: counts.CompletionTokens,
				CachedTokens: counts.CachedTokens, ReasoningTokens: counts.ReasoningTokens,
				Estimated: counts.Estimated > 0, Cost: counts.Cost, Unpriced: counts.Unpriced > 0,
			}
		}
		t.Write(rec)
	}
	endModelSpan(c.span, counts, priced, c.trimmed, finish, err)
	if c.observe != nil {
		info := c.info()
		info.Done, info.Counts, info.Err = true, counts, err
		c.observe(info)
	}
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
		PromptTokens:            max(a.PromptTokens, b.PromptTokens),
		PromptTokenDetails:      schema.PromptTokenDetails{CachedTokens: max(a.PromptTokenDetails.CachedTokens, b.PromptTokenDetails.CachedTokens)},
		CompletionTokens:        max(a.CompletionTokens, b.CompletionTokens),
		TotalTokens:             max(a.TotalTokens, b.TotalTokens),
		CompletionTokensDetails: schema.CompletionTokensDetails{ReasoningTokens: max(a.CompletionTokensDetails.ReasoningTokens, b.CompletionTokensDetails.ReasoningTokens)},
	}
}

// errText is err's text, or "".
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
