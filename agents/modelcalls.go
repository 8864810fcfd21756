package agents

import (
	"fmt"

	"github.com/sift-agent/sift/agents/internal/conversation"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
)

// observeModelCall turns a model call's start and end into events, so the
// person sees what the run waits for ("Writing code for step 2") and the
// usage meter moves with every call instead of once a step.
func (r *run) observeModelCall(c llm.CallInfo) {
	r.emit(modelCallEvent(c, r.usage))
}

// modelCallEvent is the event of a model call's start or end; usage gives
// the usage so far, which the end carries.
func modelCallEvent(c llm.CallInfo, usage func() *event.Usage) event.Event {
	call := &event.ModelCall{Role: c.Role, Agent: c.Agent, Step: c.Step, Started: c.Started}
	e := event.Event{Kind: event.ModelStarted, Agent: c.Role, Text: modelActivity(c), Call: call}
	if c.Done {
		e.Kind = event.ModelFinished
		call.ElapsedMS = c.Counts.Latency.Milliseconds()
		call.Failed = c.Err != nil
		e.Usage = usage()
	}
	return e
}

// modelActivity says in plain words what a model call does.
func modelActivity(c llm.CallInfo) string {
	switch {
	case c.Agent == "planner":
		return "Planning"
	case c.Agent == "replanner" && c.Step > 0:
		return fmt.Sprintf("Re-planning after step %d", c.Step)
	case c.Agent == "replanner":
		return "Re-planning"
	case c.Agent == tree.NameReport:
		return "Writing the report"
	case c.Role == "code" && c.Step > 0:
		return fmt.Sprintf("Writing code for step %d", c.Step)
	case c.Role == "code":
		return "Writing code"
	case c.Role == "executor" && c.Step > 0:
		return fmt.Sprintf("Working out step %d", c.Step)
	case c.Role == "report":
		return "Writing the report"
	case c.Role == "planner":
		return "Planning"
	case c.Role == conversation.NameSupervisor:
		return "Reading the question"
	case c.Role == conversation.NameSQLAnalyst:
		return "Writing SQL"
	}
	return "Waiting for the model"
}

// endEvents stops the run's events once Run or Resume has returned: a model
// call still winding down must not reach a caller that has moved on.
func (r *run) endEvents() {
	r.emitMu.Lock()
	r.ended = true
	r.emitMu.Unlock()
}
