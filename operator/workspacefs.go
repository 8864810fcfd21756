package operator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// The host side reaches the workspace only through package confined:
// every name is opened beneath the workspace root by descriptor, without
// following links or blocking on a FIFO, and read from what was opened.
// These helpers turn a caller's path into a name beneath the root and the
// package's refusals into the operator's errors.

// workspaceName maps a workspace-relative path (or an absolute one inside
// root) to a clean slash path beneath root ("." for root itself), refusing
// with ErrOutsideWorkspace a path that leaves it by name.
func workspaceName(root, path string) (string, error) {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, abs)
	}
	abs = filepath.Clean(abs)
	if !sandbox.Within(root, abs) {
		return "", fmt.Errorf("resolve %q: %w; %s", path, ErrOutsideWorkspace, allowedPathsHint)
	}
	return RelPath(root, abs), nil
}

// hostErr names a refusal of package confined in the operator's terms: a
// link or escape wraps ErrOutsideWorkspace, with the hint a model needs.
func hostErr(err error) error {
	if errors.Is(err, confined.ErrEscape) {
		return fmt.Errorf("%w: %w; %s", err, ErrOutsideWorkspace, allowedPathsHint)
	}
	return err
}

// inInput reports whether the clean name lies under input/, which the
// sandbox cannot write (so a hard link there is the user's, not planted).
func inInput(name string) bool {
	return name == InputDir || strings.HasPrefix(name, InputDir+"/")
}

// readOpts are the options for opening name: hard links are accepted only
// under input/, where Sift itself links the user's files.
func readOpts(name string) []confined.Option {
	if inInput(name) {
		return []confined.Option{confined.AllowHardLinks}
	}
	return nil
}

// OpenIn opens path inside the workspace root for reading, by descriptor
// (see package confined): a regular file or a directory, never through a
// link. Callers read from the file it returns.
func OpenIn(root, path string) (*os.File, error) {
	name, err := workspaceName(root, path)
	if err != nil {
		return nil, err
	}
	f, err := confined.Open(root, name, readOpts(name)...)
	if err != nil {
		return nil, hostErr(err)
	}
	return f, nil
}

// existsIn reports whether the slash path rel names a regular file beneath
// root, without following links.
func existsIn(r *confined.Root, rel string) bool {
	fi, err := r.Stat(filepath.ToSlash(rel))
	return err == nil && fi.Mode().IsRegular()
}

// mkdirsIn makes the directories beneath root, refusing links on the way.
func mkdirsIn(root string, dirs ...string) error {
	r, err := confined.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, d := range dirs {
		if err := r.MkdirAll(d, 0o755); err != nil {
			return hostErr(err)
		}
	}
	return nil
}

// walkFiles records the regular files below dir beneath r, skipping the
// hidden runtime directories directly under work/.
func walkFiles(r *confined.Root, dir string, files map[string]fileStamp) {
	_ = r.Walk(dir, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			if dir == WorkDir && strings.Count(rel, "/") == 1 && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		files[rel] = fileStamp{size: info.Size(), modTime: info.ModTime()}
		return nil
	})
}

// setModTime sets a workspace file's modification time without following
// a link.
func setModTime(r *confined.Root, rel string, t time.Time) {
	_ = r.SetModTime(rel, t)
}

// writeIn replaces the workspace file rel (its directory must exist) by a
// fresh file holding data, never writing through what is there.
func writeIn(root, rel string, data []byte) error {
	r, err := confined.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	return hostErr(r.WriteFile(rel, data, 0o644))
}

// existingFiles keeps the workspace paths that name regular files now,
// looked at without following links.
func existingFiles(root string, paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	r, err := confined.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	var out []string
	for _, p := range paths {
		if existsIn(r, p) {
			out = append(out, p)
		}
	}
	return out
}

// prepareDirsIn makes the directories a cell needs (work/.cells, its home
// and temporary directories, out/). Code may have put a link (or a file)
// where one of them belongs: that entry is removed, never followed, and
// the directory made again.
func prepareDirsIn(root string) error {
	r, err := confined.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, d := range []string{CellsDir, homeDir, tmpDir, OutDir} {
		_, missing := r.Stat(d)
		err := r.MkdirAll(d, 0o755)
		if errors.Is(err, confined.ErrRefused) {
			if fi, serr := r.Stat(d); serr == nil && !fi.IsDir() {
				if r.Remove(d) == nil {
					missing = fs.ErrNotExist
					err = r.MkdirAll(d, 0o755)
				}
			}
		}
		if err != nil {
			return hostErr(err)
		}
		if missing != nil {
			sameOwnerAsParent(r, d)
		}
	}
	return nil
}

// sameOwnerAsParent gives a directory the host just made the owner of its
// parent: under a root-run sandbox, work/ belongs to the sandbox user, and
// so must what Sift makes in it while a kernel runs.
func sameOwnerAsParent(r *confined.Root, d string) {
	if os.Geteuid() != 0 {
		return
	}
	parent, err := r.Stat(path.Dir(d))
	if err != nil {
		return
	}
	if st, ok := parent.Sys().(*unix.Stat_t); ok {
		_ = r.Lchown(d, int(st.Uid), int(st.Gid))
	}
}
