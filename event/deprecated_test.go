package event_test

import (
	"testing"

	"github.com/sift-agent/sift/event"
)

// TestDeprecatedNamesStillCompile is code written against release 1's
// names: it must compile, and each old name must mean its new one.
func TestDeprecatedNamesStillCompile(t *testing.T) {
	var kind event.EventKind = event.EventDone
	if kind != event.Done {
		t.Errorf("event.EventDone = %q, want %q", kind, event.Done)
	}
	e := event.Event{Kind: event.EventStepStarted}
	if e.Kind != event.StepStarted {
		t.Errorf("an Event of kind EventStepStarted has kind %q", e.Kind)
	}
	for _, c := range []struct{ old, new event.EventKind }{
		{event.EventSession, event.Session},
		{event.EventPlan, event.Plan},
		{event.EventStepStarted, event.StepStarted},
		{event.EventStepFinished, event.StepFinished},
		{event.EventToolCall, event.ToolCall},
		{event.EventToolResult, event.ToolResult},
		{event.EventMessage, event.Message},
		{event.EventArtifact, event.Artifact},
		{event.EventReport, event.Report},
		{event.EventInterrupt, event.Interrupted},
		{event.EventPaused, event.Paused},
		{event.EventTakeover, event.Takeover},
		{event.EventModelStarted, event.ModelStarted},
		{event.EventModelFinished, event.ModelFinished},
		{event.EventUsage, event.UsageSoFar},
		{event.EventError, event.Error},
		{event.EventDone, event.Done},
	} {
		if c.old != c.new {
			t.Errorf("old name means %q, want %q", c.old, c.new)
		}
	}
}
