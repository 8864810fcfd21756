package sandbox

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// A session's disk budget is enforced while it is written, where Sift can:
// for as long as a workspace is held (its Kernel or Local open), its work/
// and out/ live on a file system of their own, an ext4 image the size of
// the budget, loop-mounted, so a write past the budget fails at once with
// ENOSPC ("No space left on device") and a file past the file budget finds
// no inode, whatever the code does (fallocate, sparse files, hard links,
// many processes). Blocks are what count: the file system knows nothing
// else. The accounting of disk.go goes on on top of it, to say what
// used the budget.
//
//	<root>/.sift-disk.img   the image (sparse, 0600, the host's); named
//	                        .sift-disk.img.new until the files are on it
//	<root>/.sift-disk/      where it is mounted (0700, the host's)
//	<root>/work, <root>/out the image's work/ and out/, bound over them
//	<root>/.sift-disk.lock  locked by the process holding the mount
//
// The image is the session's work/ and out/ while it exists: when the hold
// ends, their files are copied back to the workspace's own work/ and out/
// (what the report, the server and `sift sessions` read once the session is
// closed), the image unmounted and removed; the next hold copies them in
// again. A Sift killed while holding leaves its mounts: the next process
// that holds the workspace, or the first hold of any Sift process (which
// looks for mounts no live process locks), copies the files back and
// unmounts them.
//
// It needs root (mount), a loop device and mkfs.ext4. Without them the
// budget is accounting only, and Warnings says so.

const (
	// quotaDirName, quotaImageName and quotaLockName are the host's files
	// in the workspace root.
	quotaDirName   = ".sift-disk"
	quotaImageName = ".sift-disk.img"
	quotaNewImage  = ".sift-disk.img.new"
	quotaLockName  = ".sift-disk.lock"
	// quotaReserve is kept for the host (root) beyond the budget, so that
	// Sift can still save the next cell's code when the code has filled
	// its file system: the sandbox's user cannot use it.
	quotaReserve = 1 << 20
	// quotaInodeSlack is added to the file budget: Sift's own files (a
	// cell's code, its captured output) and the directories.
	quotaInodeSlack = 1024
	// QuotaEnv turns the enforced quota off ("off": accounting only) or
	// requires it ("on": a workspace that cannot be mounted is refused).
	// Default "auto": enforced where it can be, said where not.
	QuotaEnv = "SIFT_SANDBOX_QUOTA"
)

// quotaHost is what this machine offers for enforced quotas.
type quotaHost struct {
	mkfs, mount string
	// problem says why the quota cannot be enforced here; "" when it can.
	problem string
	// required: QuotaEnv is "on".
	required bool
}

var hostQuota = sync.OnceValue(func() *quotaHost { return probeQuotaHost(os.Getenv(QuotaEnv)) })

// probeQuotaHost checks for what loop-mounted quotas need, with QuotaEnv's
// value mode.
func probeQuotaHost(mode string) *quotaHost {
	h := &quotaHost{required: mode == "on"}
	switch {
	case mode == "off":
		h.problem = QuotaEnv + "=off"
		return h
	case mode != "" && mode != "auto" && mode != "on":
		h.problem = fmt.Sprintf("%s=%q is not auto, on or off", QuotaEnv, mode)
		return h
	case os.Geteuid() != 0:
		h.problem = "Sift is not running as root, and only root can mount a file system of the budget's size for the session"
		return h
	}
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		h.problem = "no loop devices here (/dev/loop-control: " + err.Error() + "; load the loop module)"
		return h
	}
	var err error
	if h.mkfs, err = exec.LookPath("mkfs.ext4"); err != nil {
		h.problem = "mkfs.ext4 is not installed (apt-get install e2fsprogs)"
		return h
	}
	if h.mount, err = exec.LookPath("mount"); err != nil {
		h.problem = "mount is not installed (apt-get install mount)"
		return h
	}
	return h
}

