package llm

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Tracing. Every model call made through Wrap is an OpenTelemetry span, and
// StartRun, StartAgent and StartTool make the spans around them, so a run
// reads as run → agent → model call / tool call. This file uses only the
// OpenTelemetry API: spans go to the global tracer provider, a no-op until
// an application installs one (the sift command does so with
// llm/tracing.SetupTracing when the OTEL_* environment asks for it), so
// the library costs next to nothing untraced and links no exporter.

// TracerName is the instrumentation scope of Sift's spans.
const TracerName = "github.com/sift-agent/sift"

// Sift's own span attributes, beside the gen_ai.* ones of the OpenTelemetry
// semantic conventions for generative AI (gen_ai.operation.name,
// gen_ai.system, gen_ai.request.model, gen_ai.usage.input_tokens,
// gen_ai.usage.output_tokens, gen_ai.agent.name, gen_ai.tool.name,
// gen_ai.tool.call.id).
const (
	// AttrAgent is the agent a span belongs to.
	AttrAgent = attribute.Key("sift.agent")
	// AttrStep is the plan step a span belongs to (see WithStep).
	AttrStep = attribute.Key("sift.step")
	// AttrSession is a run span's session ID.
	AttrSession = attribute.Key("sift.session.id")
	// AttrEstimated is true on a model-call span whose token counts were
	// estimated offline because the provider reported none.
	AttrEstimated = attribute.Key("sift.usage.estimated")
	// AttrCost is a model call's cost in US dollars, when priced.
	AttrCost = attribute.Key("sift.usage.cost_usd")
	// AttrTrimmed is how many messages the context window dropped from a
	// model call's request.
	AttrTrimmed = attribute.Key("sift.request.trimmed_messages")
	// AttrAnalysis is the built-in analysis a span ran (see SetBuiltin).
	AttrAnalysis = attribute.Key("sift.analysis")
	// AttrTable is the table a built-in analysis ran on (see SetBuiltin).
	AttrTable = attribute.Key("sift.table")
)

// OpenTelemetry semantic-convention attributes for generative AI.
const (
	attrGenAIOperation      = attribute.Key("gen_ai.operation.name")
	attrGenAISystem         = attribute.Key("gen_ai.system")
	attrGenAIRequestModel   = attribute.Key("gen_ai.request.model")
	attrGenAIInputTokens    = attribute.Key("gen_ai.usage.input_tokens")
	attrGenAIOutputTokens   = attribute.Key("gen_ai.usage.output_tokens")
	attrGenAICachedTokens   = attribute.Key("gen_ai.usage.cached_input_tokens")
	attrGenAIReasonTokens   = attribute.Key("gen_ai.usage.reasoning_tokens")
	attrGenAIAgentName      = attribute.Key("gen_ai.agent.name")
	attrGenAIToolName       = attribute.Key("gen_ai.tool.name")
	attrGenAIToolCallID     = attribute.Key("gen_ai.tool.call.id")
	attrGenAIResponseFinish = attribute.Key("gen_ai.response.finish_reasons")
)

// genAISystem is the gen_ai.system of model-call spans: Sift speaks the
// OpenAI protocol to every provider.
const genAISystem = "openai"

// tracerFor returns the tracer of the span in ctx when it records, so that
// child spans go where their parent went, and the global tracer otherwise.
func tracerFor(ctx context.Context) trace.Tracer {
	if sp := trace.SpanFromContext(ctx); sp.IsRecording() {
		return sp.TracerProvider().Tracer(TracerName)
	}
	return otel.GetTracerProvider().Tracer(TracerName)
}

// stepAttrs returns the step attribute for ctx, if a step is set.
func stepAttrs(ctx context.Context) []attribute.KeyValue {
	if step, ok := StepFrom(ctx); ok {
		return []attribute.KeyValue{AttrStep.Int(step)}
	}
	return nil
}

// endSpan returns a function that records err (if any) on sp and ends it.
func endSpan(sp trace.Span) func(error) {
	return func(err error) {
		if err != nil {
			sp.RecordError(err)
			sp.SetStatus(codes.Error, err.Error())
		}
		sp.End()
	}
}

