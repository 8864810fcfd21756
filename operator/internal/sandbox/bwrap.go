package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sift-agent/sift/operator/internal/probecache"
)

// Sandbox identity of the probe, and of a program started with no
// workspace, when Sift runs as root: this unprivileged uid and gid
// ("nobody" and "nogroup" on Debian). A workspace's programs run as a uid of
// their own (see uidPool). Never root: the kernel does not enforce
// RLIMIT_NPROC for root, and root inside a mount namespace still holds
// every capability.
const (
	sandboxUID = 65534
	sandboxGID = 65534
)

// bwrapProbeTimeout bounds the one-off check that bubblewrap works here.
const bwrapProbeTimeout = 15 * time.Second

// findProgramTimeout bounds how long Signal waits for a just-started
// sandbox to start its program (bubblewrap sets up its mounts first).
const findProgramTimeout = 5 * time.Second

// systemDirs are the host's read-only system directories, made visible as
// they are: bound read-only, or recreated as the same symlink on merged-/usr
// systems (/bin -> usr/bin).
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// bwrapSandbox runs programs under bubblewrap; see newBwrapSandbox.
type bwrapSandbox struct {
	bwrap  string
	limits Limits
	// setpriv is set when Sift runs as root: the program is started
	// through it as its workspace's uid (from uids) with no capabilities.
	setpriv string
	// uids hands out the workspaces' uids when Sift runs as root.
	uids *uidPool
	// etcDir holds the synthesized passwd, group, hosts and
	// nsswitch.conf.
	etcDir string
	// disableUserns: code in the sandbox cannot create user namespaces
	// because bubblewrap's --disable-userns (0.8+) keeps it from doing so:
	// on the sandbox itself when Sift is not root, or, when Sift is root,
	// on a second, unprivileged bubblewrap that setpriv starts as the
	// workspace's user (the first one cannot have a user namespace then;
	// see args). When false, the probe found that the sandbox's user
	// cannot create user namespaces anyway (the host forbids it).
	disableUserns bool
}

var _ Sandbox = (*bwrapSandbox)(nil)

func (b *bwrapSandbox) configuredLimits() Limits { return b.limits }

// newBwrapSandbox checks that bubblewrap (and, as root, setpriv; with
// limits, prlimit) is installed and works here, and returns the sandbox.
// Errors wrap ErrNoSandbox and say what to do.
func newBwrapSandbox(cfg SandboxConfig) (*bwrapSandbox, error) {
	path := cfg.Bwrap
	if path == "" {
		path = "bwrap"
	}
	found, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("%w: bubblewrap (%s) is not installed: install it (`apt-get install bubblewrap` on Debian/Ubuntu, `dnf install bubblewrap` on Fedora/RHEL), %s", ErrNoSandbox, path, allowNoneHint)
	}
	if found, err = filepath.Abs(found); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSandbox, err)
	}
	b := &bwrapSandbox{bwrap: found, limits: cfg.Limits}
	if os.Geteuid() == 0 {
		p, err := exec.LookPath("setpriv")
		if err != nil {
			return nil, fmt.Errorf("%w: Sift runs as root, and setpriv (util-linux) is needed to run sandboxed code as an unprivileged user: install util-linux, run Sift as an ordinary user, %s", ErrNoSandbox, allowNoneHint)
		}
		b.setpriv = p
		rng := cfg.UIDs
		if rng.Count <= 0 {
			rng = UIDRange{First: DefaultSandboxUIDFirst, Count: DefaultSandboxUIDCount}
		}
		b.uids = sharedUIDPool(rng, uidLockDir)
	}
	if _, err := withLimits(b.limits, []string{"/bin/true"}); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoSandbox, err)
	}
	if b.etcDir, err = sandboxEtcDir(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoSandbox, err)
	}
	probe := probeBwrap(b)
	if probe.err != nil {
		return nil, probe.err
	}
	b.disableUserns = probe.disableUserns
	return b, nil
}

