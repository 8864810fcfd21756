package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/internal/crashpoint"
)

// Durability says what a write of a workspace file must survive. Every
// write replaces the file atomically (a reader, or a process killed at any
// moment, sees the old content or the new, never a mix); durability is
// about a power loss, and costs fsyncs.
type Durability int

const (
	// Durable: once the write returns, the new content survives a power
	// loss, or (when the name was already on disk) at worst the content of
	// an earlier durable write does. The file is synced before it is
	// renamed into place; its directory is synced the first time this
	// process makes the name durable. For state a resume starts from.
	Durable Durability = iota
	// Derived: the file is rebuilt from others (plan.md from state.json,
	// report.html from report.md, usage.json from the events) or replaced
	// again shortly: nothing is synced, so after a power loss it may be
	// older.
	Derived
	// durableSoon is Durable with the flushes put off (see SyncSoon).
	durableSoon
)

// syncSoonKey marks a context under which durable writes flush later.
type syncSoonKey struct{}

// SyncSoon returns ctx under which the session writes that would flush to
// disk before returning (an input's copy and its record in inputs.json, a
// record in the file store) flush in the background instead
// (confined.SyncLater): for what a run writes before its first model
// request, so the request need not wait for the disk. A killed process
// loses nothing by it (every write is still atomic, and the data is in the
// kernel's cache); a power loss may take back such a write until the next
// durable write or sync, which waits for these flushes first, so no later
// durable state is ever on disk without them. Stores other than the file
// store ignore it.
func SyncSoon(ctx context.Context) context.Context {
	return context.WithValue(ctx, syncSoonKey{}, true)
}

// syncSoon reports whether ctx puts flushes off (see SyncSoon).
func syncSoon(ctx context.Context) bool {
	soon, _ := ctx.Value(syncSoonKey{}).(bool)
	return soon
}

// durableNames are the files whose directory entry this process has
// synced: a later durable write of them syncs only the file.
var durableNames sync.Map // absolute path -> struct{}

// WriteFile replaces the workspace-relative file rel with data (mode
// 0644), making parent directories, as durable as d says. Paths that leave
// the workspace or lie under input/ are refused with an error wrapping
// ErrOutsideWorkspace. It is the one way Sift writes a workspace's state
// and report files; each write is counted in confined.Syncs by the fsyncs
// it makes.
func (w *Workspace) WriteFile(rel string, data []byte, d Durability) (err error) {
	local := filepath.FromSlash(rel)
	if !filepath.IsLocal(local) {
		return fmt.Errorf("write %s: %w: use a path relative to the workspace, without '..'", rel, ErrOutsideWorkspace)
	}
	if first, _, _ := strings.Cut(filepath.ToSlash(filepath.Clean(local)), "/"); first == InputDir {
		return fmt.Errorf("write %s: %w: input/ holds the person's files and is read-only; write under out/ or work/", rel, ErrOutsideWorkspace)
	}
	r, err := confined.OpenRoot(w.Root)
	if err != nil {
		return fmt.Errorf("write %s: %w; check that the workspace exists", rel, err)
	}
	defer r.Close()
	name := filepath.ToSlash(filepath.Clean(local))
	if dir := path.Dir(name); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s: make its directory: %w", rel, err)
		}
	}
	var opts []confined.Option
	abs := filepath.Join(w.Root, local)
	if d == durableSoon {
		defer func() {
			if err == nil {
				confined.SyncLater(abs, filepath.Dir(abs))
			}
		}()
	}
	if d == Durable {
		opts = append(opts, confined.SyncData)
		if _, synced := durableNames.Load(abs); !synced {
			opts = []confined.Option{confined.Sync}
		}
	}
	// Beneath the root by descriptor, under a fresh name renamed into
	// place: whatever code left at rel (a link, a FIFO) is replaced.
	if err := r.WriteFile(name, data, SessionFileMode, opts...); err != nil {
		// The error names the operation and the file already.
		return writeAdvice(err)
	}
	if d == Durable || d == durableSoon {
		durableNames.Store(abs, struct{}{})
	}
	crashpoint.Wrote(abs)
	return nil
}

// syncDir flushes a directory entry change (a rename) to disk. Some
// filesystems cannot sync directories; that costs only durability on a power
// loss, so the error is ignored.
func syncDir(dir string) { confined.SyncDir(dir) }

// syncFile flushes f to disk, counted in confined.Syncs.
func syncFile(f *os.File) error { return confined.SyncFile(f) }

// writeAdvice adds to err, a failed write of a session file, what to do:
// free space when the disk (or the quota) is full, else check the
// workspace.
func writeAdvice(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("%w; free space where the sessions are kept (or raise the quota) and ask again", err)
	}
	return fmt.Errorf("%w; check that the workspace is writable and has room", err)
}
