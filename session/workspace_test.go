package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
)

// newTestWorkspace creates a workspace under a fresh temporary root.
func newTestWorkspace(t *testing.T) *Workspace {
	t.Helper()
	w, err := Create(context.Background(), t.TempDir(), "test-session")
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return w
}

// writeFile writes a file, making its directories.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dirNames lists every entry under dir, recursively, relative to dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir {
			rel, _ := filepath.Rel(dir, path)
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestNewID(t *testing.T) {
	check := func(id string) uuid.UUID {
		t.Helper()
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 || u.String() != id {
			t.Fatalf("id %q is not a version 7 UUID in its standard form (err %v)", id, err)
		}
		if err := ValidateID(id); err != nil {
			t.Errorf("ValidateID(%q) = %v, want nil", id, err)
		}
		return u
	}
	check(NewID())

	at := func(tm time.Time) context.Context {
		return WithClock(context.Background(), func() time.Time { return tm })
	}
	early := time.Date(2026, 11, 22, 2, 6, 55, 0, time.UTC)
	later := time.Date(2026, 11, 22, 3, 6, 56, 0, time.FixedZone("CET", 3600))

	a, b, c := NewIDContext(at(early)), NewIDContext(at(early)), NewIDContext(at(later))
	for id, want := range map[string]time.Time{a: early, b: early, c: later} {
		sec, nsec := check(id).Time().UnixTime()
		if got := time.Unix(sec, nsec); !got.Equal(want) {
			t.Errorf("id %q holds the time %v, want the clock's %v", id, got, want)
		}
	}
	if a == b {
		t.Errorf("two ids made in the same millisecond are equal (%q): the random part is missing", a)
	}
	if !(a < c && b < c) {
		t.Errorf("ids do not sort by time: %q, %q then %q", a, b, c)
	}
	// Sessions made before version 7 ids keep theirs.
	if err := ValidateID("20261122-020655-ab12cd"); err != nil {
		t.Errorf("an old session id is refused: %v", err)
	}
}

func TestValidateID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"20261122-020655-ab12cd", true},
		{"my_run.v2", true},
		{"", false},
		{".hidden", false},
		{"..", false},
		{"a/b", false},
		{`a\b`, false},
		{"../escape", false},
		{"with space", false},
		{"ünïcode", false},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
	}
	for _, tt := range tests {
		err := ValidateID(tt.id)
		if got := err == nil; got != tt.want {
			t.Errorf("ValidateID(%q) = %v, want valid=%v", tt.id, err, tt.want)
		}
		if err != nil && !errors.Is(err, ErrInvalidID) {
			t.Errorf("ValidateID(%q) = %v, want it to wrap ErrInvalidID", tt.id, err)
		}
	}
}