// allowNoneHint ends every "no sandbox" error.
const allowNoneHint = "or allow the weaker unsandboxed mode explicitly with --sandbox none (or SIFT_SANDBOX=none)"

// Name returns "bwrap".
func (*bwrapSandbox) Name() string { return "bwrap" }

// Command returns bubblewrap running spec: no network; new pid, ipc, uts
// and cgroup namespaces (and a user namespace when Sift is not root); the
// host's /usr and /lib* read-only; from /etc only what Python needs, with
// passwd, group and hosts synthesized; private /proc, /dev, /tmp and
// /dev/shm (the last two size-capped at Limits.FileSizeBytes); the
// workspace at its host path (so paths in Argv and Env stay valid),
// read-only but for work/ and out/; the interpreter's own prefix
// read-only when it lies outside /usr; the working directory the
// workspace; the environment exactly spec.Env. The program runs in its own
// session (it cannot reach Sift's terminal), dies with Sift, and takes every
// process it started with it when it exits. When Sift runs as root, the
// program runs without capabilities as its workspace's own uid and gid (see
// Hold), and work/ and out/ are handed to that user first; it can create no
// user namespace (see disableUserns). The command runs in a control group
// of its own within the workspace's session group (see cgroup.go),
// joined before bubblewrap starts.
func (b *bwrapSandbox) Command(spec ProcSpec) (*exec.Cmd, error) {
	if err := validateSpec(spec); err != nil {
		return nil, fmt.Errorf("bwrap sandbox: %w", err)
	}
	root, err := filepath.EvalSymlinks(spec.Root)
	if err != nil {
		return nil, fmt.Errorf("bwrap sandbox: workspace root: %w", err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("bwrap sandbox: workspace root %s is not a directory", root)
	}
	for _, dir := range []string{InputDir, WorkDir, OutDir} {
		if err := ensureWorkspaceDir(root, dir); err != nil {
			return nil, fmt.Errorf("bwrap sandbox: %w", err)
		}
	}
	uid, etcDir := -1, b.etcDir
	if b.setpriv != "" {
		var ok bool
		if uid, ok = b.uids.current(root); !ok {
			// Not held by the caller: take a uid for as long as Sift runs.
			if uid, _, err = b.uids.hold(root, true); err != nil {
				return nil, fmt.Errorf("bwrap sandbox: %w", err)
			}
		}
		if etcDir, err = b.userEtc(uid); err != nil {
			return nil, fmt.Errorf("bwrap sandbox: %w", err)
		}
		if err := handOver(root, spec.Writable, uid); err != nil {
			return nil, fmt.Errorf("bwrap sandbox: give the workspace to uid %d: %w", uid, err)
		}
	}
	args, err := b.args(spec, root, uid, etcDir)
	if err != nil {
		return nil, fmt.Errorf("bwrap sandbox: %w", err)
	}
	cmd, err := sessionCgroups.command(root, b.limits.Tighter(spec.Limits), append([]string{b.bwrap}, args...))
	if err != nil {
		return nil, fmt.Errorf("bwrap sandbox: %w", err)
	}
	cmd.Dir = "/"
	cmd.Env = []string{} // bubblewrap itself gets nothing of Sift's environment
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

// ensureWorkspaceDir makes sure root/dir is a real directory, so that it
// can be bound (a symlink would bind whatever it points at).
func ensureWorkspaceDir(root, dir string) error {
	p := filepath.Join(root, dir)
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.Mkdir(p, 0o755); err != nil {
			return fmt.Errorf("create %s/: %w", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("%s/: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%s/ is not a directory (%s): refusing to bind it; recreate the workspace", dir, fi.Mode().Type())
	}
	return nil
}

// Hold gives the workspace at root a uid of its own when Sift runs as root
// (nothing otherwise), kept until release is called: every program Command
// starts for root meanwhile runs as it. A caller holds the workspace for as
// long as any program it started there runs, and releases it once they
// have ended (the Kernel and Local do); the uid may then go to another
// workspace. Command without a hold takes a uid kept until Sift exits.
//
// The hold also keeps the workspace's session control group (see
// cgroup.go): releasing the last hold ends every process still in
// it and removes it.
func (b *bwrapSandbox) Hold(root string) (release func(), err error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("bwrap sandbox: workspace root: %w", err)
	}
	releaseGroup, err := sessionCgroups.hold(real, b.limits)
	if err != nil {
		return nil, fmt.Errorf("bwrap sandbox: %w", err)
	}
	if b.setpriv == "" {
		return releaseGroup, nil
	}
	_, releaseUID, err := b.uids.hold(real, false)
	if err != nil {
		releaseGroup()
		return nil, fmt.Errorf("bwrap sandbox: %w", err)
	}
	return func() { releaseGroup(); releaseUID() }, nil
}

// programPid returns the host pid of the program cmd runs (not bubblewrap
// around it).
func (b *bwrapSandbox) programPid(cmd *exec.Cmd) (int, error) {
	return findSandboxedProgram(cmd.Process, findProgramTimeout, b.innerBwrap())
}

// userEtc returns the directory of the synthesized /etc files for a
// program running as uid: the shared ones, with uid named "sift" in passwd
// and group.
func (b *bwrapSandbox) userEtc(uid int) (string, error) {
	dir := filepath.Join(b.etcDir, "u"+strconv.Itoa(uid))
	files := sandboxEtcFiles(os.Getuid(), os.Getgid())
	files["passwd"] += fmt.Sprintf("sift:x:%d:%d:sift sandbox:/nonexistent:/usr/sbin/nologin\n", uid, uid)
	files["group"] += fmt.Sprintf("sift:x:%d:\n", uid)
	etcMu.Lock()
	defer etcMu.Unlock()
	if err := WriteFiles(dir, files); err != nil {
		return "", fmt.Errorf("sandbox /etc files for uid %d: %w", uid, err)
	}
	return dir, nil
}

// args builds bubblewrap's arguments for spec in the workspace root, run as
// uid (when Sift is root) with the /etc files of etcDir; root "" builds the
// probe (no workspace).
func (b *bwrapSandbox) args(spec ProcSpec, root string, uid int, etcDir string) ([]string, error) {
	args := []string{
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--hostname", "sift",
		"--die-with-parent", "--new-session",
	}
	if b.setpriv != "" {
		// Root on the host: no user namespace (uid 0 inside one would still
		// be root outside, where rlimits are checked); setpriv drops to an
		// unprivileged user instead, and until then only the capabilities
		// it needs are kept.
		args = append(args, "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP")
	} else {
		args = append(args, "--unshare-user")
		if b.disableUserns {
			args = append(args, "--disable-userns")
		}
	}

	m := newMountPlan()
	for _, d := range systemDirs {
		fi, err := os.Lstat(d)
		if err != nil {
			continue
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(d)
			if err != nil {
				return nil, err
			}
			m.symlink(target, d)
		} else if fi.IsDir() {
			m.bind("--ro-bind", d, d)
		}
	}
	if err := m.etc(etcDir); err != nil {
		return nil, err
	}
	m.special("--proc", "/proc", "", 0)
	m.special("--dev", "/dev", "", 0)
	size := b.limits.Tighter(spec.Limits).FileSizeBytes
	m.special("--tmpfs", "/tmp", "1777", size)
	m.special("--tmpfs", "/dev/shm", "1777", size)

	programs := []string{spec.Argv[0]}
	if b.setpriv != "" {
		programs = append(programs, b.setpriv)
		if b.disableUserns {
			programs = append(programs, b.bwrap)
		}
	}
	limits := b.limits.Tighter(spec.Limits)
	if limits.prlimitArgs() != nil {
		p, err := prlimitPath()
		if err != nil {
			return nil, err
		}
		programs = append(programs, p)
	}
	for _, p := range programs {
		for _, dir := range programMounts(p) {
			if root != "" && Within(root, dir) {
				continue
			}
			m.bind("--ro-bind", dir, dir)
		}
	}

	chdir := "/"
	if root != "" {
		// The workspace's own files (plan, events, checkpoint, session
		// and database records) are Sift's, not the code's: the root is
		// read-only, and only work/ and out/ are writable on top of it.
		m.bind("--ro-bind", root, root)
		for _, dir := range []string{WorkDir, OutDir} {
			p := filepath.Join(root, dir)
			m.bind("--bind", p, p)
		}
		input := filepath.Join(root, InputDir)
		m.bind("--ro-bind", input, input)
		for _, p := range spec.Writable {
			m.bind("--bind", p, p)
		}
		for _, p := range spec.ReadOnly {
			m.bind("--ro-bind", p, p)
		}
		chdir = root
	}
	args = append(args, m.args...)
	// The sandbox's own root (a tmpfs) read-only: in a user namespace it
	// belongs to the program's user, who could otherwise fill memory
	// through it (/ and /etc); the mounts above are unchanged.
	args = append(args, "--remount-ro", "/")
	args = append(args, "--chdir", chdir, "--clearenv")
	for _, kv := range spec.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("environment entry %q is not KEY=value", kv)
		}
		args = append(args, "--setenv", k, v)
	}
	args = append(args, "--")
	if b.setpriv != "" {
		args = append(args, b.setpriv,
			fmt.Sprintf("--reuid=%d", uid), fmt.Sprintf("--regid=%d", uid),
			"--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--")
		if b.disableUserns {
			// The unprivileged user could make a user namespace of its own
			// (and be root in it: mount a tmpfs no limit counts). An inner
			// bubblewrap, run as that user, puts the program in a user
			// namespace that can create no other, seeing the same mounts
			// (devices included) and mapping only the user itself.
			args = append(args, innerBwrapArgs(b.bwrap)...)
		}
	}
	argv, err := withLimits(limits, spec.Argv)
	if err != nil {
		return nil, err
	}
	return append(args, argv...), nil
}

