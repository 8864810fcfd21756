package agents

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// flakyRegistry fails the first fails Puts, as a store restarting does.
type flakyRegistry struct {
	session.Registry
	mu    sync.Mutex
	fails int
	tries int
}

func (f *flakyRegistry) Put(ctx context.Context, m session.Meta) error {
	f.mu.Lock()
	f.tries++
	failing := f.fails > 0
	if failing {
		f.fails--
	}
	f.mu.Unlock()
	if failing {
		return errors.New("connection refused")
	}
	return f.Registry.Put(ctx, m)
}

// TestStatusWritesAreRetried: a status write that fails is tried again,
// so a store that is back within a moment records the truth (done); one
// that stays down leaves the cause in the run's events (the session then
// reads as stopped once its process ends, with the log saying why).
func TestStatusWritesAreRetried(t *testing.T) {
	py := pythonOrSkip(t)
	for _, c := range []struct {
		name   string
		fails  int
		stored bool
	}{{"back within a moment", 2, true}, {"down", 1 << 20, false}} {
		t.Run(c.name, func(t *testing.T) {
			b, err := session.OpenFileBackend(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			inner := b.Sessions
			flaky := &flakyRegistry{Registry: inner}
			b.Sessions = flaky
			s, err := New(Config{Store: b, Python: py, CodeTimeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			flaky.mu.Lock()
			flaky.fails = c.fails
			flaky.mu.Unlock()
			evs := collect(t, s, Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}})
			done := evs[len(evs)-1]
			if done.Err != nil {
				t.Fatalf("the run failed: %v", done.Err)
			}
			meta, err := inner.Get(context.Background(), done.Session)
			if c.stored && (err != nil || meta.Status != session.StatusDone) {
				t.Errorf("after two failed writes the session reads %+v (%v); want done", meta.Status, err)
			}
			warned := false
			for _, e := range kinds(evs, event.Message) {
				warned = warned || strings.Contains(e.Text, "could not record the session's status") && strings.Contains(e.Text, "connection refused")
			}
			if warned == c.stored {
				t.Errorf("warning in the events = %v; want %v (the cause, only when every try failed)", warned, !c.stored)
			}
		})
	}
}
