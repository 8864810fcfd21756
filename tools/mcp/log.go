package mcp

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/sift-agent/sift/confined"
)

// A stdio server's stderr log lives in a directory sandboxed code can
// write (the session's work/), so it is reached only through package
// confined: the log directory's parent (the session workspace, which code
// cannot change) is trusted by name, and the directory and the log beneath
// it are opened by descriptor without following links.

// logRoot opens the parent of the log at path as a confined root and
// returns the log's name beneath it.
func logRoot(path string) (*confined.Root, string, error) {
	dir := filepath.Dir(path)
	r, err := confined.OpenRoot(filepath.Dir(dir))
	if err != nil {
		return nil, "", err
	}
	return r, filepath.Base(dir) + "/" + filepath.Base(path), nil
}

// openLog opens the log at path for appending, creating it and its
// directory. Whatever code planted at its name (a link, a FIFO, a hard
// link to another file) is removed, never written through.
func openLog(path string) (*os.File, error) {
	r, name, err := logRoot(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	f, err := r.Append(name, 0o644)
	if errors.Is(err, confined.ErrRefused) {
		if r.Remove(name) == nil {
			f, err = r.Append(name, 0o644)
		}
	}
	return f, err
}

// openLogForReading opens the log at path for reading, refusing a link,
// FIFO or hard link planted in its place.
func openLogForReading(path string) (*os.File, error) {
	r, name, err := logRoot(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Open(name)
}
