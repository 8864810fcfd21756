package operator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// Workspace layout: the three top-level directories of a session workspace.
const (
	// InputDir holds copies of the user's files; code and tools may read it
	// but never write it.
	InputDir = sandbox.InputDir
	// WorkDir is scratch space for code and tools.
	WorkDir = sandbox.WorkDir
	// OutDir holds the run's artifacts (exports, figures).
	OutDir = sandbox.OutDir
)

// maxSymlinkHops bounds how many dangling symlinks Confine follows by hand
// before it gives up (the kernel's own limit is 40).
const maxSymlinkHops = 40

// allowedPathsHint ends every confinement error so that a model reading it
// knows what a valid path looks like.
const allowedPathsHint = "only workspace-relative paths like input/sales.csv or out/result.csv are allowed"

// Confine maps path to an absolute path inside root, or returns an error
// wrapping ErrOutsideWorkspace. root must be absolute and free of symlinks
// (filepath.EvalSymlinks of it). path may be workspace-relative, or absolute
// when it lies inside root; "" and "." mean root itself.
//
// Beyond the lexical check (no ".." escape, no absolute path elsewhere),
// Confine resolves the symlinks of the longest existing prefix of the path
// and checks the real location again, so a symlink inside the workspace that
// points outside is refused. A dangling symlink is followed by hand to where
// a write through it would land, so writing through one that points outside
// is refused too. The returned path is the real location.
func Confine(root, path string) (string, error) {
	rel, err := workspaceName(root, path)
	if err != nil {
		return "", err
	}
	real, err := realPath(filepath.Join(root, rel))
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", path, err)
	}
	if !sandbox.Within(root, real) {
		return "", fmt.Errorf("resolve %q: it leads through a symlink out of the workspace: %w; %s",
			path, ErrOutsideWorkspace, allowedPathsHint)
	}
	return real, nil
}

// ConfineWrite is Confine for a path about to be written: it also refuses
// the read-only input/ directory (and anything that resolves into it) with
// an error wrapping ErrReadOnly.
func ConfineWrite(root, path string) (string, error) {
	real, err := Confine(root, path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, real)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", path, err)
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	if first == InputDir {
		return "", fmt.Errorf("write %q: input/ holds the user's original files: %w; write to out/ (results) or work/ (scratch) instead",
			path, ErrReadOnly)
	}
	return real, nil
}

// RelPath returns the workspace-relative, slash-separated form of an
// absolute path inside root ("." for root itself).
func RelPath(root, abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// realPath resolves the symlinks along the clean absolute path p. The part of
// p that does not exist yet is kept as it is, appended to the real location
// of the part that does. A dangling symlink is replaced by its target and the
// resolution starts over, so the result is where a write would land.
func realPath(p string) (string, error) {
	for range maxSymlinkHops {
		prefix, tail := existingPrefix(p)
		real, err := filepath.EvalSymlinks(prefix)
		if err == nil {
			return filepath.Join(real, tail), nil
		}
		// Lstat found prefix, so every directory above it resolves; what
		// fails is prefix itself: a symlink whose target does not exist.
		target, rerr := os.Readlink(prefix)
		if rerr != nil {
			return "", errors.Join(err, rerr)
		}
		if !filepath.IsAbs(target) {
			dir, derr := filepath.EvalSymlinks(filepath.Dir(prefix))
			if derr != nil {
				return "", derr
			}
			target = filepath.Join(dir, target)
		}
		p = filepath.Join(target, tail)
	}
	return "", fmt.Errorf("more than %d levels of symlinks", maxSymlinkHops)
}

// existingPrefix splits the clean absolute path p into its longest prefix
// that exists (as a file, directory or symlink) and the rest.
func existingPrefix(p string) (prefix, tail string) {
	prefix = p
	for {
		if _, err := os.Lstat(prefix); err == nil {
			return prefix, tail
		}
		parent := filepath.Dir(prefix)
		if parent == prefix {
			return prefix, tail
		}
		tail = filepath.Join(filepath.Base(prefix), tail)
		prefix = parent
	}
}
