package server

import (
	"context"
	"os"
	"testing"
	"time"

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
