package runqueue

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestQueueRepairsAfterRedisLostItsData: after FLUSHALL (as after a
// restart without persistence) the worker holding an entry hears that it
// is gone (not that another worker took it), the first call that meets
// the missing group makes it again and says so, a run the API adds
// after the loss (which makes the stream without the group) is taken,
// and Check answers that the queue can be used.
func TestQueueRepairsAfterRedisLostItsData(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	var repaired atomic.Int32
	w, err := New(ctx, Config{Client: c, Consumer: "w1", Lease: time.Minute, Repaired: func() { repaired.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	api := open(t, c, "", time.Minute)
	if _, err := api.Add(ctx, "s1", []byte("run")); err != nil {
		t.Fatal(err)
	}
	e, err := w.Next(ctx, time.Second)
	if err != nil || e == nil {
		t.Fatalf("take: %v %v", e, err)
	}
	if err := c.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Renew(ctx, e); !errors.Is(err, ErrEntryGone) {
		t.Fatalf("renew an entry Redis lost: %v, want ErrEntryGone", err)
	}
	if n := repaired.Load(); n != 1 {
		t.Fatalf("Repaired called %d times after the group was remade, want 1", n)
	}
	if err := w.Renew(ctx, e); !errors.Is(err, ErrEntryGone) {
		t.Fatalf("renew again: %v, want ErrEntryGone", err)
	}
	if err := c.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Add(ctx, "s2", []byte("after")); err != nil {
		t.Fatalf("add after the loss: %v", err)
	}
	if e, err := w.Next(ctx, 10*time.Millisecond); err != nil || e == nil || e.Session != "s2" {
		t.Fatalf("take the run added after the loss: %+v %v", e, err)
	}
	if n := repaired.Load(); n != 2 {
		t.Fatalf("Repaired called %d times after the second loss, want 2", n)
	}
	if err := c.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := api.Check(ctx); err != nil {
		t.Fatalf("check after a loss: %v", err)
	}
	if d, err := api.Depth(ctx); err != nil || d != 0 {
		t.Fatalf("depth after the repair: %d %v", d, err)
	}
	if _, err := api.Add(ctx, "s3", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if e, err := w.Next(ctx, time.Second); err != nil || e == nil || e.Session != "s3" {
		t.Fatalf("take after Check repaired the queue: %+v %v", e, err)
	}
}

// TestCheckSaysWhyTheQueueCannotBeUsed: with Redis gone, Check fails
// and names the run queue.
func TestCheckSaysWhyTheQueueCannotBeUsed(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	q := open(t, c, "", time.Minute)
	if err := q.Check(ctx); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	err := q.Check(ctx)
	if err == nil {
		t.Fatal("Check passed on a closed connection")
	}
	if want := "the run queue in Redis cannot be used"; !strings.Contains(err.Error(), want) {
		t.Fatalf("Check: %v, want it to say %q", err, want)
	}
}

// TestDoneInIsOneStepWithTheCallersWrites: the entry goes in the same
// MULTI/EXEC as the caller's status write.
func TestDoneInIsOneStepWithTheCallersWrites(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	w := open(t, c, "w1", time.Minute)
	if _, err := w.Add(ctx, "s1", []byte("run")); err != nil {
		t.Fatal(err)
	}
	e, _ := w.Next(ctx, time.Second)
	if _, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "status:s1", "done", 0)
		w.DoneIn(ctx, p, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := w.Active(ctx, "s1"); ok {
		t.Fatal("the entry is still there after the transaction")
	}
	if v, _ := c.Get(ctx, "status:s1").Result(); v != "done" {
		t.Fatalf("status %q", v)
	}
	if err := w.Renew(ctx, e); !errors.Is(err, ErrEntryGone) {
		t.Fatalf("renew after DoneIn: %v", err)
	}
}
