package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiskBudgetWalkIgnoresLinks: the measurement never follows a link
// out of the workspace (it would count, and name, host files).
func TestDiskBudgetWalkIgnoresLinks(t *testing.T) {
	root, outside := newWorkspace(t)
	if err := os.WriteFile(filepath.Join(outside, "host-file-name"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "work", "link")); err != nil {
		t.Fatal(err)
	}
	b := newDiskBudget(root, Limits{DiskBytes: 1, DiskFiles: 1})
	u := b.Measure()
	if msg := b.Message(u, true); strings.Contains(msg, "host-file-name") || u.bytes >= 1<<20 {
		t.Errorf("the walk followed a link out of the workspace: %d bytes; %s", u.bytes, msg)
	}
}

// BenchmarkDiskBudgetMeasure is the cost of one measurement of a workspace
// holding 1,000 files (a session after a few hundred cells): a cell pays
// two, plus one per poll while it runs.
//
//	go test ./operator -run '^$' -bench DiskBudgetMeasure
func BenchmarkDiskBudgetMeasure(b *testing.B) {
	root := b.TempDir()
	for i := range 1000 {
		d := filepath.Join(root, WorkDir, fmt.Sprintf("d%02d", i%20))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	budget := newDiskBudget(root, DefaultLimits())
	for b.Loop() {
		if u := budget.Measure(); u.files < 1000 {
			b.Fatalf("measured %d files", u.files)
		}
	}
}
