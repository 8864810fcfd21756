package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
)

// What the kernel and the process runner ask of a sandbox beyond starting
// programs: the per-session resources (control group, uid, disk) held
// while a session's programs run, and the clean-up after each program.
// These are the package's seam; everything else stays inside it.

// HoldDisk mounts the session's disk of its budget's size at root's work/
// and out/ (see quota.go) where Sift can, until release; note says
// why it is only counted when it cannot be mounted. Without a byte budget
// it holds nothing.
func HoldDisk(sb Sandbox, root string, l Limits) (release func(), note string, err error) {
	return diskQuotas.hold(root, diskBudgetOf(sb, root, l))
}

// DiskFull reports whether root's session disk is mounted and full for the
// session's code.
func DiskFull(root string) bool {
	return diskQuotas.mounted(root) && quotaFull(root)
}

// Finished tells the sandbox that cmd (built by a Sandbox's Command) has
// ended: whatever it left in the session's control group is killed.
func Finished(cmd *exec.Cmd) { sessionCgroups.finished(cmd) }

// EndStrays stops every process in cmd's control group but the program
// and the sandbox around it, and returns how many there were; 0 when sb
// keeps no groups here. keep caches the processes to spare between calls
// for the same cmd (nil at first).
func EndStrays(sb Sandbox, cmd *exec.Cmd, keep *[]int) int {
	f, ok := sb.(programFinder)
	if !ok || sessionCgroups.groupOf(cmd) == nil {
		return 0
	}
	if *keep == nil {
		pid, err := f.programPid(cmd)
		if err != nil {
			return 0
		}
		*keep = programChain(cmd, pid)
	}
	return endStrays(cmd, *keep)
}

// ConfiguredLimits returns the limits sb applies to every program beside
// each ProcSpec's; zero when it applies none of its own.
func ConfiguredLimits(sb Sandbox) Limits {
	if ls, ok := sb.(limitedSandbox); ok {
		return ls.configuredLimits()
	}
	return Limits{}
}

// ErrDiskHeld: a live process holds the workspace's session disk.
var ErrDiskHeld = errors.New("a live process holds the workspace's disk")

// dropDiskWait is how long DropDisk waits for the disk's lock.
const dropDiskWait = quotaLockWait

// DropDisk takes down root's session disk before root is removed: what a
// holder that died left mounted on work/, out/ and the image's mount point
// is unmounted (the image itself goes with root), as a hold does with a
// dead holder's mounts. It waits, as a hold does, while another process
// holds the disk's lock: any Sift process starting sweeps every dead
// holder's mounts on the host, and holds the lock for as long as it
// copies the files back. It fails with ErrDiskHeld, touching nothing,
// when a live process (this one included) still holds the disk then.
func DropDisk(root string) error {
	lock, err := lockDisk(root, dropDiskWait)
	if err != nil {
		return err
	}
	if lock == nil {
		return fmt.Errorf("drop the disk of %s: %w", root, ErrDiskHeld)
	}
	defer lock.Close()
	if err := unmountAll(root); err != nil {
		return fmt.Errorf("drop the disk of %s: %w", root, err)
	}
	forgetDisk(root)
	return nil
}
