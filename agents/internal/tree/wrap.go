package tree

import (
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/sift-agent/sift/event"
)

// around is the turn of an agent that acts before and after another (or
// instead of one): body runs in its own goroutine and sends its events
// through gen, which is closed when body returns; a panic in body becomes
// an error event instead of a crashed process. Every wrapper agent of the
// tree — the plan stages, the plan review, the step tracker, the report
// writer, the branch steps — is built on it, with relay to pass an inner
// agent's events on.
func around(body func(gen *adk.AsyncGenerator[*adk.AgentEvent])) *adk.AsyncIterator[*adk.AgentEvent] {
	iter, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	go func() {
		defer gen.Close()
		defer recoverInto(gen)
		body(gen)
	}()
	return iter
}

// relay passes inner's events on to gen until inner ends or sends an
// error. Each event is first shown to see (when not nil), which returns
// false to hold it back. relay returns the error event that ended inner,
// already passed on, or nil.
func relay(inner *adk.AsyncIterator[*adk.AgentEvent], gen *adk.AsyncGenerator[*adk.AgentEvent], see func(*adk.AgentEvent) bool) *adk.AgentEvent {
	for {
		ev, ok := inner.Next()
		if !ok {
			return nil
		}
		if see != nil && !see(ev) {
			continue
		}
		gen.Send(ev)
		if ev.Err != nil {
			return ev
		}
	}
}

// once is an agent turn of one event, such as an error found before any
// work.
func Once(ev *adk.AgentEvent) *adk.AsyncIterator[*adk.AgentEvent] {
	iter, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	gen.Send(ev)
	gen.Close()
	return iter
}

// InterruptOf returns what an interrupt event asks of the person, or nil.
func InterruptOf(ev *adk.AgentEvent) *event.Interrupt {
	if ev.Action == nil || ev.Action.Interrupted == nil {
		return nil
	}
	var root *adk.InterruptCtx
	for _, ic := range ev.Action.Interrupted.InterruptContexts {
		if ic.IsRootCause {
			root = ic
			break
		}
	}
	if root == nil {
		return nil
	}
	in := DescribeInterrupt(root.Info)
	in.ID = root.ID
	return &in
}

// DescribeInterrupt turns an interrupt's info into what the person sees.
func DescribeInterrupt(info any) event.Interrupt {
	switch v := info.(type) {
	case *event.Interrupt:
		return *v
	case interface{ SiftInterrupt() event.Interrupt }:
		return v.SiftInterrupt()
	default:
		return event.Interrupt{Kind: event.InterruptQuestion, Prompt: fmt.Sprint(info)}
	}
}
