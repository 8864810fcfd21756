package event

import (
	"time"

	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/usage"
)

// Kind names what an Event reports.
type Kind string

// The kinds of events a run emits, in the order a person meets them.
const (
	// Session opens every run: Text is the session ID, Path the
	// workspace directory.
	Session Kind = "session"
	// Plan carries the full plan after the planner or replanner changed it.
	Plan Kind = "plan"
	// StepStarted and StepFinished bracket one plan step.
	StepStarted  Kind = "step_started"
	StepFinished Kind = "step_finished"
	// ToolCall and ToolResult bracket one tool call of any agent.
	ToolCall   Kind = "tool_call"
	ToolResult Kind = "tool_result"
	// Message is text an agent said (a whole message, or a streamed delta
	// when Delta is set).
	Message Kind = "message"
	// Artifact is a file the run produced under out/.
	Artifact Kind = "artifact"
	// Report is the finished report (Path is report.md, or the
	// question's own report-NN.md when it did not replace an earlier
	// question's report.md).
	Report Kind = "report"
	// Interrupted means the run waits for the person: Interrupt says
	// what to answer; the run ends (Done with Interrupt set) and goes on
	// when resumed with the answer.
	Interrupted Kind = "interrupt"
	// Paused means the run stopped at a safe point because the person
	// asked it to pause; it goes on with Sift.Resume.
	Paused Kind = "paused"
	// Takeover means another worker of a deployment goes on with the
	// run (its worker died, or handed it back as it drained); Text says
	// which and why. The run resumes from its last checkpoint after it.
	Takeover Kind = "takeover"
	// ModelStarted and ModelFinished bracket one model call:
	// Call says whose and for which step, Text what the run waits for in
	// plain words ("Writing code for step 2"); the finished one carries
	// Usage so far, so a meter moves with every call.
	ModelStarted  Kind = "model_started"
	ModelFinished Kind = "model_finished"
	// UsageSoFar reports model calls and tokens so far.
	UsageSoFar Kind = "usage"
	// Error is a failure; a run that cannot go on ends with one, then
	// Done.
	Error Kind = "error"
	// Limit says the run reached a bound Sift keeps on what a session
	// may write (a step's share of the event log): Text says which bound
	// and what is cut from then on, Step the step that reached it. The
	// run goes on.
	Limit Kind = "limit"
	// Done is always the last event.
	Done Kind = "done"
)

// Event is one typed thing that happened in a run. Only the fields its Kind
// names are set.
type Event struct {
	Kind Kind `json:"kind"`
	// Seq numbers the events of a session's log from 1, across all its
	// runs (follow-ups and resumes go on counting); the event log assigns
	// it. Zero for an event that never reached a log.
	Seq   int64     `json:"seq,omitempty"`
	Time  time.Time `json:"time"`
	Agent string    `json:"agent,omitempty"`
	// Step is the plan step the event belongs to, when there is one.
	Step *plans.StepState `json:"step,omitempty"`
	// Plan is set on Plan and Done.
	Plan *plans.FullPlan `json:"plan,omitempty"`
	// Tool, ToolCallID and Args are set on tool events; Text holds the result
	// on ToolResult.
	Tool       string `json:"tool,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Args       string `json:"args,omitempty"`
	// Text is a message, a tool result, or an error's message.
	Text  string `json:"text,omitempty"`
	Delta bool   `json:"delta,omitempty"`
	// Path is a workspace-relative file for Artifact and Report.
	Path string `json:"path,omitempty"`
	// Usage is set on UsageSoFar and Done.
	Usage *Usage `json:"usage,omitempty"`
	// Call is set on ModelStarted and ModelFinished.
	Call *ModelCall `json:"call,omitempty"`
	// Interrupt is set on Interrupted, and on Done when the run
	// waits for the person.
	Interrupt *Interrupt `json:"interrupt,omitempty"`
	// Err is set on Error (and on Done when the run failed); Text
	// then holds its message for JSON consumers.
	Err error `json:"-"`
	// Session is the session's ID, on Done (Session carries it
	// in Text), so a caller that kept only the last event can resume or
	// follow up.
	Session string `json:"session,omitempty"`
}

// ModelCall is one model call, as ModelStarted and
// ModelFinished report it.
type ModelCall struct {
	// Role is the model's role: planner, executor, code, report.
	Role string `json:"role"`
	// Agent is the agent turn the call belongs to: planner, replanner,
	// report, "step 2"; empty when none is known.
	Agent string `json:"agent,omitempty"`
	// Step is the plan step the call works on; 0 for none.
	Step int `json:"step,omitempty"`
	// Started is when the call began.
	Started time.Time `json:"started"`
	// ElapsedMS is how long the call took, on ModelFinished.
	ElapsedMS int64 `json:"elapsed_ms,omitempty"`
	// Failed is set on ModelFinished when the call failed (it may be
	// retried).
	Failed bool `json:"failed,omitempty"`
}

// Usage counts model calls, tokens and cost, in total, per agent and per
// plan step (usage.Usage).
type Usage = usage.Usage

// AgentUsage counts the model calls of one agent, or step, or all
// (usage.AgentUsage).
type AgentUsage = usage.AgentUsage

// The kinds of interrupts.
const (
	InterruptPlanReview = "plan_review"
	InterruptQuestion   = "question"
	InterruptApproval   = "approval"
)

// Interrupt is what a waiting run asks of the person.
type Interrupt struct {
	// ID names the interrupt; answer it by this ID.
	ID string `json:"id"`
	// Kind is InterruptPlanReview, InterruptQuestion or InterruptApproval.
	Kind string `json:"kind"`
	// Prompt is the question or request, in plain words.
	Prompt string `json:"prompt"`
	// Choices, when set, are the answers to pick from.
	Choices []string `json:"choices,omitempty"`
	// Plan is the plan to review, for InterruptPlanReview.
	Plan *plans.FullPlan `json:"plan,omitempty"`
}

// PlanDecision answers a plan review.
type PlanDecision struct {
	// Action is "approve", "edit" or "reject".
	Action string `json:"action"`
	// Steps replace the plan's steps, for "edit".
	Steps []string `json:"steps,omitempty"`
	// Feedback goes back to the planner, for "reject".
	Feedback string `json:"feedback,omitempty"`
}

// The plan review actions.
const (
	PlanApprove = "approve"
	PlanEdit    = "edit"
	PlanReject  = "reject"
)

// InterruptKind says that a decision answers a plan review
// (agents.Answer).
func (*PlanDecision) InterruptKind() string { return InterruptPlanReview }
