package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/internal/crashpoint"
)

// OpenFileBackend opens the file backend rooted at root, the directory that holds
// the session workspaces (DefaultRoot() when root is empty). A session's
// checkpoint is <root>/<id>/checkpoint.bin and its metadata
// <root>/<id>/session.json, both replaced atomically, so a crash or a
// kill -9 mid-write leaves the previous version whole. Directories are made
// when first written to; create the workspace with Create before the
// first Put or Set if you want one there.
func OpenFileBackend(root string) (*Backend, error) {
	if root == "" {
		root = DefaultRoot()
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open file store %s: %w", root, err)
	}
	if info, err := os.Stat(abs); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("open file store %s: it is a file, not a directory; give a directory for the sessions", abs)
	}
	st := &fileStore{root: abs}
	return &Backend{Checkpoints: st, Sessions: &fileRegistry{root: abs}, Claims: &fileClaims{root: abs}, Memory: OpenFileMemory(abs), URL: "file:" + abs}, nil
}

// fileStore keeps each checkpoint in <root>/<id>/checkpoint.bin.
type fileStore struct {
	root string
}

// dir returns the session directory of a valid id.
func (s *fileStore) dir(id string) string { return filepath.Join(s.root, id) }

// Get implements adk.CheckPointStore.
func (s *fileStore) Get(ctx context.Context, id string) ([]byte, bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return nil, false, checkpointOp("read", id, err)
	}
	data, err := os.ReadFile(filepath.Join(s.dir(id), CheckpointFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, checkpointOp("read", id, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, false, checkpointOp("read", id, err)
	}
	return data, true, nil
}

// Set implements adk.CheckPointStore. The file is private to its owner
// (0600): a checkpoint holds the conversation, data excerpts included.
func (s *fileStore) Set(ctx context.Context, id string, data []byte) error {
	if err := checkCall(ctx, id); err != nil {
		return checkpointOp("save", id, err)
	}
	if err := writeAtomic(ctx, s.dir(id), CheckpointFile, data, 0o600); err != nil {
		return checkpointOp("save", id, err)
	}
	return nil
}

// Delete implements Store.
func (s *fileStore) Delete(ctx context.Context, id string) error {
	if err := checkCall(ctx, id); err != nil {
		return checkpointOp("delete", id, err)
	}
	err := os.Remove(filepath.Join(s.dir(id), CheckpointFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return checkpointOp("delete", id, err)
	}
	return nil
}

// Close implements Store; the file store holds nothing open.
func (s *fileStore) Close() error { return nil }

// atomicChunk is how much writeAtomic writes between checks of its context.
const atomicChunk = 1 << 20

// writeAtomic replaces dir/name with data, making dir when missing: it
// writes a temporary file in dir, syncs it, renames it over name and syncs
// dir, so readers and a later start see the old or the new content, never
// a mix, even when the process is killed mid-write. A cancelled ctx stops
// the write and leaves the old file. Under SyncSoon(ctx) the two flushes
// are put off (confined.SyncLater).
func writeAtomic(ctx context.Context, dir, name string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("make %s: %w; check that the sessions root is writable", dir, err)
	}
	tmp, err := os.CreateTemp(dir, partialPrefix+name+"-*")
	if err != nil {
		return fmt.Errorf("create a temporary file in %s: %w; check that it is writable", dir, err)
	}
	tmpName := tmp.Name()
	fail := func(op string, err error) error {
		_ = tmp.Close()
		_ = os.Remove(tmpName)
		return fmt.Errorf("write %s: %s: %w", filepath.Join(dir, name), op, err)
	}
	for rest := data; len(rest) > 0; {
		if err := ctx.Err(); err != nil {
			return fail("stopped", err)
		}
		n := min(len(rest), atomicChunk)
		if _, err := tmp.Write(rest[:n]); err != nil {
			return fail("write temporary file", fmt.Errorf("%w; check free disk space", err))
		}
		rest = rest[n:]
	}
	soon := syncSoon(ctx)
	if !soon {
		if err := syncFile(tmp); err != nil {
			return fail("sync", err)
		}
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail("set mode", err)
	}
	if err := tmp.Close(); err != nil {
		return fail("close", err)
	}
	// The last chance to give up without replacing the old file.
	if err := ctx.Err(); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("write %s: stopped: %w", filepath.Join(dir, name), err)
	}
	if err := os.Rename(tmpName, filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("write %s: rename into place: %w", filepath.Join(dir, name), err)
	}
	if soon {
		confined.SyncLater(filepath.Join(dir, name), dir)
	} else {
		syncDir(dir)
	}
	crashpoint.Wrote(filepath.Join(dir, name))
	return nil
}

// OpenRoot prepares the sessions root a long-running surface serves
// (sift serve, sift mcp): absolute (DefaultRoot() when empty) and made if
// missing; with a nil store it opens the file store under it.
func OpenRoot(root string, store *Backend) (string, *Backend, error) {
	if root == "" {
		root = DefaultRoot()
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", nil, fmt.Errorf("sessions directory %s: %w", root, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", nil, fmt.Errorf("create the sessions directory %s: %w", abs, err)
	}
	if store == nil {
		if store, err = OpenFileBackend(abs); err != nil {
			return "", nil, fmt.Errorf("open the session store: %w", err)
		}
	}
	return abs, store, nil
}
