package templates

import (
	"os"
	"path/filepath"
	"testing"
)

// Hostile: the sandbox replaced work/ with a link to a root-only directory
// before the outliers engine (on the host) writes its rows file there. The
// file is refused, never written through the link.
func TestHostileWorkLinkIsNotFollowedByTheEngine(t *testing.T) {
	root := t.TempDir()
	canary := filepath.Join(t.TempDir(), "root-only")
	if err := os.Mkdir(canary, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(canary, filepath.Join(root, "work")); err != nil {
		t.Fatal(err)
	}
	if f, name, err := createWorkFile(root, "work/outlier-rows.csv"); err == nil {
		f.Close()
		t.Fatalf("the engine wrote %s through a link to outside the workspace", name)
	}
	if entries, _ := os.ReadDir(canary); len(entries) > 0 {
		t.Errorf("a file appeared in the root-only directory")
	}
	// In a real work/ the file is made, and removed again.
	os.Remove(filepath.Join(root, "work"))
	if err := os.Mkdir(filepath.Join(root, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, name, err := createWorkFile(root, "work/outlier-rows.csv")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Stat(filepath.Join(root, name)); err != nil {
		t.Fatalf("the rows file %s is missing: %v", name, err)
	}
	removeWorkFiles(root, []string{name})
	if _, err := os.Stat(filepath.Join(root, name)); !os.IsNotExist(err) {
		t.Errorf("the rows file %s was not removed: %v", name, err)
	}
}
