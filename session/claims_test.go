package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestClaimsConformance checks every backend's claims: one owner at a
// time, renewals, pause requests reaching the holder, release, expiry,
// and exactly one winner when many take the same claim at once.
func TestClaimsConformance(t *testing.T) {
	for _, bc := range testBackends(t) {
		t.Run(bc.name, func(t *testing.T) {
			if bc.skip != nil {
				bc.skip(t)
			}
			c := bc.open(t).Claims
			if c == nil {
				t.Fatal("the backend has no Claims")
			}
			ctx := context.Background()
			id, other := NewID(), NewID()
			const ttl = time.Minute
			if err := c.Acquire(ctx, id, Holder{ID: "a"}, ttl); err != nil {
				t.Fatalf("a takes a free claim: %v", err)
			}
			if err := c.Acquire(ctx, id, Holder{ID: "b"}, ttl); !errors.Is(err, ErrClaimed) {
				t.Fatalf("b takes a's claim: %v, want ErrClaimed", err)
			}
			if err := c.Acquire(ctx, id, Holder{ID: "a"}, ttl); err != nil {
				t.Errorf("a takes its own claim again: %v", err)
			}
			if pause, err := c.Renew(ctx, id, "a", ttl); err != nil || pause {
				t.Errorf("a renews: %v %v, want no pause", pause, err)
			}
			if _, err := c.Renew(ctx, id, "b", ttl); !errors.Is(err, ErrClaimLost) {
				t.Errorf("b renews a's claim: %v, want ErrClaimLost", err)
			}
			if held, err := c.RequestPause(ctx, other); err != nil || held {
				t.Errorf("pause of an unclaimed session: %v %v, want not held", held, err)
			}
			if held, err := c.RequestPause(ctx, id); err != nil || !held {
				t.Fatalf("pause of a's session: %v %v, want held", held, err)
			}
			if pause, err := c.Renew(ctx, id, "a", ttl); err != nil || !pause {
				t.Errorf("a renews after a pause request: %v %v, want pause", pause, err)
			}
			if err := c.Release(ctx, id, "b"); err != nil {
				t.Errorf("b releases a claim it does not hold: %v", err)
			}
			if err := c.Acquire(ctx, id, Holder{ID: "b"}, ttl); !errors.Is(err, ErrClaimed) {
				t.Errorf("b's release freed a's claim: %v", err)
			}
			if err := c.Release(ctx, id, "a"); err != nil {
				t.Fatal(err)
			}
			if err := c.Acquire(ctx, id, Holder{ID: "b"}, ttl); err != nil {
				t.Fatalf("b takes the released claim: %v", err)
			}
			if pause, err := c.Renew(ctx, id, "b", ttl); err != nil || pause {
				t.Errorf("b's new claim: pause %v %v, want a fresh claim", pause, err)
			}
			if _, err := c.Renew(ctx, id, "a", ttl); !errors.Is(err, ErrClaimLost) {
				t.Errorf("a renews after releasing: %v, want ErrClaimLost", err)
			}
			if err := c.Acquire(ctx, "../x", Holder{ID: "a"}, ttl); !errors.Is(err, ErrInvalidID) {
				t.Errorf("bad id: %v, want ErrInvalidID", err)
			}

			// A claim nobody renews expires: the sessions of a process
			// that died become free.
			if err := c.Acquire(ctx, other, Holder{ID: "dead"}, 30*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				err := c.Acquire(ctx, other, Holder{ID: "alive"}, ttl)
				if err == nil {
					break
				}
				if !errors.Is(err, ErrClaimed) || time.Now().After(deadline) {
					t.Fatalf("the expired claim was never free: %v", err)
				}
				time.Sleep(10 * time.Millisecond) // waiting for the claim's time to run out
			}
			if _, err := c.Renew(ctx, other, "dead", ttl); !errors.Is(err, ErrClaimLost) {
				t.Errorf("the dead owner renews: %v, want ErrClaimLost", err)
			}

			// Many owners at once: exactly one wins.
			race := NewID()
			var wg sync.WaitGroup
			wins := make(chan string, 16)
			for i := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					owner := fmt.Sprintf("o%d", i)
					if err := c.Acquire(ctx, race, Holder{ID: owner}, ttl); err == nil {
						wins <- owner
					} else if !errors.Is(err, ErrClaimed) {
						t.Errorf("%s: %v", owner, err)
					}
				}()
			}
			wg.Wait()
			close(wins)
			if n := len(wins); n != 1 {
				t.Errorf("%d owners took one claim at once, want 1", n)
			}
		})
	}
}