func TestDefaultRoot(t *testing.T) {
	tests := []struct {
		name      string
		siftHome  string
		stateHome string
		home      string
		want      string
	}{
		{"SIFT_HOME wins", "/opt/sift", "/state", "/home/u", "/opt/sift/sessions"},
		{"XDG_STATE_HOME", "", "/state", "/home/u", "/state/sift/sessions"},
		{"relative XDG_STATE_HOME is ignored", "", "rel/state", "/home/u", "/home/u/.local/state/sift/sessions"},
		{"home", "", "", "/home/u", "/home/u/.local/state/sift/sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SIFT_HOME", tt.siftHome)
			t.Setenv("XDG_STATE_HOME", tt.stateHome)
			t.Setenv("HOME", tt.home)
			if diff := cmp.Diff(tt.want, DefaultRoot()); diff != "" {
				t.Errorf("DefaultRoot() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCreate(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base)
	ctx := context.Background()

	// A relative root that does not exist yet is made and made absolute.
	w, err := Create(ctx, "sessions", "run-1")
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	want := &Workspace{ID: "run-1", Root: filepath.Join(base, "sessions", "run-1")}
	if diff := cmp.Diff(want, w); diff != "" {
		t.Errorf("Create mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"input", "out", "work"}, dirNames(t, w.Root)); diff != "" {
		t.Errorf("workspace entries mismatch (-want +got):\n%s", diff)
	}

	if _, err := Create(ctx, "sessions", "run-1"); !errors.Is(err, ErrWorkspaceExists) {
		t.Errorf("second Create = %v, want ErrWorkspaceExists", err)
	}
	for _, id := range []string{"", "../escape", "a/b"} {
		if _, err := Create(ctx, "sessions", id); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Create(id %q) = %v, want ErrInvalidID", id, err)
		}
	}
	if _, err := Create(ctx, "", "run-2"); err == nil {
		t.Error("Create with an empty root succeeded, want an error")
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Create(cancelled, "sessions", "run-3"); !errors.Is(err, context.Canceled) {
		t.Errorf("Create with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(base, "sessions", "run-3")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Create with a cancelled context left a directory (stat: %v)", err)
	}
}

func TestCreateRootIsAFile(t *testing.T) {
	root := filepath.Join(t.TempDir(), "file")
	writeFile(t, root, "not a dir")
	_, err := Create(context.Background(), root, "run")
	if err == nil || !strings.Contains(err.Error(), root) {
		t.Errorf("Create under a file = %v, want an error naming %s", err, root)
	}
}

func TestOpen(t *testing.T) {
	root := t.TempDir()
	created, err := Create(context.Background(), root, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Open(root, "run-1")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if diff := cmp.Diff(created, got); diff != "" {
		t.Errorf("Open mismatch (-want +got):\n%s", diff)
	}

	if err := os.Mkdir(filepath.Join(root, "not-a-workspace"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "a-file"), "x")
	tests := []struct {
		id       string
		want     error
		contains string
	}{
		{"missing", ErrWorkspaceNotFound, filepath.Join(root, "missing")},
		{"not-a-workspace", ErrWorkspaceNotFound, "no input/ directory"},
		{"a-file", ErrWorkspaceNotFound, "not a directory"},
		{"../run-1", ErrInvalidID, "../run-1"},
	}
	for _, tt := range tests {
		_, err := Open(root, tt.id)
		if !errors.Is(err, tt.want) {
			t.Errorf("Open(%q) = %v, want %v", tt.id, err, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("Open(%q) = %q, want it to mention %q", tt.id, err, tt.contains)
		}
	}
}

func TestPath(t *testing.T) {
	w := &Workspace{ID: "x", Root: "/ws/x"}
	tests := map[string]string{
		"":             "/ws/x",
		"plan.md":      "/ws/x/plan.md",
		"out/fig.png":  "/ws/x/out/fig.png",
		"input/a/b.cs": "/ws/x/input/a/b.cs",
	}
	for rel, want := range tests {
		if got := w.Path(rel); got != want {
			t.Errorf("Path(%q) = %q, want %q", rel, got, want)
		}
	}
}

func TestAddInputNamesClashes(t *testing.T) {
	ctx := context.Background()
	w := newTestWorkspace(t)
	src := t.TempDir()
	mtime := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var got []string
	for i, dir := range []string{"a", "b", "c"} {
		p := filepath.Join(src, dir, "sales.csv")
		writeFile(t, p, "copy "+dir)
		if err := os.Chtimes(p, mtime, mtime.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
		rel, err := w.AddInput(ctx, p)
		if err != nil {
			t.Fatalf("AddInput(%s): %v", p, err)
		}
		got = append(got, rel)
	}
	want := []string{"input/sales.csv", "input/sales-2.csv", "input/sales-3.csv"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AddInput paths mismatch (-want +got):\n%s", diff)
	}
	for i, rel := range want {
		path := w.Path(rel)
		if got, want := readFile(t, path), "copy "+[]string{"a", "b", "c"}[i]; got != want {
			t.Errorf("%s holds %q, want %q", rel, got, want)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != 0o444 {
			t.Errorf("%s has mode %v, want read-only 0444", rel, got)
		}
		if want := mtime.Add(time.Duration(i) * time.Hour); !info.ModTime().Equal(want) {
			t.Errorf("%s has mtime %v, want the source's %v", rel, info.ModTime(), want)
		}
	}
	inputs, err := w.Inputs()
	if err != nil {
		t.Fatalf("Inputs: %v", err)
	}
	if diff := cmp.Diff([]string{"input/sales-2.csv", "input/sales-3.csv", "input/sales.csv"}, inputs); diff != "" {
		t.Errorf("Inputs mismatch (-want +got):\n%s", diff)
	}
}

func TestAddInputFollowsSymlink(t *testing.T) {
	w := newTestWorkspace(t)
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "real.csv"), "a,b\n1,2\n")
	link := filepath.Join(src, "link.csv")
	if err := os.Symlink("real.csv", link); err != nil {
		t.Fatal(err)
	}
	rel, err := w.AddInput(context.Background(), link)
	if err != nil {
		t.Fatalf("AddInput(symlink): %v", err)
	}
	if rel != "input/link.csv" {
		t.Errorf("AddInput(symlink) = %q, want input/link.csv", rel)
	}
	info, err := os.Lstat(w.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	if !info.Mode().IsRegular() {
		t.Errorf("the copy of a symlink has mode %v, want a regular file", info.Mode())
	}
	if got := readFile(t, w.Path(rel)); got != "a,b\n1,2\n" {
		t.Errorf("the copy holds %q, want the target's content", got)
	}
}

func TestAddInputBadInput(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "locked.csv"), "secret")
	if err := os.Chmod(filepath.Join(src, "locked.csv"), 0); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(src, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(src, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		path     string
		hint     string
		skipRoot bool
	}{
		{"missing", filepath.Join(src, "nope.csv"), "check the path", false},
		{"directory", filepath.Join(src, "folder"), "AddInputDir", false},
		{"named pipe", filepath.Join(src, "pipe"), "not a regular file (a named pipe)", false},
		{"unreadable", filepath.Join(src, "locked.csv"), "make it readable", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skipRoot && os.Geteuid() == 0 {
				t.Skip("running as root: every file is readable, so unreadable input cannot be tested")
			}
			w := newTestWorkspace(t)
			_, err := w.AddInput(context.Background(), tt.path)
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("AddInput(%s) = %v, want ErrBadInput", tt.path, err)
			}
			for _, want := range []string{tt.path, tt.hint} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("AddInput(%s) = %q, want it to mention %q", tt.path, err, want)
				}
			}
			if names := dirNames(t, w.Path(InputDir)); len(names) != 0 {
				t.Errorf("a failed AddInput left %v in input/", names)
			}
		})
	}
}

func TestAddInputCancelledLeavesNothing(t *testing.T) {
	w := newTestWorkspace(t)
	src := filepath.Join(t.TempDir(), "big.csv")
	writeFile(t, src, strings.Repeat("x,y\n", 100000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	if _, err := w.AddInput(ctx, src); !errors.Is(err, context.Canceled) {
		t.Errorf("AddInput with a cancelled context = %v, want context.Canceled", err)
	}
	// copyIn skips AddInput's early check, so this cancels the copy itself
	// after the temporary file exists.
	if _, err := w.copyIn(ctx, src, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("copyIn with a cancelled context = %v, want context.Canceled", err)
	}
	if names := dirNames(t, w.Path(InputDir)); len(names) != 0 {
		t.Errorf("a cancelled copy left %v in input/, want nothing (not even a partial file)", names)
	}
}

func TestClashName(t *testing.T) {
	tests := []struct {
		base string
		n    int
		want string
	}{
		{"data.csv", 1, "data.csv"},
		{"data.csv", 2, "data-2.csv"},
		{"data.csv", 3, "data-3.csv"},
		{"archive.tar.gz", 2, "archive-2.tar.gz"},
		{"sales.2023.xlsx", 2, "sales.2023-2.xlsx"},
		{"README", 2, "README-2"},
		{".env", 2, ".env-2"},
		{".tar.gz", 2, ".tar.gz-2"},
	}
	for _, tt := range tests {
		if got := clashName(tt.base, tt.n); got != tt.want {
			t.Errorf("clashName(%q, %d) = %q, want %q", tt.base, tt.n, got, tt.want)
		}
	}
}

func TestAddInputDir(t *testing.T) {
	ctx := context.Background()
	w := newTestWorkspace(t)
	if _, err := w.AddInput(ctx, writeTemp(t, "a.csv", "first")); err != nil {
		t.Fatal(err)
	}

	src := t.TempDir()
	writeFile(t, filepath.Join(src, "a.csv"), "a")
	writeFile(t, filepath.Join(src, "2023", "b.csv"), "b")
	writeFile(t, filepath.Join(src, "2023", "q1", "c.tsv"), "c")
	writeFile(t, filepath.Join(src, ".hidden.csv"), "hidden")
	writeFile(t, filepath.Join(src, ".git", "config"), "git")
	if err := os.Symlink("a.csv", filepath.Join(src, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("2023", filepath.Join(src, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(src, "2023", "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(src, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}

	got, err := w.AddInputDir(ctx, src)
	if err != nil {
		t.Fatalf("AddInputDir: %v", err)
	}
	want := []string{"input/2023/b.csv", "input/2023/q1/c.tsv", "input/a-2.csv"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AddInputDir mismatch (-want +got):\n%s", diff)
	}
	if got := readFile(t, w.Path("input/2023/q1/c.tsv")); got != "c" {
		t.Errorf("input/2023/q1/c.tsv holds %q, want %q", got, "c")
	}
	inputs, err := w.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	wantInputs := []string{"input/2023/b.csv", "input/2023/q1/c.tsv", "input/a-2.csv", "input/a.csv"}
	if diff := cmp.Diff(wantInputs, inputs); diff != "" {
		t.Errorf("Inputs mismatch (-want +got):\n%s", diff)
	}
	for _, rel := range wantInputs {
		info, err := os.Stat(w.Path(rel))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o444 {
			t.Errorf("%s has mode %v, want 0444", rel, info.Mode().Perm())
		}
	}
}

// writeTemp writes a file with the given name in a fresh temporary dir.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	writeFile(t, p, content)
	return p
}

func TestAddInputDirSkipsWorkspaceInside(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "data.csv"), "d")
	// The sessions root lives inside the folder being added.
	w, err := Create(context.Background(), filepath.Join(src, "sessions"), "run")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.Root, "out", "old.csv"), "artifact")

	got, err := w.AddInputDir(context.Background(), src)
	if err != nil {
		t.Fatalf("AddInputDir: %v", err)
	}
	if diff := cmp.Diff([]string{"input/data.csv"}, got); diff != "" {
		t.Errorf("AddInputDir mismatch (-want +got):\n%s", diff)
	}
}

func TestAddInputDirBadInput(t *testing.T) {
	w := newTestWorkspace(t)
	onlyHidden := t.TempDir()
	writeFile(t, filepath.Join(onlyHidden, ".DS_Store"), "x")
	file := writeTemp(t, "one.csv", "x")

	tests := []struct {
		name string
		dir  string
		hint string
	}{
		{"missing", filepath.Join(t.TempDir(), "nope"), "check the path"},
		{"a file", file, "AddInput"},
		{"nothing to add", onlyHidden, "holds no file to add"},
		{"inside the workspace", w.Path(OutDir), "inside the workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.AddInputDir(context.Background(), tt.dir)
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("AddInputDir(%s) = %v, want ErrBadInput", tt.dir, err)
			}
			for _, want := range []string{tt.dir, tt.hint} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("AddInputDir(%s) = %q, want it to mention %q", tt.dir, err, want)
				}
			}
		})
	}
}