// programMounts returns the host paths to bind read-only so that the
// program at path can run: nothing when it lies in the system directories;
// for a Python interpreter elsewhere (pyenv, a virtualenv, conda), the bin,
// lib and lib64 directories and pyvenv.cfg of its prefix, of the prefix its
// symlinks lead to, and of a virtualenv's base interpreter; for any other
// program, the file itself.
func programMounts(path string) []string {
	paths := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		paths = append(paths, real)
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || seen[p] || inSystemDirs(p) {
			return
		}
		if _, err := os.Stat(p); err != nil {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	var addPrefix func(prefix string, depth int)
	addPrefix = func(prefix string, depth int) {
		if prefix == "/" || inSystemDirs(prefix) {
			return
		}
		for _, sub := range []string{"bin", "lib", "lib64", "pyvenv.cfg"} {
			add(filepath.Join(prefix, sub))
		}
		// A virtualenv names its base interpreter's bin directory.
		if home := pyvenvHome(filepath.Join(prefix, "pyvenv.cfg")); home != "" && depth < 3 {
			addPrefix(filepath.Dir(home), depth+1)
		}
	}
	for _, p := range paths {
		if inSystemDirs(p) {
			continue
		}
		if strings.HasPrefix(filepath.Base(p), "python") && filepath.Base(filepath.Dir(p)) == "bin" {
			addPrefix(filepath.Dir(filepath.Dir(p)), 0)
		} else {
			add(p)
		}
	}
	return out
}

// pyvenvHome returns the "home" setting of a virtualenv's pyvenv.cfg, or "".
func pyvenvHome(cfg string) string {
	data, err := os.ReadFile(cfg)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "home" {
			if h := strings.TrimSpace(v); filepath.IsAbs(h) {
				return filepath.Clean(h)
			}
		}
	}
	return ""
}

