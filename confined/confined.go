// Package confined owns every host-side file operation under a session
// workspace. Its rule: the host never resolves a path by name through a
// directory that sandboxed code can write.
//
// Everything starts from a Root, a directory opened by descriptor, and
// every name is resolved beneath it by the kernel: openat2 with
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS where the kernel
// has it, otherwise one openat(O_NOFOLLOW) per path element. Nothing follows
// a symbolic link, ".." never leaves the root, and files are always opened
// with O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC, so a planted FIFO cannot block the
// host. The opened descriptor is checked with fstat (only regular files and
// directories pass; a regular file with more than one hard link is refused
// unless the caller allows it) and then read, served or stat'ed from: there
// is no check-then-open. Files are written under a fresh temporary name
// created with O_EXCL and renamed into place beneath the same directory
// descriptor, so a planted link or file at the destination is replaced,
// never followed.
//
// Refusals wrap ErrRefused and say what was refused and why; a missing file
// wraps fs.ErrNotExist.
package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ErrRefused is wrapped by every error that refuses a path: one that leaves
// the root, goes through a symbolic link, or names something other than a
// regular file or directory (or a hard-linked file).
var ErrRefused = errors.New("refused")

// Error is a refused or failed operation on a name beneath a Root.
type Error struct {
	Op   string // "open", "create", "mkdir", ...
	Path string // the name as given, relative to the root
	Why  string // why it was refused; empty for a plain failure
	Err  error  // ErrRefused, or the system error
}

func (e *Error) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("%s %s: refused: %s", e.Op, e.Path, e.Why)
	}
	return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrEscape is wrapped (with ErrRefused) by the refusals of a path that
// leaves the root or goes through a symbolic link.
var ErrEscape = errors.New("path leaves the root or goes through a link")

func refused(op, name, why string) error {
	return &Error{Op: op, Path: name, Why: why, Err: ErrRefused}
}

func refusedEscape(op, name, why string) error {
	return &Error{Op: op, Path: name, Why: why, Err: fmt.Errorf("%w: %w", ErrRefused, ErrEscape)}
}

// fail turns a system error from resolving name into an Error, naming the
// refusals the kernel reports as such.
func fail(op, name string, err error) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		return refusedEscape(op, name, "it is, or goes through, a symbolic link (workspace paths are opened without following links)")
	case errors.Is(err, unix.EXDEV):
		return refusedEscape(op, name, "it leads out of the workspace")
	case errors.Is(err, unix.ENXIO):
		return refused(op, name, "it is a FIFO, socket or device, not a regular file")
	case errors.Is(err, unix.ENOTDIR):
		return refusedEscape(op, name, "an element of the path is a symbolic link or not a directory")
	}
	return &Error{Op: op, Path: name, Err: err}
}

// bare is err without the *os.PathError an *os.File method wraps it in:
// the op and path are the Error's own, said once.
func bare(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Option changes how one call opens a file.
type Option int

const (
	// AllowHardLinks accepts a regular file with more than one hard link.
	// Use it only where the sandbox cannot have planted the file (input/,
	// which it can only read).
	AllowHardLinks Option = iota + 1
	// Sync makes WriteFile flush the file and its directory to disk, so a
	// crash leaves the old content or the new, never a mix.
	Sync
	// SyncData makes WriteFile flush the file, not its directory: after a
	// power loss the name holds the old content or the new, both whole.
	// For a name whose directory entry is already on disk.
	SyncData
)

func has(opts []Option, o Option) bool {
	for _, x := range opts {
		if x == o {
			return true
		}
	}
	return false
}

// Root is a directory opened by descriptor, beneath which names are
// resolved. Safe for concurrent use; Close it when done.
type Root struct {
	fd   int
	name string
}

// OpenRoot opens dir, a directory the host trusts by name (a session's
// workspace root, whose own path the sandbox cannot change).
func OpenRoot(dir string) (*Root, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &Error{Op: "open root", Path: dir, Err: err}
	}
	return &Root{fd: fd, name: dir}, nil
}

// Name is the path the root was opened by.
func (r *Root) Name() string { return r.name }

// Close closes the root's descriptor.
func (r *Root) Close() error { return unix.Close(r.fd) }

// OpenDir opens the directory name beneath r as a Root of its own.
func (r *Root) OpenDir(name string) (*Root, error) {
	fd, err := r.openFD("open", name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	return &Root{fd: fd, name: path.Join(r.name, name)}, nil
}

// clean checks name lexically: relative, no ".." element, no NUL. It
// returns the cleaned slash path ("." for the root itself).
func clean(op, name string) (string, error) {
	if strings.ContainsRune(name, 0) {
		return "", refused(op, name, "it contains a NUL byte")
	}
	if strings.HasPrefix(name, "/") {
		return "", refusedEscape(op, name, "it is an absolute path; give a path relative to the workspace, like out/result.csv")
	}
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return "", refusedEscape(op, name, "it has a '..' element")
		}
	}
	c := path.Clean("/" + name)
	if c == "/" {
		return ".", nil
	}
	return c[1:], nil
}

