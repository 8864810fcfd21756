package confined

import (
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// syncs counts the fsync calls made through this package.
var syncs atomic.Int64

// Syncs returns how many times files and directories were flushed to disk
// through this package (SyncFile, SyncDir, WriteFile with Sync or
// SyncData) since the process started: what a benchmark counts.
func Syncs() int64 { return syncs.Load() }

// SyncFile flushes f to disk (fsync), counted in Syncs.
func SyncFile(f *os.File) error {
	syncs.Add(1)
	return f.Sync()
}

// SyncDir flushes the directory at path to disk, so a rename or a new name
// in it survives a power loss. Some filesystems cannot sync directories;
// that costs only durability, so errors are ignored.
func SyncDir(path string) {
	d, err := os.Open(path)
	if err != nil {
		return
	}
	_ = SyncFile(d)
	_ = d.Close()
}

// syncFD flushes the open file or directory fd, counted in Syncs.
func syncFD(fd int) error {
	syncs.Add(1)
	return unix.Fsync(fd)
}
