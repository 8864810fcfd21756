package operator

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// newWorkspace makes a workspace with input/sales.csv, work/, out/ and a
// set of symlinks: some escaping (to /etc, to the workspace's parent, a
// dangling one pointing outside) and some staying inside. It returns the
// symlink-free root and a directory outside the workspace.
func newWorkspace(t *testing.T) (root, outside string) {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(parent, "ws")
	outside = filepath.Join(parent, "outside")
	for _, d := range []string{"input", "work", "out", outside} {
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "input/sales.csv"), "region,amount\nnorth,10\nsouth,20\n")
	write(filepath.Join(outside, "secret.txt"), "secret")
	links := map[string]string{
		"input/etc":       "/etc",
		"work/up":         "../..",
		"work/abs_out":    outside,
		"out/dangling":    filepath.Join(outside, "planted.txt"),
		"out/dangling_in": "missing.csv",
		"out/inlink":      "../work",
		"out/to_input":    "../input",
		"work/loop":       "loop",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func TestConfine(t *testing.T) {
	root, outside := newWorkspace(t)
	tests := []struct {
		name    string
		path    string
		want    string // workspace-relative; ignored when wantErr is set
		wantErr error
	}{
		{name: "plain", path: "input/sales.csv", want: "input/sales.csv"},
		{name: "empty is root", path: "", want: "."},
		{name: "dot is root", path: ".", want: "."},
		{name: "absolute inside", path: filepath.Join(root, "out/x.csv"), want: "out/x.csv"},
		{name: "dotdot inside", path: "input/../out/x.csv", want: "out/x.csv"},
		{name: "new nested", path: "out/a/b/c.csv", want: "out/a/b/c.csv"},
		{name: "symlink inside", path: "out/inlink/a.txt", want: "work/a.txt"},
		{name: "dangling symlink inside", path: "out/dangling_in", want: "out/missing.csv"},
		{name: "parent escape", path: "../x", wantErr: ErrOutsideWorkspace},
		{name: "etc passwd", path: "/etc/passwd", wantErr: ErrOutsideWorkspace},
		{name: "dotdot through input", path: "input/../../x", wantErr: ErrOutsideWorkspace},
		{name: "absolute outside", path: filepath.Join(outside, "secret.txt"), wantErr: ErrOutsideWorkspace},
		{name: "symlink to etc", path: "input/etc/passwd", wantErr: ErrOutsideWorkspace},
		{name: "symlink to parent", path: "work/up/outside/secret.txt", wantErr: ErrOutsideWorkspace},
		{name: "symlink to parent itself", path: "work/up", wantErr: ErrOutsideWorkspace},
		{name: "absolute symlink out", path: "work/abs_out/new.txt", wantErr: ErrOutsideWorkspace},
		{name: "dangling symlink out", path: "out/dangling", wantErr: ErrOutsideWorkspace},
		{name: "root prefix trick", path: root + "-evil/x", wantErr: ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Confine(root, tt.path)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Confine(%q) = %q, %v; want error wrapping %v", tt.path, got, err, tt.wantErr)
				}
				for _, want := range []string{tt.path, "input/sales.csv", "out/result.csv"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not mention %q", err, want)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Confine(%q): %v", tt.path, err)
			}
			if diff := cmp.Diff(tt.want, RelPath(root, got)); diff != "" {
				t.Errorf("Confine(%q) (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestConfineSymlinkLoop(t *testing.T) {
	root, _ := newWorkspace(t)
	if _, err := Confine(root, "work/loop"); err == nil {
		t.Fatal("Confine(work/loop) succeeded; want an error for a symlink loop")
	}
}

func TestConfineWrite(t *testing.T) {
	root, _ := newWorkspace(t)
	tests := []struct {
		path    string
		wantErr error
	}{
		{path: "out/result.csv"},
		{path: "work/scratch/x.py"},
		{path: "input/new.csv", wantErr: ErrReadOnly},
		{path: "input/sales.csv", wantErr: ErrReadOnly},
		{path: "input", wantErr: ErrReadOnly},
		{path: "out/../input/x.csv", wantErr: ErrReadOnly},
		{path: "out/to_input/x.csv", wantErr: ErrReadOnly},
		{path: "../x", wantErr: ErrOutsideWorkspace},
		{path: "out/dangling", wantErr: ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, err := ConfineWrite(root, tt.path)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("ConfineWrite(%q): %v", tt.path, err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ConfineWrite(%q) error = %v; want %v", tt.path, err, tt.wantErr)
			}
			if tt.wantErr == ErrReadOnly && !strings.Contains(err.Error(), "out/") {
				t.Errorf("read-only error %q does not suggest out/", err)
			}
		})
	}
}
