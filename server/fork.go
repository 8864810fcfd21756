package server

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// jobFork is a queued fork: Fork says of what, from which step.
const jobFork = "fork"

// forkRequest is the body of POST .../fork.
type forkRequest struct {
	At     int      `json:"at"`
	Step   string   `json:"step"`
	Plan   []string `json:"plan"`
	Answer string   `json:"answer"`
}

// handleFork starts a new session from the point of this one before a
// step, with that step's description, the plan from it or the answer to
// its question changed.
func (s *Server) handleFork(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	var body forkRequest
	if !s.decodeJSON(w, r, &body) {
		return
	}
	if body.At < 1 {
		writeError(w, http.StatusBadRequest, codeBadRequest, `give the step to go on from: {"at": 2, "step": "the new description"}`)
		return
	}
	m, _, err := s.lookup(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	if m == nil || (!m.Status.Finished() && m.Status != session.StatusPaused) {
		status := statusCreated
		if m != nil {
			status = metaView(*m).Status
		}
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s is %s; fork it once it has finished or paused", id, status))
		return
	}
	req := agents.ForkRequest{Session: id, At: body.At, Step: body.Step, Plan: body.Plan, Answer: body.Answer, SessionID: session.NewIDContext(r.Context())}
	if err := s.sift.CheckFork(r.Context(), req); err != nil {
		if errors.Is(err, session.ErrWorkspaceNotFound) || errors.Is(err, session.ErrSessionNotFound) {
			requestError(w, err)
			return
		}
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	if err := os.MkdirAll(s.stagedDir(req.SessionID), 0o755); err != nil {
		requestError(w, fmt.Errorf("record the session: %w", err))
		return
	}
	// The fork's record shows its parent's inputs (the fork reads them)
	// until its run reaches the registry: the web app's "Data:" line.
	st := &staged{ID: req.SessionID, Created: time.Now().UTC(), Started: time.Now().UTC(), Question: m.Question, Inputs: m.Inputs}
	if err := s.writeStaged(st); err != nil {
		requestError(w, fmt.Errorf("record the session: %w", err))
		return
	}
	s.accept(w, r, req.SessionID, queuedJob{Kind: jobFork, Fork: &req}, func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Fork(ctx, req) }, nil)
}
