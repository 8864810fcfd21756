package session

import (
	"context"
	"errors"
	"time"
)

// DefaultClaimTTL is how long a claim taken with HoldClaim lasts without
// renewal: a process on another machine that died frees its sessions this
// long after (one on this machine frees them at once: see Claims).
const DefaultClaimTTL = 30 * time.Second

// Hold is a session's claim that this process holds and renews in the
// background until Release.
type Hold struct {
	claims Claims
	id     string
	owner  string
	stop   chan struct{}
	done   chan struct{}
}

// HoldClaim takes the claim on session id for this process, named what
// for people ("sift resume"), and renews it every ttl/3 until Release.
// Another live holder makes it fail with a *ClaimedError saying who holds
// the session and since when. The context returned is ctx, cancelled with
// the cause ErrClaimLost should another holder take the claim over (this
// process stalled longer than ttl): the run then stops rather than run
// twice. A nil c (a backend without claims) holds nothing. ttl <= 0 means
// DefaultClaimTTL.
func HoldClaim(ctx context.Context, c Claims, id, what string, ttl time.Duration) (context.Context, *Hold, error) {
	if c == nil {
		return ctx, &Hold{}, nil
	}
	if ttl <= 0 {
		ttl = DefaultClaimTTL
	}
	h := Holder{ID: NewID(), Process: ThisProcess(), What: what}
	if err := c.Acquire(ctx, id, h, ttl); err != nil {
		return ctx, nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	hold := &Hold{claims: c, id: id, owner: h.ID, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(hold.done)
		tick := time.NewTicker(ttl / 3)
		defer tick.Stop()
		for {
			select {
			case <-hold.stop:
				return
			case <-tick.C:
			}
			rctx, rcancel := context.WithTimeout(context.Background(), ttl/3)
			_, err := c.Renew(rctx, id, h.ID, ttl)
			if errors.Is(err, ErrClaimLost) {
				// Expired while this process stalled: take it again if
				// nobody else did.
				err = c.Acquire(rctx, id, h, ttl)
				if errors.Is(err, ErrClaimed) {
					rcancel()
					cancel(errors.Join(ErrClaimLost, err))
					return
				}
			}
			rcancel()
		}
	}()
	return ctx, hold, nil
}

// Release stops renewing the claim and gives it up. It is safe to call
// more than once, and on the Hold of a nil Claims.
func (h *Hold) Release() {
	if h == nil || h.claims == nil {
		return
	}
	select {
	case <-h.stop:
		return
	default:
		close(h.stop)
	}
	<-h.done
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = h.claims.Release(ctx, h.id, h.owner)
}
