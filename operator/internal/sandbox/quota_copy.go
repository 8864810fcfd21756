package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Moving a session's files between its disk image and the workspace is
// done by the host, as root, over files the session's code wrote: it goes
// by descriptor and never follows a link (links are copied as links), keeps
// hard links linked and holes unwritten (so a copy never takes more blocks
// than its source: a file hard-linked 10,000 times, or a sparse file of a
// gigabyte, stays what it was), copies FIFOs, sockets and devices as
// nothing, nor what lies deeper than the budget's walk counts, and keeps
// owners, permissions (without set-id bits) and times.

// copyChunk is what one read and write of a file's data moves.
const copyChunk = 1 << 20

// copyDir copies what lies in the directory src into the directory dst.
func copyDir(src, dst string) error {
	sfd, err := unix.Open(src, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", src, err)
	}
	defer unix.Close(sfd)
	dfd, err := unix.Open(dst, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", dst, err)
	}
	defer unix.Close(dfd)
	c := &treeCopy{top: dfd, links: map[[2]uint64]string{}}
	if err := c.dir(sfd, dfd, "", 0); err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstat(sfd, &st); err != nil {
		return err
	}
	return keepMeta(dfd, &st)
}

// treeCopy is one copyDir under way: top is the destination's directory,
// links the files of several links already copied, by source device and
// inode, to their path beneath top.
type treeCopy struct {
	top   int
	links map[[2]uint64]string
}

// dir copies the entries of the open source directory sfd into dfd; rel is
// dfd's path beneath the destination.
func (c *treeCopy) dir(sfd, dfd int, rel string, depth int) error {
	if depth > maxDiskWalkDepth {
		return nil // deeper than the budget's walk counts: not copied either
	}
	d := os.NewFile(uintptr(mustDup(sfd)), rel)
	if d == nil {
		return fmt.Errorf("%s: cannot read the directory", rel)
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(1024)
		for _, n := range names {
			if err := c.entry(sfd, dfd, n, filepath.Join(rel, n), depth); err != nil {
				return err
			}
		}
		if len(names) == 0 || err != nil {
			return nil
		}
	}
}

// mustDup duplicates fd for os.File to own; -1 (and os.NewFile nil) when
// it cannot.
func mustDup(fd int) int {
	n, err := unix.Dup(fd)
	if err != nil {
		return -1
	}
	unix.CloseOnExec(n)
	return n
}

// entry copies the entry name of sfd into dfd.
func (c *treeCopy) entry(sfd, dfd int, name, rel string, depth int) error {
	var st unix.Stat_t
	if err := unix.Fstatat(sfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil
		}
		return fmt.Errorf("%s: %w", rel, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		if err := unix.Mkdirat(dfd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return fmt.Errorf("%s: %w", rel, err)
		}
		s, err := unix.Openat(sfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		defer unix.Close(s)
		d, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		defer unix.Close(d)
		if err := c.dir(s, d, rel, depth+1); err != nil {
			return err
		}
		return keepMeta(d, &st)
	case unix.S_IFLNK:
		target := make([]byte, unix.PathMax)
		n, err := unix.Readlinkat(sfd, name, target)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		if err := unix.Symlinkat(string(target[:n]), dfd, name); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		_ = unix.Fchownat(dfd, name, int(st.Uid), int(st.Gid), unix.AT_SYMLINK_NOFOLLOW)
		return nil
	case unix.S_IFREG:
		key := [2]uint64{st.Dev, st.Ino}
		if st.Nlink > 1 {
			if first, ok := c.links[key]; ok {
				// A link that cannot be made (its first name too long a
				// path, say) is left out rather than copied again: a copy
				// never takes more blocks than its source.
				_ = unix.Linkat(c.top, first, dfd, name, 0)
				return nil
			}
			c.links[key] = rel
		}
		return copyFile(sfd, dfd, name, rel, &st)
	}
	return nil // a FIFO, socket or device: not the session's data
}

// copyFile copies the regular file name of sfd (described by st) to a new
// file in dfd, data extents only.
func copyFile(sfd, dfd int, name, rel string, st *unix.Stat_t) error {
	s, err := unix.Openat(sfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	defer unix.Close(s)
	var now unix.Stat_t
	if err := unix.Fstat(s, &now); err != nil || now.Ino != st.Ino || now.Mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Errorf("%s: changed while it was copied", rel)
	}
	d, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	defer unix.Close(d)
	buf := make([]byte, copyChunk)
	size := now.Size
	for off := int64(0); off < size; {
		data, err := unix.Seek(s, off, unix.SEEK_DATA)
		if errors.Is(err, unix.ENXIO) {
			break // only a hole is left
		}
		hole := size
		if err != nil {
			data = off // no SEEK_DATA here: copy it all
		} else if h, err := unix.Seek(s, data, unix.SEEK_HOLE); err == nil {
			hole = h
		}
		for p := data; p < hole; {
			n, err := unix.Pread(s, buf[:min(int64(len(buf)), hole-p)], p)
			if err != nil {
				return fmt.Errorf("%s: read: %w", rel, err)
			}
			if n == 0 {
				break
			}
			if !allZero(buf[:n]) {
				if _, err := unix.Pwrite(d, buf[:n], p); err != nil {
					return fmt.Errorf("%s: write: %w", rel, err)
				}
			}
			p += int64(n)
		}
		off = hole
	}
	if err := unix.Ftruncate(d, size); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return keepMeta(d, st)
}

// allZero reports whether b holds only zero bytes (a hole need not be
// written).
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// keepMeta gives the open file fd the owner, permissions (no set-id bits)
// and times st describes.
func keepMeta(fd int, st *unix.Stat_t) error {
	if err := unix.Fchown(fd, int(st.Uid), int(st.Gid)); err != nil && !errors.Is(err, unix.EPERM) {
		return err
	}
	if err := unix.Fchmod(fd, st.Mode&0o1777); err != nil {
		return err
	}
	return unix.Futimes(fd, []unix.Timeval{unix.NsecToTimeval(st.Atim.Nano()), unix.NsecToTimeval(st.Mtim.Nano())})
}

// clearDir removes what lies in the directory p (not p itself), never
// following a link.
func clearDir(p string) error {
	entries, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(p, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
