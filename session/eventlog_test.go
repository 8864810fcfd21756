package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// equateErrorText compares errors by message: an error read back from the
// log is a new value with the same text.
var equateErrorText = cmp.Comparer(func(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
})

var t0 = time.Date(2026, 11, 22, 2, 6, 55, 0, time.UTC)

// sampleEvents has one event of most kinds, with their nested parts.
func sampleEvents() []event.Event {
	step := &plans.StepState{
		Step:    plans.Step{Index: 1, Description: "Load sales.csv"},
		Status:  plans.StatusDone,
		Summary: "12 rows",
		Files:   []string{"out/sales.png"},
	}
	plan := &plans.FullPlan{
		Question: "Which region sells most?",
		Steps:    []plans.StepState{*step, {Step: plans.Step{Index: 2, Description: "Chart it"}, Status: plans.StatusTodo}},
	}
	return []event.Event{
		{Kind: event.Plan, Time: t0, Agent: "planner", Plan: plan},
		{Kind: event.StepStarted, Time: t0.Add(time.Second), Step: step},
		{Kind: event.ToolCall, Time: t0.Add(2 * time.Second), Agent: "executor", Tool: "python", ToolCallID: "call_1", Args: `{"code":"print(\"hi\")\n"}`},
		{Kind: event.Message, Time: t0.Add(3 * time.Second), Text: "line one\nline two <b>&</b> ünïcode", Delta: true},
		{Kind: event.Artifact, Time: t0.Add(4 * time.Second), Path: "out/sales.png"},
		{Kind: event.UsageSoFar, Time: t0.Add(5 * time.Second), Usage: &event.Usage{AgentUsage: event.AgentUsage{Calls: 2, PromptTokens: 100, CompletionTokens: 20},
			PerAgent: map[string]*event.AgentUsage{"planner": {Calls: 1, PromptTokens: 60, CompletionTokens: 5}}}},
		{Kind: event.Error, Time: t0.Add(6 * time.Second), Err: fmt.Errorf("run python: %w", errors.New("kernel died"))},
		{Kind: event.Done, Time: t0.Add(7 * time.Second), Plan: plan},
	}
}

func appendAll(t *testing.T, path string, events []event.Event) {
	t.Helper()
	l, err := OpenEventLog(path)
	if err != nil {
		t.Fatalf("OpenEventLog: %v", err)
	}
	for _, e := range events {
		if err := l.Append(e); err != nil {
			t.Fatalf("Append: %v", err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func TestEventLogRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	events := sampleEvents()
	appendAll(t, path, events)

	got, err := ReadEvents(path)
	if err != nil {
		t.Fatalf("ReadEvents: %v", err)
	}
	want := sampleEvents()
	// The error's message travels in Text, and comes back as Err.
	want[6].Text = "run python: kernel died"
	for i := range want {
		want[i].Seq = int64(i + 1)
	}
	if diff := cmp.Diff(want, got, equateErrorText); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}

	raw := readFile(t, path)
	if lines := strings.Count(raw, "\n"); lines != len(events) {
		t.Errorf("log has %d lines, want one per event (%d)", lines, len(events))
	}
}

func TestEventLogKeepsTextOverErr(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	appendAll(t, path, []event.Event{{Kind: event.Error, Time: t0, Text: "the step failed; retry with a smaller file", Err: errors.New("raw cause")}})
	got, err := ReadEvents(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Text != "the step failed; retry with a smaller file" {
		t.Errorf("ReadEvents = %+v, want the event's own Text kept", got)
	}
}

func TestEventLogFillsZeroTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	before := time.Now()
	appendAll(t, path, []event.Event{{Kind: event.Message, Text: "hi"}})
	got, err := ReadEvents(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Time.Before(before.Add(-time.Second)) {
		t.Errorf("ReadEvents = %+v, want the zero Time replaced by the append time", got)
	}
}

func TestEventLogConcurrentAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	l, err := OpenEventLog(path)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 100
	long := strings.Repeat("x", 2000)
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				e := event.Event{Kind: event.Message, Time: t0, Agent: fmt.Sprintf("w%d", g), Text: fmt.Sprintf("%d %s", i, long)}
				if err := l.Append(e); err != nil {
					t.Errorf("Append: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadEvents(path)
	if err != nil {
		t.Fatalf("ReadEvents after concurrent appends: %v", err)
	}
	if len(got) != writers*each {
		t.Fatalf("read %d events, want %d", len(got), writers*each)
	}
	// Each writer's events stay in its own order, and the log numbers
	// them in file order.
	next := map[string]int{}
	for i, e := range got {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d, want %d", i, e.Seq, i+1)
		}
		want := fmt.Sprintf("%d %s", next[e.Agent], long)
		if e.Text != want {
			t.Fatalf("event of %s out of order or mixed: text starts %q", e.Agent, e.Text[:10])
		}
		next[e.Agent]++
	}
}

func TestReadEventsTolerance(t *testing.T) {
	good := `{"kind":"message","time":"2026-11-22T02:06:55Z","text":"one"}`
	good2 := `{"kind":"message","time":"2026-11-22T02:06:56Z","text":"two"}`
	// Lines written before events were numbered get their place as Seq.
	one := event.Event{Kind: event.Message, Seq: 1, Time: t0, Text: "one"}
	two := event.Event{Kind: event.Message, Seq: 2, Time: t0.Add(time.Second), Text: "two"}
	tests := []struct {
		name    string
		content string
		want    []event.Event
		wantErr string
	}{
		{"empty file", "", nil, ""},
		{"truncated last line is skipped", good + "\n" + good2 + "\n" + `{"kind":"mess`, []event.Event{one, two}, ""},
		{"complete last line without newline is kept", good + "\n" + good2, []event.Event{one, two}, ""},
		{"blank lines are ignored", good + "\n\n  \n" + good2 + "\n", []event.Event{one, two}, ""},
		{"corrupt middle line", good + "\n" + `{"kind":` + "\n" + good2 + "\n", nil, "line 2"},
		{"garbage middle line", good + "\nnot json\n" + good2 + "\n", nil, "line 2"},
		{"corrupt last line with newline", good + "\n" + good2 + "\n{oops\n", nil, "line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), EventsFile)
			writeFile(t, path, tt.content)
			got, err := ReadEvents(path)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrCorruptEventLog) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ReadEvents = %v, want ErrCorruptEventLog naming %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), path) {
					t.Errorf("ReadEvents error %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadEvents: %v", err)
			}
			if diff := cmp.Diff(tt.want, got, equateErrorText); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadEventsLongLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	long := strings.Repeat("0123456789", 100000) // 1 MB, past any Scanner default
	appendAll(t, path, []event.Event{{Kind: event.ToolResult, Time: t0, Text: long}, {Kind: event.Done, Time: t0}})
	got, err := ReadEvents(path)
	if err != nil {
		t.Fatalf("ReadEvents: %v", err)
	}
	if len(got) != 2 || got[0].Text != long {
		t.Errorf("ReadEvents returned %d events, want 2 with the long text intact", len(got))
	}
}

func TestReadEventsMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.jsonl")
	if _, err := ReadEvents(path); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("ReadEvents(missing) = %v, want fs.ErrNotExist naming the path", err)
	}
}

