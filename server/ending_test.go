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