func TestAddInputDirCancelled(t *testing.T) {
	w := newTestWorkspace(t)
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "a.csv"), "a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.AddInputDir(ctx, src); !errors.Is(err, context.Canceled) {
		t.Errorf("AddInputDir with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestInputsSkipsPartialFiles(t *testing.T) {
	w := newTestWorkspace(t)
	writeFile(t, w.Path("input/done.csv"), "x")
	writeFile(t, w.Path("input/"+partialPrefix+"123"), "half")
	got, err := w.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"input/done.csv"}, got); diff != "" {
		t.Errorf("Inputs mismatch (-want +got):\n%s", diff)
	}
}

func TestArtifacts(t *testing.T) {
	w := newTestWorkspace(t)
	got, err := w.Artifacts()
	if err != nil {
		t.Fatalf("Artifacts of an empty out/: %v", err)
	}
	if len(got) != 0 {
		t.Errorf("Artifacts of an empty out/ = %v, want none", got)
	}

	for _, rel := range []string{"out/table.csv", "out/figs/b.png", "out/figs/a.png", "out/a-b.txt",
		"out/.hidden", "out/.ipynb_checkpoints/x.csv", "out/" + partialPrefix + "9", "work/scratch.txt"} {
		writeFile(t, w.Path(rel), "x")
	}
	if err := os.Symlink("table.csv", w.Path("out/link.csv")); err != nil {
		t.Fatal(err)
	}
	got, err = w.Artifacts()
	if err != nil {
		t.Fatalf("Artifacts: %v", err)
	}
	want := []string{"out/a-b.txt", "out/figs/a.png", "out/figs/b.png", "out/table.csv"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Artifacts mismatch (-want +got):\n%s", diff)
	}

	if err := os.RemoveAll(w.Path(OutDir)); err != nil {
		t.Fatal(err)
	}
	got, err = w.Artifacts()
	if err != nil || len(got) != 0 {
		t.Errorf("Artifacts with out/ removed = %v, %v; want none and no error", got, err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	w := newTestWorkspace(t)
	for _, content := range []string{"# Plan\n\nfirst", "# Plan\n\nsecond, longer than the first"} {
		if err := w.WriteFileAtomic(PlanFile, []byte(content)); err != nil {
			t.Fatalf("WriteFileAtomic: %v", err)
		}
		if got := readFile(t, w.Path(PlanFile)); got != content {
			t.Errorf("plan.md holds %q, want %q", got, content)
		}
	}
	info, err := os.Stat(w.Path(PlanFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("plan.md has mode %v, want 0600", info.Mode().Perm())
	}
	if err := w.WriteFileAtomic("out/sub/notes.md", []byte("n")); err != nil {
		t.Fatalf("WriteFileAtomic into a new directory: %v", err)
	}
	if diff := cmp.Diff([]string{"input", "out", "out/sub", "out/sub/notes.md", "plan.md", "work"}, dirNames(t, w.Root)); diff != "" {
		t.Errorf("workspace entries mismatch, want no temporary files left (-want +got):\n%s", diff)
	}

	for _, rel := range []string{"../escape.md", "/etc/passwd", "out/../../escape.md", "", "input/a.csv", "./input/x"} {
		err := w.WriteFileAtomic(rel, []byte("x"))
		if !errors.Is(err, ErrOutsideWorkspace) {
			t.Errorf("WriteFileAtomic(%q) = %v, want ErrOutsideWorkspace", rel, err)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(w.Root), "escape.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused write created a file outside the workspace (stat: %v)", err)
	}
}

func TestWriteFileAtomicReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: directory permissions are not enforced")
	}
	w := newTestWorkspace(t)
	if err := os.Chmod(w.Root, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(w.Root, 0o755) })
	err := w.WriteFileAtomic(ReportFile, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "writable") {
		t.Errorf("WriteFileAtomic in a read-only workspace = %v, want an error saying to make it writable", err)
	}
}