// haveOpenat2 is false once the kernel said it has no openat2.
var haveOpenat2 = true

// openFD opens name beneath r with flags (O_NOFOLLOW, O_NONBLOCK and
// O_CLOEXEC are always added) and checks what it opened: a regular file or
// a directory, and (unless allowed) a file with a single link. O_NONBLOCK
// is cleared again on a regular file.
func (r *Root) openFD(op, name string, flags int, mode uint32, opts ...Option) (int, error) {
	rel, err := clean(op, name)
	if err != nil {
		return -1, err
	}
	flags |= unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY
	fd, err := r.resolve(rel, flags, mode)
	if err != nil {
		return -1, fail(op, name, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, fail(op, name, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
	case unix.S_IFREG:
		if st.Nlink > 1 && !has(opts, AllowHardLinks) {
			unix.Close(fd)
			return -1, refused(op, name, fmt.Sprintf("it is a hard link (%d names for one file): it may be another file's contents", st.Nlink))
		}
		if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err == nil {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFL, fl&^unix.O_NONBLOCK)
		}
	default:
		unix.Close(fd)
		return -1, refused(op, name, "it is a "+kind(st.Mode)+", not a regular file or directory")
	}
	return fd, nil
}

// kind names a file type for a refusal.
func kind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFIFO:
		return "FIFO"
	case unix.S_IFSOCK:
		return "socket"
	case unix.S_IFCHR, unix.S_IFBLK:
		return "device"
	case unix.S_IFLNK:
		return "symbolic link"
	}
	return "special file"
}

// resolve opens the clean relative path rel beneath r without following
// any symbolic link.
func (r *Root) resolve(rel string, flags int, mode uint32) (int, error) {
	if haveOpenat2 {
		how := unix.OpenHow{
			Flags:   uint64(flags),
			Mode:    uint64(mode),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		}
		for range 16 {
			fd, err := unix.Openat2(r.fd, rel, &how)
			if err == unix.EAGAIN || err == unix.EINTR { // a rename raced the lookup: try again
				continue
			}
			if err == unix.ENOSYS { // an old kernel, or a filter that hides openat2
				haveOpenat2 = false
				break
			}
			return fd, err
		}
		if haveOpenat2 {
			return -1, unix.EAGAIN
		}
	}
	return r.walkOpen(rel, flags, mode)
}

// walkOpen is resolve for kernels without openat2: each directory element
// is opened with O_NOFOLLOW|O_DIRECTORY beneath the one before it.
func (r *Root) walkOpen(rel string, flags int, mode uint32) (int, error) {
	if rel == "." {
		return unix.Openat(r.fd, ".", flags, mode)
	}
	dir, last, err := r.walkParent(rel)
	if err != nil {
		return -1, err
	}
	defer closeDir(r, dir)
	return unix.Openat(dir, last, flags, mode)
}

// walkParent opens the directory holding rel's last element, one element
// at a time, never following a link; the caller closes it with closeDir.
func (r *Root) walkParent(rel string) (dir int, last string, err error) {
	els := strings.Split(rel, "/")
	dir = r.fd
	for _, el := range els[:len(els)-1] {
		next, err := unix.Openat(dir, el, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		closeDir(r, dir)
		if err != nil {
			return -1, "", err
		}
		dir = next
	}
	return dir, els[len(els)-1], nil
}

func closeDir(r *Root, fd int) {
	if fd != r.fd && fd >= 0 {
		unix.Close(fd)
	}
}

// parent opens the directory that holds name's last element, beneath r,
// and returns it with that element. The caller closes the descriptor with
// closeDir. The root itself has no parent here.
func (r *Root) parent(op, name string) (int, string, error) {
	rel, err := clean(op, name)
	if err != nil {
		return -1, "", err
	}
	if rel == "." {
		return -1, "", refused(op, name, "it is the workspace root itself")
	}
	dir, last := path.Split(rel)
	if dir == "" {
		return r.fd, last, nil
	}
	fd, err := r.openFD(op, strings.TrimSuffix(dir, "/"), unix.O_RDONLY|unix.O_DIRECTORY, 0)
	var e *Error
	if errors.As(err, &e) {
		e.Path = name // name the whole path, not its directory
	}
	if err != nil {
		return -1, "", err
	}
	return fd, last, nil
}

// Open opens name beneath r for reading: a regular file (with one link
// unless AllowHardLinks) or a directory.
func (r *Root) Open(name string, opts ...Option) (*os.File, error) {
	fd, err := r.openFD("open", name, unix.O_RDONLY, 0, opts...)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// ReadFile reads at most limit bytes of the regular file name (limit <= 0:
// all of it); truncated says there was more.
func (r *Root) ReadFile(name string, limit int64, opts ...Option) (data []byte, truncated bool, err error) {
	f, err := r.Open(name, opts...)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return readAll(f, name, limit)
}

// Stat describes name beneath r without following it: a symbolic link is
// described as one (not refused), anything else as what it is.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	rel, err := clean("stat", name)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		var st unix.Stat_t
		if err := unix.Fstat(r.fd, &st); err != nil {
			return nil, fail("stat", name, err)
		}
		return newInfo(path.Base(r.name), &st), nil
	}
	dir, last, err := r.parent("stat", name)
	if err != nil {
		return nil, err
	}
	defer closeDir(r, dir)
	var st unix.Stat_t
	if err := unix.Fstatat(dir, last, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, fail("stat", name, err)
	}
	return newInfo(last, &st), nil
}

