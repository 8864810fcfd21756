package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// InputsFile records where each input came from.
const InputsFile = "inputs.json"

// How an input got into input/.
const (
	// InputCloned: a copy-on-write clone (reflink): no data was copied,
	// and the original stays independent.
	InputCloned = "clone"
	// InputLinked: a hard link to an original that is read-only for
	// everyone, so that linking changes nothing about it.
	InputLinked = "link"
	// InputCopied: a full copy.
	InputCopied = "copy"
)

// InputRecord is where one input came from, to notice a changed file on
// resume and follow-ups.
type InputRecord struct {
	// Path is the workspace-relative path, input/...
	Path string `json:"path"`
	// Source is the original's absolute path.
	Source string `json:"source"`
	// Size, ModTime and SHA256 describe the content that was added.
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
	SHA256  string    `json:"sha256"`
	// How is InputCloned, InputLinked or InputCopied.
	How string `json:"how"`
	// Added is when the input was added.
	Added time.Time `json:"added"`
}

// manifestMu serialises updates of inputs.json.
var manifestMu sync.Mutex

// InputRecords returns what inputs.json records, in the order the inputs
// were added; none for a workspace made before inputs were recorded.
func (w *Workspace) InputRecords() ([]InputRecord, error) {
	b, err := os.ReadFile(w.Path(InputsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", InputsFile, err)
	}
	var recs []InputRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, fmt.Errorf("read %s: %w", InputsFile, err)
	}
	return recs, nil
}

// recordInput adds rec to inputs.json, durably (with its flush put off
// under SyncSoon).
func (w *Workspace) recordInput(ctx context.Context, rec InputRecord) error {
	manifestMu.Lock()
	defer manifestMu.Unlock()
	recs, err := w.InputRecords()
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(append(recs, rec), "", "  ")
	if err != nil {
		return err
	}
	d := Durable
	if syncSoon(ctx) {
		d = durableSoon
	}
	return w.WriteFile(InputsFile, b, d)
}

// CheckInputs compares each recorded input with what it was when added:
// the workspace's file (whose checksum is recomputed only when its size or
// time changed) and the original. It returns one plain sentence per
// change; none when nothing changed.
func (w *Workspace) CheckInputs(ctx context.Context) ([]string, error) {
	recs, err := w.InputRecords()
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return notes, err
		}
		st, err := os.Stat(w.Path(r.Path))
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("%s is gone from the workspace (%v); add %s again to analyse it", r.Path, err, r.Source))
			continue
		case st.Size() != r.Size || !st.ModTime().Equal(r.ModTime):
			sum, err := fileSHA256(ctx, w.Path(r.Path))
			if err != nil || sum != r.SHA256 {
				notes = append(notes, fmt.Sprintf("%s changed since it was added on %s (it was %d bytes, is %d; checksum differs): results from before may not match it", r.Path, r.Added.Format(time.RFC3339), r.Size, st.Size()))
				continue
			}
		}
		if r.How == InputLinked {
			continue // the original is the same file
		}
		if ost, err := os.Stat(r.Source); err == nil && (ost.Size() != r.Size || !ost.ModTime().Equal(r.ModTime)) {
			notes = append(notes, fmt.Sprintf("the original %s changed after it was added on %s; this session keeps the version it was given (%s): start a new run to analyse the new one", r.Source, r.Added.Format(time.RFC3339), r.Path))
		}
	}
	return notes, nil
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if _, err := io.CopyN(h, f, copyChunk); err == io.EOF {
			break
		} else if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cloneOrLink puts the content of in (the open original, at src) into the
// new file tmp without copying its data where the file system allows: a
// copy-on-write clone, or else a hard link when the original is read-only
// and readable for everyone (a link shares the inode, so making it read-only would
// change the original's mode; a read-only original needs no change). It
// returns how, and the file now at tmp; ok is false when neither works
// and the caller must copy.
func cloneOrLink(in *os.File, info os.FileInfo, tmp *os.File) (how string, ok bool) {
	if err := unix.IoctlFileClone(int(tmp.Fd()), int(in.Fd())); err == nil {
		return InputCloned, true
	}
	// Only a file read-only and readable for everyone: the sandboxed code
	// may run as another user, and must read it as it reads a copy (0444).
	if perm := info.Mode().Perm(); perm&0o222 != 0 || perm&0o444 != 0o444 {
		return "", false
	}
	name := tmp.Name()
	if err := os.Remove(name); err != nil {
		return "", false
	}
	if err := os.Link(in.Name(), name); err != nil {
		return "", false
	}
	return InputLinked, true
}

// absPath is p made absolute, or p when that fails.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
