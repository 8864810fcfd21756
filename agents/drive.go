package agents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
)

// newRunner builds the agent tree over op and a Runner that checkpoints
// into the session store whenever the run waits for the person.
func (r *run) newRunner(ctx context.Context, op operator.Operator, guard *tree.BudgetGuard) (*adk.Runner, error) {
	root, err := r.newTree(ctx, op, guard)
	if err != nil {
		return nil, err
	}
	return adk.NewRunner(ctx, adk.RunnerConfig{Agent: root, EnableStreaming: r.sift.cfg.Stream, CheckPointStore: r.sift.store.Checkpoints}), nil
}

// newTree builds the run's agent tree over op: its approval policy, MCP
// servers, models, databases and bounds. It is the one tree config, for
// Run, Resume, a conversation's data analyst and an embedder's Agent.
func (r *run) newTree(ctx context.Context, op operator.Operator, guard *tree.BudgetGuard) (adk.ResumableAgent, error) {
	policy := tools.DefaultPolicy()
	if r.sift.cfg.PolicyFile != "" {
		var err error
		if policy, err = tools.LoadPolicy(r.sift.cfg.PolicyFile); err != nil {
			return nil, err
		}
	}
	if r.req.Yes {
		policy.AutoApprove, policy.Unattended = true, true
	}
	policy.SeeURLsIn(r.req.Question)
	r.connectMCP(ctx, op, policy)
	cfg := tree.Config{
		MCP:             r.mcp,
		Policy:          policy,
		Unattended:      r.req.Yes,
		Recall:          r.recall,
		Budget:          guard,
		Models:          r.sift.models(r.meter, r.trajectory),
		Verbatim:        r.sift.cfg.Verbatim,
		Operator:        op,
		Search:          r.sift.cfg.Search,
		Fetch:           r.sift.cfg.Fetch,
		MaxIterations:   r.sift.cfg.MaxIterations,
		ClassicExecutor: r.sift.cfg.ClassicExecutor,
		Sources:         r.sources,
		Outputs:         r.outputs,
		Extensions:      r.sift.cfg.Extensions,
		Locale:          r.sift.cfg.Locale,
		ReportImages:    r.sift.cfg.Models.acceptsImages("report"),
		StreamReport:    r.sift.cfg.Stream || r.sift.cfg.StreamReport,
		Parallel:        r.parallel(),
		Offer:           prompt.OfferFor(r.req.Question, r.req.Template, r.sift.cfg.Search != nil, r.previews),
		Layout:          r.layout,
	}
	r.direct = cfg.Direct()
	r.layout = tree.LayoutExecutor
	if r.direct {
		r.layout = tree.LayoutDirect
	}
	return tree.Build(ctx, cfg)
}

// drive consumes the agents' events to the end: it emits them, and then
// finishes the run as done, waiting for the person, over budget or failed.
func (r *run) drive(ctx context.Context, events *adk.AsyncIterator[*adk.AgentEvent], guard *tree.BudgetGuard) {
	ws := r.ws
	var runErr error
	var waiting *event.Interrupt
	reported, paused := false, false
	for {
		ev, ok := events.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			runErr = ev.Err
			continue
		}
		if in := tree.InterruptOf(ev); in != nil {
			waiting = in
			if !r.emit(event.Event{Kind: event.Interrupted, Interrupt: in, Step: r.current}) {
				return
			}
			continue
		}
		if !r.translate(ev, func(e event.Event) bool {
			switch e.Kind {
			case event.Report:
				reported = true
			case event.Paused:
				paused = true
			}
			return r.emit(e)
		}) {
			return
		}
	}
	if fp, err := tree.LoadPlanState(ws.Root); err == nil {
		r.plan = fp
	}
	runErr = tree.PlainError(ctx, runErr)
	if runErr == nil && paused {
		r.keepRemembered()
		r.putMeta(ctx, session.StatusPaused, nil)
		err := fmt.Errorf("%w: session %s keeps its work and goes on when resumed", ErrPaused, ws.ID)
		r.close(event.Event{Kind: event.Done, Err: err, Plan: r.plan.Clone(), Usage: r.usage(), Path: ws.Root, Text: "paused"})
		return
	}
	if runErr == nil && waiting != nil {
		r.putMeta(ctx, session.StatusWaiting, waiting)
		r.doneWaiting(waiting)
		return
	}
	if runErr != nil && ctx.Err() != nil {
		// Stopped at once (Ctrl-C twice, a cancelled context): everything
		// done so far stays, the rest waits for Sift.Resume.
		_ = r.ownPlan(ctx).Save()
		if !reported {
			r.saveStopReport(fmt.Sprintf("The run was stopped (%v) and can go on with: sift resume %s. This report holds what was found until then.", runErr, ws.ID))
		}
		err := fmt.Errorf("%w: %w", ErrRunFailed, runErr)
		r.emit(event.Event{Kind: event.Error, Err: err})
		r.putMeta(context.WithoutCancel(ctx), session.StatusPaused, nil)
		r.close(event.Event{Kind: event.Done, Err: err, Plan: r.plan.Clone(), Usage: r.usage(), Path: ws.Root})
		return
	}
	if runErr != nil {
		own := r.ownPlan(ctx)
		own.SkipRest("not run: the run stopped early")
		_ = own.Save()
		if !reported {
			r.saveStopReport(fmt.Sprintf("The run stopped early: %v. This report holds what was found until then.", runErr))
		}
		r.fail(fmt.Errorf("%w: %w", ErrRunFailed, runErr))
		return
	}
	if berr := guard.Exceeded(); berr != nil {
		r.emit(event.Event{Kind: event.UsageSoFar, Usage: r.usage()})
		r.done(berr)
		return
	}
	if r.plan.Result == nil {
		// The loop hit its bound without a submitted result.
		own := r.ownPlan(ctx)
		own.SkipRest("not run: the execute/replan bound was reached")
		_ = own.Save()
	}
	r.emit(event.Event{Kind: event.UsageSoFar, Usage: r.usage()})
	r.done(nil)
}

