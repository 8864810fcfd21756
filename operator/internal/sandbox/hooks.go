package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Hooks for the tests of package operator, which drive this package's
// limits through real kernels and cells. Nothing else calls them.

// The session disk's files at the workspace root (see quota.go).
const (
	QuotaDirName   = quotaDirName
	QuotaImageName = quotaImageName
	QuotaLockName  = quotaLockName
)

// NobodyUID is the uid a bwrap sandbox gives programs when Sift does not
// run as root (nobody, inside the sandbox's user namespace).
const NobodyUID = sandboxUID

// SessionGroupsProblem says why no session control group can be made here;
// "" when one can.
func SessionGroupsProblem() string {
	if h := hostCgroups(); len(h.dirs) == 0 {
		return h.problem + " (no control group hierarchy)"
	}
	return ""
}

// GroupPids returns the group directories of cmd (started through a
// Sandbox's Command) with the processes each holds.
func GroupPids(cmd *exec.Cmd) map[string][]int {
	out := map[string][]int{}
	for _, dir := range sessionCgroups.groupOf(cmd) {
		out[dir] = groupPids(dir)
	}
	return out
}

// ProcessState is the state letter of pid in /proc ('Z' a zombie), 0 when
// it is gone.
func ProcessState(pid int) byte { return processState(pid) }

// quotaProbe mounts a small image once per process: a container can be
// root with /dev/loop-control and still not be allowed to mount.
var quotaProbe = sync.OnceValue(func() string {
	h := hostQuota()
	if h.problem != "" {
		return h.problem
	}
	dir, err := os.MkdirTemp("", "sift-quota-probe-")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(dir)
	img, mnt := filepath.Join(dir, "probe.img"), filepath.Join(dir, "m")
	if err := os.Mkdir(mnt, 0o700); err != nil {
		return err.Error()
	}
	if err := makeImage(h, img, &DiskBudget{bytes: 16 << 20, files: 100}); err != nil {
		return "root with loop devices, but no file system can be made here: " + err.Error()
	}
	if err := mountImage(h, img, mnt); err != nil {
		return "root with loop devices, but no file system can be mounted here: " + err.Error()
	}
	if err := unmountPoint(mnt); err != nil {
		return err.Error()
	}
	return ""
})

// QuotaProblem says why no session disk can be mounted here (not root, no
// loop device, mounting refused); "" when one can.
func QuotaProblem() string { return quotaProbe() }

// MountedUnder lists the mount points at or beneath root.
func MountedUnder(root string) []string {
	var out []string
	for p := range mountPoints() {
		if p == root || strings.HasPrefix(p, root+"/") {
			out = append(out, p)
		}
	}
	return out
}

// DiskUsed returns what root's work/ and out/ take on disk, and how it
// reads (e.g. "5.0 MiB").
func DiskUsed(root string) (bytes int64, text string) {
	u := newDiskBudget(root, Limits{DiskBytes: 1}).Measure()
	return u.bytes, formatBytes(u.bytes)
}

// FreshDisks gives this process a new registry of session disks, as a
// freshly started Sift has (it sweeps dead holders' disks at its first
// hold), until restore.
func FreshDisks() (restore func()) {
	saved := diskQuotas
	diskQuotas = &quotaRegistry{host: hostQuota, held: map[string]*quotaMount{}}
	return func() { diskQuotas = saved }
}

// FakeDiskHost makes the session disks, until restore, behave as on a host
// where mkfs and mount are those programs ("" when missing), problem says
// why no disk can be mounted ("" when one can) and required says
// SIFT_SANDBOX_QUOTA=on.
func FakeDiskHost(mkfs, mount, problem string, required bool) (restore func()) {
	saved := diskQuotas
	h := &quotaHost{mkfs: mkfs, mount: mount, problem: problem, required: required}
	diskQuotas = &quotaRegistry{host: func() *quotaHost { return h }, held: map[string]*quotaMount{}}
	return func() { diskQuotas = saved }
}

// Without turns off, until restore, the fallocate filter, the session
// control groups and the session disks (each one asked for), for the
// benchmark that measures what each costs.
func Without(filter, groups, disks bool) (restore func()) {
	saved := struct {
		filter func() string
		groups func() *cgroupHost
		quotas *quotaRegistry
	}{SeccompEnv, hostCgroups, diskQuotas}
	if filter {
		SeccompEnv = func() string { return "" }
	}
	if groups {
		noGroups := &cgroupHost{problem: "off for the benchmark"}
		hostCgroups = func() *cgroupHost { return noGroups }
	}
	if disks {
		diskQuotas = &quotaRegistry{host: func() *quotaHost { return &quotaHost{problem: QuotaEnv + "=off"} }, held: map[string]*quotaMount{}}
	}
	return func() { SeccompEnv, hostCgroups, diskQuotas = saved.filter, saved.groups, saved.quotas }
}

// ForgetProbes forgets the bubblewrap probes this process ran, as a new
// process would.
func ForgetProbes() { bwrapProbes.Clear() }
