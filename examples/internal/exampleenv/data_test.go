package exampleenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataFile(t *testing.T) {
	for _, name := range []string{"people.csv", "books.txt", "exam.txt", "sales.csv"} {
		p, err := DataFile(name)
		if err != nil {
			t.Fatalf("DataFile(%q): %v", name, err)
		}
		if !filepath.IsAbs(p) || filepath.Base(p) != name || filepath.Base(filepath.Dir(p)) != "data" {
			t.Errorf("DataFile(%q) = %q, want an absolute path in examples/data", name, p)
		}
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	if _, err := DataFile("no-such-file.csv"); !errors.Is(err, ErrNoData) {
		t.Errorf("missing file: err = %v, want ErrNoData", err)
	}
}

func TestSessionsRoot(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	if got, err := SessionsRoot("/some/dir", "x"); err != nil || got != "/some/dir" {
		t.Errorf("SessionsRoot with a dir = %q, %v; want it unchanged", got, err)
	}
	got, err := SessionsRoot("", "csvcolumn")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(got); err != nil || !fi.IsDir() {
		t.Errorf("SessionsRoot must create a directory: %v", err)
	}
	if !strings.HasPrefix(filepath.Base(got), "sift-example-csvcolumn-") {
		t.Errorf("SessionsRoot = %q, want it named after the example", got)
	}
}
