// Package session holds what one Sift run keeps on disk and what lets it be
// found and resumed later: the per-run workspace directory, its event log,
// checkpoint stores and the session registry.
package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/sift-agent/sift/confined"
)

// The fixed parts of a workspace, relative to its root.
const (
	// InputDir holds read-only copies of the person's files.
	InputDir = "input"
	// WorkDir is scratch space for code.
	WorkDir = "work"
	// OutDir holds the run's artifacts: exports and figures.
	OutDir = "out"
	// PlanFile is the plan with each step's status.
	PlanFile = "plan.md"
	// ReportFile is the final report in markdown.
	ReportFile = "report.md"
	// ReportHTMLFile is the report as one self-contained HTML page.
	ReportHTMLFile = "report.html"
	// EventsFile is the event log, one JSON event per line.
	EventsFile = "events.jsonl"
)

// partialPrefix starts the name of every file still being written; such a
// file is renamed to its final name only once it is complete, and listings
// skip it.
const partialPrefix = ".sift-partial-"

// maxIDLen bounds a session id, which is used as a directory name.
const maxIDLen = 128

// Sentinel errors callers branch on; the errors returned wrap them with the
// path involved and what to do.
var (
	// ErrWorkspaceExists means Create found a workspace with that id.
	ErrWorkspaceExists = errors.New("workspace already exists")
	// ErrWorkspaceNotFound means Open found no workspace with that id.
	ErrWorkspaceNotFound = errors.New("workspace not found")
	// ErrInvalidID means a session id is empty, too long, or has characters
	// that are not safe in a directory name.
	ErrInvalidID = errors.New("invalid session id")
	// ErrBadInput means a file or directory given as input cannot be used:
	// it is missing, of the wrong kind, or unreadable.
	ErrBadInput = errors.New("bad input")
	// ErrOutsideWorkspace means a workspace-relative path would leave the
	// workspace or write into the read-only input/.
	ErrOutsideWorkspace = errors.New("path outside the writable workspace")
)

// Workspace is one run's directory <root>/<id>/, holding input/, work/, out/,
// plan.md, report.md, report.html and events.jsonl.
type Workspace struct {
	// ID is the session id, the directory's name.
	ID string
	// Root is the workspace's absolute directory.
	Root string
}

type clockKey struct{}

// WithClock returns a context whose session ids (NewIDContext) take their
// time from now instead of the system clock; tests use it for fixed ids.
func WithClock(ctx context.Context, now func() time.Time) context.Context {
	return context.WithValue(ctx, clockKey{}, now)
}

// clockFrom returns the clock WithClock put on ctx, or time.Now.
func clockFrom(ctx context.Context) func() time.Time {
	if now, ok := ctx.Value(clockKey{}).(func() time.Time); ok && now != nil {
		return now
	}
	return time.Now
}

// NewID returns a new session id: a version 7 UUID (RFC 9562), which is
// standard, safe in URLs and directory names, and sorts by creation time,
// e.g. 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b. Sessions made before keep
// their older ids (20261122-020655-ab12cd); ValidateID accepts both.
func NewID() string { return NewIDContext(context.Background()) }

// NewIDContext is NewID with the clock taken from ctx (see WithClock).
func NewIDContext(ctx context.Context) string {
	now, ok := ctx.Value(clockKey{}).(func() time.Time)
	if !ok || now == nil {
		// uuid's own generator keeps ids made in one millisecond in order.
		return uuid.Must(uuid.NewV7()).String()
	}
	return uuidV7At(now())
}

// uuidV7At makes a version 7 UUID whose timestamp is t: 48 bits of Unix
// milliseconds, then random bits, with the version and variant set.
func uuidV7At(t time.Time) string {
	var u uuid.UUID
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		u[i] = byte(ms >> (40 - 8*i))
	}
	// crypto/rand.Read never fails since Go 1.24; it crashes the program
	// instead of returning weak randomness.
	_, _ = rand.Read(u[6:])
	u[6] = u[6]&0x0f | 0x70
	u[8] = u[8]&0x3f | 0x80
	return u.String()
}

