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
	"syscall"
)

// deliverableFiles are the files a session hands back besides those under
// out/.
var deliverableFiles = []string{PlanFile, ReportFile, ReportHTMLFile}

// ErrNotDeliverable is wrapped when a path names no file a session hands
// back to the person: not plan.md, report.md, report.html or a file under
// out/, not written plainly, or leading through a symbolic link.
var ErrNotDeliverable = errors.New("path refused")

// CheckDeliverable accepts only plan.md, report.md, report.html and files
// under out/, written plainly: no "..", no absolute path, no backslash, no
// percent sign, no empty or "." element. The surfaces that serve a
// session's files (HTTP, MCP) ask it before touching the disk.
func CheckDeliverable(p string) error {
	refuse := func(why string) error {
		return fmt.Errorf("%w: %q %s; ask for plan.md, report.md, report.html or a file under out/, e.g. out/trend.png", ErrNotDeliverable, p, why)
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
	if slices.Contains(deliverableFiles, p) || strings.HasPrefix(p, OutDir+"/") {
		return nil
	}
	return refuse("is not one of the files a session hands back")
}

// Deliverables lists the files the session hands back that exist now:
// plan.md, report.md and report.html, then the artifacts under out/. A
// missing workspace has none.
func (w *Workspace) Deliverables() []string {
	var out []string
	for _, f := range deliverableFiles {
		if st, err := os.Lstat(filepath.Join(w.Root, f)); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	arts, _ := w.Artifacts()
	return append(out, arts...)
}

// OpenDeliverable opens the deliverable rel (see CheckDeliverable) for
// reading. It refuses, with an error wrapping ErrNotDeliverable, a path
// any element of which is a symbolic link, so a link planted in out/
// cannot expose another file; a missing or irregular file wraps
// fs.ErrNotExist.
func (w *Workspace) OpenDeliverable(rel string) (*os.File, error) {
	if err := CheckDeliverable(rel); err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(w.Root)
	if err != nil {
		return nil, fmt.Errorf("session %s has no file %s: %w", w.ID, rel, fs.ErrNotExist)
	}
	cur := root
	for _, el := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, el)
		st, err := os.Lstat(cur)
		if err != nil {
			return nil, fmt.Errorf("session %s has no file %s: %w", w.ID, rel, fs.ErrNotExist)
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: %s is a symbolic link", ErrNotDeliverable, rel)
		}
	}
	f, err := os.OpenFile(cur, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, fmt.Errorf("session %s has no file %s: %w", w.ID, rel, fs.ErrNotExist)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("session %s has no file %s: %w", w.ID, rel, fs.ErrNotExist)
	}
	return f, nil
}