// inSystemDirs reports whether path lies in one of the system directories
// every sandbox sees.
func inSystemDirs(path string) bool {
	for _, d := range systemDirs {
		if Within(d, path) {
			return true
		}
	}
	return false
}

// bwrapProbe is the cached answer to "does this bubblewrap work here?".
type bwrapProbe struct {
	once          sync.Once
	err           error
	disableUserns bool
}

// bwrapProbes caches probes per bubblewrap path and privilege (root or
// not): the answer does not change while the process runs.
var bwrapProbes sync.Map // bwrapProbeKey -> *bwrapProbe

type bwrapProbeKey struct {
	path string
	root bool
}

// probeBwrap runs, once per key, /bin/true inside the sandbox b would
// build, with the same namespaces, mounts and privilege drop.
func probeBwrap(b *bwrapSandbox) *bwrapProbe {
	v, _ := bwrapProbes.LoadOrStore(bwrapProbeKey{b.bwrap, b.setpriv != ""}, &bwrapProbe{})
	p := v.(*bwrapProbe)
	p.once.Do(func() {
		// A sandbox that worked for an earlier run, with every file and
		// setting it depends on unchanged, is believed; the kernel's
		// start checks it again, and clears the cache when it fails.
		diskKey := bwrapProbeKeyOf(b)
		if e, ok := probecache.Lookup(diskKey); ok {
			p.disableUserns = e.DisableUserns
			return
		}
		defer func() {
			if p.err == nil {
				probecache.Remember(diskKey, probecache.Entry{Kind: "bwrap", DisableUserns: p.disableUserns})
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), bwrapProbeTimeout)
		defer cancel()
		help, _ := exec.CommandContext(ctx, b.bwrap, "--help").CombinedOutput()
		run := func(disableUserns bool, argv ...string) (string, error) {
			try := *b
			try.disableUserns = disableUserns
			if len(argv) == 0 {
				argv = []string{"/bin/true"}
			}
			args, err := try.args(ProcSpec{Argv: argv}, "", sandboxUID, b.etcDir)
			if err != nil {
				return "", err
			}
			cmd := exec.CommandContext(ctx, b.bwrap, args...)
			cmd.Env = []string{}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err = cmd.Run()
			return strings.TrimSpace(stderr.String()), err
		}
		// --disable-userns (bubblewrap 0.8+) keeps code from making user
		// namespaces of its own (bubblewrap checks that it did); use it
		// when it works, and do without it only where the host keeps the
		// sandbox's user from creating them anyway.
		p.disableUserns = bytes.Contains(help, []byte("--disable-userns"))
		detail, err := run(p.disableUserns)
		if err != nil && p.disableUserns {
			p.disableUserns = false
			detail, err = run(false)
		}
		if err == nil && !p.disableUserns {
			if unshare, lerr := exec.LookPath("unshare"); lerr == nil {
				if _, uerr := run(false, unshare, "--user", "/bin/true"); uerr == nil {
					p.err = fmt.Errorf("%w: bubblewrap at %s cannot keep sandboxed code from creating user namespaces (that needs bubblewrap 0.8 or later, for --disable-userns), and this host lets it create them: code could then mount file systems no limit counts; upgrade bubblewrap, or forbid unprivileged user namespaces on this host (sysctl user.max_user_namespaces=0), %s", ErrNoSandbox, b.bwrap, allowNoneHint)
					return
				}
			}
		}
		if err != nil {
			if detail == "" {
				detail = err.Error()
			}
			hint := "check that this system allows creating namespaces"
			if b.setpriv == "" {
				hint = "unprivileged user namespaces may be disabled: check `sysctl user.max_user_namespaces kernel.unprivileged_userns_clone kernel.apparmor_restrict_unprivileged_userns`"
			}
			p.err = fmt.Errorf("%w: bubblewrap at %s cannot start a sandbox here (%s); %s, %s", ErrNoSandbox, b.bwrap, detail, hint, allowNoneHint)
		}
	})
	return p
}

