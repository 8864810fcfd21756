package session

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/stepshare"
	"github.com/sift-agent/sift/plans"
)

// DefaultStepLogBytes is how much one plan step may add to a session's
// event log (events.jsonl): 64 MiB (stepshare.Default, the share of every
// session log). A step's events are its tool calls and results, messages
// and files; a step of ordinary work writes well under a tenth of this.
const DefaultStepLogBytes = stepshare.Default

// ErrStepLogFull means an event was not written because its step had
// already added DefaultStepLogBytes (or the log's own limit) to the log.
var ErrStepLogFull = errors.New("the step's share of the event log is used up")

// shortText is how much of an event's text and arguments the log keeps
// once its step reached its limit.
const shortText = 1000

// LimitStep sets how many bytes one plan step may add to the log (0: no
// limit); it starts at DefaultStepLogBytes. Once a step reaches it, the log
// writes one EventLimit naming the step, then only the events that say
// where the run is (step started and finished, interrupts, errors), each
// shortened; the step's tool calls, results, messages, model calls and
// artifacts are no longer written.
func (l *EventLog) LimitStep(n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limit.Max = n
}

// stepOf returns the plan step e belongs to, or 0 for none.
func stepOf(e event.Event) int {
	switch {
	case e.Step != nil:
		return e.Step.Index
	case e.Call != nil:
		return e.Call.Step
	}
	return 0
}

// droppable says whether e may be left out of the log once its step
// reached its limit: it records work, not where the run is.
func droppable(k event.Kind) bool {
	switch k {
	case event.ToolCall, event.ToolResult, event.Message, event.Artifact,
		event.ModelStarted, event.ModelFinished, event.UsageSoFar:
		return true
	}
	return false
}

// admit decides how e, whose line is size bytes, reaches the log: as it
// is, shortened, or (nil) not at all, once its step reached the limit.
// notice is the EventLimit to write first when e is the event that reached
// it. Called with l.mu held.
func (l *EventLog) admit(e event.Event, size int) (keep, notice *event.Event) {
	step := stepOf(e)
	ok, reached := l.limit.Take(step, int64(size))
	if ok {
		return &e, nil
	}
	if reached {
		st := plans.StepState{}
		if e.Step != nil {
			st = *e.Step
		}
		st.Index, st.Files, st.FilesOmitted, st.Summary = step, nil, 0, ""
		notice = &event.Event{Kind: event.Limit, Step: &st, Time: e.Time, Text: fmt.Sprintf(
			"step %d wrote %s to the event log, its limit: from here on the log keeps only where the run is "+
				"(steps started and finished, questions, errors), not the step's tool calls, results, messages or files",
			step, stepshare.Size(l.limit.Max))}
	}
	if droppable(e.Kind) {
		return nil, notice
	}
	short := e
	short.Text, short.Args = headText(e.Text, shortText), headText(e.Args, shortText)
	if e.Step != nil {
		st := *e.Step
		st.Summary = headText(st.Summary, shortText)
		short.Step = &st
	}
	return &short, notice
}

// headText keeps at most n bytes of s, cut at a rune boundary and marked.
func headText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s + "…"
}
