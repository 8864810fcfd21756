package operator

import (
	"strings"
	"testing"
)

// The resource side of the hostile suite: code in a session's kernel tries
// to use more than the session may (memory summed over processes, process
// count, disk), to leave processes behind between cells, and to escape its
// limits through a user namespace of its own.

// newHostileKernel returns a kernel in the bubblewrap sandbox with the
// given limits, skipping without Python or bubblewrap (CI installs both).
func newHostileKernel(t *testing.T, limits Limits) *Kernel {
	t.Helper()
	sb := needBwrap(t, limits)
	return newKernel(t, func(c *KernelConfig) { c.Sandbox = sb })
}

// TestHostileUserNamespace: code can make no user namespace of its own, so
// it can neither become root in one nor mount a tmpfs that no limit counts.
func TestHostileUserNamespace(t *testing.T) {
	k := newHostileKernel(t, hostileLimits)
	res := run(t, k, `import ctypes, subprocess
r = subprocess.run(['unshare', '-Urm', 'sh', '-c', 'mount -t tmpfs -o size=1g none /tmp && echo MOUNTED'],
                   capture_output=True, text=True)
print('unshare -Urm:', r.returncode, r.stdout.strip(), r.stderr.strip())
libc = ctypes.CDLL(None, use_errno=True)
print('unshare(CLONE_NEWUSER):', libc.unshare(0x10000000), ctypes.get_errno())
`, RunOptions{})
	if !res.OK() {
		t.Fatalf("cell failed: %s", res.Error)
	}
	t.Logf("cell printed: %s", res.Stdout)
	if strings.Contains(res.Stdout, "MOUNTED") || strings.Contains(res.Stdout, "unshare -Urm: 0 ") {
		t.Errorf("the cell created a user namespace and mounted a tmpfs in it: %s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "unshare(CLONE_NEWUSER): -1 ") {
		t.Errorf("unshare(CLONE_NEWUSER) succeeded: %s", res.Stdout)
	}
}