// quotaWarning says, for Warnings, that the disk budget is not enforced
// while written here, and why; "" when it is.
func quotaWarning(h *quotaHost) string {
	if h.problem == "" {
		return ""
	}
	return "WARNING: the disk budget is counted, not enforced while written: " + h.problem +
		"; a cell can pass it by what it writes between two measurements (0.1 s of writing)."
}

// quotaRegistry keeps the mounts of the workspaces this process holds.
// Its lock guards the map and the hold counts only: mounting and copying,
// which take a while, are done under the workspace's own lock, so one
// session closing does not hold up another one starting.
type quotaRegistry struct {
	host  func() *quotaHost
	mu    sync.Mutex
	held  map[string]*quotaMount
	swept bool
}

// quotaMount is one workspace's mounted budget.
type quotaMount struct {
	// holds counts the holders (under the registry's lock).
	holds int
	// mu is held while the file system is mounted or unmounted; lock is
	// the workspace's lock file while it is mounted.
	mu      sync.Mutex
	lock    *os.File
	mounted atomic.Bool
}

var diskQuotas = &quotaRegistry{host: hostQuota, held: map[string]*quotaMount{}}

// hold mounts a file system of budget b on root's work/ and out/ (or keeps
// the one this process mounted) until release. When that cannot be done,
// hold returns a no-op release and says why in note: the budget is then
// only counted. b nil (no byte budget) mounts nothing.
func (r *quotaRegistry) hold(root string, b *DiskBudget) (release func(), note string, err error) {
	noop := func() {}
	h := r.host()
	if b == nil || b.bytes <= 0 {
		return noop, "", nil
	}
	if h.problem != "" {
		if h.required {
			return nil, "", fmt.Errorf("%s=on, but the disk quota cannot be enforced here: %s", QuotaEnv, h.problem)
		}
		return noop, "", nil // Warnings said so at the start
	}
	r.mu.Lock()
	if !r.swept {
		r.swept = true
		sweepStaleQuotas(h)
	}
	m := r.held[root]
	if m == nil {
		m = &quotaMount{}
		r.held[root] = m
	}
	m.holds++
	r.mu.Unlock()
	drop := func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		m.holds--
		if m.holds == 0 && !m.mounted.Load() && r.held[root] == m {
			delete(r.held, root)
		}
	}

	m.mu.Lock()
	if !m.mounted.Load() {
		lock, err := mountQuota(h, root, b)
		switch {
		case err != nil:
			m.mu.Unlock()
			drop()
			if h.required {
				return nil, "", err
			}
			return noop, "The disk budget is only counted for this session, not enforced while written: " + err.Error(), nil
		case lock == nil: // another live process holds it: its mount applies
			m.mu.Unlock()
			drop()
			return noop, "", nil
		}
		m.lock = lock
		m.mounted.Store(true)
	}
	m.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			m.holds--
			last := m.holds == 0
			r.mu.Unlock()
			if !last {
				return
			}
			m.mu.Lock()
			r.mu.Lock()
			idle := m.holds == 0 // no hold came in meanwhile
			r.mu.Unlock()
			if idle && m.mounted.Load() {
				_ = unmountQuota(root, m.lock)
				m.lock = nil
				m.mounted.Store(false)
			}
			m.mu.Unlock()
			r.mu.Lock()
			if m.holds == 0 && !m.mounted.Load() && r.held[root] == m {
				delete(r.held, root)
			}
			r.mu.Unlock()
		})
	}, "", nil
}

// sweep takes back the mounts that processes which died while holding
// them left, where quotas are enforced here.
func (r *quotaRegistry) sweep() {
	if r.host().problem != "" {
		return
	}
	h := r.host()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.swept = true
	sweepStaleQuotas(h)
}

// mounted reports whether root's work/ is on a quota this process holds.
func (r *quotaRegistry) mounted(root string) bool {
	r.mu.Lock()
	m := r.held[root]
	r.mu.Unlock()
	return m != nil && m.mounted.Load()
}

