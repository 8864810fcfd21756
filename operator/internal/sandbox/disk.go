package sandbox

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The disk budget of a session: what its writable directories (work/ and
// out/) may hold in all, bytes on disk and files (directories and links
// count as files). Where Sift can, work/ and out/ live on a file system of
// the budget's size (see quota.go), which refuses the writes past
// it; the accounting here then names what used it, and counts the files.
// Elsewhere it is enforced by accounting alone: the workspace is measured before
// each cell and every diskPollMin..diskPollMax while it runs (more often
// than the walk takes, by far), and a cell that takes the workspace past
// the budget is interrupted (the kernel and its variables are kept) and
// told what used it. No single file can pass the budget: the sandbox caps
// every file at it (RLIMIT_FSIZE). A cell that starts over budget still
// runs, so that it can delete files; it is stopped as soon as it writes
// more.
const (
	// DefaultDiskBytes is the default byte budget: 4 GiB.
	DefaultDiskBytes = 4 << 30
	// DefaultDiskFiles is the default file budget: 100,000.
	DefaultDiskFiles = 100_000
	// SandboxDiskEnv sets the byte budget, e.g. "10GiB", or "unlimited".
	SandboxDiskEnv = "SIFT_SANDBOX_DISK"
	// SandboxFilesEnv sets the file budget, e.g. "200000", or "unlimited".
	SandboxFilesEnv = "SIFT_SANDBOX_FILES"

	// diskSlackBytes and diskSlackFiles are what a cell may add to a
	// workspace already over its budget: its capture files and a little
	// more.
	diskSlackBytes = 1 << 20
	diskSlackFiles = 16

	diskPollMin = 100 * time.Millisecond
	diskPollMax = 2 * time.Second
	// diskTop is how many of the largest directories and files a budget
	// error names.
	diskTop = 5
	// maxDiskWalkDepth bounds the walk's recursion (and open descriptors):
	// what lies deeper than this many directories is not counted.
	maxDiskWalkDepth = 1000
)

// DiskUsage is what a workspace's writable directories hold.
type DiskUsage struct {
	bytes int64
	files int64
	// dirs sums the usage under each directory two levels down (work/x/);
	// top are the largest files.
	dirs map[string]*diskEntry
	top  []diskEntry
	// cut: the walk stopped early (far past the file budget).
	cut bool
	// linked are the files of several names met so far (device, inode):
	// their blocks count once, as the file system counts them.
	linked map[[2]uint64]bool
}

type diskEntry struct {
	path  string
	bytes int64
	files int64
}

// DiskBudget is a workspace's budget; nil or zero fields mean no limit.
type DiskBudget struct {
	root  string
	bytes int64
	files int64
	// enforced: the bytes are enforced by the file system work/ and out/
	// live on (see quota.go), so a write past them fails there
	// and no cell is interrupted for them.
	enforced bool
}

// newDiskBudget returns the budget l sets for root, or nil when it sets
// none.
func newDiskBudget(root string, l Limits) *DiskBudget {
	l = l.Tighter(Limits{})
	if l.DiskBytes <= 0 && l.DiskFiles <= 0 {
		return nil
	}
	return &DiskBudget{root: root, bytes: l.DiskBytes, files: int64(l.DiskFiles)}
}

// Over reports whether u passes the budget.
func (b *DiskBudget) Over(u DiskUsage) bool {
	return b != nil && (b.bytes > 0 && u.bytes > b.bytes || b.files > 0 && u.files > b.files)
}

// Grew reports whether after is over the budget and holds more than
// before, beyond a little slack for the cell's own capture files (so a
// cell that only deletes, or reads and prints a little, is never stopped).
func (b *DiskBudget) Grew(before, after DiskUsage) bool {
	if b.enforced {
		return b.files > 0 && after.files > b.files && after.files > before.files+diskSlackFiles
	}
	return b.Over(after) && (after.bytes > before.bytes+diskSlackBytes || after.files > before.files+diskSlackFiles)
}

// Measure walks work/ and out/ of the workspace. It works through
// directory descriptors and never follows a link, so code that swaps a
// directory for a link to a host directory cannot make Sift count (or name)
// what lies there.
func (b *DiskBudget) Measure() DiskUsage {
	u := DiskUsage{dirs: map[string]*diskEntry{}}
	fd, err := unix.Open(b.root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return u
	}
	defer unix.Close(fd)
	limit := int64(-1)
	if b.files > 0 {
		limit = 2*b.files + 1000
	}
	for _, dir := range []string{WorkDir, OutDir} {
		u.walk(fd, dir, dir, 0, limit)
	}
	return u
}

// walk adds name (relative to dirfd; rel in the workspace) and what lies
// below it.
func (u *DiskUsage) walk(dirfd int, name, rel string, depth int, limit int64) {
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return
	}
	size := st.Blocks * 512
	if st.Mode&unix.S_IFMT != unix.S_IFDIR && st.Nlink > 1 {
		key := [2]uint64{st.Dev, st.Ino}
		if u.linked[key] {
			size = 0 // another name of a file already counted
		} else {
			if u.linked == nil {
				u.linked = map[[2]uint64]bool{}
			}
			u.linked[key] = true
		}
	}
	u.add(rel, size)
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || depth >= maxDiskWalkDepth {
		if st.Mode&unix.S_IFMT == unix.S_IFREG {
			u.noteFile(rel, size)
		}
		return
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	d := os.NewFile(uintptr(fd), rel)
	defer d.Close()
	for {
		names, err := d.Readdirnames(1024)
		for _, n := range names {
			if limit >= 0 && u.files > limit {
				u.cut = true
				return
			}
			u.walk(fd, n, rel+"/"+n, depth+1, limit)
		}
		if err != nil || len(names) == 0 {
			return
		}
	}
}

// add counts one file of size bytes at rel, in its directory two levels
// down.
func (u *DiskUsage) add(rel string, size int64) {
	u.bytes += size
	u.files++
	parts := strings.SplitN(rel, "/", 3)
	if len(parts) < 3 {
		return // work/ or out/ itself, or a file right in it
	}
	key := parts[0] + "/" + parts[1] + "/"
	e := u.dirs[key]
	if e == nil {
		e = &diskEntry{path: key}
		u.dirs[key] = e
	}
	e.bytes += size
	e.files++
}

// noteFile keeps rel among the largest files.
func (u *DiskUsage) noteFile(rel string, size int64) {
	if len(u.top) == diskTop && size <= u.top[diskTop-1].bytes {
		return
	}
	u.top = append(u.top, diskEntry{path: rel, bytes: size, files: 1})
	sort.Slice(u.top, func(i, j int) bool { return u.top[i].bytes > u.top[j].bytes })
	if len(u.top) > diskTop {
		u.top = u.top[:diskTop]
	}
}

// UsageLine says how much of the budget u uses: "4.1 GiB of 4.0 GiB,
// 1200 files of 100000 in work/ and out/".
func (b *DiskBudget) UsageLine(u DiskUsage) string {
	var what []string
	if b.bytes > 0 {
		what = append(what, fmt.Sprintf("%s of %s", formatBytes(u.bytes), formatBytes(b.bytes)))
	}
	if b.files > 0 {
		n := fmt.Sprintf("%d", u.files)
		if u.cut {
			n = "more than " + n
		}
		what = append(what, fmt.Sprintf("%s files of %d", n, b.files))
	}
	return strings.Join(what, ", ") + " in work/ and out/"
}

// Message says, for the model and the person, that the budget is used up,
// what the budget is and what used it, and what to do; interrupted says
// the cell was stopped for it (otherwise it ended on its own).
func (b *DiskBudget) Message(u DiskUsage, interrupted bool) string {
	var sb strings.Builder
	if interrupted {
		sb.WriteString("stopped: this cell went past the session's disk budget (" + b.UsageLine(u) + "), so it was interrupted; what it wrote so far is kept.")
	} else {
		sb.WriteString("this cell went past the session's disk budget (" + b.UsageLine(u) + "); what it wrote is kept, but a cell that writes more is stopped.")
	}
	dirs := make([]diskEntry, 0, len(u.dirs))
	for _, e := range u.dirs {
		dirs = append(dirs, *e)
	}
	overFiles := b.files > 0 && u.files > b.files
	sort.Slice(dirs, func(i, j int) bool {
		if overFiles && dirs[i].files != dirs[j].files {
			return dirs[i].files > dirs[j].files
		}
		if dirs[i].bytes != dirs[j].bytes {
			return dirs[i].bytes > dirs[j].bytes
		}
		return dirs[i].path < dirs[j].path
	})
	if len(dirs) > diskTop {
		dirs = dirs[:diskTop]
	}
	if len(dirs) > 0 {
		sb.WriteString(" Largest directories:")
		for i, e := range dirs {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&sb, "%s %s %s in %d files", sep, e.path, formatBytes(e.bytes), e.files)
		}
		sb.WriteString(".")
	}
	if len(u.top) > 0 {
		sb.WriteString(" Largest files:")
		for i, e := range u.top {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&sb, "%s %s %s", sep, e.path, formatBytes(e.bytes))
		}
		sb.WriteString(".")
	}
	sb.WriteString(" Delete what is not needed (os.remove, shutil.rmtree in work/) and write less (aggregate, sample, or write fewer, larger files). " +
		"Whoever runs Sift can raise the budget with " + SandboxDiskEnv + " and " + SandboxFilesEnv + ".")
	return sb.String()
}

