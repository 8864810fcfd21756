package model

import (
	"maps"
	"sync"
	"time"

	"github.com/cloudwego/eino/schema"
)

// Counts is the usage of one agent's model calls (or of all agents').
type Counts struct {
	// Calls is the number of Generate and Stream calls.
	Calls int
	// Errors is how many of those calls failed.
	Errors int
	// PromptTokens is the sum of the replies' reported prompt tokens.
	PromptTokens int
	// CompletionTokens is the sum of the replies' reported completion tokens.
	CompletionTokens int
	// Latency is the total time spent in calls, up to the end of each stream.
	Latency time.Duration
}

// Add returns the field-by-field sum of c and o.
func (c Counts) Add(o Counts) Counts {
	return Counts{
		Calls:            c.Calls + o.Calls,
		Errors:           c.Errors + o.Errors,
		PromptTokens:     c.PromptTokens + o.PromptTokens,
		CompletionTokens: c.CompletionTokens + o.CompletionTokens,
		Latency:          c.Latency + o.Latency,
	}
}

// TotalTokens is PromptTokens plus CompletionTokens.
func (c Counts) TotalTokens() int { return c.PromptTokens + c.CompletionTokens }

// Meter accumulates model usage per agent. It is safe for concurrent use; the
// zero value is ready, and a nil *Meter records nothing.
type Meter struct {
	mu     sync.Mutex
	agents map[string]Counts
}

// Add records usage for agent.
func (m *Meter) Add(agent string, c Counts) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.agents == nil {
		m.agents = make(map[string]Counts)
	}
	m.agents[agent] = m.agents[agent].Add(c)
}

// Snapshot returns a copy of the usage so far, keyed by agent.
func (m *Meter) Snapshot() map[string]Counts {
	if m == nil {
		return map[string]Counts{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]Counts, len(m.agents))
	maps.Copy(out, m.agents)
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

// record adds one call's outcome.
func (m *Meter) record(agent string, usage *schema.TokenUsage, latency time.Duration, err error) {
	c := Counts{Calls: 1, Latency: latency}
	if err != nil {
		c.Errors = 1
	}
	if usage != nil {
		c.PromptTokens = usage.PromptTokens
		c.CompletionTokens = usage.CompletionTokens
	}
	m.Add(agent, c)
}