// Signal delivers sig to the sandboxed program. cmd's process is bubblewrap;
// with a new pid namespace bubblewrap forks an init (pid 1 there), which
// forks the program (pid 2 there). Signal finds that process through
// /proc, waiting briefly when the sandbox is still being set up. It returns
// os.ErrProcessDone when the program has ended.
func (b *bwrapSandbox) Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd == nil || cmd.Process == nil {
		return os.ErrProcessDone
	}
	pid, err := findSandboxedProgram(cmd.Process, findProgramTimeout, b.innerBwrap())
	if err != nil {
		return fmt.Errorf("signal sandboxed program: %w", err)
	}
	if err := syscall.Kill(pid, sig); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return fmt.Errorf("signal sandboxed program: %w", err)
	}
	return nil
}

// innerBwrapArgs starts the inner bubblewrap of a root-run sandbox (see
// bwrapSandbox.disableUserns): a user namespace mapping only the caller's
// user, that can create no further one, over the same mounts.
func innerBwrapArgs(bwrap string) []string {
	// A pid namespace of its own too, so that the program's parent is an
	// init it cannot signal (and the inner bubblewrap out of its reach).
	// /proc stays the sandbox's: the kernel refuses a new proc mount in a
	// user namespace where bubblewrap has covered parts of the old one.
	return []string{bwrap, "--unshare-user", "--disable-userns", "--unshare-pid", "--die-with-parent",
		"--dev-bind", "/", "/", "--"}
}