// FullMessage says that the session's file system, the budget's size, is
// full: writes past it failed ("No space left on device"), what used it,
// and what to do.
func (b *DiskBudget) FullMessage(u DiskUsage) string {
	m := b.Message(u, false)
	_, rest, _ := strings.Cut(m, "; what it wrote is kept, but a cell that writes more is stopped.")
	return "the session's disk budget is used up (" + b.UsageLine(u) + "): work/ and out/ live on a file system of the budget's size, " +
		"so writes past it fail with 'No space left on device' (errno 28, ENOSPC); what was written before is kept." + rest
}

// formatBytes renders n as "1.5 GiB", "12 MiB", "300 KiB" or "17 B".
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// watch measures the workspace until stop is closed, and sends the usage
// once on the returned channel when it has grown past the budget since
// before. The pause between walks is 20 times the last walk's duration,
// within diskPollMin..diskPollMax, so a large workspace is not walked
// without pause.
func (b *DiskBudget) watch(before DiskUsage, stop <-chan struct{}) <-chan DiskUsage {
	out := make(chan DiskUsage, 1)
	if b == nil {
		return out
	}
	go func() {
		pause := diskPollMin
		t := time.NewTimer(pause)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			start := time.Now()
			u := b.Measure()
			if b.Grew(before, u) {
				out <- u
				return
			}
			pause = min(max(20*time.Since(start), diskPollMin), diskPollMax)
			t.Reset(pause)
		}
	}()
	return out
}

// WatchDisk measures the session's disk use before code runs and watches it
// while the code runs: over delivers the usage once the budget is passed,
// and stop ends the watch. Without a budget nothing is measured and over
// never delivers.
func WatchDisk(sb Sandbox, root string, l Limits) (budget *DiskBudget, before DiskUsage, over <-chan DiskUsage, stop func()) {
	budget = diskBudgetOf(sb, root, l)
	if budget == nil {
		return nil, DiskUsage{}, nil, func() {}
	}
	before = budget.Measure()
	done := make(chan struct{})
	return budget, before, budget.watch(before, done), func() { close(done) }
}

// diskBudgetOf returns the budget for root under sb with the caller's
// limits.
func diskBudgetOf(sb Sandbox, root string, l Limits) *DiskBudget {
	if ls, ok := sb.(limitedSandbox); ok {
		l = ls.configuredLimits().Tighter(l)
	}
	b := newDiskBudget(root, l)
	if b != nil && b.bytes > 0 && diskQuotas.mounted(root) {
		b.enforced = true
	}
	return b
}
