package server

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/sift-agent/sift/session"
)

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	// Encoded characters are refused outright: the path must reach us as
	// it will be used.
	if strings.Contains(r.URL.EscapedPath(), "%") {
		writeError(w, http.StatusBadRequest, "bad_request", "the file path has percent-encoded characters; ask for plan.md, report.md, report.html or a file under out/ by its plain name")
		return
	}
	rel := r.PathValue("path")
	if err := session.CheckDeliverable(rel); err != nil {
		writeError(w, http.StatusForbidden, "forbidden", err.Error())
		return
	}
	if !s.workspaceExists(id) {
		if _, _, err := s.lookup(r.Context(), id); err != nil {
			requestError(w, err)
			return
		}
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("session %s has no files yet", id))
		return
	}
	f, err := s.workspace(id).OpenDeliverable(rel)
	switch {
	case errors.Is(err, session.ErrNotDeliverable):
		writeError(w, http.StatusForbidden, "forbidden", err.Error())
		return
	case err != nil:
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("session %s has no file %s", id, rel))
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		requestError(w, err)
		return
	}
	if ct := mime.TypeByExtension(path.Ext(rel)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	if path.Ext(rel) == ".md" {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	}
	// An artifact is the run's output, not this site's page: never let a
	// browser run it as one.
	w.Header().Set("X-Content-Type-Options", "nosniff")
	csp := "sandbox"
	if rel == session.ReportHTMLFile {
		// The report shows its own styles and images, and runs nothing.
		csp = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"
	}
	w.Header().Set("Content-Security-Policy", csp)
	http.ServeContent(w, r, st.Name(), st.ModTime(), f)
}

// listFiles lists what the files endpoint would serve for the session.
func (s *Server) listFiles(id string) []string { return s.workspace(id).Deliverables() }

// workspace is the session's workspace, which may not exist.
func (s *Server) workspace(id string) *session.Workspace {
	return &session.Workspace{ID: id, Root: s.workspacePath(id)}
}