// ValidateID reports whether id can name a workspace directory: 1 to 128
// characters from A-Z, a-z, 0-9, '.', '_' and '-', not starting with '.'.
// The error wraps ErrInvalidID.
func ValidateID(id string) error {
	if id == "" {
		return fmt.Errorf("%w: the id is empty; use NewID to make one", ErrInvalidID)
	}
	if len(id) > maxIDLen {
		return fmt.Errorf("%w: %q is longer than %d characters", ErrInvalidID, id, maxIDLen)
	}
	if id[0] == '.' {
		return fmt.Errorf("%w: %q starts with '.'", ErrInvalidID, id)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '.' || r == '_' || r == '-'
		if !ok {
			return fmt.Errorf("%w: %q has %q; use only letters, digits, '.', '_' and '-'", ErrInvalidID, id, r)
		}
	}
	return nil
}

// DefaultRoot returns where workspaces live when no root is given:
// $SIFT_HOME/sessions, else $XDG_STATE_HOME/sift/sessions (when that is an
// absolute path, as the XDG spec requires), else
// ~/.local/state/sift/sessions, and as a last resort sift/sessions under the
// system's temporary directory when there is no home directory.
func DefaultRoot() string {
	if h := os.Getenv("SIFT_HOME"); h != "" {
		return filepath.Join(h, "sessions")
	}
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "sift", "sessions")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".local", "state", "sift", "sessions")
	}
	return filepath.Join(os.TempDir(), "sift", "sessions")
}

// workspaceDir validates root and id and returns the absolute workspace dir.
func workspaceDir(root, id string) (string, error) {
	if err := ValidateID(id); err != nil {
		return "", err
	}
	if root == "" {
		return "", errors.New("the sessions root is empty; pass session.DefaultRoot() or a directory")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("resolve sessions root %s: %w", root, err)
	}
	return filepath.Join(abs, id), nil
}

// Create makes a new workspace <root>/<id>/ with empty input/, work/ and out/
// directories, creating root when needed. It fails with an error wrapping
// ErrWorkspaceExists when the directory is already there, and removes what
// it made when it fails halfway.
func Create(ctx context.Context, root, id string) (*Workspace, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("create workspace %s: %w", id, err)
	}
	dir, err := workspaceDir(root, id)
	if err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	// The sessions root and each workspace are the owner's alone (0700):
	// a session's data, previews and results are no other local user's.
	// The sandbox reaches input/, work/ and out/ through its own mounts
	// (under a per-session uid it is given the workspace's group, see the
	// operator's handOver).
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, fmt.Errorf("create workspace %s: make the sessions root: %w; check that it is a writable directory", dir, err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create workspace %s: %w; choose another id or Open it", dir, ErrWorkspaceExists)
		}
		return nil, fmt.Errorf("create workspace %s: %w", dir, err)
	}
	for _, sub := range []string{InputDir, WorkDir, OutDir} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("create workspace %s: make %s/: %w", dir, sub, err)
		}
	}
	return &Workspace{ID: id, Root: dir}, nil
}

// Adopt makes dir, a fresh workspace prepared elsewhere on the host, the
// workspace of the new session id: <root>/<id> becomes a link to it, and
// the Workspace's Root is dir itself. It is how a session takes a kernel
// pool's slot (operator.KernelPool), whose sandbox already has dir's
// path bound: the session's files live where its kernel sees them. dir
// must be one of the root's pool slots, exactly <root>/.kernel-pool/slot-<hex>
// (root resolved), a real directory laid out as Create lays one out
// (input/, work/, out/) and holding no session's files: only Sift writes
// there. It fails with an error wrapping ErrWorkspaceExists when
// <root>/<id> is already there.
func Adopt(ctx context.Context, root, id, dir string) (*Workspace, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("adopt workspace %s: %w", id, err)
	}
	link, err := workspaceDir(root, id)
	if err != nil {
		return nil, fmt.Errorf("adopt workspace: %w", err)
	}
	if want, ok := poolSlot(filepath.Dir(link), filepath.Base(dir)); !ok || dir != want {
		return nil, fmt.Errorf("adopt workspace %s: %s is not a kernel pool slot of %s (a real directory %s/slot-<hex> there)", id, dir, filepath.Dir(link), KernelPoolDir)
	}
	for _, sub := range []string{InputDir, WorkDir, OutDir} {
		if info, err := os.Lstat(filepath.Join(dir, sub)); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("adopt workspace %s: %s has no %s/ directory, so it is not a fresh workspace", id, dir, sub)
		}
	}
	for _, f := range []string{MetaFile, CheckpointFile, EventsFile, PlanFile} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			return nil, fmt.Errorf("adopt workspace %s: %s already holds %s: a session's workspace is never given to another", id, dir, f)
		}
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		return nil, fmt.Errorf("adopt workspace %s: make the sessions root: %w; check that it is a writable directory", link, err)
	}
	if err := os.Symlink(dir, link); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("adopt workspace %s: %w; choose another id or Open it", link, ErrWorkspaceExists)
		}
		return nil, fmt.Errorf("adopt workspace %s: %w", link, err)
	}
	return &Workspace{ID: id, Root: filepath.Clean(dir)}, nil
}

