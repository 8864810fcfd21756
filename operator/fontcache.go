package operator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// Matplotlib's configuration and caches are per session: MPLCONFIGDIR is
// mplConfigDir inside the workspace (see Local.env), so that no session can
// restyle another's charts (a matplotlibrc there) or read what another
// leaves in it. Building matplotlib's font list costs about a second, so
// it is built once per machine, by an interpreter that runs no session's
// code, into a directory only Sift can write; each sandbox sees it
// read-only, and the kernel and runner copy it into the session's
// MPLCONFIGDIR when that has none (fontCacheEnv names it to them).
const (
	// mplConfigDir is the session's matplotlib directory (config and
	// cache).
	mplConfigDir = homeDir + "/.matplotlib"
	// fontCacheEnv names the shared, read-only font list directory to the
	// kernel and the runner; they remove it from the environment before
	// any cell runs.
	fontCacheEnv = "SIFT_FONT_CACHE"
	// fontCacheTimeout bounds building the font list.
	fontCacheTimeout = 2 * time.Minute
)

// fontCaches remembers, per interpreter, the shared font list directory
// (or that building it failed), so it is built at most once per process.
var fontCaches sync.Map // python path -> *fontCache

type fontCache struct {
	once sync.Once
	dir  string // "" when there is none
}

// sharedFontCache returns the directory holding matplotlib's font list
// for python, building it through sb when it is missing; "" when it cannot
// be had (a session then builds its own, a second slower on its first
// chart).
func sharedFontCache(sb Sandbox, python string) string {
	if python == "" || sb == nil {
		return ""
	}
	v, _ := fontCaches.LoadOrStore(python, &fontCache{})
	fc := v.(*fontCache)
	fc.once.Do(func() {
		dir, err := buildFontCache(sb, python)
		if err == nil {
			fc.dir = dir
		}
	})
	return fc.dir
}

// fontCacheDir is where the font list of python is kept: in Sift's user
// cache directory, one directory per interpreter and per state of the
// system's font directories. matplotlib never rebuilds a font list it
// finds, so a list built before a font was installed (make setup installs
// the CJK fonts) would hide that font from every session for good.
func fontCacheDir(python string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	name := strings.NewReplacer("/", "_", ".", "_").Replace(strings.TrimPrefix(python, "/"))
	return filepath.Join(cache, "sift", "fontcache", name+"-"+fontDirsStamp(systemFontDirs)), nil
}

// systemFontDirs are where fontconfig and matplotlib find the system's
// fonts on Linux.
var systemFontDirs = []string{"/usr/share/fonts", "/usr/local/share/fonts"}

// fontDirsStamp fingerprints the directories below roots by their names and
// modification times: installing or removing a font changes a directory's
// time, and so the stamp. These are host directories no sandbox can write.
func fontDirsStamp(roots []string) string {
	h := fnv.New64a()
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				fmt.Fprintf(h, "%s %d\n", p, fi.ModTime().UnixNano())
			}
			return nil
		})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// buildFontCache returns python's font list directory, building it when it
// holds no font list yet: in a fresh throwaway workspace, through sb, by an
// interpreter that only imports matplotlib's font manager. The directory
// must belong to Sift's user and be writable by nobody else.
func buildFontCache(sb Sandbox, python string) (string, error) {
	dir, err := fontCacheDir(python)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !fi.IsDir() || !ok || int(st.Uid) != os.Geteuid() || fi.Mode().Perm()&0o022 != 0 {
		return "", fmt.Errorf("font cache %s is not a directory only uid %d can write", dir, os.Geteuid())
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "fontlist-*.json")); len(names) > 0 {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil { // the sandbox user must enter it
		return "", err
	}
	for _, d := range []string{InputDir, WorkDir, OutDir} {
		if err := os.Mkdir(filepath.Join(tmp, d), 0o755); err != nil {
			return "", err
		}
	}
	release, err := sandbox.Hold(sb, tmp)
	if err != nil {
		return "", err
	}
	defer release()
	mpl := filepath.Join(tmp, WorkDir, "mpl")
	cmd, err := sb.Command(ProcSpec{
		Root: tmp,
		Argv: []string{python, "-c", "import os; os.makedirs(os.environ['MPLCONFIGDIR'], exist_ok=True); import matplotlib.font_manager"},
		Env:  []string{"PATH=" + defaultPath, "HOME=" + filepath.Join(tmp, WorkDir), "MPLCONFIGDIR=" + mpl, "MPLBACKEND=Agg", "PYTHONDONTWRITEBYTECODE=1"},
	})
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), fontCacheTimeout)
	defer cancel()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if ctx.Err() != nil {
		<-done
	}
	if err != nil {
		return "", fmt.Errorf("build the font list: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	// Nothing but matplotlib ran in the throwaway workspace; still, read
	// it beneath its root, never through a link.
	r, err := os.OpenRoot(mpl)
	if err != nil {
		return "", err
	}
	defer r.Close()
	entries, err := rootNames(r)
	if err != nil {
		return "", err
	}
	copied := 0
	for _, name := range entries {
		if !strings.HasPrefix(name, "fontlist-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := readRegular(r, name, 64<<20)
		if err != nil || !json.Valid(data) {
			continue
		}
		if err := sandbox.WriteFiles(dir, map[string]string{name: string(data)}); err != nil {
			return "", err
		}
		copied++
	}
	if copied == 0 {
		return "", errors.New("build the font list: matplotlib wrote none")
	}
	return dir, nil
}

// rootNames lists the names in r's root.
func rootNames(r *os.Root) ([]string, error) {
	d, err := r.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// readRegular reads name beneath r when it is a regular file of at most
// limit bytes, without following a symlink at its last element.
func readRegular(r *os.Root, name string, limit int64) ([]byte, error) {
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// fontCacheSpec returns what a program needs to find the shared font list:
// the environment entry naming it and the directory to bind read-only;
// nothing when there is none.
func fontCacheSpec(sb Sandbox, python string) (env, readOnly []string) {
	dir := sharedFontCache(sb, python)
	if dir == "" {
		return nil, nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil // the cache was cleaned meanwhile: binding it would fail
	}
	return []string{fontCacheEnv + "=" + dir}, []string{dir}
}
