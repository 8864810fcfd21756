package event_test

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/usage"
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
	u := &event.Usage{AgentUsage: event.AgentUsage{Calls: 1, PromptTokens: 10, CompletionTokens: 2}}
	if md := event.RenderUsageMarkdown(u); md != usage.Markdown(u) || !strings.Contains(md, "1 model call") {
		t.Errorf("event.RenderUsageMarkdown = %q, want usage.Markdown's", md)
	}
	if md := event.RenderUsageMarkdownIn(u, true); md != usage.MarkdownIn(u, true) {
		t.Errorf("event.RenderUsageMarkdownIn = %q, want usage.MarkdownIn's", md)
	}
	su := &event.SessionUsage{Usage: *u}
	if md := event.RenderSessionUsageMarkdown(su); md != usage.SessionMarkdown(su) {
		t.Errorf("event.RenderSessionUsageMarkdown = %q, want usage.SessionMarkdown's", md)
	}
}
