package server

import (
	"errors"
	"net/http"

	"github.com/sift-agent/sift/memory"
)

// memoryList is what GET /v1/memory answers.
type memoryList struct {
	// Enabled is false when the server runs with memory off.
	Enabled bool           `json:"enabled"`
	Entries []memory.Entry `json:"entries"`
}

// handleListMemory lists what Sift remembers, newest first, without the
// answers' reports (GET /v1/sessions/{id}/files/report.md of the entry's
// session has them).
func (s *Server) handleListMemory(w http.ResponseWriter, r *http.Request) {
	out := memoryList{Entries: []memory.Entry{}}
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
