package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// etcEntries are the few host /etc entries Python, numpy (BLAS through
// /etc/alternatives), pandas and matplotlib need; bound read-only when
// present. Nothing else of /etc is visible: no shadow, no ssh keys, no
// credentials. /etc/localtime is recreated as a symlink when it is one, so
// time zone names still resolve.
var etcEntries = []string{
	"ld.so.cache", "alternatives", "localtime", "timezone", "fonts",
	"matplotlibrc", "mime.types",
}

// etcGlobs are /etc entries matched by pattern: Debian keeps Python's
// sitecustomize in /etc/python3.X.
var etcGlobs = []string{"python3*"}

// mountPlan accumulates bubblewrap's file system arguments. bubblewrap
// creates missing mount points itself, but with mode 0700 when it runs as
// root, which an unprivileged program cannot traverse; so every directory
// the plan needs outside a host bind is created explicitly with mode 0755.
type mountPlan struct {
	args  []string
	binds []string        // destinations of host binds: what lies below exists
	made  map[string]bool // directories created and mount points
}

func newMountPlan() *mountPlan { return &mountPlan{made: map[string]bool{"/": true}} }

// parents creates the missing ancestors of dest.
func (m *mountPlan) parents(dest string) {
	var chain []string
	for d := filepath.Dir(dest); d != "/" && d != "."; d = filepath.Dir(d) {
		chain = append(chain, d)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		if m.made[d] || m.underBind(d) {
			continue
		}
		m.args = append(m.args, "--perms", "0755", "--dir", d)
		m.made[d] = true
	}
}

// underBind reports whether d lies strictly inside a host bind.
func (m *mountPlan) underBind(d string) bool {
	for _, b := range m.binds {
		if d != b && Within(b, d) {
			return true
		}
	}
	return false
}

// bind adds a bind mount (op is --bind or --ro-bind).
func (m *mountPlan) bind(op, src, dest string) {
	m.parents(dest)
	m.args = append(m.args, op, src, dest)
	m.made[dest] = true
	m.binds = append(m.binds, dest)
}

// special adds a --proc, --dev or --tmpfs mount, with optional permissions
// and size (tmpfs only; 0: no cap).
func (m *mountPlan) special(op, dest, perms string, size int64) {
	m.parents(dest)
	if perms != "" {
		m.args = append(m.args, "--perms", perms)
	}
	if size > 0 {
		m.args = append(m.args, "--size", fmt.Sprint(size))
	}
	m.args = append(m.args, op, dest)
	m.made[dest] = true
}

// symlink adds a symlink at dest pointing at target.
func (m *mountPlan) symlink(target, dest string) {
	m.parents(dest)
	m.args = append(m.args, "--symlink", target, dest)
	m.made[dest] = true
}

// etc adds the /etc entries: the host's etcEntries and etcGlobs, and the
// synthesized files from etcDir.
func (m *mountPlan) etc(etcDir string) error {
	names := append([]string{}, etcEntries...)
	for _, g := range etcGlobs {
		matches, _ := filepath.Glob(filepath.Join("/etc", g))
		for _, p := range matches {
			names = append(names, filepath.Base(p))
		}
	}
	for _, name := range names {
		p := filepath.Join("/etc", name)
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if fi.Mode()&os.ModeSymlink != 0 && name == "localtime" {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			m.symlink(target, p)
			continue
		}
		if _, err := os.Stat(p); err != nil {
			continue // dangling symlink
		}
		m.bind("--ro-bind", p, p)
	}
	for _, name := range synthesizedEtc {
		m.bind("--ro-bind", filepath.Join(etcDir, name), filepath.Join("/etc", name))
	}
	return nil
}

// synthesizedEtc are the /etc files written by sandboxEtcDir rather than
// taken from the host.
var synthesizedEtc = []string{"passwd", "group", "hosts", "nsswitch.conf"}

// sandboxEtcDir writes minimal passwd, group, hosts and nsswitch.conf
// files for the sandbox: the host's list the machine's users and their home
// directories, which code has no business reading. They live in the user's
// cache directory (~/.cache/sift/sandbox-etc), rewritten only when they
// differ or have gone (a cache can be cleaned, or HOME change, while Sift
// runs), so that processes share them and none leaves a copy behind; a
// private temporary directory is the fallback. Never a fixed name in a
// shared /tmp: someone else could plant a symlink there, and the files are
// bound into every sandbox.
func sandboxEtcDir() (string, error) {
	etcMu.Lock()
	defer etcMu.Unlock()
	files := sandboxEtcFiles(os.Getuid(), os.Getgid())
	if cache, err := os.UserCacheDir(); err == nil {
		dir := filepath.Join(cache, "sift", "sandbox-etc")
		if err := WriteFiles(dir, files); err == nil {
			return dir, nil
		}
	}
	if etcTemp != "" {
		if err := WriteFiles(etcTemp, files); err == nil {
			return etcTemp, nil
		}
	}
	dir, err := os.MkdirTemp("", "sift-sandbox-etc-")
	if err != nil {
		return "", fmt.Errorf("sandbox /etc files: %w", err)
	}
	if err := WriteFiles(dir, files); err != nil {
		return "", fmt.Errorf("sandbox /etc files: %w", err)
	}
	etcTemp = dir
	return dir, nil
}

var (
	etcMu sync.Mutex
	// etcTemp is the fallback directory, reused while it lasts.
	etcTemp string
)

// sandboxEtcFiles returns the synthesized /etc files for a Sift running as
// uid and gid: root, nobody (the sandbox user when Sift runs as root) and,
// for another user, "sift".
func sandboxEtcFiles(uid, gid int) map[string]string {
	passwd := "root:x:0:0:root:/root:/usr/sbin/nologin\n" +
		fmt.Sprintf("nobody:x:%d:%d:nobody:/nonexistent:/usr/sbin/nologin\n", sandboxUID, sandboxGID)
	group := fmt.Sprintf("root:x:0:\nnogroup:x:%d:\n", sandboxGID)
	if uid != 0 && uid != sandboxUID {
		passwd += fmt.Sprintf("sift:x:%d:%d:sift:/nonexistent:/usr/sbin/nologin\n", uid, gid)
		if gid != 0 && gid != sandboxGID {
			group += fmt.Sprintf("sift:x:%d:\n", gid)
		}
	}
	return map[string]string{
		"passwd":        passwd,
		"group":         group,
		"hosts":         "127.0.0.1\tlocalhost\n127.0.1.1\tsift\n::1\tlocalhost ip6-localhost ip6-loopback\n",
		"nsswitch.conf": "passwd: files\ngroup: files\nshadow: files\nhosts: files\nnetworks: files\nprotocols: files\nservices: files\n",
	}
}

// WriteFiles makes dir (mode 0755) hold exactly files, replacing a file
// that differs atomically so that a sandbox starting meanwhile never sees
// half of one.
func WriteFiles(dir string, files map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			if old, err := os.ReadFile(p); err == nil && string(old) == content {
				continue
			}
		}
		tmp, err := os.CreateTemp(dir, "."+name+"-")
		if err != nil {
			return err
		}
		_, werr := tmp.WriteString(content)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
			os.Remove(tmp.Name())
			return err
		}
		if err := os.Rename(tmp.Name(), p); err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}
