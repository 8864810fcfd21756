package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/session"
)

// handleCompare answers GET /v1/sessions/{id}/compare?with=OTHER: a
// side-by-side diff of the two sessions' reports (agents.Comparison).
func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	for name := range q {
		if name != "with" {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("unknown query parameter %q: this endpoint takes with=SESSION_ID, the session to compare with", name))
			return
		}
	}
	with := q.Get("with")
	if len(q["with"]) != 1 || with == "" {
		writeError(w, http.StatusBadRequest, codeBadRequest, "give the session to compare with once: ?with=SESSION_ID (a refresh or fork of this session, or any session with a report)")
		return
	}
	if err := session.ValidateID(with); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, "with: "+err.Error())
		return
	}
	var notRun []string
	for _, sid := range []string{id, with} {
		m, _, err := s.lookup(r.Context(), sid)
		if err != nil {
			requestError(w, err)
			return
		}
		if m == nil {
			notRun = append(notRun, sid)
		}
	}
	if len(notRun) > 0 {
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s has not run yet, so it has no report to compare", notRun[0]))
		return
	}
	c, err := s.sift.Compare(r.Context(), id, with)
	switch {
	case errors.Is(err, agents.ErrCannotCompare) && (errors.Is(err, session.ErrSessionNotFound) || errors.Is(err, session.ErrWorkspaceNotFound)):
		requestError(w, err)
		return
	case errors.Is(err, agents.ErrCannotCompare):
		writeError(w, http.StatusConflict, codeConflict, err.Error())
		return
	case err != nil:
		requestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}
