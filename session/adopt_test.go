package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// freshSlot makes a directory laid out as a fresh workspace, as a kernel
// pool's slot is.
func freshSlot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	slot := filepath.Join(dir, "slot")
	for _, d := range []string{InputDir, WorkDir, OutDir} {
		if err := os.MkdirAll(filepath.Join(slot, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return slot
}

func TestAdoptMakesTheSlotTheSessionsWorkspace(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	slot := freshSlot(t)
	ws, err := Adopt(ctx, root, "s1", slot)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Root != slot {
		t.Errorf("Root = %s; want the slot %s, where the kernel sees the files", ws.Root, slot)
	}
	if _, err := Adopt(ctx, root, "s1", freshSlot(t)); !errors.Is(err, ErrWorkspaceExists) {
		t.Errorf("second Adopt of s1 = %v; want ErrWorkspaceExists", err)
	}
	if _, err := Create(ctx, root, "s1"); !errors.Is(err, ErrWorkspaceExists) {
		t.Errorf("Create of an adopted id = %v; want ErrWorkspaceExists", err)
	}
	if err := b.Sessions.Put(ctx, Meta{ID: "s1", Question: "q", Status: StatusDone}); err != nil {
		t.Fatal(err)
	}
	again, err := Open(root, "s1")
	if err != nil || again.Root != slot {
		t.Fatalf("Open(s1) = %+v, %v; want the slot", again, err)
	}
	list, err := b.Sessions.List(ctx, Filter{})
	if err != nil || len(list) != 1 || list[0].ID != "s1" {
		t.Fatalf("List = %+v, %v; want the adopted session", list, err)
	}
	// A used workspace is never adopted again.
	if _, err := Adopt(ctx, root, "s2", slot); err == nil {
		t.Error("a workspace holding a session was adopted by another")
	}
	if err := b.Sessions.Delete(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "s1"), slot} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there after Delete: %v", p, err)
		}
	}
}

func TestAdoptRefusesWhatIsNotAFreshWorkspace(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	bare := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	slot := freshSlot(t)
	if err := os.Symlink(slot, link); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{"relative": "slot", "no input/": bare, "through a link": link} {
		if _, err := Adopt(ctx, root, "s-"+filepath.Base(dir), dir); err == nil {
			t.Errorf("%s: Adopt(%s) succeeded", name, dir)
		}
	}
}

func TestRemoveWorkspaceRemovesAPlainOne(t *testing.T) {
	ws := newTestWorkspace(t)
	if err := RemoveWorkspace(ws.Root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(ws.Root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("workspace still there: %v", err)
	}
}
