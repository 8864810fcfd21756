package operator

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A font installed after the shared font list was built must reach the
// sessions: the list's directory follows the state of the font directories.
func TestFontDirsStampChangesWhenAFontIsInstalled(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "truetype", "dejavu"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := fontDirsStamp([]string{root})
	if again := fontDirsStamp([]string{root}); again != before {
		t.Fatalf("stamp changed with nothing installed: %s then %s", before, again)
	}
	noto := filepath.Join(root, "opentype", "noto")
	if err := os.MkdirAll(noto, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(noto, "NotoSansCJK-Regular.ttc"), []byte("font"), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := fontDirsStamp([]string{root}); after == before {
		t.Fatalf("stamp %s did not change when a font directory was added", after)
	}
	// A font added to an existing directory changes that directory's time.
	mid := fontDirsStamp([]string{root})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(noto, old, old); err != nil {
		t.Fatal(err)
	}
	if got := fontDirsStamp([]string{root}); got == mid {
		t.Fatalf("stamp %s did not change when a font directory changed", got)
	}
}
