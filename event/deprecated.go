package event

import "github.com/sift-agent/sift/usage"

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

// The usage section of a report, written by package usage below both
// event and report (report.UsageMarkdown is its name now).

// Deprecated: use report.UsageMarkdown.
func RenderUsageMarkdown(u *Usage) string { return usage.Markdown(u) }

// Deprecated: use report.UsageMarkdownIn.
func RenderUsageMarkdownIn(u *Usage, chinese bool) string { return usage.MarkdownIn(u, chinese) }

// Deprecated: use report.SessionUsageMarkdown.
func RenderSessionUsageMarkdown(u *SessionUsage) string { return usage.SessionMarkdown(u) }