// quotaImageSize is the image's size for budget b: the budget, the host's
// reserve, the inode tables and what ext4 keeps for itself (bitmaps,
// descriptors, extent blocks: well under 1%).
func quotaImageSize(b *DiskBudget) (size int64, inodes int64) {
	inodes = b.files + quotaInodeSlack
	if b.files <= 0 {
		inodes = b.bytes/16384 + quotaInodeSlack
	}
	size = b.bytes + quotaReserve + inodes*256 + b.bytes/128 + 2<<20
	return (size + 4095) &^ 4095, inodes
}

// quotaLockWait is how long a hold waits for the workspace's disk lock
// held by another: a sweep taking back a dead holder's mount holds it for
// as long as it copies the files back, and a hold that took that sweep
// for a live holder would run on a disk being taken away.
const quotaLockWait = 30 * time.Second

// lockDisk locks root's disk lock file, waiting up to wait while another
// holds it; nil, nil when another still holds it then. The lock is the
// file at the path when locked: a holder that let go removes the file, so
// a lock taken on a removed one is dropped and taken again on the new.
func lockDisk(root string, wait time.Duration) (*os.File, error) {
	path := filepath.Join(root, quotaLockName)
	deadline := time.Now().Add(wait)
	for {
		lock, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
		if err != nil {
			return nil, fmt.Errorf("lock the workspace's disk: %w", err)
		}
		err = unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			var held, now unix.Stat_t
			if unix.Fstat(int(lock.Fd()), &held) == nil && unix.Lstat(path, &now) == nil && held.Ino == now.Ino && held.Dev == now.Dev {
				return lock, nil
			}
			lock.Close() // removed as it was locked: lock the new one
			continue
		}
		lock.Close()
		if !errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock the workspace's disk: %w", err)
		}
		if !time.Now().Before(deadline) {
			return nil, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mountQuota makes (or takes back) root's image and mounts it on work/ and
// out/, and returns the workspace's lock file, locked. It returns nil, nil
// when another live process holds the lock (its mount is in place).
func mountQuota(h *quotaHost, root string, b *DiskBudget) (_ *os.File, err error) {
	lock, err := lockDisk(root, quotaLockWait)
	if lock == nil || err != nil {
		return nil, err
	}
	// Until the workspace's files are on the image, a failure drops the
	// image (the files are still where they were); after, it copies them
	// back.
	discard := false
	defer func() {
		if err == nil {
			return
		}
		if discard {
			_ = unmountAll(root)
			_ = os.Remove(filepath.Join(root, quotaNewImage))
			_ = os.Remove(filepath.Join(root, quotaDirName))
			if _, err := os.Lstat(filepath.Join(root, quotaImageName)); errors.Is(err, os.ErrNotExist) {
				forgetDisk(root)
			}
			_ = os.Remove(filepath.Join(root, quotaLockName))
			lock.Close()
			return
		}
		_ = unmountQuota(root, lock)
	}()
	_ = lock.Truncate(0)
	fmt.Fprintf(lock, "%d\n", os.Getpid())
	// The host notes the workspace before its files go on the image, so
	// that a reboot, which takes every mount away, does not leave them
	// there unseen (see sweepStaleQuotas).
	noteDisk(root)
	// Mounts left by a process that held the lock and died: undo them,
	// keeping the image (it holds the session's newest files).
	if err := unmountAll(root); err != nil {
		return nil, err
	}
	mnt := filepath.Join(root, quotaDirName)
	img := filepath.Join(root, quotaImageName)
	if err := os.Mkdir(mnt, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("make the disk's mount point: %w", err)
	}
	if fi, err := os.Lstat(mnt); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the disk's mount point %s is not a directory", mnt)
	}
	// An image is the session's disk only once the workspace's files are
	// all on it: until then it is quotaNewImage, and one left by a process
	// that died on the way is dropped (the files are still in work/ and
	// out/).
	newImg := filepath.Join(root, quotaNewImage)
	_ = os.Remove(newImg)
	fresh := false
	if _, err := os.Lstat(img); errors.Is(err, os.ErrNotExist) {
		fresh, discard = true, true
		img = newImg
		if err := makeImage(h, img, b); err != nil {
			return nil, err
		}
	}
	if err := mountImage(h, img, mnt); err != nil {
		return nil, err
	}
	if fresh {
		// What ext4 keeps for itself is known once mounted: a budget that
		// the formula missed by more than a little is made again, once, to
		// the size that leaves the budget.
		if off := quotaAvail(mnt) - b.bytes; off < 0 || off > max(b.bytes/100, 2<<20) {
			size, _ := quotaImageSize(b)
			if err := unmountPoint(mnt); err != nil {
				return nil, err
			}
			os.Remove(img)
			if err := makeImageOfSize(h, img, b, size-off); err != nil {
				return nil, err
			}
			if err := mountImage(h, img, mnt); err != nil {
				return nil, err
			}
		}
	}
	for _, dir := range []string{WorkDir, OutDir} {
		inImage := filepath.Join(mnt, dir)
		if err := os.Mkdir(inImage, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("make %s/ on the session's disk: %w", dir, err)
		}
		own := filepath.Join(root, dir)
		if err := ensureWorkspaceDir(root, dir); err != nil {
			return nil, err
		}
		if fresh {
			// The workspace's files move onto the budget's disk; a session
			// that already holds more than the budget cannot.
			if err := copyDir(own, inImage); err != nil {
				return nil, fmt.Errorf("move %s/ onto the session's disk: %w; delete files in %s/ or raise %s", dir, err, dir, SandboxDiskEnv)
			}
		}
	}
	if fresh {
		if err := os.Rename(newImg, filepath.Join(root, quotaImageName)); err != nil {
			return nil, fmt.Errorf("keep the session's disk image: %w", err)
		}
		discard = false
		for _, dir := range []string{WorkDir, OutDir} {
			if err := clearDir(filepath.Join(root, dir)); err != nil {
				return nil, fmt.Errorf("empty %s/ once moved onto the session's disk: %w", dir, err)
			}
		}
	}
	for _, dir := range []string{WorkDir, OutDir} {
		if err := unix.Mount(filepath.Join(mnt, dir), filepath.Join(root, dir), "", unix.MS_BIND, ""); err != nil {
			return nil, fmt.Errorf("bind the session's disk on %s/: %w", dir, err)
		}
	}
	return lock, nil
}

