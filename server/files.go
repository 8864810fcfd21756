package server

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/sift-agent/sift/session"
)

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	f, rel, ok := s.openRequestedFile(w, r)
	if !ok {
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

// openRequestedFile opens the session file the request's {path} names,
// with every check the files endpoint makes (a deliverable path, beneath
// the workspace by descriptor, no link, FIFO or device); on failure it has
// answered and ok is false. The caller closes f.
func (s *Server) openRequestedFile(w http.ResponseWriter, r *http.Request) (f *os.File, rel string, ok bool) {
	id, ok := sessionID(w, r)
	if !ok {
		return nil, "", false
	}
	// The path arrives decoded once by the mux, in any standard form: raw
	// (out/a b.csv, UTF-8), percent-encoded (out/a%20b.csv) or with its
	// slashes encoded too (out%2Fa%20b.csv, as generated clients send
	// {path}). It is then opened beneath the workspace by descriptor.
	rel = r.PathValue("path")
	if err := session.CheckDeliverable(rel); err != nil {
		status := http.StatusForbidden
		if hasDotSegment(rel) {
			status = http.StatusBadRequest
		}
		writeError(w, status, codeForbidden, err.Error())
		return nil, "", false
	}
	if !s.workspaceExists(id) {
		if _, _, err := s.lookup(r.Context(), id); err != nil {
			requestError(w, err)
			return nil, "", false
		}
		writeError(w, http.StatusNotFound, codeNotFound, fmt.Sprintf("session %s has no files yet", id))
		return nil, "", false
	}
	f, err := s.workspace(id).OpenDeliverable(rel)
	switch {
	case errors.Is(err, session.ErrNotDeliverable):
		writeError(w, http.StatusForbidden, codeForbidden, err.Error())
		return nil, "", false
	case err != nil:
		writeError(w, http.StatusNotFound, codeNotFound, fmt.Sprintf("session %s has no file %s", id, rel))
		return nil, "", false
	}
	return f, rel, true
}

// listFiles lists what the files endpoint would serve for the session.
func (s *Server) listFiles(id string) []string { return s.workspace(id).Deliverables() }

// fileURLs are the files endpoint's URLs of the session's files, from the
// server's root under base (the request's base path, see basePath), each
// path element percent-encoded: any name the workspace holds (spaces,
// non-ASCII, '#', '?') downloads as listed.
func fileURLs(base, id string, files []string) []string {
	if len(files) == 0 {
		return nil
	}
	out := make([]string, len(files))
	for i, f := range files {
		els := strings.Split(f, "/")
		for j, el := range els {
			els[j] = url.PathEscape(el)
		}
		out[i] = base + "/v1/sessions/" + url.PathEscape(id) + "/files/" + strings.Join(els, "/")
	}
	return out
}

// hasDotSegment reports whether a slash path has a "." or ".." element.
func hasDotSegment(p string) bool {
	for _, el := range strings.Split(p, "/") {
		if el == "." || el == ".." {
			return true
		}
	}
	return false
}

// refuseDotFilePath answers 400 for a files- or tables-endpoint path with "." or ".."
// elements (or empty ones) before the mux would redirect it to a cleaned
// path (307): a file path is taken as it is sent or not at all.
func refuseDotFilePath(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.EscapedPath()
	rest, ok := strings.CutPrefix(p, "/v1/sessions/")
	if !ok {
		return false
	}
	_, file, ok := strings.Cut(rest, "/files/")
	if !ok {
		_, file, ok = strings.Cut(rest, "/tables/")
	}
	if !ok || !(hasDotSegment(file) || strings.Contains(file, "//") || strings.HasPrefix(file, "/") || strings.HasSuffix(file, "/")) {
		return false
	}
	writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("the file path %q has '.', '..' or empty elements; ask for plan.md, report.md, report.html or a file under out/ by its own path, e.g. out/trend.png", file))
	return true
}

// workspace is the session's workspace, which may not exist.
func (s *Server) workspace(id string) *session.Workspace {
	return &session.Workspace{ID: id, Root: s.workspacePath(id)}
}
