package sandbox

import (
	"os"
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

// TestDiskQuotaDiedBeforeTheFilesWereOn: a holder that died while the
// workspace's files were being copied onto a new image left that image
// mounted, half full; neither the next hold nor a sweep takes it for the
// session's disk: the files in work/ are what the session sees.
func TestDiskQuotaDiedBeforeTheFilesWereOn(t *testing.T) {
	needQuota(t)
	h := hostQuota()
	for _, via := range []string{"hold", "sweep"} {
		t.Run(via, func(t *testing.T) {
			root, _ := newWorkspace(t)
			if err := os.WriteFile(filepath.Join(root, "work", "kept.txt"), []byte("kept"), 0o644); err != nil {
				t.Fatal(err)
			}
			b := newDiskBudget(root, quotaLimits)
			mnt := filepath.Join(root, quotaDirName)
			if err := os.Mkdir(mnt, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := makeImage(h, filepath.Join(root, quotaNewImage), b); err != nil {
				t.Fatal(err)
			}
			if err := mountImage(h, filepath.Join(root, quotaNewImage), mnt); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(mnt, "work"), 0o755); err != nil {
				t.Fatal(err)
			}
			reg := &quotaRegistry{host: hostQuota, held: map[string]*quotaMount{}}
			if via == "sweep" {
				reg.swept = true
				sweepStaleQuotas(h)
			} else {
				release, note, err := reg.hold(root, b)
				if err != nil || note != "" {
					t.Fatal(err, note)
				}
				if data, err := os.ReadFile(filepath.Join(root, "work", "kept.txt")); err != nil || string(data) != "kept" {
					t.Errorf("held, work/kept.txt reads %q, %v", data, err)
				}
				release()
			}
			if data, err := os.ReadFile(filepath.Join(root, "work", "kept.txt")); err != nil || string(data) != "kept" {
				t.Errorf("work/kept.txt reads %q, %v: the half-made image was taken for the session's disk", data, err)
			}
			if m := MountedUnder(root); len(m) > 0 {
				t.Errorf("still mounted: %v", m)
			}
			if _, err := os.Lstat(filepath.Join(root, quotaNewImage)); err == nil {
				t.Errorf("the half-made image was left")
			}
		})
	}
}
