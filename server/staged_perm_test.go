package server

import (
	"io/fs"
	"path/filepath"
	"testing"
)

// TestStagedUploadsArePrivate: a file uploaded to a session not yet asked
// anything, and the record of it, are readable by Sift's user only, as the
// sessions' own files are (0700 directories, 0600 files): another user of
// the host must not read what a person uploaded.
func TestStagedUploadsArePrivate(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession([2]string{"salaries.csv", "name,salary\nann,100\n"})
	seen := 0
	err := filepath.WalkDir(filepath.Join(ts.srv.root, uploadsDir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %v; want no access for group or others", p, perm)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := filepath.Rel(ts.srv.root, ts.srv.stagedDir(id)); err != nil || seen < 5 {
		t.Errorf("walked %d entries under the uploads; want the uploads dir, the session's, files/, the file and staged.json", seen)
	}
}
