package agents

import (
	"context"

	"github.com/sift-agent/sift/session"
)

// Hold takes the claim on session id for this process, so that no other
// process (another sift resume, a chat, sift serve) runs the session
// while this one does, and keeps it until release is called; what names
// this process for people ("sift resume"). Take it before Run or Resume of
// a session and release it after the last event: a second process is
// refused with a *session.ClaimedError that says who holds the session and
// since when, before it records anything. A claim left by a process that
// ended is taken over. The context returned ends if the claim is lost to
// another process (see session.HoldClaim).
func (s *Sift) Hold(ctx context.Context, id, what string) (context.Context, func(), error) {
	if err := session.ValidateID(id); err != nil {
		return ctx, nil, err
	}
	ctx, h, err := session.HoldClaim(ctx, s.store.Claims, id, what, 0)
	if err != nil {
		return ctx, nil, err
	}
	return ctx, h.Release, nil
}
