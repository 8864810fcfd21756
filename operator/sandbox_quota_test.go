package operator

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuotaWarning: where the quota cannot be enforced, Sift says so and
// why (turned off, or a bad setting); where it can, it says nothing.
func TestQuotaWarning(t *testing.T) {
	for mode, want := range map[string]string{
		"off":   QuotaEnv + "=off",
		"maybe": `is not auto, on or off`,
	} {
		w := quotaWarning(probeQuotaHost(mode))
		if !strings.Contains(w, "counted, not enforced while written") || !strings.Contains(w, want) {
			t.Errorf("%s=%s: warning %q; want it to say the budget is only counted, and %q", QuotaEnv, mode, w, want)
		}
	}
	if w := quotaWarning(&quotaHost{}); w != "" {
		t.Errorf("an enforced quota warns %q", w)
	}
}

// TestQuotaRequiredRefusesToRunWithout: with SIFT_SANDBOX_QUOTA=on, a
// session whose disk cannot be mounted runs nothing, and says why.
func TestQuotaRequiredRefusesToRunWithout(t *testing.T) {
	saved := diskQuotas
	diskQuotas = &quotaRegistry{host: func() *quotaHost {
		return &quotaHost{required: true, problem: "no loop devices here"}
	}, held: map[string]*quotaMount{}}
	defer func() { diskQuotas = saved }()
	l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Limits = Limits{DiskBytes: 32 << 20} })
	_, err := l.RunPython(context.Background(), `print(1)`, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "no loop devices here") || errors.Is(err, ErrClosed) {
		t.Errorf("RunPython = %v; want a refusal naming why the quota cannot be enforced", err)
	}
}

// TestQuotaThatCannotMountIsSaid: when the session's file system cannot be
// mounted, the cell still runs with the budget counted, its result says
// so (once), and nothing of the attempt is left in the workspace.
func TestQuotaThatCannotMountIsSaid(t *testing.T) {
	mkfs, err := exec.LookPath("mkfs.ext4")
	if err != nil {
		t.Skip("skipping: mkfs.ext4 is not installed")
	}
	saved := diskQuotas
	diskQuotas = &quotaRegistry{host: func() *quotaHost { return &quotaHost{mkfs: mkfs, mount: "/bin/false"} }, held: map[string]*quotaMount{}}
	defer func() { diskQuotas = saved }()
	l, _ := newLocal(t, needPython(t), func(c *LocalConfig) { c.Limits = Limits{DiskBytes: 32 << 20} })
	res, err := l.RunPython(context.Background(), `print(1)`, RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("the cell did not run: %v %+v", err, res)
	}
	if !strings.Contains(res.Notice, "only counted for this session, not enforced while written") {
		t.Errorf("the result does not say the budget is only counted: %q", res.Notice)
	}
	res, _ = l.RunPython(context.Background(), `print(2)`, RunOptions{})
	if strings.Contains(res.Notice, "only counted") {
		t.Errorf("said again on the next cell: %q", res.Notice)
	}
	for _, name := range []string{quotaImageName, quotaDirName, quotaLockName} {
		if _, err := os.Lstat(filepath.Join(l.root, name)); err == nil {
			t.Errorf("%s left in the workspace after the failed mount", name)
		}
	}
}