// KernelPoolDir is the directory of a sessions root that holds a kernel
// pool's slots, and the workspaces of the sessions that took them (their
// <root>/<id> links there; see Adopt). Its leading '.' keeps it apart from
// every session id.
const KernelPoolDir = ".kernel-pool"

// poolSlotPrefix begins a pool slot's name (operator.KernelPool names its
// slots slot-<hex>).
const poolSlotPrefix = "slot-"

// poolSlot returns the pool slot name of the sessions root,
// <root>/.kernel-pool/<name> with root resolved (it is the host's, as its
// parents are: no path the sandbox writes), when name is a slot's
// (slot-<hex>) and .kernel-pool and the slot are real directories, not
// links.
func poolSlot(root, name string) (string, bool) {
	hexPart, ok := strings.CutPrefix(name, poolSlotPrefix)
	if !ok || hexPart == "" || len(hexPart) > 64 || strings.Trim(hexPart, "0123456789abcdef") != "" {
		return "", false
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	pool := filepath.Join(real, KernelPoolDir)
	slot := filepath.Join(pool, name)
	for _, p := range []string{pool, slot} {
		if info, err := os.Lstat(p); err != nil || !info.IsDir() {
			return "", false
		}
	}
	return slot, true
}

// adopted returns the slot an adopted workspace's link at dir leads to,
// and whether dir is such a link: a symlink whose target is exactly one of
// its sessions root's pool slots (see poolSlot), as Adopt makes it. The
// link is read, never followed: any other link (to /etc, to another
// session, through a further link) is not an adopted workspace, so Open
// refuses it and RemoveWorkspace removes the link alone.
func adopted(dir string) (string, bool) {
	info, err := os.Lstat(dir)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, err := os.Readlink(dir)
	if err != nil {
		return "", false
	}
	if want, ok := poolSlot(filepath.Dir(dir), filepath.Base(target)); !ok || target != want {
		return "", false
	}
	return target, true
}

// RemoveWorkspace removes the workspace directory dir (<root>/<id>)
// with everything in it; for an adopted workspace (see Adopt), both the
// link and the slot it leads to. Any other link is removed alone, never
// followed.
func RemoveWorkspace(dir string) error {
	target, linked := adopted(dir)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if linked {
		return os.RemoveAll(target)
	}
	return nil
}

// Open returns the existing workspace <root>/<id>/. It fails with an error
// wrapping ErrWorkspaceNotFound when the directory is missing or is not a
// workspace (it has no input/ directory). A missing work/ or out/ is not an
// error: code may have removed them, and they are made again when written.
func Open(root, id string) (*Workspace, error) {
	dir, err := workspaceDir(root, id)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	// An adopted workspace is opened where it lives, so that every path
	// the host names in it is the one its sandbox binds.
	if target, ok := adopted(dir); ok {
		dir = target
	} else if info, err := os.Lstat(dir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("open workspace %s: %w: it is a link that is not an adopted kernel pool slot", dir, ErrWorkspaceNotFound)
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("open workspace %s: %w; check the id and the sessions root, or Create it", dir, ErrWorkspaceNotFound)
	case err != nil:
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	case !info.IsDir():
		return nil, fmt.Errorf("open workspace %s: %w: it is a file, not a directory", dir, ErrWorkspaceNotFound)
	}
	if info, err := os.Stat(filepath.Join(dir, InputDir)); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("open workspace %s: %w: it has no %s/ directory, so it is not a Sift workspace", dir, ErrWorkspaceNotFound, InputDir)
	}
	return &Workspace{ID: id, Root: dir}, nil
}

