package sqldb

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// listTree lists every path under dir, relative to it.
func listTree(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out[rel] = true
		}
		return nil
	})
	return out
}

// Hostile: the sandbox replaced work/.duckdb-tmp (where DuckDB, running in
// Sift's own process, used to spill) with a link to a root-only directory.
// A query that spills must never follow it: DuckDB spills to a 0700
// directory of its own outside the workspace, bounded in size, removed when
// the source closes, and no file appears under the workspace.
func TestHostileSpillNeverFollowsAPlantedLink(t *testing.T) {
	root, _ := filesWorkspace(t)
	canary := filepath.Join(t.TempDir(), "root-only")
	if err := os.Mkdir(canary, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(canary, filepath.Join(root, "work", ".duckdb-tmp")); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, root)
	scratch := t.TempDir()
	s, err := OpenFiles(context.Background(), root, []string{"input/sales.csv"}, FilesOptions{
		Options:     Options{StatementTimeout: 2 * time.Minute},
		MemoryBytes: 32 << 20, Threads: 1, TempDir: scratch,
	})
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := os.ReadDir(scratch)
	if len(dirs) != 1 {
		t.Fatalf("the source must make one spill directory under its TempDir; found %d", len(dirs))
	}
	spill := filepath.Join(scratch, dirs[0].Name())
	if info, err := os.Stat(spill); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the spill directory must be 0700: %v %v", info.Mode(), err)
	}
	// A sort several times the memory limit spills; a watcher sees its
	// files while it runs.
	var sawSpill atomic.Bool
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			if entries, _ := os.ReadDir(spill); len(entries) > 0 {
				sawSpill.Store(true)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	err = s.Each(context.Background(), "SELECT i, md5(i::VARCHAR) || md5((i+1)::VARCHAR) AS h FROM range(1000000) t(i) ORDER BY h", func([]any) error { return nil })
	close(stop)
	<-watched
	if err != nil {
		t.Fatalf("the spilling query failed: %v", err)
	}
	if !sawSpill.Load() {
		t.Error("the query did not spill to the source's own directory; the test proves nothing")
	}
	if entries, _ := os.ReadDir(canary); len(entries) > 0 {
		t.Errorf("DuckDB spilled through the planted link: %d files in the root-only directory", len(entries))
	}
	for p := range listTree(t, root) {
		if !before[p] {
			t.Errorf("%s appeared under the workspace", p)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spill); !os.IsNotExist(err) {
		t.Errorf("the spill directory outlived the source: %v", err)
	}
}

// The spill is bounded: a query that needs more than TempBytes fails
// instead of filling the host's disk.
func TestSpillIsBounded(t *testing.T) {
	root, _ := filesWorkspace(t)
	s, err := OpenFiles(context.Background(), root, []string{"input/sales.csv"}, FilesOptions{
		Options:     Options{StatementTimeout: 2 * time.Minute},
		MemoryBytes: 32 << 20, Threads: 1, TempDir: t.TempDir(), TempBytes: 1 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Each(context.Background(), "SELECT i, md5(i::VARCHAR) || md5((i+1)::VARCHAR) AS h FROM range(3000000) t(i) ORDER BY h", func([]any) error { return nil })
	if err == nil {
		t.Fatal("a query spilling past TempBytes must fail")
	}
	t.Logf("refused: %.200s", err)
}
