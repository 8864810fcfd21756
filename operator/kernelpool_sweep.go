package operator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sift-agent/sift/operator/internal/sandbox"
	"golang.org/x/sys/unix"
)

// A pool's directory holds, for each slot, the slot's workspace
// <Dir>/slot-<hex>/ and its owner lock <Dir>/slot-<hex>.lock. The process
// whose pool made the slot holds the lock (flock) from before the slot
// exists until a session adopts it (its <root>/<id> link leads there, see
// session.Adopt) or the slot is removed. A slot whose lock no live process
// holds and that no session's link leads to was left by a process that
// died (killed with kernels waiting): SweepKernelPool removes it.

const (
	// kernelPoolSlotPrefix begins every slot's name; session.Adopt takes
	// only a slot so named, directly in the pool's directory.
	kernelPoolSlotPrefix = "slot-"
	// kernelPoolLockSuffix ends a slot's owner lock's name.
	kernelPoolLockSuffix = ".lock"
)

// errNoSlotLock: the slot has no owner lock file.
var errNoSlotLock = errors.New("the slot has no owner lock")

// isSlotName reports whether name is a slot's: slot- and lower-case hex.
func isSlotName(name string) bool {
	hexPart, ok := strings.CutPrefix(name, kernelPoolSlotPrefix)
	if !ok || hexPart == "" || len(hexPart) > 64 {
		return false
	}
	return strings.Trim(hexPart, "0123456789abcdef") == ""
}

// lockSlot takes the owner lock of the slot at root without waiting: a
// new lock file (create; it must not exist) or the one there. It returns
// nil, nil when another holds the lock, and errNoSlotLock when (not
// create) there is no lock file. The lock is the file at the path when
// locked: one removed meanwhile (its owner let go of it, or a sweep took
// it) is not a lock, and counts as held.
func lockSlot(root string, create bool) (*os.File, error) {
	path := root + kernelPoolLockSuffix
	flags := os.O_RDWR | unix.O_NOFOLLOW
	if create {
		flags |= os.O_CREATE | os.O_EXCL
	}
	lock, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return nil, errNoSlotLock
	}
	if err != nil {
		return nil, fmt.Errorf("lock slot %s: %w", root, err)
	}
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, nil
		}
		return nil, fmt.Errorf("lock slot %s: %w", root, err)
	}
	var held, now unix.Stat_t
	if unix.Fstat(int(lock.Fd()), &held) != nil || unix.Lstat(path, &now) != nil || held.Ino != now.Ino || held.Dev != now.Dev {
		lock.Close()
		return nil, nil
	}
	return lock, nil
}

// SweepKernelPool removes from the pool directory dir the slots that
// processes which died left: those whose owner lock no live process holds
// and that no session adopted. Their session disks are taken down first,
// by the code a hold uses for a dead holder's mounts (anything still
// mounted on them is unmounted), then their directories removed. A slot
// another live process owns, or one a session's link leads to, is never
// touched, so processes sharing one sessions directory can all sweep it.
// It returns how many slots it removed. A pool sweeps its directory when
// it starts and every few minutes, and `sift serve` and `sift worker`
// sweep it when they keep no pool; a missing dir holds nothing to sweep.
func SweepKernelPool(dir string) (swept int, err error) {
	// The pool's directory and the sessions root are the host's: resolving
	// them follows no path the sandbox writes, and gives the paths the
	// pool named its slots by (NewKernelPool resolves Dir too).
	dir, err = filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sweep the kernel pool: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("sweep the kernel pool: %w", err)
	}
	seen := map[string]bool{}
	var names []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), kernelPoolLockSuffix)
		if isSlotName(name) && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var linked map[string]bool
	var errs []error
	for _, name := range names {
		root := filepath.Join(dir, name)
		lock, err := lockSlot(root, false)
		switch {
		case errors.Is(err, errNoSlotLock):
			lock = nil
		case err != nil:
			errs = append(errs, err)
			continue
		case lock == nil:
			continue // its owner lives
		}
		// Read only once the lock is ours: an owner lets go of it only
		// after the session's link is made.
		if linked == nil {
			if linked, err = adoptedSlots(dir); err != nil {
				// Unknown which slots are sessions': remove none.
				if lock != nil {
					lock.Close()
				}
				return swept, errors.Join(append(errs, err)...)
			}
		}
		unlock := func() {
			if lock != nil {
				_ = os.Remove(root + kernelPoolLockSuffix)
				lock.Close()
			}
		}
		if linked[root] { // a session's workspace: its owner died before letting go
			unlock()
			continue
		}
		if err := removeSlot(root); err != nil {
			if lock != nil {
				lock.Close()
			}
			errs = append(errs, err)
			continue
		}
		unlock()
		swept++
	}
	return swept, errors.Join(errs...)
}

// SweepWarning says that a sweep of the pool directory dir failed with
// err, what that leaves and what to do: for the log of a process that
// sweeps (a pool's Warn, `sift serve` and `sift worker`).
func SweepWarning(dir string, err error) string {
	return fmt.Sprintf("warning: kernel pool: the slots that stopped processes left in %s were not all removed (%v); they keep their disk space until a later sweep removes them: check that %s is a directory this user can read and write, or remove the slot-* directories there that no session links to while no Sift process runs", dir, err, dir)
}

// adoptedSlots returns the slots of dir that sessions adopted: the
// targets of the links in the sessions root (dir's parent) that lead to a
// slot of dir, as session.Adopt makes them.
func adoptedSlots(dir string) (map[string]bool, error) {
	out := map[string]bool{}
	sessions := filepath.Dir(dir)
	entries, err := os.ReadDir(sessions)
	if err != nil {
		return nil, fmt.Errorf("sweep the kernel pool: list the sessions: %w", err)
	}
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := os.Readlink(filepath.Join(sessions, e.Name()))
		if err == nil && filepath.Dir(target) == dir && isSlotName(filepath.Base(target)) {
			out[target] = true
		}
	}
	return out, nil
}

// removeSlot takes down a dead owner's slot at root: its session disk,
// then the directory. Anything but a directory there (never one of Sift's
// slots) is removed as an entry, never followed.
func removeSlot(root string) error {
	fi, err := os.Lstat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("sweep slot %s: %w", root, err)
	case !fi.IsDir():
		return os.Remove(root)
	}
	if err := sandbox.DropDisk(root); err != nil {
		return fmt.Errorf("sweep slot %s: %w", root, err)
	}
	if err := os.RemoveAll(root); err != nil {
		return fmt.Errorf("sweep slot %s: %w", root, err)
	}
	return nil
}
