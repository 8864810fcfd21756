package session

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDeliverables: only plan.md, report.md, report.html and out/ files are
// listed and opened; a link planted in out/ is refused.
func TestDeliverables(t *testing.T) {
	root := t.TempDir()
	w, err := Create(context.Background(), root, "s1")
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	for path, data := range map[string]string{ReportFile: "# report", "out/chart.png": "png", "out/.hidden": "x", "work/scratch.py": "x", secret: "secret"} {
		if !filepath.IsAbs(path) {
			path = w.Path(path)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, w.Path("out/link.txt")); err != nil {
		t.Fatal(err)
	}
	if got, want := w.Deliverables(), []string{ReportFile, "out/chart.png"}; !slices.Equal(got, want) {
		t.Errorf("Deliverables() = %v, want %v", got, want)
	}
	f, err := w.OpenDeliverable(ReportFile)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "# report" {
		t.Errorf("report.md = %q", b)
	}
	for _, tt := range []struct {
		path string
		want error
	}{
		{"out/link.txt", ErrNotDeliverable},
		{"work/scratch.py", ErrNotDeliverable},
		{"events.jsonl", ErrNotDeliverable},
		{"out/.hidden", ErrNotDeliverable},
		{"out/.cache/x.csv", ErrNotDeliverable},
		{"out/.sift-partial-x.csv", ErrNotDeliverable},
		{"work/.hidden", ErrNotDeliverable},
		{".report.md", ErrNotDeliverable},
		{"out/../report.md", ErrNotDeliverable},
		{"/etc/passwd", ErrNotDeliverable},
		{"out/%2e%2e/x", fs.ErrNotExist}, // already decoded: a literal name, which does not exist
		{"plan.md", fs.ErrNotExist},
		{"out/missing.png", fs.ErrNotExist},
	} {
		f, err := w.OpenDeliverable(tt.path)
		if f != nil {
			f.Close()
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("OpenDeliverable(%q) = %v, want %v", tt.path, err, tt.want)
		}
	}
	missing := &Workspace{ID: "nope", Root: filepath.Join(root, "nope")}
	if got := missing.Deliverables(); len(got) != 0 {
		t.Errorf("a missing workspace has no deliverables, got %v", got)
	}
}
