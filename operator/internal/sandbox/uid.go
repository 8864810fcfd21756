package sandbox

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Sandbox users when Sift runs as root. Each workspace (session) gets a uid
// of its own from this range, also used as its gid, so that one session's
// processes never count against another's process limit (RLIMIT_NPROC
// counts all processes of a uid) and no session can signal, trace or read
// another's files. The default range, 0x70000000 and the 65,535 uids after
// it, lies above systemd's container range (524288–1879048191) and below
// 2^31: no ordinary user, system service or nspawn container uses it.
const (
	// DefaultSandboxUIDFirst is the first uid of the default range.
	DefaultSandboxUIDFirst = 0x70000000
	// DefaultSandboxUIDCount is how many uids the default range holds.
	DefaultSandboxUIDCount = 65536
	// SandboxUIDsEnv sets the range as FIRST-LAST, e.g.
	// "1879048192-1879113727" (read by SandboxFromEnv).
	SandboxUIDsEnv = "SIFT_SANDBOX_UIDS"
)

// uidLockDir is where a root-run Sift keeps one lock file per sandbox uid in
// use, so that Sift processes on one machine never hand a live session's
// uid to another session.
const uidLockDir = "/run/sift/sandbox-uids"

// UIDRange is a range of uids for sandboxed sessions: First, First+1, ...,
// First+Count-1.
type UIDRange struct {
	First, Count int
}

// parseUIDRange parses "FIRST-LAST".
func parseUIDRange(s string) (UIDRange, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	first, err1 := strconv.Atoi(strings.TrimSpace(a))
	last, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || first < 1000 || last < first || last >= 1<<31-1 {
		return UIDRange{}, fmt.Errorf("want FIRST-LAST, two uids with 1000 <= FIRST <= LAST < 2147483647, e.g. %d-%d",
			DefaultSandboxUIDFirst, DefaultSandboxUIDFirst+DefaultSandboxUIDCount-1)
	}
	return UIDRange{First: first, Count: last - first + 1}, nil
}

// uidPool hands out sandbox uids, one per workspace: the branch kernels and
// the process-mode runs of one workspace share it. A uid is taken only when
// (1) this process does not use it for another workspace, (2) no other Sift
// process holds its lock file for another workspace (two processes serving
// the same workspace share its uid), and (3) no process on the machine runs
// as it (a leftover of an earlier holder). It is given back when the last
// program of its workspace has ended, and may then go to another workspace.
type uidPool struct {
	rng     UIDRange
	lockDir string

	mu     sync.Mutex
	leases map[string]*uidLease // by workspace root
}

// uidLease is one workspace's uid.
type uidLease struct {
	uid  int
	refs int
	// lock is the held lock file; nil when another Sift process holds it
	// for the same workspace.
	lock *os.File
	// byRoot is the file naming uid as the workspace's, for other Sift
	// processes; removed when the lock is let go.
	byRoot string
	// implicit: taken by a Command without Hold; kept until Sift exits.
	implicit bool
}

// uidPools are shared by every sandbox of the process with the same range
// and lock directory, so that two sandboxes never give one uid to two
// workspaces.
var uidPools sync.Map // string -> *uidPool

func sharedUIDPool(rng UIDRange, lockDir string) *uidPool {
	v, _ := uidPools.LoadOrStore(fmt.Sprintf("%d+%d@%s", rng.First, rng.Count, lockDir),
		&uidPool{rng: rng, lockDir: lockDir, leases: map[string]*uidLease{}})
	return v.(*uidPool)
}

// ErrNoSandboxUID: every uid of the range is in use.
var ErrNoSandboxUID = errors.New("no free sandbox uid")

// hold returns root's uid, taking one when root has none, and a function
// that gives it back (call it once, when the program has ended). implicit
// holds are never given back.
func (p *uidPool) hold(root string, implicit bool) (int, func(), error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.leases[root]
	if l == nil {
		var err error
		if l, err = p.take(root); err != nil {
			return 0, nil, err
		}
		p.leases[root] = l
	}
	if implicit {
		l.implicit = true
		return l.uid, func() {}, nil
	}
	l.refs++
	var once sync.Once
	return l.uid, func() { once.Do(func() { p.release(root, l) }) }, nil
}

