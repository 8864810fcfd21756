package sqldb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// forgetSniffs clears the process's sniffs, as a new process starts with
// none.
func forgetSniffs() {
	sniffed.Lock()
	clear(sniffed.m)
	sniffed.Unlock()
}

// sumOf is the SHA-256 of s, in hex.
func sumOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// describeView is DESCRIBE of view in a files source over the input at
// rel of root.
func describeView(t *testing.T, root, rel, view string) [][]any {
	t.Helper()
	s, err := OpenFiles(context.Background(), root, []string{rel}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Rows(context.Background(), "DESCRIBE "+view)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSniffCacheServesTheSameContentInAnotherProcess: what SniffFiles
// sniffed in a file is kept on disk by the content's SHA-256, so another
// process (its sniffs forgotten here) over the same content in another
// workspace reads it with no sniff, into the same view; other content,
// or an input sent with no sum, is sniffed.
func TestSniffCacheServesTheSameContentInAnotherProcess(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(SniffCacheEnv, cache)
	forgetSniffs()
	t.Cleanup(forgetSniffs)
	sniffs := countSniffs(t)
	body := "day;region;amount\n2024-01-05;north;10,5\n2024-02-07;south;20\n"
	sniff := func(root string, in ...SniffInput) {
		ch := make(chan []SniffInput, 1)
		ch <- in
		SniffFiles(context.Background(), root, ch)
	}
	first := sniffWorkspace(t, map[string]string{"sales.csv": body})
	sniff(first, SniffInput{Path: "input/sales.csv", SHA256: sumOf(body)})
	if n := sniffs.Load(); n != 1 {
		t.Fatalf("first sniff: %d sniffs, want 1", n)
	}
	want := describeView(t, first, "input/sales.csv", "sales")
	kept, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	if len(kept) != 1 {
		t.Fatalf("the cache holds %v, want one file", kept)
	}

	forgetSniffs()
	second := sniffWorkspace(t, map[string]string{"orders.csv": body})
	sniff(second, SniffInput{Path: "input/orders.csv", SHA256: sumOf(body)})
	if n := sniffs.Load(); n != 1 {
		t.Errorf("the same content in another process was sniffed again (%d sniffs)", n)
	}
	if got := describeView(t, second, "input/orders.csv", "orders"); !cmp.Equal(got, want) {
		t.Errorf("the cached sniff reads another view:\n%s", cmp.Diff(want, got))
	}
	if n := sniffs.Load(); n != 1 {
		t.Errorf("OpenFiles sniffed what the cache held (%d sniffs)", n)
	}

	forgetSniffs()
	other := "day,amount\n2024-01-05,1\n"
	third := sniffWorkspace(t, map[string]string{"other.csv": other, "nosum.csv": body})
	sniff(third, SniffInput{Path: "input/other.csv", SHA256: sumOf(other)}, SniffInput{Path: "input/nosum.csv"})
	if n := sniffs.Load(); n != 3 {
		t.Errorf("other content and an input with no sum: %d sniffs in all, want 3", n)
	}
}

// TestSniffCacheIsOffWhenAskedAndReadsOnlyWhatMakesADialect: with the
// cache off nothing is kept; a cache file that does not hold a sniff (cut
// short, no columns) is not used.
func TestSniffCacheIsOffWhenAskedAndReadsOnlyWhatMakesADialect(t *testing.T) {
	t.Setenv(SniffCacheEnv, "off")
	if f := sniffCacheFile("v1.5.0", sumOf("x"), ""); f != "" {
		t.Errorf("cache off, yet a cache file: %s", f)
	}
	dir := t.TempDir()
	t.Setenv(SniffCacheEnv, dir)
	file := sniffCacheFile("v1.5.0", sumOf("x"), "")
	if file == "" || filepath.Dir(file) != dir {
		t.Fatalf("cache file %q, want one in %s", file, dir)
	}
	if sniffCacheFile("v1.5.0", "not a sum", "") != "" || sniffCacheFile("", sumOf("x"), "") != "" {
		t.Error("a cache file without a sum or a DuckDB version")
	}
	if file == sniffCacheFile("v1.6.0", sumOf("x"), "") || file == sniffCacheFile("v1.5.0", sumOf("x"), "\t") {
		t.Error("another DuckDB, or another delimiter asked for, shares the cache file")
	}
	for _, body := range []string{`{"Delim":","`, `{"Delim":",","Names":[],"Types":[]}`} {
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := cachedSniff(file); ok {
			t.Errorf("cache file %s was used", body)
		}
	}
}

// TestSniffCacheKeepsItsNewestFiles: the cache is bounded; a write past
// the bound removes the oldest files.
func TestSniffCacheKeepsItsNewestFiles(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	pruneSniffCache(dir, 3)
	left, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	want := []string{filepath.Join(dir, "2.json"), filepath.Join(dir, "3.json"), filepath.Join(dir, "4.json")}
	if !cmp.Equal(left, want) {
		t.Errorf("left %v, want the newest %v", left, want)
	}
}
