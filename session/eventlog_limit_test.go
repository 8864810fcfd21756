package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// A step that floods the log with tool results reaches its limit: the log
// says so once, keeps the step's finish (shortened) and the next step's
// events, and grows no further with the flood.
func TestEventLogLimitsWhatOneStepAdds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "events.jsonl")
	l, err := OpenEventLog(p)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const limit = 64 << 10
	l.LimitStep(limit)
	step2 := &plans.StepState{Step: plans.Step{Index: 2, Description: "flood"}, Status: plans.StatusDoing}
	big := strings.Repeat("x", 3000)
	var notices, cut int
	for i := 0; i < 10_000; i++ {
		got, err := l.Record(event.Event{Kind: event.ToolResult, Tool: "python", Text: big, Step: step2})
		switch {
		case errors.Is(err, ErrStepLogFull):
			cut++
		case err != nil:
			t.Fatal(err)
		case got.Kind == event.Limit:
			notices++
			if got.Step == nil || got.Step.Index != 2 || !strings.Contains(got.Text, "step 2") {
				t.Errorf("the limit event must name step 2: %+v", got)
			}
		}
	}
	if notices != 1 || cut == 0 {
		t.Errorf("limit events = %d, events cut = %d; want one limit event and the rest cut", notices, cut)
	}
	done := *step2
	done.Status, done.Summary = plans.StatusDone, strings.Repeat("y", 50_000)
	fin, err := l.Record(event.Event{Kind: event.StepFinished, Step: &done})
	if err != nil || fin.Seq == 0 || len(fin.Step.Summary) > 2*shortText {
		t.Errorf("the step's finish must be logged, shortened: seq %d, summary %d bytes, %v", fin.Seq, len(fin.Step.Summary), err)
	}
	step3 := &plans.StepState{Step: plans.Step{Index: 3}}
	if got, err := l.Record(event.Event{Kind: event.ToolResult, Text: big, Step: step3}); err != nil || got.Seq == 0 {
		t.Errorf("another step's events must still be logged: %v", err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > limit+3*shortText+8<<10 {
		t.Errorf("events.jsonl is %d bytes; one step's limit is %d", info.Size(), limit)
	}
	evs, err := ReadEvents(p)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: the log must stay numbered without gaps", i+1, e.Seq)
		}
	}
}

// TestEventLogStepShareSurvivesReopen: what a step wrote before the log
// was closed (a crash, then a resume) counts against its share after it is
// opened again: the resumed step reaches its limit where it would have
// without the crash, and a step that had reached it stays cut.
func TestEventLogStepShareSurvivesReopen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "events.jsonl")
	const limit = 64 << 10
	big := strings.Repeat("x", 3000)
	open := func() *EventLog {
		t.Helper()
		l, err := OpenEventLog(p)
		if err != nil {
			t.Fatal(err)
		}
		l.LimitStep(limit)
		return l
	}
	step := func(i int) *plans.StepState { return &plans.StepState{Step: plans.Step{Index: i}} }
	l := open()
	// Step 2 uses about three quarters of its share; step 3 all of it.
	for i := 0; i < 16; i++ {
		if _, err := l.Record(event.Event{Kind: event.ToolResult, Text: big, Step: step(2)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 40; i++ {
		_, _ = l.Record(event.Event{Kind: event.ToolResult, Text: big, Step: step(3)})
	}
	l.Close()

	l = open()
	defer l.Close()
	if _, err := l.Record(event.Event{Kind: event.ToolResult, Text: big, Step: step(3)}); !errors.Is(err, ErrStepLogFull) {
		t.Errorf("step 3 had used its share before the reopen, and its next tool result was written (%v)", err)
	}
	written := 0
	for i := 0; i < 40; i++ {
		got, err := l.Record(event.Event{Kind: event.ToolResult, Text: big, Step: step(2)})
		if err != nil || got.Kind == event.Limit {
			break
		}
		written++
	}
	if written > 6 {
		t.Errorf("step 2 wrote %d more results of 3 KB after the reopen; its share had about 5 left", written)
	}
}
