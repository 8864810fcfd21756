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

// TestSessionsRoot: a given directory is used as it is and kept; a
// temporary one is named after the example and removed by its cleanup,
// unless $SIFT_EXAMPLE_KEEP is set, and the cleanup says which.
func TestSessionsRoot(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv(KeepEnv, "")
	given := t.TempDir()
	got, cleanup, err := SessionsRoot(given, "x")
	if err != nil || got != given {
		t.Fatalf("SessionsRoot with a dir = %q, %v; want it unchanged", got, err)
	}
	var said strings.Builder
	cleanup(&said)
	if _, err := os.Stat(given); err != nil || said.Len() != 0 {
		t.Errorf("a given directory must be kept silently: %v, %q", err, said.String())
	}

	for _, keep := range []bool{false, true} {
		if keep {
			t.Setenv(KeepEnv, "1")
		}
		got, cleanup, err := SessionsRoot("", "csvcolumn")
		if err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(got); err != nil || !fi.IsDir() {
			t.Errorf("SessionsRoot must create a directory: %v", err)
		}
		if !strings.HasPrefix(filepath.Base(got), "sift-example-csvcolumn-") {
			t.Errorf("SessionsRoot = %q, want it named after the example", got)
		}
		if err := os.WriteFile(filepath.Join(got, "report.md"), []byte("# r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var said strings.Builder
		cleanup(&said)
		_, err = os.Stat(got)
		if kept := err == nil; kept != keep {
			t.Errorf("%s=%v: directory kept = %v", KeepEnv, keep, kept)
		}
		want := "Removed the temporary sessions directory " + got
		if keep {
			want = "Kept the session files in " + got
		}
		if !strings.Contains(said.String(), want) {
			t.Errorf("cleanup says %q, want %q", said.String(), want)
		}
	}
}
