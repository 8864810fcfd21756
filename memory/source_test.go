package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func fingerprint(t *testing.T, path string) Source {
	t.Helper()
	s, err := File(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFileIdentity(t *testing.T) {
	const csv = "region,revenue\nWest,10\nEast,20\n"
	a := fingerprint(t, write(t, "sales.csv", csv))
	if a.Kind != SourceFile || a.Name != "sales.csv" || !a.Hashed() {
		t.Errorf("source: %+v", a)
	}
	if !strings.HasPrefix(a.Schema, "csv\nregion ") || !strings.Contains(a.Schema, "revenue ") {
		t.Errorf("schema not read: %q", a.Schema)
	}
	tests := []struct {
		name    string
		file    string
		content string
		same    bool
	}{
		{"same content, other name", "renamed.csv", csv, true},
		{"one byte changed", "sales.csv", "region,revenue\nWest,10\nEast,21\n", false},
		{"one row more", "sales.csv", csv + "North,5\n", false},
		{"other columns", "sales.csv", "area,revenue\nWest,10\nEast,20\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fingerprint(t, write(t, tt.file, tt.content))
			if (a.ID == b.ID) != tt.same {
				t.Errorf("same identity = %v, want %v (%s vs %s)", a.ID == b.ID, tt.same, a.ID, b.ID)
			}
		})
	}
}

// TestFilePreviewedReadsTheSchemaFromThePreview: a fingerprint given the
// file's preview reads the schema from it, not from a preview of its own,
// and is the fingerprint File makes when the preview is made as File
// makes it (or with options that find the same tables).
func TestFilePreviewedReadsTheSchemaFromThePreview(t *testing.T) {
	ctx := context.Background()
	path := write(t, "sales.csv", "region,revenue\nWest,10\nEast,20\n")
	for _, opts := range []preview.Options{SchemaOptions, {MaxRows: 5, MaxCellChars: 10, BaseDir: filepath.Dir(path)}} {
		p, err := preview.File(ctx, path, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FilePreviewed(ctx, path, "", p)
		if err != nil {
			t.Fatal(err)
		}
		if want := fingerprint(t, path); got != want {
			t.Errorf("with %+v: %+v, want File's %+v", opts, got, want)
		}
	}
	other, err := preview.File(ctx, write(t, "other.csv", "area,units\nWest,1\n"), SchemaOptions)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FilePreviewed(ctx, path, "", other)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Schema, "area ") || strings.Contains(got.Schema, "region") {
		t.Errorf("schema %q is not the given preview's (area, units)", got.Schema)
	}
	if got, err := FilePreviewed(ctx, path, "", nil); err != nil || got.Schema != "unknown" {
		t.Errorf("without a preview: schema %q, %v; want unknown", got.Schema, err)
	}
}

func TestFileMissing(t *testing.T) {
	if _, err := File(context.Background(), filepath.Join(t.TempDir(), "nope.csv")); err == nil {
		t.Error("a missing file must fail")
	}
}

func TestDatabaseIdentity(t *testing.T) {
	a := Database("postgres://shop@db:5432/shop", []string{"orders", "customers"})
	if b := Database("postgres://shop@db:5432/shop", []string{"customers", "orders"}); a.ID != b.ID {
		t.Error("the order of the tables must not matter")
	}
	if b := Database("postgres://shop@db:5432/shop", []string{"customers", "orders", "refunds"}); a.ID == b.ID {
		t.Error("another table must change the identity")
	}
	if b := Database("postgres://shop@db2:5432/shop", []string{"customers", "orders"}); a.ID == b.ID {
		t.Error("another address must change the identity")
	}
	if a.Hashed() || (Sources{a}).Hashed() {
		t.Error("a database's content is not hashed")
	}
}

func TestSourcesKey(t *testing.T) {
	x := Source{ID: "x", Content: "1"}
	y := Source{ID: "y", Content: "2"}
	if (Sources{x, y}).Key() != (Sources{y, x}).Key() {
		t.Error("the order of the sources must not matter")
	}
	if (Sources{x}).Key() == (Sources{x, y}).Key() {
		t.Error("another source must change the key")
	}
	if (Sources{}).Hashed() {
		t.Error("no data is not hashed data")
	}
}

// TestFileHashedTakesTheKnownSum: with the SHA-256 a session recorded as
// it copied the file, the fingerprint is the one File computes, and the
// file is not hashed again (a sum given is taken as it is).
func TestFileHashedTakesTheKnownSum(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.csv")
	if err := os.WriteFile(p, []byte("region,sales\nnorth,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, err := File(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FileHashed(ctx, p, want.Content)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("FileHashed = %+v, want %+v", got, want)
	}
	// The schema, read without counting the rows, is the full preview's.
	if fp, err := preview.File(ctx, p, preview.Options{}); err != nil || fileSchema(fp) != got.Schema {
		t.Errorf("schema %q, want the full preview's (%v)", got.Schema, err)
	}
	if s, err := FileHashed(ctx, p, "given"); err != nil || s.Content != "given" {
		t.Errorf("FileHashed with a sum read the file again: %+v, %v", s, err)
	}
	if _, err := FileHashed(ctx, filepath.Join(t.TempDir(), "gone.csv"), "given"); err == nil {
		t.Error("FileHashed of a missing file: no error")
	}
}
