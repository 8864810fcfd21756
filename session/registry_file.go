package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// deletingPrefix starts the name a session directory is renamed to before
// it is removed, so a removal cut short leaves no half session behind:
// listings skip names starting with '.'.
const deletingPrefix = ".sift-deleting-"

// fileRegistry keeps each session's Meta in <root>/<id>/session.json.
type fileRegistry struct {
	root string
}

// Put implements Registry. A Meta without Workspace gets <root>/<id>.
func (r *fileRegistry) Put(ctx context.Context, m Meta) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put session %s: %w", m.ID, err)
	}
	m, err := stamp(ctx, m, r.Get)
	if err != nil {
		return err
	}
	dir := filepath.Join(r.root, m.ID)
	if m.Workspace == "" {
		m.Workspace = dir
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("put session %s: encode: %w", m.ID, err)
	}
	if err := writeAtomic(ctx, dir, MetaFile, append(data, '\n'), SessionFileMode); err != nil {
		return fmt.Errorf("put session %s: %w", m.ID, err)
	}
	return nil
}

// Get implements Registry.
func (r *fileRegistry) Get(ctx context.Context, id string) (Meta, error) {
	if err := checkCall(ctx, id); err != nil {
		return Meta{}, fmt.Errorf("get session %s: %w", id, err)
	}
	m, err := readMeta(filepath.Join(r.root, id, MetaFile))
	if err != nil {
		return Meta{}, fmt.Errorf("get session %s: %w", id, err)
	}
	return m, nil
}

// readMeta reads one session.json. A missing file is ErrSessionNotFound.
func readMeta(path string) (Meta, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Meta{}, fmt.Errorf("%w: no %s; check the id and the sessions root (sift sessions list shows the sessions)", ErrSessionNotFound, path)
	case err != nil:
		return Meta{}, err
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, fmt.Errorf("%s is not valid session JSON: %w; fix it or delete the session", path, err)
	}
	return m, nil
}

// List implements Registry. Directories without a readable session.json
// (workspaces of runs that were never registered, or a damaged file) are
// left out; Get on their id says what is wrong.
func (r *fileRegistry) List(ctx context.Context, f Filter) ([]Meta, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	entries, err := os.ReadDir(r.root)
	if errors.Is(err, fs.ErrNotExist) {
		return []Meta{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions in %s: %w", r.root, err)
	}
	var all []Meta
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		if ValidateID(e.Name()) != nil {
			continue
		}
		if !e.IsDir() {
			if _, ok := adopted(filepath.Join(r.root, e.Name())); !ok {
				continue
			}
		}
		m, err := readMeta(filepath.Join(r.root, e.Name(), MetaFile))
		if err != nil || m.ID != e.Name() {
			continue
		}
		all = append(all, m)
	}
	return selectMetas(all, f), nil
}

// Delete implements Registry: it removes the whole workspace <root>/<id>/,
// checkpoint included. A directory holding neither session.json nor
// checkpoint.bin is not a session and is left alone. The directory is first
// renamed to a hidden name, so a removal cut short never leaves half a
// session that List would show.
func (r *fileRegistry) Delete(ctx context.Context, id string) error {
	if err := checkCall(ctx, id); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	dir := filepath.Join(r.root, id)
	if !exists(filepath.Join(dir, MetaFile)) && !exists(filepath.Join(dir, CheckpointFile)) {
		return fmt.Errorf("delete session %s: %w: %s holds no %s or %s", id, ErrSessionNotFound, dir, MetaFile, CheckpointFile)
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	doomed := filepath.Join(r.root, deletingPrefix+id+"-"+hex.EncodeToString(b[:]))
	if err := os.Rename(dir, doomed); err != nil {
		return fmt.Errorf("delete session %s: move %s aside: %w", id, dir, err)
	}
	syncDir(r.root)
	if err := RemoveWorkspace(doomed); err != nil {
		return fmt.Errorf("delete session %s: remove %s: %w; remove it by hand", id, doomed, err)
	}
	return nil
}

// exists reports whether path names anything, without following a final
// symlink.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