// translate maps one ADK event to Sift events and emits them, tracking the
// current step on the way. It reports false once the caller stopped
// listening.
func (r *run) translate(ev *adk.AgentEvent, emit func(event.Event) bool) bool {
	if ev.Output == nil {
		return true
	}
	if be, ok := ev.Output.CustomizedOutput.(*tree.BranchEvent); ok {
		// A branch's event belongs to its step, whatever else runs.
		saved := r.current
		r.current = be.Step
		defer func() { r.current = saved }()
		return r.translate(be.Event, emit)
	}
	if se, ok := ev.Output.CustomizedOutput.(*event.Event); ok {
		e := *se
		switch e.Kind {
		case event.StepStarted:
			r.current = e.Step
		case event.StepFinished:
			r.current = nil
			e.Usage = r.usage()
		}
		if e.Step == nil {
			e.Step = r.current
		}
		return emit(e)
	}
	mo := ev.Output.MessageOutput
	if mo == nil {
		return true
	}
	agent := ev.AgentName
	if agent == tree.NameExecutor && r.direct {
		// A direct step's events are the code agent's.
		agent = tree.NameCodeAgent
	}
	// The planner and replanner speak in tool arguments, which reach the
	// caller as plan events instead.
	speaks := agent != "planner" && agent != "replanner"
	msg, ok := r.readMessage(mo, speaks, agent, emit)
	if !ok {
		return false
	}
	if msg == nil {
		return true
	}
	var out []event.Event
	switch msg.Role {
	case schema.Assistant:
		for _, tc := range msg.ToolCalls {
			out = append(out, event.Event{Kind: event.ToolCall, Agent: agent, Tool: tc.Function.Name, ToolCallID: tc.ID, Args: tc.Function.Arguments, Step: r.current})
		}
		if len(msg.ToolCalls) == 0 && strings.TrimSpace(msg.Content) != "" && speaks && !mo.IsStreaming {
			out = append(out, event.Event{Kind: event.Message, Agent: agent, Text: msg.Content, Step: r.current})
		}
	case schema.Tool:
		out = append(out, event.Event{Kind: event.ToolResult, Agent: agent, Tool: mo.ToolName, ToolCallID: msg.ToolCallID, Text: prompt.Shorten(msg.Content, 4000), Step: r.current})
	}
	for _, e := range out {
		if !emit(e) {
			return false
		}
	}
	return true
}

// readMessage returns the event's message. A streamed assistant message is
// read chunk by chunk, each chunk of text emitted as a delta when the agent
// speaks to the person; ok is false once the caller stopped listening.
func (r *run) readMessage(mo *adk.MessageVariant, speaks bool, agent string, emit func(event.Event) bool) (msg *schema.Message, ok bool) {
	if !mo.IsStreaming {
		return mo.Message, true
	}
	if mo.MessageStream == nil {
		return nil, true
	}
	defer mo.MessageStream.Close()
	var chunks []*schema.Message
	for {
		chunk, err := mo.MessageStream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, true
		}
		chunks = append(chunks, chunk)
		if speaks && mo.Role == schema.Assistant && chunk.Content != "" {
			if !emit(event.Event{Kind: event.Message, Agent: agent, Text: chunk.Content, Delta: true, Step: r.current}) {
				return nil, false
			}
		}
	}
	if len(chunks) == 0 {
		return nil, true
	}
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		return nil, true
	}
	return msg, true
}

func (r *run) usage() *event.Usage {
	u := &event.Usage{AgentUsage: agentUsage(r.meter.Total()), PerAgent: map[string]*event.AgentUsage{}, PerStep: map[int]*event.AgentUsage{}}
	for agent, c := range r.meter.Snapshot() {
		au := agentUsage(c)
		u.PerAgent[agent] = &au
	}
	for step, c := range r.meter.ByStep() {
		au := agentUsage(c)
		u.PerStep[step] = &au
	}
	return u
}

func agentUsage(c llm.Counts) event.AgentUsage {
	return event.AgentUsage{
		Calls: c.Calls, PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens,
		CachedTokens: c.CachedTokens, ReasoningTokens: c.ReasoningTokens, Estimated: c.Estimated,
		Cost: c.Cost, Unpriced: c.Unpriced, LatencyMS: c.Latency.Milliseconds(),
	}
}
