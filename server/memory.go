package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/session"
)

// memoryList is what GET /v1/memory answers.
type memoryList struct {
	// Enabled is false when the server runs with memory off.
	Enabled bool           `json:"enabled"`
	Entries []memory.Entry `json:"entries"`
}

// handleListMemory lists what Sift remembers, newest first, without the
// answers' reports (GET /v1/sessions/{id}/files/report.md of the entry's
// session has them); with ?session=ID, only the facts about that
// session's data (the web app's facts panel).
func (s *Server) handleListMemory(w http.ResponseWriter, r *http.Request) {
	out := memoryList{Entries: []memory.Entry{}}
	if q := r.URL.Query(); q.Has("session") {
		id := q.Get("session")
		if err := session.ValidateID(id); err != nil {
			writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
			return
		}
		es, err := s.sessionFacts(r.Context(), id)
		if err != nil {
			requestError(w, err)
			return
		}
		out.Enabled = s.sift.Memory() != nil
		out.Entries = append(out.Entries, es...)
		writeJSON(w, http.StatusOK, out)
		return
	}
	if m := s.sift.Memory(); m != nil {
		es, err := m.List(r.Context())
		if err != nil {
			writeError(w, http.StatusInternalServerError, codeInternal, err.Error())
			return
		}
		for _, e := range es {
			e.Report = ""
			out.Entries = append(out.Entries, e)
		}
		out.Enabled = true
	}
	writeJSON(w, http.StatusOK, out)
}

// sessionFacts are the facts about session id's data: a session in the
// registry as agents.Sift.SessionFacts finds them, one created and not
// yet run by its uploaded files.
func (s *Server) sessionFacts(ctx context.Context, id string) ([]memory.Entry, error) {
	m, st, err := s.lookup(ctx, id)
	if err != nil {
		return nil, err
	}
	if m != nil {
		return s.sift.SessionFacts(ctx, id)
	}
	var srcs memory.Sources
	for _, f := range st.Files {
		src, err := memory.File(ctx, joinPath(s.stagedDir(st.ID), "files", f))
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src)
	}
	return s.sift.FactsAbout(ctx, srcs)
}

// memoryEdit is PATCH /v1/memory/{id}'s body.
type memoryEdit struct {
	// Answer is what the person says now.
	Answer *string `json:"answer"`
}

// handleEditMemory makes a fact say what the person says now.
func (s *Server) handleEditMemory(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := memory.ValidateID(id); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	var body memoryEdit
	if !s.decodeJSON(w, r, &body) {
		return
	}
	if body.Answer == nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, `give the fact's new text: {"answer": "refunds count as negative revenue"}`)
		return
	}
	m := s.sift.Memory()
	if m == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "memory is off on this server, so it holds no entry "+id)
		return
	}
	e, err := memory.Edit(r.Context(), m, id, *body.Answer, time.Now())
	switch {
	case errors.Is(err, memory.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, err.Error())
	case errors.Is(err, memory.ErrBadText), errors.Is(err, memory.ErrNotFact):
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
	case err != nil:
		writeError(w, http.StatusInternalServerError, codeInternal, fmt.Sprintf("edit %s: %v", id, err))
	default:
		e.Report = ""
		writeJSON(w, http.StatusOK, e)
	}
}

// handleForgetMemory forgets one entry.
func (s *Server) handleForgetMemory(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := memory.ValidateID(id); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	m := s.sift.Memory()
	if m == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "memory is off on this server, so it holds no entry "+id)
		return
	}
	err := m.Delete(r.Context(), id)
	switch {
	case errors.Is(err, memory.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, err.Error())
	case err != nil:
		writeError(w, http.StatusInternalServerError, codeInternal, err.Error())
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