// Path returns the absolute path of a workspace-relative, slash-separated
// path. It only joins: use it with paths that are known to stay inside.
func (w *Workspace) Path(rel string) string {
	return filepath.Join(w.Root, filepath.FromSlash(rel))
}

// AddInput copies the file src into input/ and returns its
// workspace-relative path, "input/<name>". When the name is taken the copy
// gets -2, -3, ... before its extension. The copy is read-only (0444) and
// keeps src's modification time. A symlink given as src is followed.
//
// src must be a readable regular file; otherwise the error wraps ErrBadInput
// and says what to do. The copy streams, and appears under its final name
// only when complete, so a cancelled or failed copy leaves nothing behind.
func (w *Workspace) AddInput(ctx context.Context, src string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("add input %s: %w", src, err)
	}
	info, err := os.Stat(src)
	if err != nil {
		return "", fmt.Errorf("add input %s: %w", src, statProblem(err))
	}
	if info.IsDir() {
		return "", fmt.Errorf("add input %s: %w: it is a directory; add it with AddInputDir, or name the files inside it", src, ErrBadInput)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("add input %s: %w: it is not a regular file (%s); save its contents to a file and add that", src, ErrBadInput, kindOf(info.Mode()))
	}
	return w.copyIn(ctx, src, "")
}

// AddInputDir copies the regular files under dir into input/, keeping their
// paths relative to dir (dir/a.csv becomes input/a.csv, dir/2023/b.csv
// becomes input/2023/b.csv), and returns the workspace-relative paths in
// walk order. Hidden files and directories (names starting with '.'),
// symlinks and special files are skipped. Name clashes are handled as in
// AddInput.
//
// It fails with an error wrapping ErrBadInput when dir is missing, is not a
// directory, lies inside this workspace, holds no file to add, or holds a
// file or directory it cannot read; the paths copied before a failure are
// returned with the error.
func (w *Workspace) AddInputDir(ctx context.Context, dir string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("add input folder %s: %w", dir, err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("add input folder %s: %w", dir, statProblem(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("add input folder %s: %w: it is not a directory; add a single file with AddInput", dir, ErrBadInput)
	}
	if inside, err := w.contains(dir); err != nil {
		return nil, fmt.Errorf("add input folder %s: %w", dir, err)
	} else if inside {
		return nil, fmt.Errorf("add input folder %s: %w: it lies inside the workspace %s; add the original files instead", dir, ErrBadInput, w.Root)
	}
	rootInfo, err := os.Stat(w.Root)
	if err != nil {
		return nil, fmt.Errorf("add input folder %s: workspace %s: %w", dir, w.Root, err)
	}

	var added []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, walkErr error) error {
		if walkErr != nil {
			return fmt.Errorf("%w: cannot read %s: %w; make it readable or remove it from the folder", ErrBadInput, path, walkErr)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path == dir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			return nil
		case t.IsDir():
			// A workspace root inside the folder would otherwise be copied
			// into itself.
			if info, err := d.Info(); err == nil && os.SameFile(info, rootInfo) {
				return filepath.SkipDir
			}
			return nil
		case !t.IsRegular():
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		got, err := w.copyIn(ctx, path, filepath.Dir(rel))
		if err != nil {
			return err
		}
		added = append(added, got)
		return nil
	})
	if err != nil {
		return added, fmt.Errorf("add input folder %s: %w", dir, err)
	}
	if len(added) == 0 {
		return nil, fmt.Errorf("add input folder %s: %w: it holds no file to add (hidden files, symlinks and special files are skipped)", dir, ErrBadInput)
	}
	return added, nil
}

// contains reports whether path lies inside the workspace, symlinks
// resolved.
func (w *Workspace) contains(path string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	root := w.Root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return false, nil
	}
	return rel == "." || filepath.IsLocal(rel), nil
}

