package confined

import (
	"os"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// syncs counts the fsync calls made through this package.
var syncs atomic.Int64

// Syncs returns how many times files and directories were flushed to disk
// through this package (SyncFile, SyncDir, WriteFile with Sync or
// SyncData, and the flushes SyncLater puts off) since the process
// started: what a benchmark counts.
func Syncs() int64 { return syncs.Load() }

// SyncFile flushes f to disk (fsync), counted in Syncs. It first waits for
// the flushes SyncLater put off (see Settle).
func SyncFile(f *os.File) error {
	Settle()
	syncs.Add(1)
	return f.Sync()
}

// SyncDir flushes the directory at path to disk, so a rename or a new name
// in it survives a power loss. Some filesystems cannot sync directories;
// that costs only durability, so errors are ignored. It first waits for
// the flushes SyncLater put off (see Settle).
func SyncDir(path string) {
	d, err := os.Open(path)
	if err != nil {
		return
	}
	_ = SyncFile(d)
	_ = d.Close()
}

// syncFD flushes the open file or directory fd, counted in Syncs, after
// the flushes SyncLater put off.
func syncFD(fd int) error {
	Settle()
	syncs.Add(1)
	return unix.Fsync(fd)
}

// SyncLater flushes the files and directories at paths to disk in the
// background instead of before returning: for writes a run makes before
// its first model request (a session's first record, its input copies),
// whose flush need not hold the request back. Every later flush through
// this package (SyncFile, SyncDir, a synced WriteFile) waits for them
// first, so a write its caller made durable is never on disk without the
// put-off writes that came before it. A path that no longer exists when
// its turn comes is skipped: whatever replaced it was flushed by its own
// writer, or is owed too.
func SyncLater(paths ...string) {
	owed.mu.Lock()
	defer owed.mu.Unlock()
	owed.paths = append(owed.paths, paths...)
	if owed.done == nil {
		owed.done = make(chan struct{})
		go flushOwed()
	}
}

// Settle waits until every flush SyncLater put off is done.
func Settle() {
	owed.mu.Lock()
	done := owed.done
	owed.mu.Unlock()
	if done != nil {
		<-done
	}
}

// owed are the flushes SyncLater put off: paths not yet taken, and done,
// closed (and cleared) once the background flusher has none left; nil
// when it is not running.
var owed struct {
	mu    sync.Mutex
	paths []string
	done  chan struct{}
}

// flushHook, when set (by tests), runs before each put-off flush.
var flushHook func(path string)

// flushOwed flushes the owed paths in order until none is left.
func flushOwed() {
	for {
		owed.mu.Lock()
		paths := owed.paths
		owed.paths = nil
		if len(paths) == 0 {
			close(owed.done)
			owed.done = nil
			owed.mu.Unlock()
			return
		}
		owed.mu.Unlock()
		for _, p := range paths {
			if flushHook != nil {
				flushHook(p)
			}
			f, err := os.Open(p)
			if err != nil {
				continue
			}
			syncs.Add(1)
			_ = f.Sync()
			_ = f.Close()
		}
	}
}
