package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/plans"
)

// deliverableFiles are the files a session hands back besides those under
// out/.
var deliverableFiles = []string{PlanFile, ReportFile, ReportHTMLFile}

// ErrNotDeliverable is wrapped when a path names no file a session hands
// back to the person: not plan.md, report.md, report.html or a file under
// out/, not written plainly, or leading through a symbolic link.
var ErrNotDeliverable = errors.New("path refused")

// CheckDeliverable accepts only plan.md, report.md, report.html, each
// question's report-NN.md and report-NN.html, and files under out/,
// written plainly (already percent-decoded, once): no "..", no absolute
// path, no backslash or NUL, no empty or "." element. A name starting with
// a dot (out/.x.csv, out/.cache/y, a file still being written) is no
// deliverable either: Deliverables never lists one, so nothing serves it.
// The surfaces that serve a session's files (HTTP files and tables, MCP
// resources, a fork's copy) ask it before touching the disk.
func CheckDeliverable(p string) error {
	refuse := func(why string) error {
		return fmt.Errorf("%w: %q %s; ask for plan.md, report.md, report.html, a question's report-NN.md or a file under out/, e.g. out/trend.png", ErrNotDeliverable, p, why)
	}
	switch {
	case p == "":
		return refuse("is empty")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p):
		return refuse("is absolute")
	case strings.ContainsAny(p, "\\\x00"):
		return refuse("has a backslash or NUL")
	case path.Clean(p) != p:
		return refuse("is not a clean path")
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." || el == "." || el == "" {
			return refuse("has a '..' or empty element")
		}
		if strings.HasPrefix(el, ".") {
			return refuse("is a hidden file (its name or a folder's starts with a dot)")
		}
	}
	if slices.Contains(deliverableFiles, p) || plans.IsQuestionReport(p) || strings.HasPrefix(p, OutDir+"/") {
		return nil
	}
	return refuse("is not one of the files a session hands back")
}

// Deliverables lists the files the session hands back that exist now:
// plan.md, report.md and report.html, each question's report-NN, then the
// artifacts under out/. A missing workspace has none. Everything is looked
// at beneath the workspace by descriptor (package confined): a link is
// never listed or followed.
func (w *Workspace) Deliverables() []string {
	r, err := confined.OpenRoot(w.Root)
	if err != nil {
		return nil
	}
	defer r.Close()
	var out []string
	for _, f := range deliverableFiles {
		if st, err := r.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	if entries, err := r.ReadDir("."); err == nil {
		for _, e := range entries {
			if e.Type().IsRegular() && plans.IsQuestionReport(e.Name()) {
				out = append(out, e.Name())
			}
		}
	}
	arts, _ := w.Artifacts()
	return append(out, arts...)
}

// OpenDeliverable opens the deliverable rel (see CheckDeliverable) for
// reading, beneath the workspace by descriptor (package confined), and
// the caller serves what it opened. A path through a symbolic link, or
// naming a FIFO, device or hard-linked file, is refused with an error
// wrapping ErrNotDeliverable; a missing file wraps fs.ErrNotExist.
func (w *Workspace) OpenDeliverable(rel string) (*os.File, error) {
	if err := CheckDeliverable(rel); err != nil {
		return nil, err
	}
	f, err := confined.Open(w.Root, rel)
	switch {
	case errors.Is(err, confined.ErrRefused):
		return nil, fmt.Errorf("%w: %w", ErrNotDeliverable, err)
	case err != nil:
		return nil, fmt.Errorf("session %s has no file %s: %w", w.ID, rel, fs.ErrNotExist)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("session %s has no file %s: %w", w.ID, rel, fs.ErrNotExist)
	}
	return f, nil
}
