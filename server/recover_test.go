package server

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/runqueue"
	"github.com/sift-agent/sift/session"
)

// TestFinalStatusRemovesTheEntryInOneStep: on a worker, the write of a
// run's final status through the library's registry removes the run's
// queue entry in the same transaction, so a worker that dies (or loses
// Redis) right after cannot leave an entry another worker takes over.
func TestFinalStatusRemovesTheEntryInOneStep(t *testing.T) {
	addr := startRedis(t)
	ctx := context.Background()
	cfg := testConfig(t, nil)
	// An API-only server whose queue the test replaces by a worker's, so
	// that no worker loop takes the entry first.
	cfg.Sift.Store, cfg.NoRuns = redisBackend(t, addr), true
	ts := startServer(t, cfg)
	b := redisBackend(t, addr)
	q, err := runqueue.New(ctx, runqueue.Config{Client: b.Redis, Prefix: b.RedisPrefix, Consumer: "w1", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ts.srv.runq = q
	id := session.NewID()
	if _, err := q.Add(ctx, id, []byte(`{"kind":"resume"}`)); err != nil {
		t.Fatal(err)
	}
	e, err := q.Next(ctx, time.Second)
	if err != nil || e == nil || e.Session != id {
		t.Fatalf("take: %+v %v", e, err)
	}
	ts.srv.setEntry(id, e)
	reg := &finishingRegistry{Registry: b.Sessions, s: ts.srv}
	if err := reg.Put(ctx, session.Meta{ID: id, Status: session.StatusRunning}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := q.Active(ctx, id); !ok {
		t.Fatal("a running status removed the entry")
	}
	if err := reg.Put(ctx, session.Meta{ID: id, Status: session.StatusDone}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := q.Active(ctx, id); ok {
		t.Fatal("the entry outlived the done status written with it")
	}
	if !ts.srv.entryFinished(id) {
		t.Fatal("the worker still counts the entry as its to renew")
	}
}

// TestFailedStatusWriteIsRetried: a status write that fails for a moment
// (Redis restarting) is tried again, not given up at once.
func TestFailedStatusWriteIsRetried(t *testing.T) {
	statusWriteBackoff = time.Millisecond
	t.Cleanup(func() { statusWriteBackoff = 250 * time.Millisecond })
	reg := &finishingRegistry{Registry: &flakyRegistry{fails: statusWriteTries - 1}}
	if err := reg.Put(context.Background(), session.Meta{ID: session.NewID(), Status: session.StatusDone}); err != nil {
		t.Fatalf("a write that fails %d times then works: %v", statusWriteTries-1, err)
	}
	reg = &finishingRegistry{Registry: &flakyRegistry{fails: statusWriteTries}}
	if err := reg.Put(context.Background(), session.Meta{ID: session.NewID(), Status: session.StatusDone}); err == nil {
		t.Fatal("a write that always fails was reported as made")
	}
}

type flakyRegistry struct {
	session.Registry
	fails int
}

func (f *flakyRegistry) Put(context.Context, session.Meta) error {
	if f.fails > 0 {
		f.fails--
		return os.ErrDeadlineExceeded
	}
	return nil
}

// TestStatusReadsAsTheLogEnds: a session whose record still says running
// (its last status write failed) but whose log ends in done reads as the
// log says, with the error of a failed run.
func TestStatusReadsAsTheLogEnds(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	s := ts.srv
	ctx := context.Background()
	for _, c := range []struct {
		done       event.Event
		want, errs string
	}{
		{event.Event{Kind: event.Done, Time: time.Now()}, "done", ""},
		{event.Event{Kind: event.Done, Time: time.Now(), Err: errors.New("run failed: the kernel died")}, "failed", "run failed: the kernel died"},
	} {
		id := session.NewID()
		if err := os.MkdirAll(s.workspacePath(id), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := s.store.Sessions.Put(ctx, session.Meta{ID: id, Question: "q", Status: session.StatusRunning, Workspace: s.workspacePath(id)}); err != nil {
			t.Fatal(err)
		}
		l, err := session.OpenEventLog(s.eventsPath(id))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Record(c.done); err != nil {
			t.Fatal(err)
		}
		_ = l.Close()
		if v := ts.session(id); v.Status != c.want || v.Error != c.errs {
			t.Errorf("a running record whose log ends in %v: status %s, error %q; want %s, %q", c.done.Err, v.Status, v.Error, c.want, c.errs)
		}
	}
}