// makeImage creates the sparse image of budget b at img and an ext4 file
// system in it: no journal (it holds a session's scratch) and no room to
// grow, inodes for the file budget, the host's reserve kept for root.
func makeImage(h *quotaHost, img string, b *DiskBudget) error {
	size, _ := quotaImageSize(b)
	return makeImageOfSize(h, img, b, size)
}

// makeImageOfSize is makeImage with the image's size.
func makeImageOfSize(h *quotaHost, img string, b *DiskBudget, size int64) error {
	size = (size + 4095) &^ 4095
	_, inodes := quotaImageSize(b)
	f, err := os.OpenFile(img, os.O_RDWR|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("create the session's disk image: %w", err)
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(img)
		return fmt.Errorf("size the session's disk image: %w", err)
	}
	reserved := strconv.FormatFloat(100*float64(quotaReserve)/float64(size), 'f', 3, 64)
	cmd := exec.Command(h.mkfs, "-q", "-F", "-b", "4096", "-I", "256", "-m", reserved,
		"-N", strconv.FormatInt(inodes, 10), "-O", "^has_journal,^resize_inode",
		"-E", "lazy_itable_init=1,nodiscard", img)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(img)
		return fmt.Errorf("make the session's disk (mkfs.ext4): %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// mountImage loop-mounts the image img on mnt: no set-id programs, no
// devices, freed blocks given back to the host (discard), no background
// zeroing of inode tables.
func mountImage(h *quotaHost, img, mnt string) error {
	if out, err := exec.Command(h.mount, "-t", "ext4", "-o", "loop,nosuid,nodev,discard,noinit_itable", img, mnt).CombinedOutput(); err != nil {
		return fmt.Errorf("mount the session's disk image: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// quotaAvail is what the file system at p leaves to a user other than
// root, in bytes.
func quotaAvail(p string) int64 {
	var st unix.Statfs_t
	if unix.Statfs(p, &st) != nil {
		return 0
	}
	return int64(st.Bavail) * st.Bsize
}

// unmountQuota copies the image's work/ and out/ back to the workspace's
// own, unmounts and removes the image, and drops the lock. The image stays
// when the copy fails, and the next hold takes it back.
func unmountQuota(root string, lock *os.File) error {
	defer func() {
		if lock != nil {
			lock.Close()
		}
	}()
	mnt := filepath.Join(root, quotaDirName)
	for _, dir := range []string{WorkDir, OutDir} {
		if err := unmountPoint(filepath.Join(root, dir)); err != nil {
			return err
		}
	}
	if !isMountPoint(mnt) {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(root, quotaImageName)); err != nil {
		// Mounted before the workspace's files were all on it (its holder
		// died then): they are still in work/ and out/.
		if err := unmountPoint(mnt); err != nil {
			return err
		}
		_ = os.Remove(filepath.Join(root, quotaNewImage))
		forgetDisk(root)
		return nil
	}
	for _, dir := range []string{WorkDir, OutDir} {
		own := filepath.Join(root, dir)
		if err := clearDir(own); err != nil {
			return fmt.Errorf("empty %s/ before copying the session's disk back: %w", dir, err)
		}
		if err := copyDir(filepath.Join(mnt, dir), own); err != nil {
			return fmt.Errorf("copy %s/ back from the session's disk: %w", dir, err)
		}
	}
	if err := unmountPoint(mnt); err != nil {
		return err
	}
	_ = os.Remove(mnt)
	_ = os.Remove(filepath.Join(root, quotaImageName))
	forgetDisk(root)
	_ = os.Remove(filepath.Join(root, quotaLockName))
	return nil
}

// unmountAll undoes whatever is mounted on root's work/, out/ and the
// image's mount point (left by a process that died), the image kept.
func unmountAll(root string) error {
	for _, p := range []string{filepath.Join(root, WorkDir), filepath.Join(root, OutDir), filepath.Join(root, quotaDirName)} {
		if err := unmountPoint(p); err != nil {
			return err
		}
	}
	return nil
}

// unmountPoint unmounts everything mounted on p, detaching it when busy.
func unmountPoint(p string) error {
	for i := 0; i < 8 && isMountPoint(p); i++ {
		if err := unix.Unmount(p, unix.UMOUNT_NOFOLLOW); err != nil {
			if err := unix.Unmount(p, unix.MNT_DETACH|unix.UMOUNT_NOFOLLOW); err != nil {
				return fmt.Errorf("unmount %s: %w", p, err)
			}
		}
	}
	return nil
}

// mountPoints returns the mount points of this process's mount namespace.
func mountPoints() map[string]bool {
	out := map[string]bool{}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 4 {
			out[unescapeMount(fields[4])] = true
		}
	}
	return out
}

// isMountPoint reports whether something is mounted on p.
func isMountPoint(p string) bool { return mountPoints()[p] }

// sweepStaleQuotas takes back the session disks of workspaces whose
// holder died: an image mount point no live process locks, and, after a
// reboot (which took every mount away), an image the host noted that is
// mounted nowhere. Either way the files on the image are copied back to
// the workspace's own work/ and out/ and the image removed, so that what
// the report, the server and `sift sessions` read is the session's work
// without waiting for the session to be reopened.
func sweepStaleQuotas(h *quotaHost) {
	mounts := mountPoints()
	for p := range mounts {
		if filepath.Base(p) != quotaDirName {
			continue
		}
		root := filepath.Dir(p)
		lock, err := lockDisk(root, 0)
		if lock == nil || err != nil {
			continue // its holder lives
		}
		_ = unmountQuota(root, lock)
	}
	for _, root := range notedDisks() {
		if mounts[filepath.Join(root, quotaDirName)] {
			continue // swept above, or held
		}
		_ = settleDisk(h, root)
	}
}

// settleDisk copies back the files of root's session disk image when it
// is mounted nowhere (its holder died with the machine), and forgets the
// workspace once no image is left.
func settleDisk(h *quotaHost, root string) error {
	if _, err := os.Lstat(root); errors.Is(err, os.ErrNotExist) {
		forgetDisk(root) // the workspace is gone
		return nil
	}
	// Nothing is touched before the lock is taken: a live holder making
	// the session's disk holds it, and its new image (quotaNewImage, not
	// yet renamed) must not be taken for one a dead holder left.
	lock, err := lockDisk(root, 0)
	if lock == nil || err != nil {
		return err // a live holder is mounting it
	}
	img := filepath.Join(root, quotaImageName)
	fi, err := os.Lstat(img)
	if errors.Is(err, os.ErrNotExist) {
		// Never on an image, or its files were not all on it yet: they
		// are in work/ and out/.
		_ = os.Remove(filepath.Join(root, quotaNewImage))
		forgetDisk(root)
		_ = os.Remove(filepath.Join(root, quotaLockName))
		lock.Close()
		return nil
	}
	if err != nil || !fi.Mode().IsRegular() {
		lock.Close()
		return fmt.Errorf("the session's disk image %s is not a file", img)
	}
	mnt := filepath.Join(root, quotaDirName)
	if err := os.Mkdir(mnt, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		lock.Close()
		return err
	}
	if err := mountImage(h, img, mnt); err != nil {
		lock.Close()
		return err
	}
	return unmountQuota(root, lock)
}

// diskIndexDir is where the host notes the workspaces whose files are on
// a session disk: a directory of root's (0700) that outlives a reboot,
// under $XDG_STATE_HOME/sift (default ~/.local/state/sift), beside the
// default sessions directory.
func diskIndexDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "sift", "session-disks")
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "state", "sift", "session-disks")
}

// diskNote is the file that notes root in the index.
func diskNote(dir, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dir, hex.EncodeToString(sum[:16]))
}

