package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestHandOverDoesNotFollowSymlinks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: handing the workspace over to another user needs root")
	}
	root, outside := newWorkspace(t)
	secret := filepath.Join(outside, "secret.txt")
	for _, p := range []string{"work/a/b", "out"} {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "work/a/b/f.csv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, "work/a/link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out/dirlink")); err != nil {
		t.Fatal(err)
	}
	if err := handOver(root, nil, sandboxUID); err != nil {
		t.Fatal(err)
	}
	owner := func(p string) uint32 {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Uid
	}
	for _, p := range []string{root + "/work", root + "/work/a/b/f.csv", root + "/work/a/link", root + "/out/dirlink"} {
		if got := owner(p); got != sandboxUID {
			t.Errorf("owner of %s = %d; want %d", p, got, sandboxUID)
		}
	}
	for _, p := range []string{root, secret, outside, root + "/input", root + "/input/sales.csv"} {
		if got := owner(p); got != 0 {
			t.Errorf("owner of %s = %d; want it left to root", p, got)
		}
	}
}