// ReadDir lists the directory name beneath r, sorted by name. Each entry's
// Info is taken relative to the directory's descriptor, never by path.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	fd, err := r.openFD("read directory", name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	return readDirFD(fd, name)
}

// WalkFunc is called by Walk for each entry: rel is its slash path
// relative to the root, d describes it (symbolic links as links).
// Returning fs.SkipDir from a directory skips its contents.
type WalkFunc func(rel string, d fs.DirEntry) error

// maxWalkDepth bounds Walk's recursion and its open descriptors.
const maxWalkDepth = 64

// Walk calls fn for every entry below the directory name beneath r, in
// lexical order, descending into directories by descriptor (never through
// a link). Entries that vanish or cannot be opened while walking are
// skipped.
func (r *Root) Walk(name string, fn WalkFunc) error {
	rel, err := clean("walk", name)
	if err != nil {
		return err
	}
	fd, err := r.openFD("walk", name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	err = walkFD(fd, rel, fn, 0)
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

func walkFD(fd int, rel string, fn WalkFunc, depth int) error {
	entries, err := readDirFD(fd, rel)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := e.Name()
		if rel != "." {
			p = rel + "/" + e.Name()
		}
		err := fn(p, e)
		if err == fs.SkipDir && e.IsDir() {
			continue
		}
		if err != nil {
			return err
		}
		if !e.IsDir() || depth >= maxWalkDepth {
			continue
		}
		sub, err := unix.Openat(fd, e.Name(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		if err != nil {
			continue // swapped for a link or removed meanwhile: skip it
		}
		err = walkFD(sub, p, fn, depth+1)
		unix.Close(sub)
		if err != nil {
			return err
		}
	}
	return nil
}

// MkdirAll makes the directory name beneath r and its missing parents,
// one element at a time; an element that is a link or not a directory is
// refused.
func (r *Root) MkdirAll(name string, perm os.FileMode) error {
	rel, err := clean("mkdir", name)
	if err != nil {
		return err
	}
	if rel == "." {
		return nil
	}
	dir := r.fd
	defer func() { closeDir(r, dir) }()
	for _, el := range strings.Split(rel, "/") {
		if err := unix.Mkdirat(dir, el, uint32(perm.Perm())); err != nil && err != unix.EEXIST {
			return fail("mkdir", name, err)
		}
		next, err := unix.Openat(dir, el, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		if err != nil {
			if err == unix.ENOTDIR {
				return refusedEscape("mkdir", name, el+" is a symbolic link or not a directory")
			}
			return fail("mkdir", name, err)
		}
		closeDir(r, dir)
		dir = next
	}
	return nil
}

// WriteFile replaces the file name beneath r with data: it is written under
// a fresh temporary name (O_EXCL) in the same directory and renamed over
// name, so whatever was at name (a link, a FIFO, a hard link to another
// file) is replaced, never written through. The parent must exist.
func (r *Root) WriteFile(name string, data []byte, perm os.FileMode, opts ...Option) error {
	dir, last, err := r.parent("write", name)
	if err != nil {
		return err
	}
	defer closeDir(r, dir)
	tmp, fd, err := createTemp(dir, last, perm)
	if err != nil {
		return fail("write", name, err)
	}
	f := os.NewFile(uintptr(fd), name)
	_, werr := f.Write(data)
	if werr == nil && (has(opts, Sync) || has(opts, SyncData)) {
		werr = SyncFile(f)
	}
	if werr == nil {
		werr = f.Chmod(perm.Perm()) // not the umask's idea of it
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = unix.Renameat(dir, tmp, dir, last)
	}
	if werr != nil {
		_ = unix.Unlinkat(dir, tmp, 0)
		return fail("write", name, bare(werr))
	}
	if has(opts, Sync) {
		_ = syncFD(dir) // some filesystems cannot: that costs durability only
	}
	return nil
}

// createTemp creates a new file next to last in dir with O_EXCL.
func createTemp(dir int, last string, perm os.FileMode) (string, int, error) {
	for i := range 100 {
		tmp := fmt.Sprintf(".%s.sift-%d-%d.tmp", last, os.Getpid(), time.Now().UnixNano()+int64(i))
		fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.EEXIST {
			continue
		}
		return tmp, fd, err
	}
	return "", -1, unix.EEXIST
}

// CreateTemp creates a new file under a fresh name (O_EXCL) next to name
// beneath r, for writing a file that Rename then puts in place. It returns
// the file and its name beneath r.
func (r *Root) CreateTemp(name string, perm os.FileMode) (*os.File, string, error) {
	dir, last, err := r.parent("create", name)
	if err != nil {
		return nil, "", err
	}
	defer closeDir(r, dir)
	tmp, fd, err := createTemp(dir, last, perm)
	if err != nil {
		return nil, "", fail("create", name, err)
	}
	rel, _ := clean("create", name)
	tmp = path.Join(path.Dir(rel), tmp)
	return os.NewFile(uintptr(fd), tmp), tmp, nil
}

// Rename renames from to to, both beneath r; a link at either is renamed
// or replaced itself, never followed.
func (r *Root) Rename(from, to string) error {
	fdir, flast, err := r.parent("rename", from)
	if err != nil {
		return err
	}
	defer closeDir(r, fdir)
	tdir, tlast, err := r.parent("rename", to)
	if err != nil {
		return err
	}
	defer closeDir(r, tdir)
	if err := unix.Renameat(fdir, flast, tdir, tlast); err != nil {
		return fail("rename", to, err)
	}
	return nil
}

// Append opens the file name beneath r for appending, creating it when
// missing. An existing file is accepted only when it is a regular file
// with one link; a link, FIFO or hard link planted there is refused.
func (r *Root) Append(name string, perm os.FileMode) (*os.File, error) {
	fd, err := r.openFD("append to", name, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT, uint32(perm.Perm()))
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		unix.Close(fd)
		return nil, refused("append to", name, "it is a directory")
	}
	return os.NewFile(uintptr(fd), name), nil
}

// Remove removes the file or empty directory name beneath r (a link is
// removed itself, not its target).
func (r *Root) Remove(name string) error {
	dir, last, err := r.parent("remove", name)
	if err != nil {
		return err
	}
	defer closeDir(r, dir)
	err = unix.Unlinkat(dir, last, 0)
	if err == unix.EISDIR || err == unix.EPERM {
		if derr := unix.Unlinkat(dir, last, unix.AT_REMOVEDIR); derr == nil {
			return nil
		}
	}
	if err != nil {
		return fail("remove", name, err)
	}
	return nil
}

// Lchown changes the owner of name beneath r without following a link.
func (r *Root) Lchown(name string, uid, gid int) error {
	dir, last, err := r.parent("chown", name)
	if err != nil {
		return err
	}
	defer closeDir(r, dir)
	if err := unix.Fchownat(dir, last, uid, gid, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fail("chown", name, err)
	}
	return nil
}

// SetModTime sets the modification time of name beneath r without
// following a link.
func (r *Root) SetModTime(name string, mtime time.Time) error {
	dir, last, err := r.parent("set time of", name)
	if err != nil {
		return err
	}
	defer closeDir(r, dir)
	ts := []unix.Timespec{{Nsec: unix.UTIME_OMIT}, unix.NsecToTimespec(mtime.UnixNano())}
	if err := unix.UtimesNanoAt(dir, last, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fail("set time of", name, err)
	}
	return nil
}

// readAll reads f up to limit bytes (limit <= 0: all).
func readAll(f *os.File, name string, limit int64) ([]byte, bool, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, false, &Error{Op: "read", Path: name, Err: err}
	}
	if st.IsDir() {
		return nil, false, &Error{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	var buf []byte
	chunk := make([]byte, 64<<10)
	for limit <= 0 || int64(len(buf)) <= limit {
		n, err := f.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if err != nil || n == 0 {
			break
		}
	}
	if limit > 0 && int64(len(buf)) > limit {
		return buf[:limit], true, nil
	}
	return buf, false, nil
}

// ReadFile reads at most limit bytes of name beneath the directory root
// (see Root.ReadFile).
func ReadFile(root, name string, limit int64, opts ...Option) ([]byte, bool, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	return r.ReadFile(name, limit, opts...)
}

// Open opens name beneath the directory root for reading (see Root.Open).
func Open(root, name string, opts ...Option) (*os.File, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Open(name, opts...)
}