func BenchmarkAddInput(b *testing.B) {
	src := filepath.Join(b.TempDir(), "big.csv")
	data := bytes.Repeat([]byte("2024-01-01,north,12345.67,widget\n"), 1<<20/34*16) // ~16 MiB
	if err := os.WriteFile(src, data, 0o644); err != nil {
		b.Fatal(err)
	}
	w, err := Create(context.Background(), b.TempDir(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rel, err := w.AddInput(context.Background(), src)
		if err != nil {
			b.Fatal(err)
		}
		// Keep one copy on disk, so every round copies under the same name.
		if err := os.Remove(w.Path(rel)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAddInputDirUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: every file is readable, so unreadable input cannot be tested")
	}
	tests := []struct {
		name   string
		locked string // made unreadable
		copied []string
	}{
		{"file", "b.csv", []string{"input/a.csv"}},
		{"subdirectory", "sub", []string{"input/a.csv", "input/b.csv"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newTestWorkspace(t)
			src := t.TempDir()
			writeFile(t, filepath.Join(src, "a.csv"), "a")
			writeFile(t, filepath.Join(src, "b.csv"), "b")
			writeFile(t, filepath.Join(src, "sub", "c.csv"), "c")
			locked := filepath.Join(src, tt.locked)
			if err := os.Chmod(locked, 0); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
			added, err := w.AddInputDir(context.Background(), src)
			if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), locked) || !strings.Contains(err.Error(), "make it readable") {
				t.Fatalf("AddInputDir with unreadable %s = %v, want ErrBadInput naming %s and saying what to do", tt.locked, err, locked)
			}
			if diff := cmp.Diff(tt.copied, added); diff != "" {
				t.Errorf("files copied before the failure mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWorkspaceDatabasesRoundTrip(t *testing.T) {
	w, err := Create(context.Background(), t.TempDir(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.Databases(); err != nil || got != nil {
		t.Fatalf("a new workspace records no databases: %v, %v", got, err)
	}
	want := []string{"shop=sqlite:/data/shop.db", "sales=postgres://reader:xxxxx@h/sales"}
	if err := w.SetDatabases(want); err != nil {
		t.Fatal(err)
	}
	again, err := Open(filepath.Dir(w.Root), "s1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := again.Databases()
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("Databases() = %v, %v; want %v", got, err, want)
	}
	if err := os.WriteFile(w.Path(DatabasesFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Databases(); err == nil || !strings.Contains(err.Error(), DatabasesFile) {
		t.Errorf("a broken record must be an error naming the file: %v", err)
	}
}

func TestAddInputRecordsAndLinksSafely(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writable := filepath.Join(dir, "sales.csv")
	readOnly := filepath.Join(dir, "big.csv")
	for p, body := range map[string]string{writable: "a,b\n1,2\n", readOnly: "x\n1\n2\n3\n"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(readOnly, 0o444); err != nil {
		t.Fatal(err)
	}
	w, err := Create(ctx, t.TempDir(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{writable, readOnly} {
		if _, err := w.AddInput(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := w.InputRecords()
	if err != nil || len(recs) != 2 {
		t.Fatalf("records = %+v, %v", recs, err)
	}
	for _, r := range recs {
		data, _ := os.ReadFile(w.Path(r.Path))
		sum := sha256.Sum256(data)
		if r.SHA256 != hex.EncodeToString(sum[:]) || r.Size != int64(len(data)) || !filepath.IsAbs(r.Source) {
			t.Errorf("record %+v does not describe %s", r, r.Path)
		}
	}
	// The writable original is never linked (making the link read-only
	// would change the original's mode), and keeps its mode.
	if recs[0].How == InputLinked {
		t.Errorf("a writable original was hard-linked: %+v", recs[0])
	}
	if st, _ := os.Stat(writable); st.Mode().Perm() != 0o644 {
		t.Errorf("the writable original's mode changed to %v", st.Mode().Perm())
	}
	// The read-only original is shared, not copied, where the file system
	// allows (same file system here: a hard link or a clone).
	inWS, _ := os.Stat(w.Path(recs[1].Path))
	orig, _ := os.Stat(readOnly)
	switch recs[1].How {
	case InputLinked:
		if !os.SameFile(inWS, orig) {
			t.Error("a linked input must be the original file")
		}
	case InputCloned:
	default:
		t.Errorf("a read-only original on the same file system was %s, want linked or cloned", recs[1].How)
	}
	if orig.Mode().Perm() != 0o444 || inWS.Mode().Perm()&0o222 != 0 {
		t.Errorf("modes: original %v, input %v; want both read-only and the original unchanged", orig.Mode().Perm(), inWS.Mode().Perm())
	}

	if notes, err := w.CheckInputs(ctx); err != nil || len(notes) != 0 {
		t.Fatalf("unchanged inputs: %v, %v", notes, err)
	}
	// The person edits the original of the copied input.
	if err := os.WriteFile(writable, []byte("a,b\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes, err := w.CheckInputs(ctx)
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "the original "+writable+" changed") || !strings.Contains(notes[0], "keeps the version it was given") {
		t.Errorf("after editing the original: %q, %v", notes, err)
	}
	// Someone rewrites the workspace's own copy.
	p := w.Path(recs[0].Path)
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes, _ = w.CheckInputs(ctx)
	if len(notes) == 0 || !strings.Contains(notes[0], recs[0].Path+" changed since it was added") {
		t.Errorf("after changing the workspace copy: %q", notes)
	}
}
