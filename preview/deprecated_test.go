package preview_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// TestDeprecatedNamesStillCompile is code written against release 1's
// names: it must compile, and each old name must do what its new one does.
func TestDeprecatedNamesStillCompile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.csv")
	if err := os.WriteFile(path, []byte("x,y\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var opts preview.PreviewOptions = preview.Options{}
	if old, new := preview.PreviewAll(ctx, []string{path}, opts), preview.All(ctx, []string{path}, opts); old != new || !strings.Contains(old, "a.csv") {
		t.Errorf("PreviewAll = %q, All = %q", old, new)
	}
	if old, err := preview.Preview(ctx, path, opts); err != nil || old.Kind != preview.KindCSV {
		t.Errorf("Preview = %+v, %v", old, err)
	}
	if got := preview.PreviewFiles(ctx, []string{path}, opts); len(got) != 1 {
		t.Errorf("PreviewFiles = %v", got)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := preview.PreviewOpened(ctx, f, path, opts)
	if err != nil || p.Kind != preview.KindCSV {
		t.Errorf("PreviewOpened = %+v, %v", p, err)
	}
}
