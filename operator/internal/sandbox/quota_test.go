package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// TestSweepLeavesALiveHoldersNewImage: a sweep (any Sift process starting)
// that finds a noted workspace with no session disk image yet leaves it
// alone while a live holder holds its lock: that holder is making the
// disk, and its new image, not yet renamed, is not one a dead holder left.
// Once no one holds the lock, the half-made image is a dead holder's and
// goes, with the note and the lock file. Without the lock, the sweep
// removed the live holder's image, and its hold failed at the rename.
func TestSweepLeavesALiveHoldersNewImage(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root, _ := newWorkspace(t)
	newImg := filepath.Join(root, quotaNewImage)
	noteDisk(root)
	lock, err := lockDisk(root, 0)
	if err != nil || lock == nil {
		t.Fatalf("lock the workspace's disk: %v", err)
	}
	if err := os.WriteFile(newImg, []byte("being made"), 0o600); err != nil {
		t.Fatal(err)
	}
	sweepStaleQuotas(&quotaHost{})
	if _, err := os.Lstat(newImg); err != nil {
		t.Errorf("the sweep removed the new image a live holder is making: %v", err)
	}
	if !slices.Contains(notedDisks(), root) {
		t.Errorf("the sweep forgot the workspace a live holder is putting on its disk")
	}
	lock.Close()
	sweepStaleQuotas(&quotaHost{})
	if _, err := os.Lstat(newImg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a dead holder's half-made image was left: %v", err)
	}
	if slices.Contains(notedDisks(), root) {
		t.Errorf("the settled workspace is still noted")
	}
	if _, err := os.Lstat(filepath.Join(root, quotaLockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the sweep left its lock file in the workspace: %v", err)
	}
}