// current returns the uid root holds, if any.
func (p *uidPool) current(root string) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.leases[root]; l != nil {
		return l.uid, true
	}
	return 0, false
}

func (p *uidPool) release(root string, l *uidLease) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l.refs--
	if l.refs > 0 || l.implicit || p.leases[root] != l {
		return
	}
	delete(p.leases, root)
	if l.lock != nil {
		if data, err := os.ReadFile(l.byRoot); err == nil && string(data) == strconv.Itoa(l.uid) {
			os.Remove(l.byRoot)
		}
		l.lock.Close() // drops the flock
	}
}

// take finds a free uid for root, starting at one derived from root's path,
// so that a session that comes back usually gets its old uid (and its files
// need no new owner). Called with p.mu held.
func (p *uidPool) take(root string) (*uidLease, error) {
	if err := ensureLockDir(p.lockDir); err != nil {
		return nil, fmt.Errorf("sandbox uid for %s: %w", root, err)
	}
	ours := map[int]bool{}
	for _, l := range p.leases {
		ours[l.uid] = true
	}
	running := processUIDs()
	// byRoot names the uid another Sift process holds for root, if any:
	// the two then share it.
	byRoot := uidByRootPath(p.lockDir, root)
	if data, err := os.ReadFile(byRoot); err == nil {
		if uid, err := strconv.Atoi(string(data)); err == nil && uid >= p.rng.First && uid < p.rng.First+p.rng.Count && !ours[uid] {
			if l, err := p.tryUID(uid, root, running); err == nil && l != nil {
				return l, nil
			}
		}
	}
	h := fnv.New64a()
	io.WriteString(h, root)
	start := int(h.Sum64() % uint64(p.rng.Count))
	for i := 0; i < p.rng.Count; i++ {
		uid := p.rng.First + (start+i)%p.rng.Count
		if ours[uid] {
			continue
		}
		l, err := p.tryUID(uid, root, running)
		if err != nil {
			return nil, err
		}
		if l != nil {
			if l.lock != nil {
				l.byRoot = byRoot
				_ = os.WriteFile(byRoot, []byte(strconv.Itoa(uid)), 0o600)
			}
			return l, nil
		}
	}
	return nil, fmt.Errorf("%w: all %d uids of %d-%d are in use by live sessions; end some sessions or widen the range with %s",
		ErrNoSandboxUID, p.rng.Count, p.rng.First, p.rng.First+p.rng.Count-1, SandboxUIDsEnv)
}

// uidByRootPath is the file in dir naming the uid root was given last.
func uidByRootPath(dir, root string) string {
	h := fnv.New64a()
	io.WriteString(h, root)
	return filepath.Join(dir, fmt.Sprintf("root-%016x", h.Sum64()))
}

// tryUID takes uid for root when it is free (see uidPool), or shares it
// when another Sift process holds it for root; nil when it is not to be
// had.
func (p *uidPool) tryUID(uid int, root string, running map[int]bool) (*uidLease, error) {
	path := filepath.Join(p.lockDir, strconv.Itoa(uid))
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sandbox uid lock %s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		// Another Sift process holds it: share it only when it is for
		// this same workspace.
		data, _ := io.ReadAll(io.LimitReader(f, 4096))
		f.Close()
		if string(data) == root {
			return &uidLease{uid: uid}, nil
		}
		return nil, nil
	}
	if running[uid] {
		f.Close() // a process of an earlier holder still runs as it
		return nil, nil
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(root), 0)
	}
	return &uidLease{uid: uid, lock: f}, nil
}

// ensureLockDir makes dir, a directory only root may enter, refusing a
// symlink or one someone else owns.
func ensureLockDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Geteuid() || fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("lock directory %s is not a directory of uid %d that only it can write: remove it", dir, os.Geteuid())
	}
	return nil
}

// processUIDs returns the uids processes on this machine (as far as this
// pid namespace sees) run as: the owner of /proc/PID is the process's
// effective uid.
func processUIDs() map[int]bool {
	out := map[int]bool{}
	d, err := os.Open("/proc")
	if err != nil {
		return out
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		var st unix.Stat_t
		if unix.Lstat("/proc/"+n, &st) == nil {
			out[int(st.Uid)] = true
		}
	}
	return out
}
