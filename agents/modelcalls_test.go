package agents

import (
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// Every model call of a run is bracketed by events that say what it does
// in plain words, and each finished call carries the usage so far, so a
// page or terminal can show a live status line and a meter that moves with
// every call.
func TestRunReportsEachModelCall(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	started, finished := 0, 0
	open := map[string]int{}
	labels := map[string]bool{}
	lastCalls := 0
	for _, e := range evs {
		switch e.Kind {
		case event.EventModelStarted:
			started++
			if e.Call == nil || e.Call.Role == "" || e.Text == "" {
				t.Fatalf("a model_started event without its call or words: %+v", e)
			}
			open[e.Text]++
			labels[e.Text] = true
		case event.EventModelFinished:
			finished++
			if e.Call == nil || e.Usage == nil {
				t.Fatalf("a model_finished event without its call or usage: %+v", e)
			}
			if e.Usage.Calls <= lastCalls {
				t.Errorf("the usage after a finished call did not move: %d calls after %d", e.Usage.Calls, lastCalls)
			}
			lastCalls = e.Usage.Calls
			open[e.Text]--
		}
	}
	if started != script.Calls() || finished != script.Calls() {
		t.Errorf("%d started and %d finished events for %d model calls", started, finished, script.Calls())
	}
	for label, n := range open {
		if n != 0 {
			t.Errorf("%q: %d calls started but not finished", label, n)
		}
	}
	for _, want := range []string{"Planning", "Working out step 1", "Writing code for step 2", "Re-planning after step 3", "Writing the report"} {
		if !labels[want] {
			t.Errorf("no model call said %q; saw %v", want, labels)
		}
	}
	if lastCalls != done.Usage.Calls {
		t.Errorf("the last finished call counted %d calls, the run %d", lastCalls, done.Usage.Calls)
	}
}
