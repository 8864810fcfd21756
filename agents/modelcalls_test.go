package agents

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents/internal/tree"
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
		case event.ModelStarted:
			started++
			if e.Call == nil || e.Call.Role == "" || e.Text == "" {
				t.Fatalf("a model_started event without its call or words: %+v", e)
			}
			open[e.Text]++
			labels[e.Text] = true
		case event.ModelFinished:
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
	for _, want := range []string{"Planning", "Writing code for step 1", "Writing code for step 2", "Re-planning after step 3", "Writing the report"} {
		if !labels[want] {
			t.Errorf("no model call said %q; saw %v", want, labels)
		}
	}
	if lastCalls != done.Usage.Calls {
		t.Errorf("the last finished call counted %d calls, the run %d", lastCalls, done.Usage.Calls)
	}
}

// With StreamReport, the report reaches the caller as it is written: its
// pieces come as message deltas of the report agent, through the real
// client's stream, before the report event, which still carries the
// finished report.
func TestReportStreamsAsItIsWritten(t *testing.T) {
	script := scripted.New(threeStepScript(false)...)
	s := httpSift(t, script, func(c *Config) { c.StreamReport = true })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	if err := evs[len(evs)-1].Err; err != nil {
		t.Fatal(err)
	}
	var streamed string
	deltas, reported := 0, -1
	for i, e := range evs {
		switch {
		case e.Kind == event.Message && e.Agent == tree.NameReport && e.Delta:
			if reported >= 0 {
				t.Errorf("a report delta came after the report event: %q", e.Text)
			}
			deltas++
			streamed += e.Text
		case e.Kind == event.Message && e.Delta:
			t.Errorf("agent %q streamed with only the report asked to: %q", e.Agent, e.Text)
		case e.Kind == event.Report:
			reported = i
		}
	}
	if deltas < 2 {
		t.Fatalf("the report came in %d deltas, want it in pieces", deltas)
	}
	if reported < 0 || !strings.Contains(evs[reported].Text, "North leads with 150") {
		t.Fatalf("no finished report event after the deltas")
	}
	if !strings.HasPrefix(streamed, "# Revenue report\n\nNorth leads with 150 [step 2].") {
		t.Errorf("the deltas add up to %q, not the model's report", streamed)
	}
}
