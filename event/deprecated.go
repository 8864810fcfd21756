package event

// The names of release 1, before event kinds stopped repeating the
// package name (event.Done, not event.EventDone). They are kept for one
// release so that code written against them still compiles.

// Deprecated: use Kind.
type EventKind = Kind

const (
	// Deprecated: use Session.
	EventSession = Session
	// Deprecated: use Plan.
	EventPlan = Plan
	// Deprecated: use StepStarted.
	EventStepStarted = StepStarted
	// Deprecated: use StepFinished.
	EventStepFinished = StepFinished
	// Deprecated: use ToolCall.
	EventToolCall = ToolCall
	// Deprecated: use ToolResult.
	EventToolResult = ToolResult
	// Deprecated: use Message.
	EventMessage = Message
	// Deprecated: use Artifact.
	EventArtifact = Artifact
	// Deprecated: use Report.
	EventReport = Report
	// Deprecated: use Interrupted.
	EventInterrupt = Interrupted
	// Deprecated: use Paused.
	EventPaused = Paused
	// Deprecated: use Takeover.
	EventTakeover = Takeover
	// Deprecated: use ModelStarted.
	EventModelStarted = ModelStarted
	// Deprecated: use ModelFinished.
	EventModelFinished = ModelFinished
	// Deprecated: use UsageSoFar.
	EventUsage = UsageSoFar
	// Deprecated: use Error.
	EventError = Error
	// Deprecated: use Done.
	EventDone = Done
)