// statProblem turns a failed Stat of an input into an error that wraps
// ErrBadInput and the cause, and says what to do.
func statProblem(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: no such file or directory; check the path (%w)", ErrBadInput, err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w: permission denied; make it readable or copy it somewhere readable (%w)", ErrBadInput, err)
	default:
		return fmt.Errorf("%w: %w", ErrBadInput, err)
	}
}

// kindOf names a non-regular file mode for error messages.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	default:
		return "mode " + m.String()
	}
}

// copyIn streams the regular file src into input/<subdir>/, under a
// temporary name first, and links it to the first free name. It returns the
// workspace-relative path.
func (w *Workspace) copyIn(ctx context.Context, src, subdir string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", fmt.Errorf("add input %s: %w", src, statProblem(err))
	}
	defer in.Close()
	// Check again on the open file: the path may have changed since Stat.
	info, err := in.Stat()
	if err != nil {
		return "", fmt.Errorf("add input %s: %w", src, err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("add input %s: %w: it is not a regular file (%s); save its contents to a file and add that", src, ErrBadInput, kindOf(info.Mode()))
	}

	relDir := InputDir
	if subdir != "" && subdir != "." {
		relDir = filepath.Join(InputDir, subdir)
	}
	destDir := filepath.Join(w.Root, relDir)
	if err := os.MkdirAll(destDir, 0o755); err != nil {
		return "", fmt.Errorf("add input %s: make %s: %w", src, destDir, err)
	}
	tmp, err := os.CreateTemp(destDir, partialPrefix+"*")
	if err != nil {
		return "", fmt.Errorf("add input %s: %w; check that the workspace is writable", src, err)
	}
	tmpName := tmp.Name()
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmpName)
		}
	}()
	// Big inputs are not copied where the file system can avoid it.
	how, shared := cloneOrLink(in, info, tmp)
	sum := ""
	if !shared {
		// The copy is hashed as it is written: the file is read once.
		how = InputCopied
		h := sha256.New()
		if err := copyChunks(ctx, tmp, io.TeeReader(in, h)); err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("add input %s: %w", src, ctx.Err())
			}
			return "", copyError(src, relDir, err)
		}
		sum = hex.EncodeToString(h.Sum(nil))
	}
	soon := syncSoon(ctx)
	if how != InputLinked && !soon {
		// A linked file is the read-only original itself: leave it be.
		if err := syncFile(tmp); err != nil {
			return "", fmt.Errorf("add input %s: sync copy: %w", src, err)
		}
	}
	if how != InputLinked {
		if err := tmp.Chmod(0o444); err != nil {
			return "", fmt.Errorf("add input %s: make copy read-only: %w", src, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("add input %s: close copy: %w", src, err)
	}
	if how != InputLinked {
		_ = os.Chtimes(tmpName, time.Time{}, info.ModTime())
	}
	if sum == "" {
		if sum, err = fileSHA256(ctx, tmpName); err != nil {
			return "", fmt.Errorf("add input %s: checksum: %w", src, err)
		}
	}
	final, err := os.Stat(tmpName)
	if err != nil {
		return "", fmt.Errorf("add input %s: %w", src, err)
	}

	name, err := claimName(tmpName, destDir, filepath.Base(src))
	if err != nil {
		return "", fmt.Errorf("add input %s: %w", src, err)
	}
	done = true
	switch {
	case soon && how != InputLinked:
		confined.SyncLater(filepath.Join(destDir, name), destDir)
	case soon:
		confined.SyncLater(destDir)
	default:
		syncDir(destDir)
	}
	rel := filepath.ToSlash(filepath.Join(relDir, name))
	rec := InputRecord{Path: rel, Source: absPath(src), Size: final.Size(), ModTime: final.ModTime(), SHA256: sum, How: how, Added: clockFrom(ctx)()}
	if err := w.recordInput(ctx, rec); err != nil {
		return rel, fmt.Errorf("add input %s: record where it came from: %w", src, err)
	}
	return rel, nil
}

// maxClash bounds the -N suffixes tried for one name.
const maxClash = 10000

// claimName moves the finished file tmp to base in dir, or to base with -2,
// -3, ... when that name is taken, never replacing an existing file. It
// returns the name used.
func claimName(tmp, dir, base string) (string, error) {
	for n := 1; n <= maxClash; n++ {
		name := clashName(base, n)
		final := filepath.Join(dir, name)
		// A hard link fails when the name exists, so two copies racing for
		// one name cannot overwrite each other.
		err := os.Link(tmp, final)
		if err == nil {
			_ = os.Remove(tmp)
			return name, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// The filesystem has no hard links: rename when the name is free.
		if _, statErr := os.Lstat(final); errors.Is(statErr, fs.ErrNotExist) {
			if err := os.Rename(tmp, final); err != nil {
				return "", fmt.Errorf("move copy to %s: %w", final, err)
			}
			return name, nil
		}
	}
	return "", fmt.Errorf("no free name for %s in %s after %d tries; rename the file", base, dir, maxClash)
}

// clashName returns base for n == 1, and otherwise base with -n inserted
// before its extension: data.csv → data-2.csv, archive.tar.gz →
// archive-2.tar.gz, .env → .env-2.
func clashName(base string, n int) string {
	if n == 1 {
		return base
	}
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if stem == "" || stem == "." {
		return fmt.Sprintf("%s-%d", base, n)
	}
	if inner := filepath.Ext(stem); inner == ".tar" {
		stem = strings.TrimSuffix(stem, inner)
		ext = inner + ext
		if stem == "" {
			return fmt.Sprintf("%s-%d", base, n)
		}
	}
	return fmt.Sprintf("%s-%d%s", stem, n, ext)
}

// copyChunk is how much copyChunks copies between checks of its context.
const copyChunk = 4 << 20

// copyChunks copies src to dst in chunks, checking ctx between them so a
// cancelled copy stops promptly. Each chunk goes through io.CopyN, which
// lets the kernel copy file to file (copy_file_range) where it can.
func copyChunks(ctx context.Context, dst *os.File, src io.Reader) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		// CopyN reports io.EOF when src ended before a whole chunk.
		if _, err := io.CopyN(dst, src, copyChunk); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// Inputs returns the workspace-relative paths of the files under input/,
// sorted.
func (w *Workspace) Inputs() ([]string, error) {
	files, err := w.listFiles(InputDir, false)
	if err != nil {
		return nil, fmt.Errorf("list inputs of %s: %w", w.Root, err)
	}
	return files, nil
}

// Artifacts returns the workspace-relative paths of the files under out/,
// sorted. Hidden files and directories are left out: they are tool
// leftovers, not deliverables. A missing out/ means no artifacts.
func (w *Workspace) Artifacts() ([]string, error) {
	files, err := w.listFiles(OutDir, true)
	if err != nil {
		return nil, fmt.Errorf("list artifacts of %s: %w", w.Root, err)
	}
	return files, nil
}

// listFiles returns the regular files under the workspace-relative dir,
// sorted, skipping files still being written and, when skipHidden is set,
// every hidden entry.
func (w *Workspace) listFiles(dir string, skipHidden bool) ([]string, error) {
	r, err := confined.OpenRoot(w.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var files []string
	// Walked by descriptor: links are listed as links (and left out), never
	// followed, so a link code planted in out/ lists nothing outside.
	err = r.Walk(dir, func(rel string, d fs.DirEntry) error {
		name := d.Name()
		if strings.HasPrefix(name, partialPrefix) || skipHidden && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	return files, nil
}

// WriteFileAtomic replaces the workspace-relative file rel with data,
// durably: WriteFile(rel, data, Durable).
func (w *Workspace) WriteFileAtomic(rel string, data []byte) error {
	return w.WriteFile(rel, data, Durable)
}

// copyError says why src could not be copied into the workspace's dir: a
// full disk is named as such, with what to do, and without the name of
// the half-written copy (which is removed).
func copyError(src, dir string, err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		cause := syscall.ENOSPC
		if errors.Is(err, syscall.EDQUOT) {
			cause = syscall.EDQUOT
		}
		return fmt.Errorf("add input %s: copy it into the session's %s/: %w; free space where the sessions are kept (or raise the quota) and ask again", src, dir, cause)
	}
	return fmt.Errorf("add input %s: copy: %w", src, err)
}
