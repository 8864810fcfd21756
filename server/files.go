package server

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// servedFiles are the workspace files the files endpoint serves, besides
// those under out/.
var servedFiles = []string{session.PlanFile, session.ReportFile, session.ReportHTMLFile}

// errPathRefused is wrapped by every refusal of checkFilePath.
var errPathRefused = errors.New("path refused")

// checkFilePath accepts only plan.md, report.md, report.html, each
// question's report-NN.md and report-NN.html, and files under out/, written plainly: no "..", no absolute path, no backslash,
// no percent-encoding left after the URL was decoded, no empty or "."
// element.
func checkFilePath(p string) error {
	refuse := func(why string) error {
		return fmt.Errorf("%w: %q %s; ask for plan.md, report.md, report.html, a question's report-NN.md or a file under out/, e.g. out/trend.png", errPathRefused, p, why)
	}
	switch {
	case p == "":
		return refuse("is empty")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p):
		return refuse("is absolute")
	case strings.ContainsAny(p, "\\\x00%"):
		return refuse("has a backslash, NUL or percent sign")
	case path.Clean(p) != p:
		return refuse("is not a clean path")
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." || el == "." || el == "" {
			return refuse("has a '..' or empty element")
		}
	}
	if slices.Contains(servedFiles, p) || generic.IsQuestionReport(p) || strings.HasPrefix(p, session.OutDir+"/") {
		return nil
	}
	return refuse("is not one of the files this endpoint serves")
}

// noSymlinks refuses a path any element of which (below root) is a
// symbolic link, so a link planted in out/ cannot expose another file.
func noSymlinks(root, rel string) error {
	cur := root
	for _, el := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, el)
		st, err := os.Lstat(cur)
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%w: %s is a symbolic link", errPathRefused, rel)
		}
	}
	return nil
}

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
	if err := checkFilePath(rel); err != nil {
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
	root, err := filepath.EvalSymlinks(s.workspacePath(id))
	if err != nil {
		requestError(w, err)
		return
	}
	if err := noSymlinks(root, rel); err != nil {
		if errors.Is(err, errPathRefused) {
			writeError(w, http.StatusForbidden, "forbidden", err.Error())
			return
		}
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("session %s has no file %s", id, rel))
		return
	}
	// The same confinement as the file tools, as a second check.
	abs, err := operator.Confine(root, rel)
	if err != nil {
		writeError(w, http.StatusForbidden, "forbidden", err.Error())
		return
	}
	f, err := os.OpenFile(abs, os.O_RDONLY|noFollow, 0)
	if err != nil {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("session %s has no file %s", id, rel))
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("session %s has no file %s", id, rel))
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
func (s *Server) listFiles(id string) []string {
	root := s.workspacePath(id)
	var out []string
	for _, f := range servedFiles {
		if st, err := os.Lstat(filepath.Join(root, f)); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	_ = filepath.WalkDir(filepath.Join(root, session.OutDir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			if rel, err := filepath.Rel(root, p); err == nil {
				out = append(out, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return out
}
