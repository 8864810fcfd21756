package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// needPython skips the test unless /usr/bin/python3 runs, and returns its
// path. The sandbox's own tests run plain Python; the analysis packages
// are the operator's tests' business.
func needPython(t testing.TB) string {
	t.Helper()
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "pass").Run(); err != nil {
		t.Skipf("skipping: %s does not run here (%v)", py, err)
	}
	return py
}

// newWorkspace makes a session workspace (input/ with a small CSV, work/,
// out/) and a directory outside it holding secret.txt, and returns the
// symlink-free root and that directory.
func newWorkspace(t *testing.T) (root, outside string) {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(parent, "ws")
	outside = filepath.Join(parent, "outside")
	for _, d := range []string{filepath.Join(root, InputDir), filepath.Join(root, WorkDir), filepath.Join(root, OutDir), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{
		filepath.Join(root, InputDir, "sales.csv"): "region,amount\nnorth,10\nsouth,20\n",
		filepath.Join(outside, "secret.txt"):       "secret",
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

// needSessionGroups skips the test where no control group can be made.
func needSessionGroups(t *testing.T) {
	t.Helper()
	if p := SessionGroupsProblem(); p != "" {
		t.Skipf("skipping: no session control groups here: %s", p)
	}
}

// needQuota skips where no session disk can be mounted (not root, no loop
// device). CI runs as root, where this never skips.
func needQuota(t *testing.T) {
	t.Helper()
	if p := QuotaProblem(); p != "" {
		t.Skipf("skipping: the disk quota cannot be enforced here: %s", p)
	}
}

// quotaLimits is a small session: a 32 MiB disk of 2,000 files.
var quotaLimits = Limits{MemoryBytes: 1 << 30, Processes: 64, FileSizeBytes: 64 << 20, CPUSeconds: 60, DiskBytes: 32 << 20, DiskFiles: 2000}
