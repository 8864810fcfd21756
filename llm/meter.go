package llm

import (
	"context"
	"maps"
	"sync"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/internal/call"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/usage"
)

// Counts is the usage of one agent's model calls, or of all agents', or
// of one step's (usage.Counts).
type Counts = usage.Counts

// RecordedCounts is the usage of a recorded call, as the Meter counted it
// when the call was made (trajectory.Record.Counts): a session's usage can
// be summed from its trajectory over every run.
func RecordedCounts(r trajectory.Record) Counts { return r.Counts() }

// NoStep is the step of model calls made outside any plan step (planning,
// replanning, the report); plan steps are numbered from 1.
const NoStep = 0

// WithStep returns a context whose model calls are metered (and traced and
// recorded in the trajectory) under plan step index. Steps are numbered
// from 1, as plans.StepState.Index is; NoStep (0) means no step.
func WithStep(ctx context.Context, index int) context.Context {
	return call.WithStep(ctx, index)
}

// StepFrom returns the plan step set by WithStep, or NoStep and false.
func StepFrom(ctx context.Context) (int, bool) {
	return call.Step(ctx)
}

// WithTurn returns a context whose model calls are recorded in the
// trajectory under question turn of the session (1 for the first question,
// 2 for the first follow-up, ...), so a replay can serve each question its
// own recorded answers.
func WithTurn(ctx context.Context, turn int) context.Context {
	return call.WithTurn(ctx, turn)
}

// TurnFrom returns the question set by WithTurn, or 0.
func TurnFrom(ctx context.Context) int {
	return call.Turn(ctx)
}

// AgentStep identifies the model calls of one agent within one plan step.
type AgentStep struct {
	// Agent is the name the model was wrapped under.
	Agent string
	// Step is the plan step, or NoStep.
	Step int
}

// Meter accumulates model usage per agent and plan step. It is safe for
// concurrent use; the zero value is ready, and a nil *Meter records nothing.
type Meter struct {
	mu    sync.Mutex
	usage map[AgentStep]Counts
}

// Add records usage for agent outside any plan step.
func (m *Meter) Add(agent string, c Counts) {
	m.AddStep(agent, NoStep, c)
}

// AddStep records usage for agent within plan step (NoStep for none).
func (m *Meter) AddStep(agent string, step int, c Counts) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.usage == nil {
		m.usage = make(map[AgentStep]Counts)
	}
	k := AgentStep{Agent: agent, Step: step}
	m.usage[k] = m.usage[k].Add(c)
}

// Snapshot returns a copy of the usage so far, keyed by agent and summed
// over steps.
func (m *Meter) Snapshot() map[string]Counts {
	out := map[string]Counts{}
	for k, c := range m.ByAgentStep() {
		out[k.Agent] = out[k.Agent].Add(c)
	}
	return out
}

// ByStep returns a copy of the usage so far, keyed by plan step (NoStep for
// calls outside any step) and summed over agents.
func (m *Meter) ByStep() map[int]Counts {
	out := map[int]Counts{}
	for k, c := range m.ByAgentStep() {
		out[k.Step] = out[k.Step].Add(c)
	}
	return out
}

// ByAgentStep returns a copy of the usage so far, keyed by agent and step.
func (m *Meter) ByAgentStep() map[AgentStep]Counts {
	if m == nil {
		return map[AgentStep]Counts{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[AgentStep]Counts, len(m.usage))
	maps.Copy(out, m.usage)
	return out
}

// Total returns the usage so far summed over all agents.
func (m *Meter) Total() Counts {
	var total Counts
	for _, c := range m.Snapshot() {
		total = total.Add(c)
	}
	return total
}

// countsOf converts a reply's token usage to Counts for one call.
func countsOf(usage *schema.TokenUsage) Counts {
	c := Counts{Calls: 1}
	if usage != nil {
		c.PromptTokens = usage.PromptTokens
		c.CompletionTokens = usage.CompletionTokens
		c.CachedTokens = usage.PromptTokenDetails.CachedTokens
		c.ReasoningTokens = usage.CompletionTokensDetails.ReasoningTokens
	}
	return c
}