// StartRun starts the root span of one run (session sessionID). Call the
// returned function with the run's error (or nil) when it ends.
func StartRun(ctx context.Context, sessionID string) (context.Context, func(error)) {
	ctx, sp := tracerFor(ctx).Start(ctx, "sift.run",
		trace.WithAttributes(AttrSession.String(sessionID)))
	return ctx, endSpan(sp)
}

// StartAgent starts the span of one agent's turn, named
// "invoke_agent <name>". Call the returned function with the agent's error
// (or nil) when it ends.
func StartAgent(ctx context.Context, name string) (context.Context, func(error)) {
	attrs := append([]attribute.KeyValue{
		attrGenAIOperation.String("invoke_agent"),
		attrGenAIAgentName.String(name),
		AttrAgent.String(name),
	}, stepAttrs(ctx)...)
	ctx, sp := tracerFor(ctx).Start(ctx, "invoke_agent "+name, trace.WithAttributes(attrs...))
	// Model calls name the turn they belong to (see CallInfo.Agent).
	ctx = context.WithValue(ctx, agentKey{}, name)
	return ctx, endSpan(sp)
}

// StartTool starts the span of one tool call, named "execute_tool <name>".
// Call the returned function with the tool's error (or nil) when it ends.
func StartTool(ctx context.Context, name, callID string) (context.Context, func(error)) {
	attrs := append([]attribute.KeyValue{
		attrGenAIOperation.String("execute_tool"),
		attrGenAIToolName.String(name),
	}, stepAttrs(ctx)...)
	if callID != "" {
		attrs = append(attrs, attrGenAIToolCallID.String(callID))
	}
	ctx, sp := tracerFor(ctx).Start(ctx, "execute_tool "+name, trace.WithAttributes(attrs...))
	return ctx, endSpan(sp)
}

// SetBuiltin records on the span in ctx (a built-in's step or tool span)
// the built-in analysis it runs and the table it runs on.
func SetBuiltin(ctx context.Context, analysis, table string) {
	trace.SpanFromContext(ctx).SetAttributes(AttrAnalysis.String(analysis), AttrTable.String(table))
}

// startModelSpan starts the span of one model call, named "chat <model>".
func startModelSpan(ctx context.Context, agent, modelName string, step int, stepSet bool) (context.Context, trace.Span) {
	attrs := []attribute.KeyValue{
		attrGenAIOperation.String("chat"),
		attrGenAISystem.String(genAISystem),
		AttrAgent.String(agent),
	}
	if modelName != "" {
		attrs = append(attrs, attrGenAIRequestModel.String(modelName))
	}
	if stepSet {
		attrs = append(attrs, AttrStep.Int(step))
	}
	name := "chat"
	if modelName != "" {
		name += " " + modelName
	}
	return tracerFor(ctx).Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endModelSpan records a model call's usage and outcome on sp and ends it.
func endModelSpan(sp trace.Span, c Counts, priced bool, trimmed int, finish string, err error) {
	if sp.IsRecording() {
		attrs := []attribute.KeyValue{
			attrGenAIInputTokens.Int(c.PromptTokens),
			attrGenAIOutputTokens.Int(c.CompletionTokens),
		}
		if c.CachedTokens > 0 {
			attrs = append(attrs, attrGenAICachedTokens.Int(c.CachedTokens))
		}
		if c.ReasoningTokens > 0 {
			attrs = append(attrs, attrGenAIReasonTokens.Int(c.ReasoningTokens))
		}
		if c.Estimated > 0 {
			attrs = append(attrs, AttrEstimated.Bool(true))
		}
		if priced {
			attrs = append(attrs, AttrCost.Float64(c.Cost))
		}
		if trimmed > 0 {
			attrs = append(attrs, AttrTrimmed.Int(trimmed))
		}
		if finish != "" {
			attrs = append(attrs, attrGenAIResponseFinish.StringSlice([]string{finish}))
		}
		sp.SetAttributes(attrs...)
	}
	endSpan(sp)(err)
}
