package generic

import "time"

// EventKind names what an Event reports.
type EventKind string

// The kinds of events a run emits, in the order a person meets them.
const (
	// EventSession opens every run: Text is the session ID, Path the
	// workspace directory.
	EventSession EventKind = "session"
	// EventPlan carries the full plan after the planner or replanner changed it.
	EventPlan EventKind = "plan"
	// EventStepStarted and EventStepFinished bracket one plan step.
	EventStepStarted  EventKind = "step_started"
	EventStepFinished EventKind = "step_finished"
	// EventToolCall and EventToolResult bracket one tool call of any agent.
	EventToolCall   EventKind = "tool_call"
	EventToolResult EventKind = "tool_result"
	// EventMessage is text an agent said (a whole message, or a streamed delta
	// when Delta is set).
	EventMessage EventKind = "message"
	// EventArtifact is a file the run produced under out/.
	EventArtifact EventKind = "artifact"
	// EventReport is the finished report (Path is report.md).
	EventReport EventKind = "report"
	// EventUsage reports model calls and tokens so far.
	EventUsage EventKind = "usage"
	// EventError is a failure; a run that cannot go on ends with one, then
	// EventDone.
	EventError EventKind = "error"
	// EventDone is always the last event.
	EventDone EventKind = "done"
)

// Event is one typed thing that happened in a run. Only the fields its Kind
// names are set.
type Event struct {
	Kind  EventKind `json:"kind"`
	Time  time.Time `json:"time"`
	Agent string    `json:"agent,omitempty"`
	// Step is the plan step the event belongs to, when there is one.
	Step *StepState `json:"step,omitempty"`
	// Plan is set on EventPlan and EventDone.
	Plan *FullPlan `json:"plan,omitempty"`
	// Tool, ToolCallID and Args are set on tool events; Text holds the result
	// on EventToolResult.
	Tool       string `json:"tool,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Args       string `json:"args,omitempty"`
	// Text is a message, a tool result, or an error's message.
	Text  string `json:"text,omitempty"`
	Delta bool   `json:"delta,omitempty"`
	// Path is a workspace-relative file for EventArtifact and EventReport.
	Path string `json:"path,omitempty"`
	// Usage is set on EventUsage and EventDone.
	Usage *Usage `json:"usage,omitempty"`
	// Err is set on EventError (and on EventDone when the run failed); Text
	// then holds its message for JSON consumers.
	Err error `json:"-"`
}

// Usage counts model calls, tokens and cost, in total, per agent and per
// plan step.
type Usage struct {
	AgentUsage
	PerAgent map[string]*AgentUsage `json:"per_agent,omitempty"`
	// PerStep is keyed by plan step index; 0 holds calls outside any step
	// (the planner, the report).
	PerStep map[int]*AgentUsage `json:"per_step,omitempty"`
}

// AgentUsage counts the model calls of one agent (or step, or all).
type AgentUsage struct {
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	// Estimated counts calls whose tokens were counted offline because the
	// provider reported none.
	Estimated int `json:"estimated,omitempty"`
	// Cost is in US dollars, from the price table; Unpriced counts calls
	// whose model had no price.
	Cost     float64 `json:"cost,omitempty"`
	Unpriced int     `json:"unpriced,omitempty"`
	// LatencyMS is the total time spent in model calls.
	LatencyMS int64 `json:"latency_ms,omitempty"`
}