// innerBwrap is the path of the inner bubblewrap the sandbox runs programs
// through, or "" when it runs none.
func (b *bwrapSandbox) innerBwrap() string {
	if b.setpriv == "" || !b.disableUserns {
		return ""
	}
	if real, err := filepath.EvalSymlinks(b.bwrap); err == nil {
		return real // as /proc/PID/exe shows it
	}
	return b.bwrap
}

// userNamespaceSettings are the sysctls that decide whether an ordinary
// user may create the namespaces bubblewrap needs.
var userNamespaceSettings = []string{
	"/proc/sys/user/max_user_namespaces",
	"/proc/sys/kernel/unprivileged_userns_clone",
	"/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
}

// etcKeyDir stands for the directory of the synthesized /etc files in a
// probe's key.
const etcKeyDir = "/sift-etc"

// bwrapProbeKeyOf hashes what probeBwrap's answer depends on: the
// bubblewrap, setpriv and prlimit executables, the user Sift runs as, the
// running kernel and its user-namespace settings, and the sandbox's
// arguments (mounts, namespaces, privilege drop).
func bwrapProbeKeyOf(b *bwrapSandbox) string {
	parts := []string{"bwrap", probecache.FileIdentity(b.bwrap), fmt.Sprintf("euid=%d uid=%d gid=%d", os.Geteuid(), os.Getuid(), os.Getgid())}
	if b.setpriv != "" {
		parts = append(parts, probecache.FileIdentity(b.setpriv))
	}
	if p, err := prlimitPath(); err == nil {
		parts = append(parts, probecache.FileIdentity(p))
	}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		parts = append(parts, "kernel="+unix.ByteSliceToString(u.Release[:])+" "+unix.ByteSliceToString(u.Version[:]))
	}
	for _, s := range userNamespaceSettings {
		parts = append(parts, probecache.FileContent(s))
	}
	// The arguments as the probe starts from them: whether user
	// namespaces can be disabled is the probe's answer, not part of what
	// it depends on; nor is where the synthesized /etc files are kept
	// (under the user's cache directory, which follows $HOME, or a
	// temporary directory named afresh by each process): their content
	// follows from the user and group, which the key holds.
	base := *b
	base.disableUserns = false
	args, err := base.args(ProcSpec{Argv: []string{"/bin/true"}}, "", sandboxUID, etcKeyDir)
	if err != nil {
		parts = append(parts, "args error "+err.Error())
	}
	parts = append(parts, strings.Join(args, "\x00"))
	return probecache.Key(parts...)
}
