// Package probecache remembers, across runs, which interpreter and sandbox
// set-up worked on this machine, so that a run need not probe them again.
// Only answers that let a run go ahead are kept; a failed probe is always
// run again.
package probecache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
)

// ProbeCacheEnv is the environment variable that moves the on-disk cache of
// environment probes to another file, or turns it off with "off".
const Env = "SIFT_PROBE_CACHE"

// probeCacheMax bounds how much of the cache file is read: a file larger
// than this is not ours and is ignored.
const probeCacheMax = 64 << 10

// probeCacheVersion changes when the file's layout or meaning does.
const probeCacheVersion = 1

// probeCacheFile is the cache's layout on disk: each entry maps the hash of
// everything a probe's answer depends on to that answer. Only answers that
// let a run go ahead are kept; a failed probe is always run again.
type probeCacheFile struct {
	Version int              `json:"version"`
	Entries map[string]Entry `json:"entries"`
}

// Entry is one cached probe answer.
type Entry struct {
	// Kind is "python" or "bwrap", for a person reading the file.
	Kind string `json:"kind"`
	// DisableUserns is the bubblewrap probe's answer (bwrap entries only).
	DisableUserns bool `json:"disable_userns,omitempty"`
}

// Path returns the file that remembers which interpreter and
// sandbox setup worked here, so a run need not probe them again: the path
// $SIFT_PROBE_CACHE names, else probes.json in Sift's directory under the
// user's cache directory ($XDG_CACHE_HOME/sift or ~/.cache/sift). It
// returns "" when the cache is off ($SIFT_PROBE_CACHE=off) or there is no
// cache directory. Removing the file clears the cache.
func Path() string {
	if p := os.Getenv(Env); p != "" {
		if p == "off" {
			return ""
		}
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "sift", "probes.json")
}

// Forget clears the on-disk probe cache, so the next run probes the
// interpreter and sandbox again. A kernel that cannot start calls it: what
// the cache said worked no longer does.
func Forget() error {
	p := Path()
	if p == "" {
		return nil
	}
	probeFileMu.Lock()
	defer probeFileMu.Unlock()
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("clear the probe cache %s: %w; remove it by hand", p, err)
	}
	return nil
}

// probeFileMu orders this process's reads and writes of the cache file.
var probeFileMu sync.Mutex

// Lookup returns the cached answer for key, if the cache file is
// trustworthy and holds one.
func Lookup(key string) (Entry, bool) {
	p := Path()
	if p == "" {
		return Entry{}, false
	}
	probeFileMu.Lock()
	defer probeFileMu.Unlock()
	f := readProbeFile(p)
	e, ok := f.Entries[key]
	return e, ok
}

// Remember records a successful probe's answer under key. Failing to
// write the cache costs only the next run's time, so errors are dropped.
func Remember(key string, e Entry) {
	p := Path()
	if p == "" {
		return
	}
	probeFileMu.Lock()
	defer probeFileMu.Unlock()
	f := readProbeFile(p)
	if old, ok := f.Entries[key]; ok && old == e {
		return
	}
	f.Entries[key] = e
	_ = writeProbeFile(p, f)
}

// readProbeFile reads the cache at p; a missing, unreadable, oversized,
// malformed or untrustworthy file reads as empty. The file decides whether
// a sandbox is used with --disable-userns, so only a regular file owned by
// this user, in a directory owned by this user (or root), that no one else
// may write, is believed.
func readProbeFile(p string) probeCacheFile {
	empty := probeCacheFile{Version: probeCacheVersion, Entries: map[string]Entry{}}
	if !trustedDir(filepath.Dir(p)) {
		return empty
	}
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return empty
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !ownedByMe(fi) || fi.Mode().Perm()&0o022 != 0 || fi.Size() > probeCacheMax {
		return empty
	}
	b, err := io.ReadAll(io.LimitReader(f, probeCacheMax+1))
	if err != nil || len(b) > probeCacheMax {
		return empty
	}
	var got probeCacheFile
	if json.Unmarshal(b, &got) != nil || got.Version != probeCacheVersion || got.Entries == nil {
		return empty
	}
	for k, e := range got.Entries {
		if len(k) != sha256.Size*2 || (e.Kind != "python" && e.Kind != "bwrap") {
			delete(got.Entries, k)
		}
	}
	return got
}

// writeProbeFile replaces the cache at p with f (mode 0600, in a 0700
// directory), under a temporary name renamed into place, so a reader sees
// the old file or the new one. A cache needs no fsync: a lost write only
// means probing again.
func writeProbeFile(p string, f probeCacheFile) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if !trustedDir(dir) {
		return fmt.Errorf("probe cache directory %s may be written by others", dir)
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".probes-*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	if err := errors.Join(werr, tmp.Chmod(0o600), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// trustedDir reports whether dir is a real directory that only this user
// (or root) can change.
func trustedDir(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (int(st.Uid) == os.Geteuid() || st.Uid == 0)
}

// ownedByMe reports whether fi belongs to this process's user.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// Key hashes what a probe's answer depends on: the parts given (the
// kind of probe, then identities of files and settings) and this build of
// Sift. A probe whose answer depends on other sources (the Python a
// probe runs) names them among the parts.
func Key(parts ...string) string {
	h := sha256.New()
	for _, s := range append([]string{buildIdentity()}, parts...) {
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// buildIdentity names this build of Sift: its module version and VCS
// revision, the executable's file identity (a rebuilt binary is another
// build).
var buildIdentity = sync.OnceValue(func() string {
	var b strings.Builder
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.WriteString(bi.Main.Path + "@" + bi.Main.Version)
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") {
				b.WriteString(" " + s.Key + "=" + s.Value)
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		b.WriteString(" exe=" + FileIdentity(exe))
	}
	return b.String()
})

// FileIdentity names the file at path as it is now: where it resolves to,
// its device and inode, size, modification and change times. Any
// replacement, upgrade or edit changes it. A missing file is "absent".
func FileIdentity(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return path + " absent"
	}
	var st syscall.Stat_t
	if err := syscall.Stat(real, &st); err != nil {
		return path + " absent"
	}
	return fmt.Sprintf("%s=%s dev=%d ino=%d size=%d mtime=%d.%d ctime=%d.%d mode=%o uid=%d",
		path, real, st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec, st.Mode, st.Uid)
}

// FileContent is the trimmed content of a small system file (a sysctl), or
// "absent".
func FileContent(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return path + " absent"
	}
	return path + "=" + strings.TrimSpace(string(b))
}
