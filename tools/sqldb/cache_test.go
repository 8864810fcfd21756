package sqldb

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for the result cache.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestResultCacheHitAndExpiry(t *testing.T) {
	clock := &fakeClock{now: time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)}
	s, _, _ := openShop(t, Options{Now: clock.Now, CacheTTL: 5 * time.Minute})
	ctx := context.Background()
	run := func(q string) *Result {
		t.Helper()
		res, err := s.Query(ctx, q, QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if run("SELECT count(*) FROM orders").Cached {
		t.Fatal("first run came from the cache")
	}
	clock.Advance(4 * time.Minute)
	hit := run("select count(*)\n  FROM orders -- same query, other layout\n;")
	if !hit.Cached {
		t.Fatal("identical query (other layout and comments) missed the cache")
	}
	if got := FormatResult(hit, clock.Now()); !strings.Contains(got, "cached: the same query ran 4m0s ago") {
		t.Errorf("reply does not say it was cached:\n%s", got)
	}
	if run("SELECT count(*) FROM orders WHERE status = 'paid'").Cached {
		t.Error("a different query hit the cache")
	}
	clock.Advance(time.Minute + time.Second)
	if run("SELECT count(*) FROM orders").Cached {
		t.Error("an expired entry was used")
	}
	// NoCache skips it even when fresh.
	res, err := s.Query(ctx, "SELECT count(*) FROM orders", QueryOptions{NoCache: true})
	if err != nil || res.Cached {
		t.Errorf("NoCache query: cached=%v err=%v", res != nil && res.Cached, err)
	}
}

func TestResultCacheOffAndSaveAs(t *testing.T) {
	s, _, _ := openShop(t, Options{CacheTTL: -1})
	ctx := context.Background()
	for range 2 {
		res, err := s.Query(ctx, "SELECT 1", QueryOptions{})
		if err != nil || res.Cached {
			t.Fatalf("cache off: cached=%v err=%v", res != nil && res.Cached, err)
		}
	}

	s2, _, _ := openShop(t, Options{})
	op := newOperator(t)
	if _, err := s2.Query(ctx, "SELECT id FROM customers", QueryOptions{Op: op}); err != nil {
		t.Fatal(err)
	}
	// Asking to save a cached result under a name runs it again, so the
	// file exists.
	res, err := s2.Query(ctx, "SELECT id FROM customers", QueryOptions{Op: op, SaveAs: "ids"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cached || res.SavedTo != "out/ids.csv" {
		t.Errorf("save_as on a cached query: cached=%v saved=%q, want a fresh run saved to out/ids.csv", res.Cached, res.SavedTo)
	}
	again, err := s2.Query(ctx, "SELECT id FROM customers", QueryOptions{Op: op, SaveAs: "ids"})
	if err != nil || !again.Cached || again.SavedTo != "out/ids.csv" {
		t.Errorf("same save_as again: cached=%v saved=%q err=%v, want a cache hit", again.Cached, again.SavedTo, err)
	}
}
