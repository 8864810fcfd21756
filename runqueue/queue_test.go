package runqueue

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/session/sessiontest"
)

// client starts a throwaway redis-server; without one the test skips,
// except in CI, where it fails.
func client(t *testing.T) redis.UniversalClient {
	t.Helper()
	if os.Getenv("CI") == "true" && !sessiontest.RedisInstalled() {
		t.Fatal(sessiontest.RedisMissing + " (CI=true: the run queue's tests must run)")
	}
	c := redis.NewClient(&redis.Options{Addr: sessiontest.StartRedis(t, t)})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func open(t *testing.T, c redis.UniversalClient, consumer string, lease time.Duration) *Queue {
	t.Helper()
	q, err := New(context.Background(), Config{Client: c, Consumer: consumer, Lease: lease})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestAddTakeDone(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	api, w := open(t, c, "", time.Minute), open(t, c, "w1", time.Minute)
	if _, err := api.Add(ctx, "s1", []byte(`{"kind":"run"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Add(ctx, "s1", []byte(`{}`)); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second run of a queued session: %v, want ErrBusy", err)
	}
	if d, err := api.Depth(ctx); err != nil || d != 1 {
		t.Fatalf("depth %d (%v), want 1", d, err)
	}
	if _, err := api.Next(ctx, time.Millisecond); err == nil {
		t.Fatal("a queue without a consumer name took a run")
	}
	e, err := w.Next(ctx, time.Second)
	if err != nil || e == nil {
		t.Fatalf("take: %v %v", e, err)
	}
	if e.Session != "s1" || string(e.Payload) != `{"kind":"run"}` || e.TakenFrom != "" || time.Since(e.Enqueued) > time.Minute {
		t.Fatalf("took %+v", e)
	}
	if d, _ := api.Depth(ctx); d != 0 {
		t.Fatalf("depth %d once taken, want 0", d)
	}
	if ok, _ := api.Active(ctx, "s1"); !ok {
		t.Fatal("a session being worked is not active")
	}
	if err := w.Renew(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := w.Done(ctx, e); err != nil {
		t.Fatal(err)
	}
	if ok, _ := api.Active(ctx, "s1"); ok {
		t.Fatal("a done session is still active")
	}
	if e, err := w.Next(ctx, 10*time.Millisecond); e != nil || err != nil {
		t.Fatalf("an empty queue gave %+v, %v", e, err)
	}
	if _, err := api.Add(ctx, "s1", []byte(`{}`)); err != nil {
		t.Fatalf("a done session takes a new run: %v", err)
	}
}

// A worker that stops renewing loses its run to the next worker that
// asks once the lease has expired, and can neither renew nor finish it.
func TestExpiredLeaseIsTakenOver(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	const lease = time.Second
	w1, w2 := open(t, c, "w1", lease), open(t, c, "w2", lease)
	if _, err := w1.Add(ctx, "s1", []byte("p")); err != nil {
		t.Fatal(err)
	}
	e1, err := w1.Next(ctx, time.Second)
	if err != nil || e1 == nil {
		t.Fatalf("take: %v %v", e1, err)
	}
	if e, err := w2.Next(ctx, 10*time.Millisecond); e != nil || err != nil {
		t.Fatalf("w2 took a leased run: %+v %v", e, err)
	}
	var e2 *Entry
	for e2 == nil {
		if e2, err = w2.Next(ctx, lease/4); err != nil {
			t.Fatal(err)
		}
	}
	if e2.ID != e1.ID || e2.TakenFrom != "w1" || string(e2.Payload) != "p" {
		t.Fatalf("w2 took %+v, want %s from w1", e2, e1.ID)
	}
	if err := w1.Renew(ctx, e1); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("w1 renews a run taken over: %v, want ErrLeaseLost", err)
	}
	if err := w1.Done(ctx, e1); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("w1 finishes a run taken over: %v, want ErrLeaseLost", err)
	}
	if ok, _ := w2.Active(ctx, "s1"); !ok {
		t.Fatal("the taken-over run is no longer active")
	}
	if err := w2.Done(ctx, e2); err != nil {
		t.Fatal(err)
	}
}

// A draining worker hands its run back: another worker takes it at once,
// with the name of the worker that handed it back.
func TestRequeueHandsBack(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	w1, w2 := open(t, c, "w1", time.Minute), open(t, c, "w2", time.Minute)
	if _, err := w1.Add(ctx, "s1", []byte("run")); err != nil {
		t.Fatal(err)
	}
	e1, _ := w1.Next(ctx, time.Second)
	if err := w1.Requeue(ctx, e1, []byte("resume")); err != nil {
		t.Fatal(err)
	}
	if ok, _ := w1.Active(ctx, "s1"); !ok {
		t.Fatal("a handed-back run is not active")
	}
	if _, err := w1.Add(ctx, "s1", nil); !errors.Is(err, ErrBusy) {
		t.Fatalf("a new run of a handed-back session: %v, want ErrBusy", err)
	}
	e2, err := w2.Next(ctx, time.Second)
	if err != nil || e2 == nil || e2.ID == e1.ID || string(e2.Payload) != "resume" || e2.HandedBackBy != "w1" {
		t.Fatalf("w2 took %+v (%v)", e2, err)
	}
	if err := w1.Done(ctx, e1); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("w1 finishes the run it handed back: %v", err)
	}
	if err := w2.Done(ctx, e2); err != nil {
		t.Fatal(err)
	}
	if ok, _ := w1.Active(ctx, "s1"); ok {
		t.Fatal("a done session is still active")
	}
}