// noteDisk notes root in the index. Failing to costs only the sweep after
// a reboot (the session's next hold still takes its image back).
func noteDisk(root string) {
	dir := diskIndexDir()
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	p := diskNote(dir, root)
	tmp := p + ".tmp"
	if os.WriteFile(tmp, []byte(root), 0o600) != nil || os.Rename(tmp, p) != nil {
		_ = os.Remove(tmp)
	}
}

// forgetDisk removes root's note from the index.
func forgetDisk(root string) {
	if dir := diskIndexDir(); dir != "" {
		_ = os.Remove(diskNote(dir, root))
	}
}

// notedDisks returns the workspaces the index notes: absolute, clean
// paths, each under the name its own hash gives (anything else in the
// directory is not Sift's).
func notedDisks() []string {
	dir := diskIndexDir()
	if dir == "" {
		return nil
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var roots []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		root := string(data)
		if err != nil || len(data) > 4096 || !filepath.IsAbs(root) || filepath.Clean(root) != root || diskNote(dir, root) != p {
			continue
		}
		roots = append(roots, root)
	}
	return roots
}

// QuotaStopped reports whether a cell that found the workspace at before,
// left it at after and reported output (its error and stderr) was stopped
// by the session's file system: it is full and the cell filled it (it
// grew) or failed writing to it.
func QuotaStopped(root string, before DiskUsage, after DiskUsage, output ...string) bool {
	if !diskQuotas.mounted(root) || !quotaFull(root) {
		return false
	}
	return after.bytes > before.bytes+diskSlackBytes || after.files > before.files+diskSlackFiles ||
		slices.ContainsFunc(output, func(s string) bool { return strings.Contains(s, "No space left on device") })
}

// quotaFull reports whether the session's file system at root is full for
// the session's code: less than a MiB or a few inodes left beyond the
// host's reserve.
func quotaFull(root string) bool {
	var st unix.Statfs_t
	if unix.Statfs(filepath.Join(root, WorkDir), &st) != nil {
		return false
	}
	return int64(st.Bavail)*st.Bsize < 1<<20 || st.Ffree < 16
}
