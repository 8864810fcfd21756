package llm

import (
	"context"
	"time"
)

// CallInfo describes one model call as it starts and as it ends, for a
// CallObserver: who is calling (the role the model was wrapped under and
// the agent turn it is part of), for which plan step, and, at the end,
// what the call cost.
type CallInfo struct {
	// Role is the name the model was wrapped under (see Wrap): planner,
	// executor, code, report, ...
	Role string
	// Agent is the agent turn the call belongs to (see StartAgent): the
	// planner or replanner, "report", "step 2"; empty outside any.
	Agent string
	// Step is the plan step (see WithStep), or NoStep.
	Step int
	// Started is when the call began.
	Started time.Time
	// Done is false when the call starts and true when it ends; Counts
	// and Err are set only then.
	Done   bool
	Counts Counts
	Err    error
}

// CallObserver is told when each model call starts and ends. It may be
// called from several goroutines at once (parallel steps), and must not
// block for long: the call waits for it.
type CallObserver func(CallInfo)

type callObserverKey struct{}

// WithCallObserver returns a context whose model calls (through Wrap) are
// reported to fn as they start and end, after the meter has counted them,
// so a status line can say what the run waits for and a usage meter can
// move with each call.
func WithCallObserver(ctx context.Context, fn CallObserver) context.Context {
	return context.WithValue(ctx, callObserverKey{}, fn)
}

func callObserverFrom(ctx context.Context) CallObserver {
	fn, _ := ctx.Value(callObserverKey{}).(CallObserver)
	return fn
}

type agentKey struct{}

// AgentFrom returns the agent turn set by StartAgent, or "".
func AgentFrom(ctx context.Context) string {
	s, _ := ctx.Value(agentKey{}).(string)
	return s
}