func TestOpenEventLogRepairsLastLine(t *testing.T) {
	good := `{"kind":"message","time":"2026-11-22T02:06:55Z","text":"one"}`
	tests := []struct {
		name     string
		content  string
		wantText []string
	}{
		{"truncated line is cut off", good + "\n" + `{"kind":"message","te`, []string{"one", "new"}},
		{"only a truncated line", `{"kind":"mes`, []string{"new"}},
		{"complete line without newline is kept", good, []string{"one", "new"}},
		{"clean file", good + "\n", []string{"one", "new"}},
		// The partial line is longer than the chunk read backwards.
		{"long truncated line", good + "\n" + `{"kind":"message","text":"` + strings.Repeat("y", 3*tailChunk+7), []string{"one", "new"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), EventsFile)
			writeFile(t, path, tt.content)
			appendAll(t, path, []event.Event{{Kind: event.Message, Time: t0, Text: "new"}})
			got, err := ReadEvents(path)
			if err != nil {
				t.Fatalf("ReadEvents after reopening: %v", err)
			}
			var texts []string
			for _, e := range got {
				texts = append(texts, e.Text)
			}
			if diff := cmp.Diff(tt.wantText, texts); diff != "" {
				t.Errorf("event texts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEventLogClosed(t *testing.T) {
	l, err := OpenEventLog(filepath.Join(t.TempDir(), EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := l.Append(event.Event{Kind: event.Done}); !errors.Is(err, ErrEventLogClosed) {
		t.Errorf("Append after Close = %v, want ErrEventLogClosed", err)
	}
}

func TestOpenEventLogMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", EventsFile)
	_, err := OpenEventLog(path)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("OpenEventLog in a missing dir = %v, want fs.ErrNotExist naming the path", err)
	}
	if _, statErr := os.Stat(filepath.Dir(path)); !errors.Is(statErr, fs.ErrNotExist) {
		t.Errorf("OpenEventLog created the directory (stat: %v)", statErr)
	}
}

func BenchmarkEventLogAppend(b *testing.B) {
	l, err := OpenEventLog(filepath.Join(b.TempDir(), EventsFile))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	e := sampleEvents()[0]
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Append(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadEvents(b *testing.B) {
	path := filepath.Join(b.TempDir(), EventsFile)
	l, err := OpenEventLog(path)
	if err != nil {
		b.Fatal(err)
	}
	events := sampleEvents()
	for i := range 10000 {
		if err := l.Append(events[i%len(events)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadEvents(path); err != nil {
			b.Fatal(err)
		}
	}
}
