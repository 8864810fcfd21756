package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sift-agent/sift/session"
)

// storeTimeout bounds each call to the shared store made outside a
// request.
const storeTimeout = 10 * time.Second

// claim takes the session's claim in the shared store for this server:
// the lease that keeps two servers from running (or queueing) one session
// at once. A store without Claims serves one process: nothing to take.
func (s *Server) claim(ctx context.Context, id string) error {
	c := s.store.Claims
	if c == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	err := c.Acquire(ctx, id, s.holder(), s.cfg.ClaimTTL)
	var ce *session.ClaimedError
	if errors.As(err, &ce) {
		return &refusal{409, codeConflict, fmt.Sprintf("session %s has a run going on or queued in another server or process: %s holds it since %s; follow its events, pause it, or wait for its done event", id, ce.Holder, ce.Holder.Since.UTC().Format(time.DateTime+" UTC"))}
	}
	if errors.Is(err, session.ErrClaimed) {
		return &refusal{409, codeConflict, fmt.Sprintf("session %s has a run going on or queued in another server or process; follow its events, pause it, or wait for its done event", id)}
	}
	return err
}

// holder is this server as the claims name it: the same mechanism as the
// CLI's (agents.Sift.Hold), so a session a sift resume runs is refused
// here and the other way round, and a server that was killed frees its
// sessions at once on this machine.
func (s *Server) holder() session.Holder {
	what := "sift serve"
	if s.runq != nil {
		what = "sift worker " + s.cfg.WorkerName
	}
	return session.Holder{ID: s.owner, Process: session.ThisProcess(), What: what}
}

// release gives up this server's claim on the session.
func (s *Server) release(id string) {
	c := s.store.Claims
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := c.Release(ctx, id, s.owner); err != nil {
		s.log.Warn("release the session's claim; it expires by itself", "session", id, "err", err)
	}
}

// keepClaim renews the claim on h's session while h is queued or running,
// and passes on a pause asked for through another server. A claim lost
// (this server could not renew it in time) is taken again if it is free;
// if another server has it, the run pauses rather than run twice.
func (s *Server) keepClaim(h *hub) {
	c := s.store.Claims
	if c == nil {
		return
	}
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-h.ended:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		pause, err := c.Renew(ctx, h.id, s.owner, s.cfg.ClaimTTL)
		if errors.Is(err, session.ErrClaimLost) && h.ending() {
			// The run has published its done event and let go of the
			// claim (release comes after it); taking the claim again
			// would hold the session for a whole ClaimTTL after this
			// process is done with it, so a worker taking the run a
			// draining worker handed back waited that long.
			cancel()
			return
		}
		if errors.Is(err, session.ErrClaimLost) {
			err = c.Acquire(ctx, h.id, s.holder(), s.cfg.ClaimTTL)
			if errors.Is(err, session.ErrClaimed) {
				cancel()
				s.log.Warn("another server took the claim on a session this one runs; pausing it here", "session", h.id)
				h.requestPause()
				return
			}
		}
		cancel()
		switch {
		case err != nil:
			s.log.Warn("renew the session's claim", "session", h.id, "err", err)
		case pause:
			h.requestPause()
		}
	}
}

// requestRemotePause asks the server holding the session's claim to pause
// its run; it reports whether one holds it.
func (s *Server) requestRemotePause(ctx context.Context, id string) (bool, error) {
	c := s.store.Claims
	if c == nil {
		return false, nil
	}
	return c.RequestPause(ctx, id)
}
