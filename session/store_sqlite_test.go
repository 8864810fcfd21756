package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// openSQLiteTest opens a SQLite backend at path, closed when t ends.
func openSQLiteTest(t *testing.T, path string) *Backend {
	t.Helper()
	b, err := OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: path})
	if err != nil {
		t.Fatalf("OpenSQLiteBackend: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestSQLitePragmas(t *testing.T) {
	b := openSQLiteTest(t, filepath.Join(t.TempDir(), "sift.db"))
	db := b.Checkpoints.(*sqliteStore).db
	// Every connection of the pool must carry the settings, so pin several.
	ctx := context.Background()
	var conns []interface{ Close() error }
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for range 3 {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var mode string
		var busy int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || busy != 5000 {
			t.Errorf("journal_mode, busy_timeout = %q, %d; want wal, 5000", mode, busy)
		}
	}
}

func TestSQLiteBusyTimeoutConfig(t *testing.T) {
	b, err := OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: filepath.Join(t.TempDir(), "sift.db"), BusyTimeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var busy int
	if err := b.Checkpoints.(*sqliteStore).db.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil {
		t.Fatal(err)
	}
	if busy != 1500 {
		t.Errorf("busy_timeout = %d, want 1500", busy)
	}
}

func TestSQLitePersistsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "sift.db")
	b, err := OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	mustSet(t, b.Checkpoints, "s1", []byte("state"))
	mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusPaused})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = openSQLiteTest(t, path)
	wantCheckpoint(t, b.Checkpoints, "s1", []byte("state"))
	if m, err := b.Sessions.Get(context.Background(), "s1"); err != nil || m.Status != StatusPaused {
		t.Errorf("Get after reopen = %+v, %v; want the paused session", m, err)
	}
}

// TestSQLiteSharedFile has two backends on one file, as two processes
// would, write at once: the busy timeout must make them wait, not fail.
func TestSQLiteSharedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sift.db")
	backends := []*Backend{openSQLiteTest(t, path), openSQLiteTest(t, path)}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i, b := range backends {
		for g := range 4 {
			wg.Go(func() {
				for k := range 10 {
					id := fmt.Sprintf("b%d-g%d", i, g)
					if err := b.Checkpoints.Set(context.Background(), id, []byte(fmt.Sprint(k))); err != nil {
						errs <- err
					}
					if err := b.Sessions.Put(context.Background(), Meta{ID: id, Status: StatusRunning}); err != nil {
						errs <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent write: %v", err)
	}
	got := mustList(t, backends[0].Sessions, Filter{})
	if len(got) != 8 {
		t.Errorf("List = %d sessions, want 8", len(got))
	}
	wantCheckpoint(t, backends[0].Checkpoints, "b1-g3", []byte("9"))
}

func TestOpenSQLiteBackendErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want string
	}{
		{"empty path", "", "path is empty"},
		{"a directory", dir, "create tables"},
		{"not a database", garbage, "create tables"},
		{"option characters", filepath.Join(dir, "a?b.db"), "'?'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: tt.path})
			if err == nil {
				_ = b.Close()
				t.Fatal("OpenSQLiteBackend succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
}
