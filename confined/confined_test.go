package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostile builds a workspace with a secret outside it and the usual
// plantings inside: links to the secret and to its directory, a FIFO and a
// hard link.
func hostile(t *testing.T) (root, secretDir string) {
	t.Helper()
	base := t.TempDir()
	secretDir = filepath.Join(base, "host")
	root = filepath.Join(base, "ws")
	for _, d := range []string{secretDir, filepath.Join(root, "out", "d")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(secretDir, "secret.txt")
	must(t, os.WriteFile(secret, []byte("CANARY"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "out", "d", "ok.txt"), []byte("fine"), 0o644))
	must(t, os.Symlink(secret, filepath.Join(root, "out", "link.txt")))
	must(t, os.Symlink(secretDir, filepath.Join(root, "out", "dirlink")))
	must(t, syscall.Mkfifo(filepath.Join(root, "out", "fifo"), 0o644))
	must(t, os.Link(secret, filepath.Join(root, "out", "hard.txt")))
	return root, secretDir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// bothModes runs f with openat2 and with the openat fallback.
func bothModes(t *testing.T, f func(t *testing.T)) {
	t.Run("openat2", f)
	t.Run("fallback", func(t *testing.T) {
		haveOpenat2 = false
		defer func() { haveOpenat2 = true }()
		f(t)
	})
}

func TestOpenRefusesWhatTheSandboxCanPlant(t *testing.T) {
	bothModes(t, func(t *testing.T) {
		root, _ := hostile(t)
		r, err := OpenRoot(root)
		must(t, err)
		defer r.Close()
		for _, name := range []string{"out/link.txt", "out/dirlink/secret.txt", "out/fifo", "out/hard.txt", "../host/secret.txt", "/etc/passwd", "out/../../host/secret.txt"} {
			data, _, err := r.ReadFile(name, 0)
			if !errors.Is(err, ErrRefused) {
				t.Errorf("ReadFile(%s) = %q, %v; want a refusal", name, data, err)
			}
		}
		data, _, err := r.ReadFile("out/d/ok.txt", 0)
		if err != nil || string(data) != "fine" {
			t.Errorf("ReadFile(out/d/ok.txt) = %q, %v", data, err)
		}
		if _, _, err := r.ReadFile("out/none", 0); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing file: %v, want fs.ErrNotExist", err)
		}
		if data, _, err := r.ReadFile("out/hard.txt", 0, AllowHardLinks); err != nil || string(data) != "CANARY" {
			t.Errorf("AllowHardLinks: %q, %v", data, err)
		}
	})
}

func TestWritesNeverGoThroughPlantedFiles(t *testing.T) {
	bothModes(t, func(t *testing.T) {
		root, secretDir := hostile(t)
		r, err := OpenRoot(root)
		must(t, err)
		defer r.Close()
		for _, name := range []string{"out/link.txt", "out/fifo", "out/hard.txt"} {
			must(t, r.WriteFile(name, []byte("new"), 0o644))
			if fi, err := os.Lstat(filepath.Join(root, name)); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("%s after WriteFile: %v %v", name, fi, err)
			}
		}
		if err := r.WriteFile("out/dirlink/x", []byte("new"), 0o644); !errors.Is(err, ErrRefused) {
			t.Errorf("WriteFile through a directory link: %v", err)
		}
		if err := r.MkdirAll("out/dirlink/sub", 0o755); !errors.Is(err, ErrRefused) {
			t.Errorf("MkdirAll through a directory link: %v", err)
		}
		must(t, os.Symlink(filepath.Join(secretDir, "log"), filepath.Join(root, "out", "log")))
		if _, err := r.Append("out/log", 0o644); !errors.Is(err, ErrRefused) {
			t.Errorf("Append to a link: %v", err)
		}
		for _, name := range []string{"out/fifo2", "out/hard2"} {
			if name == "out/fifo2" {
				must(t, syscall.Mkfifo(filepath.Join(root, name), 0o644))
			} else {
				must(t, os.Link(filepath.Join(secretDir, "secret.txt"), filepath.Join(root, name)))
			}
			if _, err := r.Append(name, 0o644); !errors.Is(err, ErrRefused) {
				t.Errorf("Append to %s: %v", name, err)
			}
		}
		if _, err := os.Stat(filepath.Join(secretDir, "log")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a file was created outside the root: %v", err)
		}
		if got, _ := os.ReadFile(filepath.Join(secretDir, "secret.txt")); string(got) != "CANARY" {
			t.Errorf("the secret was written: %q", got)
		}
		must(t, r.SetModTime("out/dirlink", time.Unix(0, 0)))
	})
}

func TestWalkAndReadDirDoNotFollowLinks(t *testing.T) {
	root, _ := hostile(t)
	r, err := OpenRoot(root)
	must(t, err)
	defer r.Close()
	var seen []string
	must(t, r.Walk("out", func(rel string, d fs.DirEntry) error {
		seen = append(seen, rel+":"+d.Type().String())
		return nil
	}))
	got := strings.Join(seen, " ")
	if strings.Contains(got, "secret") || !strings.Contains(got, "out/d/ok.txt") || !strings.Contains(got, "out/dirlink:L") {
		t.Errorf("Walk saw %s", got)
	}
	if _, err := r.ReadDir("out/dirlink"); !errors.Is(err, ErrRefused) {
		t.Errorf("ReadDir through a link: %v", err)
	}
	fi, err := r.Stat("out/link.txt")
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Stat of a link: %v %v", fi, err)
	}
}

func TestCreateTempAndRenameStayBeneath(t *testing.T) {
	bothModes(t, func(t *testing.T) {
		root, secretDir := hostile(t)
		r, err := OpenRoot(root)
		must(t, err)
		defer r.Close()
		if _, _, err := r.CreateTemp("out/dirlink/x.csv", 0o644); !errors.Is(err, ErrRefused) {
			t.Errorf("CreateTemp through a directory link: %v", err)
		}
		f, tmp, err := r.CreateTemp("out/link.txt", 0o644)
		must(t, err)
		_, err = f.WriteString("export")
		must(t, err)
		must(t, f.Close())
		must(t, r.Rename(tmp, "out/link.txt"))
		if b, _ := os.ReadFile(filepath.Join(root, "out", "link.txt")); string(b) != "export" {
			t.Errorf("out/link.txt = %q", b)
		}
		if b, _ := os.ReadFile(filepath.Join(secretDir, "secret.txt")); string(b) != "CANARY" {
			t.Errorf("the secret was written: %q", b)
		}
		if err := r.Rename("out/d/ok.txt", "out/dirlink/moved.txt"); !errors.Is(err, ErrRefused) {
			t.Errorf("Rename into a directory link: %v", err)
		}
	})
}

// TestWriteErrorSaysItsFileOnce: a failed write says "write NAME: cause",
// not the name once for Error and again for the *os.File that failed
// ("write state.json: write state.json: no space left on device").
func TestWriteErrorSaysItsFileOnce(t *testing.T) {
	err := fail("write", "state.json", bare(&os.PathError{Op: "write", Path: "state.json", Err: syscall.ENOSPC}))
	if got, want := err.Error(), "write state.json: no space left on device"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("%v must still be ENOSPC", err)
	}
}
