package server

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
)

// TestAskAgainAtTheDoneEventIsNotRefused: a client that starts the next
// run the moment it sees the done event (the web app's follow-up box does)
// waits for the ended run to free the session instead of getting a 409.
func TestAskAgainAtTheDoneEventIsNotRefused(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession(salesCSV(t))
	done := func(seq int64, sent chan struct{}) runFunc {
		return func(context.Context) iter.Seq[event.Event] {
			return func(yield func(event.Event) bool) {
				yield(event.Event{Kind: event.Done, Seq: seq})
				if sent != nil {
					close(sent)
				}
			}
		}
	}
	sent, free := make(chan struct{}), make(chan struct{})
	// after holds the ended run's bookkeeping, as a slow store would.
	if _, err := ts.srv.startRun(context.Background(), id, done(1, sent), func() { <-free }); err != nil {
		t.Fatal(err)
	}
	<-sent
	go func() {
		time.Sleep(100 * time.Millisecond)
		close(free)
	}()
	if _, err := ts.srv.startRun(context.Background(), id, done(2, nil), nil); err != nil {
		t.Fatalf("a run asked for right after the done event was refused: %v", err)
	}
}

// TestAnswerAtTheInterruptIsNotRefused: the web app offers the answer at
// the run's interrupt event, and the run sends its done event only once
// its kernel has stopped; an answer sent in between waits for the run to
// end instead of getting a 409 (TestBrowserFactsPanelListsEditsAndForgets
// met it on a loaded machine).
func TestAnswerAtTheInterruptIsNotRefused(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession(salesCSV(t))
	asked, free := make(chan struct{}), make(chan struct{})
	waits := func(context.Context) iter.Seq[event.Event] {
		return func(yield func(event.Event) bool) {
			yield(event.Event{Kind: event.Interrupted, Seq: 1, Interrupt: &event.Interrupt{ID: "q1", Kind: event.InterruptQuestion}})
			close(asked)
			<-free // the kernel stopping
			yield(event.Event{Kind: event.Done, Seq: 2})
		}
	}
	if _, err := ts.srv.startRun(context.Background(), id, waits, nil); err != nil {
		t.Fatal(err)
	}
	<-asked
	go func() {
		time.Sleep(100 * time.Millisecond)
		close(free)
	}()
	answered := func(context.Context) iter.Seq[event.Event] {
		return func(yield func(event.Event) bool) { yield(event.Event{Kind: event.Done, Seq: 3}) }
	}
	if _, err := ts.srv.startRun(context.Background(), id, answered, nil); err != nil {
		t.Fatalf("an answer sent at the interrupt event was refused: %v", err)
	}
}
