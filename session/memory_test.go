package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sift-agent/sift/memory"
)

// TestMemoryConformance runs the same checks on every backend's memory
// store.
func TestMemoryConformance(t *testing.T) {
	ctx := context.Background()
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	src := memory.Sources{{ID: "a", Name: "sales.csv", Content: "1"}}
	for _, bc := range testBackends(t) {
		t.Run(bc.name, func(t *testing.T) {
			if bc.skip != nil {
				bc.skip(t)
			}
			m := bc.open(t).Memory
			if m == nil {
				t.Fatal("the backend has no memory store")
			}
			if es, err := m.List(ctx); err != nil || len(es) != 0 {
				t.Fatalf("empty store lists %d entries, err %v", len(es), err)
			}
			older := memory.NewFact(memory.OriginQuestion, "Fiscal year?", "April", src, "s1", day)
			newer := memory.NewAnswer("Total revenue?", "42", "# Report\n42", src, memory.Settings{Route: "auto"}, "s2", day.Add(time.Hour))
			for _, e := range []memory.Entry{older, newer} {
				if err := m.Put(ctx, e); err != nil {
					t.Fatalf("Put: %v", err)
				}
			}
			es, err := m.List(ctx)
			if err != nil || len(es) != 2 || es[0].ID != newer.ID || es[1].ID != older.ID {
				t.Fatalf("List = %v, %v; want the newer first", es, err)
			}
			if got, err := m.Get(ctx, newer.ID); err != nil || got.Report != newer.Report || !got.Created.Equal(newer.Created) {
				t.Errorf("Get = %+v, %v", got, err)
			}
			// The same fact again replaces the older one.
			again := memory.NewFact(memory.OriginQuestion, "fiscal year", "July", src, "s3", day.Add(2*time.Hour))
			if err := m.Put(ctx, again); err != nil {
				t.Fatal(err)
			}
			if got, _ := m.Get(ctx, older.ID); got.Answer != "July" {
				t.Errorf("the newer answer must replace the older: %q", got.Answer)
			}
			if es, _ := m.List(ctx); len(es) != 2 {
				t.Errorf("%d entries after a replacement, want 2", len(es))
			}
			// An edit keeps the fact's place and says when it was made.
			if _, err := memory.Edit(ctx, m, older.ID, "October", day.Add(3*time.Hour)); err != nil {
				t.Fatal(err)
			}
			if got, _ := m.Get(ctx, older.ID); got.Answer != "October" || !got.Edited.Equal(day.Add(3*time.Hour)) || got.Session != "s3" {
				t.Errorf("the edit must be kept with its time: %+v", got)
			}
			if err := m.Delete(ctx, older.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := m.Get(ctx, older.ID); !errors.Is(err, memory.ErrNotFound) {
				t.Errorf("Get after Delete: %v", err)
			}
			if err := m.Delete(ctx, older.ID); !errors.Is(err, memory.ErrNotFound) {
				t.Errorf("Delete twice: %v", err)
			}
			for _, bad := range []string{"../x", "f-../../etc/passwd", ""} {
				if _, err := m.Get(ctx, bad); !errors.Is(err, memory.ErrInvalidID) {
					t.Errorf("Get(%q): %v", bad, err)
				}
				if err := m.Put(ctx, memory.Entry{ID: bad}); err == nil {
					t.Errorf("Put(%q) must fail", bad)
				}
			}
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			if err := m.Put(cancelled, newer); !errors.Is(err, context.Canceled) {
				t.Errorf("Put with a cancelled context: %v", err)
			}
		})
	}
}

func TestFileMemoryIsPrivateAndOutOfTheSessions(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	e := memory.NewFact(memory.OriginQuestion, "Fiscal year?", "April", memory.Sources{{ID: "a"}}, "s1", time.Now())
	if err := b.Memory.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(root, MemoryDir, e.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	if ms, err := b.Sessions.List(ctx, Filter{}); err != nil || len(ms) != 0 {
		t.Errorf("the memory must not look like a session: %v %v", ms, err)
	}
}
