package sandbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// handOver gives the workspace to the sandbox user uid (and group uid), for
// when Sift runs as root: everything under work/ and out/, and the extra writable
// directories. The root directory, input/ and the session's own files at
// the top (events, plan, checkpoint) stay root's; the root directory lets
// the user's group read and search it (shareRoot). It works through directory file
// descriptors without following symlinks, so code that swaps a directory
// for a symlink while this runs cannot redirect it outside the workspace.
func handOver(root string, writable []string, uid int) error {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := shareRoot(fd, uid); err != nil {
		return err
	}
	for _, dir := range []string{WorkDir, OutDir} {
		if err := chownTreeAt(fd, dir, uid, 0); err != nil && !errors.Is(err, syscall.ENOENT) {
			return fmt.Errorf("%s/: %w", dir, err)
		}
	}
	for _, p := range writable {
		if err := chownTreeAt(unix.AT_FDCWD, p, uid, 0); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

// shareRoot lets the sandbox user's group (gid uid) into the workspace root
// open at fd, read and search only: Sift makes workspaces 0700, its own,
// and the code must still reach input/, work/ and out/ inside it. The
// root's owner and its files (0600) stay Sift's.
func shareRoot(fd, uid int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("workspace root: %w", err)
	}
	if int(st.Gid) != uid {
		if err := unix.Fchown(fd, -1, uid); err != nil {
			return fmt.Errorf("workspace root: give it group %d: %w", uid, err)
		}
	}
	perm := st.Mode & 0o7777
	if want := perm&^0o070 | 0o050; want != perm {
		if err := unix.Fchmod(fd, want); err != nil {
			return fmt.Errorf("workspace root: let group %d in: %w", uid, err)
		}
	}
	return nil
}

// maxHandOverDepth bounds handOver's recursion (and its open descriptors).
const maxHandOverDepth = 64

// chownTreeAt gives name (relative to dirfd) and, when it is a directory,
// everything below it to uid (and group uid), never following symlinks.
func chownTreeAt(dirfd int, name string, uid, depth int) error {
	if err := unix.Fchownat(dirfd, name, uid, uid, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if depth >= maxHandOverDepth {
		return nil
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		// Not a directory (or a symlink): nothing below it.
		if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP) {
			return nil
		}
		return err
	}
	dir := os.NewFile(uintptr(fd), name)
	defer dir.Close()
	entries, err := dir.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := chownTreeAt(fd, e.Name(), uid, depth+1); err != nil && !errors.Is(err, syscall.ENOENT) {
				return err
			}
			continue
		}
		if info, err := e.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) == uid && int(st.Gid) == uid {
				continue
			}
		}
		if err := unix.Fchownat(fd, e.Name(), uid, uid, unix.AT_SYMLINK_NOFOLLOW); err != nil && !errors.Is(err, syscall.ENOENT) {
			return err
		}
	}
	return nil
}
