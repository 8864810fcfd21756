package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// freshSlot makes a directory of root's kernel pool laid out as a fresh
// workspace, as a kernel pool's slot is: <root>/.kernel-pool/slot-<name>.
func freshSlot(t *testing.T, root, name string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	slot := filepath.Join(real, KernelPoolDir, "slot-"+name)
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
	slot := freshSlot(t, root, "a1")
	ws, err := Adopt(ctx, root, "s1", slot)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Root != slot {
		t.Errorf("Root = %s; want the slot %s, where the kernel sees the files", ws.Root, slot)
	}
	if _, err := Adopt(ctx, root, "s1", freshSlot(t, root, "b2")); !errors.Is(err, ErrWorkspaceExists) {
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

func TestAdoptRefusesWhatIsNotAFreshPoolSlot(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	bare := filepath.Join(root, KernelPoolDir, "slot-00")
	if err := os.MkdirAll(bare, 0o700); err != nil {
		t.Fatal(err)
	}
	elsewhere := freshSlot(t, t.TempDir(), "aa")
	link := filepath.Join(root, KernelPoolDir, "slot-ee")
	if err := os.Symlink(freshSlot(t, root, "ff"), link); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(root, KernelPoolDir, "notaslot")
	for _, d := range []string{InputDir, WorkDir, OutDir} {
		if err := os.MkdirAll(filepath.Join(named, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, dir := range map[string]string{
		"relative":                 "slot-ab",
		"no input/":                bare,
		"another root's pool":      elsewhere,
		"a link in the pool":       link,
		"not named slot-<hex>":     named,
		"not clean":                filepath.Dir(link) + "/x/../slot-ff",
		"beneath a slot":           filepath.Join(freshSlot(t, root, "cc"), WorkDir),
		"a plain temp directory":   t.TempDir(),
		"the sessions root itself": root,
	} {
		if _, err := Adopt(ctx, root, "s1", dir); err == nil {
			t.Errorf("%s: Adopt(%s) succeeded", name, dir)
			_ = os.Remove(filepath.Join(root, "s1"))
		}
	}
}

// TestHostileWorkspaceLinkIsNeverFollowed: a link at <root>/<id> that
// Adopt did not make (one leading to a host directory, to another
// session, through a linked pool directory or slot, relative, or below a
// slot) is not an adopted workspace: Open refuses it, List leaves it out,
// and removing it (RemoveWorkspace, Delete) removes the link alone, never
// what it leads to. Before, any link was followed: Open opened its target
// and RemoveWorkspace removed it, /etc or another session included.
func TestHostileWorkspaceLinkIsNeverFollowed(t *testing.T) {
	ctx := context.Background()
	type hostile struct {
		target string // what the link at <root>/s1 leads to
		victim string // what must survive
	}
	cases := map[string]func(t *testing.T, root string) hostile{
		"a host directory": func(t *testing.T, root string) hostile {
			host := freshSlot(t, t.TempDir(), "11") // looks like a workspace, even
			return hostile{host, host}
		},
		"another session": func(t *testing.T, root string) hostile {
			other, err := Create(ctx, root, "other")
			if err != nil {
				t.Fatal(err)
			}
			return hostile{other.Root, other.Root}
		},
		"a linked pool directory": func(t *testing.T, root string) hostile {
			real, _ := filepath.EvalSymlinks(root)
			host := t.TempDir()
			slot := freshSlot(t, host, "22")
			if err := os.Symlink(filepath.Dir(slot), filepath.Join(real, KernelPoolDir)); err != nil {
				t.Fatal(err)
			}
			return hostile{filepath.Join(real, KernelPoolDir, "slot-22"), slot}
		},
		"a linked slot": func(t *testing.T, root string) hostile {
			real, _ := filepath.EvalSymlinks(root)
			host := freshSlot(t, t.TempDir(), "33")
			freshSlot(t, root, "00") // the pool directory is real
			slot := filepath.Join(real, KernelPoolDir, "slot-33")
			if err := os.Symlink(host, slot); err != nil {
				t.Fatal(err)
			}
			return hostile{slot, host}
		},
		"a relative slot path": func(t *testing.T, root string) hostile {
			slot := freshSlot(t, root, "44")
			return hostile{filepath.Join(KernelPoolDir, "slot-44"), slot}
		},
		"below a slot": func(t *testing.T, root string) hostile {
			slot := freshSlot(t, root, "55")
			work := filepath.Join(slot, WorkDir)
			for _, d := range []string{InputDir, WorkDir, OutDir} {
				if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			return hostile{work, work}
		},
		"a slot path with ..": func(t *testing.T, root string) hostile {
			real, _ := filepath.EvalSymlinks(root)
			slot := freshSlot(t, root, "66")
			return hostile{real + "/" + KernelPoolDir + "/slot-66/../slot-66", slot}
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			b, err := OpenFileBackend(root)
			if err != nil {
				t.Fatal(err)
			}
			h := mk(t, root)
			if err := os.WriteFile(filepath.Join(h.victim, MetaFile), []byte(`{"id":"s1","question":"q","status":"done"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, "s1")
			if err := os.Symlink(h.target, link); err != nil {
				t.Fatal(err)
			}
			if ws, err := Open(root, "s1"); err == nil {
				t.Errorf("Open followed the link to %s: %+v", h.target, ws)
			}
			if list, _ := b.Sessions.List(ctx, Filter{}); len(list) > 0 {
				for _, m := range list {
					if m.ID == "s1" {
						t.Errorf("List shows the linked session: %+v", m)
					}
				}
			}
			_ = b.Sessions.Delete(ctx, "s1")
			if err := RemoveWorkspace(link); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(h.victim, MetaFile)); err != nil {
				t.Errorf("removing the link removed %s: %v", h.victim, err)
			}
			if _, err := os.Stat(filepath.Join(h.victim, InputDir)); err != nil {
				t.Errorf("removing the link removed %s/input: %v", h.victim, err)
			}
		})
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
