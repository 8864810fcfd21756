package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A session's processes, all of them, live in a control group of their
// own, so that memory and processes are limited for the session as a whole
// (summed over every process a cell starts), not process by process as
// rlimits are, and so that a cell's processes can be found and ended
// whatever they did to leave their process group.
//
// The groups are made beneath the ones Sift itself runs in: with cgroup v2
// where its memory and pids controllers are delegated to Sift's group,
// otherwise with the v1 memory and pids hierarchies. Each workspace held
// (see Hold) has a session group carrying the limits:
//
//	<Sift's group>/sift-<pid>-<n>/       memory and pids limits of the session
//	<Sift's group>/sift-<pid>-<n>/p<k>/  one program (a kernel, a process-mode cell)
//
// A program joins its group before it runs anything (a tiny /bin/sh shim
// writes its own pid into the group and execs the sandbox), so nothing it
// forks is ever outside it. When neither version is usable (no root, no
// delegation), the sandbox still starts, falls back to the per-process
// rlimits and says so through Warnings.

// cgroupNamePrefix starts the name of every session group.
const cgroupNamePrefix = "sift-"

// cgroupRemoveWait bounds how long removing a group waits for its killed
// processes to leave it.
const cgroupRemoveWait = 3 * time.Second

// cgroupHost is where this process can make groups.
type cgroupHost struct {
	// v2: dirs holds the one unified directory.
	v2 bool
	// dirs are Sift's own group directories, one per hierarchy used
	// (v1: the memory and the pids hierarchy).
	dirs []string
	// controllers names what each directory limits: "memory" or "pids"
	// (v1), or both (v2).
	controllers [][]string
	// problem says why session limits are missing or partial; "" when
	// memory and processes are both limited per session.
	problem string
}

// usable reports whether any session limit can be applied.
func (h *cgroupHost) usable() bool { return len(h.dirs) > 0 }

// hostCgroups finds, once, where this process can make groups.
var hostCgroups = sync.OnceValue(func() *cgroupHost {
	return detectCgroups("/proc/self/cgroup", "/proc/self/mountinfo")
})

// detectCgroups reads the process's groups and the cgroup mounts, and
// chooses v2 when it delegates both controllers, else v1.
func detectCgroups(cgroupFile, mountinfoFile string) *cgroupHost {
	paths, unified := readProcCgroup(cgroupFile)
	mounts := readCgroupMounts(mountinfoFile)
	var why []string
	if m, ok := mounts["cgroup2"]; ok && unified != "" {
		dir, ok := m.dirFor(unified)
		switch ctrl := readWords(filepath.Join(dir, "cgroup.controllers")); {
		case !ok:
			why = append(why, "cgroup v2: Sift's group "+unified+" is outside the mounted hierarchy")
		case !slices.Contains(ctrl, "memory") || !slices.Contains(ctrl, "pids"):
			why = append(why, fmt.Sprintf("cgroup v2: the memory and pids controllers are not delegated to Sift's group %s (it has %q)", dir, strings.Join(ctrl, " ")))
		default:
			if err := enableV2Controllers(dir); err != nil {
				why = append(why, "cgroup v2: "+err.Error())
			} else if err := probeMkdir(dir); err != nil {
				why = append(why, "cgroup v2: "+err.Error())
			} else {
				return &cgroupHost{v2: true, dirs: []string{dir}, controllers: [][]string{{"memory", "pids"}}}
			}
		}
	}
	h := &cgroupHost{}
	for _, c := range []string{"memory", "pids"} {
		m, ok := mounts[c]
		p, in := paths[c]
		if !ok || !in {
			why = append(why, "cgroup v1: no "+c+" hierarchy is mounted")
			continue
		}
		dir, ok := m.dirFor(p)
		if !ok {
			why = append(why, "cgroup v1: Sift's "+c+" group "+p+" is outside the mounted hierarchy")
			continue
		}
		if err := probeMkdir(dir); err != nil {
			why = append(why, "cgroup v1 "+c+": "+err.Error())
			continue
		}
		h.dirs = append(h.dirs, dir)
		h.controllers = append(h.controllers, []string{c})
	}
	if len(h.dirs) < 2 {
		h.problem = strings.Join(why, "; ")
	}
	return h
}

// cgroupMount is one mounted cgroup hierarchy: the group at its root and
// where it is mounted.
type cgroupMount struct{ root, point string }

// dirFor returns the directory of group path in the mount.
func (m cgroupMount) dirFor(path string) (string, bool) {
	rel, err := filepath.Rel(m.root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.Join(m.point, rel), true
}

// readProcCgroup returns the process's v1 group per controller and its v2
// group ("" without one).
func readProcCgroup(file string) (v1 map[string]string, v2 string) {
	v1 = map[string]string{}
	f, err := os.Open(file)
	if err != nil {
		return v1, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2 = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			v1[c] = parts[2]
		}
	}
	return v1, v2
}

// readCgroupMounts returns the cgroup mounts by controller ("cgroup2" for
// the unified hierarchy), the first of each.
func readCgroupMounts(file string) map[string]cgroupMount {
	out := map[string]cgroupMount{}
	f, err := os.Open(file)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// id parent major:minor root point options... - fstype source super
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f1, f2 := strings.Fields(pre), strings.Fields(post)
		if len(f1) < 5 || len(f2) < 3 {
			continue
		}
		m := cgroupMount{root: unescapeMount(f1[3]), point: unescapeMount(f1[4])}
		switch f2[0] {
		case "cgroup2":
			if _, seen := out["cgroup2"]; !seen {
				out["cgroup2"] = m
			}
		case "cgroup":
			for _, opt := range strings.Split(f2[2], ",") {
				if _, seen := out[opt]; !seen && (opt == "memory" || opt == "pids") {
					out[opt] = m
				}
			}
		}
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readWords returns the words of a small file, or nil.
func readWords(file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	return strings.Fields(string(data))
}

// enableV2Controllers makes memory and pids available to the groups made
// in dir. The kernel refuses while dir itself holds processes (unless it
// is the root group); when Sift is alone in dir (a group delegated to it),
// it first moves itself into a leaf group of its own, dir/sift-self, as
// container runtimes do. Otherwise Sift must be started in a group of its
// own with the controllers delegated.
func enableV2Controllers(dir string) error {
	control := filepath.Join(dir, "cgroup.subtree_control")
	have := readWords(control)
	if slices.Contains(have, "memory") && slices.Contains(have, "pids") {
		return nil
	}
	err := os.WriteFile(control, []byte("+memory +pids"), 0)
	if errors.Is(err, syscall.EBUSY) && slices.Equal(readWords(filepath.Join(dir, "cgroup.procs")), []string{strconv.Itoa(os.Getpid())}) {
		leaf := filepath.Join(dir, cgroupNamePrefix+"self")
		if merr := os.Mkdir(leaf, 0o755); merr == nil || errors.Is(merr, os.ErrExist) {
			if os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0) == nil {
				err = os.WriteFile(control, []byte("+memory +pids"), 0)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("cannot enable memory and pids for groups under %s (%v): start Sift in a group of its own with those controllers delegated (systemd: Delegate=yes)", dir, err)
	}
	return nil
}

// probeMkdir checks that a group can be made (and removed) in dir.
func probeMkdir(dir string) error {
	p := filepath.Join(dir, fmt.Sprintf("%sprobe-%d", cgroupNamePrefix, os.Getpid()))
	if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("cannot make groups under %s (%v): run Sift as root, or in a cgroup v2 group delegated to its user", dir, err)
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("cannot remove a group under %s: %v", dir, err)
	}
	return nil
}

// sessionGroup is the group of one workspace: its limits, and one child
// group per program started there.
type sessionGroup struct {
	name   string
	limits Limits
	holds  int
	next   int // the next program's number
	// programs are the group directories of each program started here.
	programs map[*exec.Cmd][]string
}

// cgroupRegistry keeps the session groups of this process, one per
// workspace root.
type cgroupRegistry struct {
	host     func() *cgroupHost
	mu       sync.Mutex
	sessions map[string]*sessionGroup
	seq      int
	swept    bool
}

// sessionCgroups is the registry every sandbox of this process shares, as
// workspaces are shared.
var sessionCgroups = &cgroupRegistry{host: hostCgroups, sessions: map[string]*sessionGroup{}}

// hold keeps root's session group (making it with limits l when it has
// none) until release; the last release kills whatever still runs in it
// and removes it.
func (r *cgroupRegistry) hold(root string, l Limits) (release func(), err error) {
	h := r.host()
	if !h.usable() {
		return func() {}, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.session(h, root, l)
	if err != nil {
		return nil, err
	}
	s.holds++
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if s.holds--; s.holds > 0 || r.sessions[root] != s {
				return
			}
			delete(r.sessions, root)
			for _, dir := range h.dirs {
				removeGroup(filepath.Join(dir, s.name))
			}
		})
	}, nil
}

// session returns root's group, making it when missing; r.mu is held.
func (r *cgroupRegistry) session(h *cgroupHost, root string, l Limits) (*sessionGroup, error) {
	if s := r.sessions[root]; s != nil {
		return s, nil
	}
	if !r.swept {
		r.swept = true
		for _, dir := range h.dirs {
			sweepStaleGroups(dir)
		}
	}
	r.seq++
	s := &sessionGroup{
		name:     fmt.Sprintf("%s%d-%d", cgroupNamePrefix, os.Getpid(), r.seq),
		limits:   l.Tighter(Limits{}),
		programs: map[*exec.Cmd][]string{},
	}
	for i, dir := range h.dirs {
		p := filepath.Join(dir, s.name)
		if err := os.Mkdir(p, 0o755); err != nil {
			for _, d := range h.dirs[:i] {
				removeGroup(filepath.Join(d, s.name))
			}
			return nil, fmt.Errorf("make the session's control group %s: %w", p, err)
		}
		if err := writeGroupLimits(p, h.v2, h.controllers[i], s.limits); err != nil {
			for _, d := range h.dirs[:i+1] {
				removeGroup(filepath.Join(d, s.name))
			}
			return nil, err
		}
	}
	r.sessions[root] = s
	return s, nil
}

// command returns argv started in a group of its own in root's session
// (making the session's group, kept until this process ends, when nobody
// holds it), with limits l (where tighter than the session's) on that
// group: the program joins it before it runs anything. Without groups here
// it returns the plain command. Groups of earlier programs that have ended
// are removed on the way.
func (r *cgroupRegistry) command(root string, l Limits, argv []string) (*exec.Cmd, error) {
	h := r.host()
	if !h.usable() {
		return exec.Command(argv[0], argv[1:]...), nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.session(h, root, l)
	if err != nil {
		return nil, err
	}
	s.next++
	name := "p" + strconv.Itoa(s.next)
	live := map[string]bool{}
	for _, dirs := range s.programs {
		for _, d := range dirs {
			live[d] = true
		}
	}
	var procs, dirs []string
	for i, dir := range h.dirs {
		sdir := filepath.Join(dir, s.name)
		old, _ := filepath.Glob(filepath.Join(sdir, "p*"))
		for _, o := range old {
			// A group made for a program that has not joined it yet is
			// empty too: removing it would make that program's join fail
			// (EIO, or no such file). Only groups of programs that have
			// ended (see finished) go.
			if !live[o] {
				_ = os.Remove(o) // fails (EBUSY) while a stray still runs there
			}
		}
		p := filepath.Join(sdir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			return nil, fmt.Errorf("make a program's control group %s: %w", p, err)
		}
		if tight := s.limits.Tighter(l); tight != s.limits {
			if err := writeGroupLimits(p, h.v2, h.controllers[i], tight); err != nil {
				return nil, err
			}
		}
		dirs = append(dirs, p)
		procs = append(procs, filepath.Join(p, "cgroup.procs"))
	}
	full := joinCgroupArgv(procs, argv)
	cmd := exec.Command(full[0], full[1:]...)
	s.programs[cmd] = dirs
	return cmd, nil
}

// groupOf returns the group directories of a program cmd started through
// command, or nil.
func (r *cgroupRegistry) groupOf(cmd *exec.Cmd) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sessions {
		if dirs, ok := s.programs[cmd]; ok {
			return dirs
		}
	}
	return nil
}

// finished tells the registry that cmd (started through command) has
// ended: whatever it left in its group is killed, and the group is
// removed then or by a later program's start.
func (r *cgroupRegistry) finished(cmd *exec.Cmd) {
	var dirs []string
	r.mu.Lock()
	for _, s := range r.sessions {
		if d, ok := s.programs[cmd]; ok {
			dirs = d
			delete(s.programs, cmd)
			break
		}
	}
	r.mu.Unlock()
	if len(dirs) > 0 {
		killGroup(dirs[0], nil)
	}
	for _, d := range dirs {
		_ = os.Remove(d)
	}
}

// writeGroupLimits writes l's memory and process limits into the group at
// dir.
func writeGroupLimits(dir string, v2 bool, controllers []string, l Limits) error {
	type setting struct {
		file, value string
		optional    bool
	}
	var set []setting
	if slices.Contains(controllers, "memory") && l.MemoryBytes > 0 {
		v := strconv.FormatInt(l.MemoryBytes, 10)
		if v2 {
			set = append(set, setting{"memory.max", v, false}, setting{"memory.swap.max", "0", true})
		} else {
			// memsw (memory and swap) exists only with swap accounting,
			// and must not be below the memory limit: written after it.
			set = append(set, setting{"memory.limit_in_bytes", v, false}, setting{"memory.memsw.limit_in_bytes", v, true})
		}
	}
	if slices.Contains(controllers, "pids") && l.Processes > 0 {
		set = append(set, setting{"pids.max", strconv.Itoa(l.Processes), false})
	}
	for _, s := range set {
		p := filepath.Join(dir, s.file)
		if err := os.WriteFile(p, []byte(s.value), 0); err != nil && !s.optional {
			return fmt.Errorf("set the session's limit %s=%s: %w", p, s.value, err)
		}
	}
	return nil
}

// groupPids lists the processes in the group at dir and in the groups
// directly below it (a session's programs; code in the sandbox cannot
// make groups of its own).
func groupPids(dir string) []int {
	var out []int
	add := func(d string) {
		for _, w := range readWords(filepath.Join(d, "cgroup.procs")) {
			if pid, err := strconv.Atoi(w); err == nil {
				out = append(out, pid)
			}
		}
	}
	add(dir)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			add(filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// killGroup kills every process in the group at dir (and below it) but
// those in keep, again and again until none is left (a process may fork
// while the list is read); it returns how many it killed.
func killGroup(dir string, keep []int) int {
	killed := 0
	deadline := time.Now().Add(cgroupRemoveWait)
	for {
		var left []int
		for _, pid := range groupPids(dir) {
			if !slices.Contains(keep, pid) {
				left = append(left, pid)
			}
		}
		live := 0
		for _, pid := range left {
			if processState(pid) == 'Z' {
				continue // killed; its parent has yet to reap it
			}
			live++
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
		if live == 0 || time.Now().After(deadline) {
			return killed
		}
		time.Sleep(time.Millisecond)
	}
}

// removeGroup kills everything in the group at dir and removes it and the
// groups below it, waiting briefly for the killed processes to leave.
func removeGroup(dir string) {
	if err := os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0); err != nil {
		killGroup(dir, nil)
	}
	deadline := time.Now().Add(cgroupRemoveWait)
	for {
		subs, _ := filepath.Glob(filepath.Join(dir, "*", "cgroup.procs"))
		for _, s := range subs {
			_ = os.Remove(filepath.Dir(s))
		}
		err := os.Remove(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
			return
		}
		killGroup(dir, nil)
		time.Sleep(5 * time.Millisecond)
	}
}

// sweepStaleGroups removes the empty session groups under dir that
// processes which no longer exist left behind (a Sift killed with its
// sessions open). A group that still holds processes is left alone: its
// pid may name a Sift in another pid namespace.
func sweepStaleGroups(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cgroupNamePrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		g := filepath.Join(dir, e.Name())
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) && len(groupPids(g)) == 0 {
			subs, _ := filepath.Glob(filepath.Join(g, "*", "cgroup.procs"))
			for _, s := range subs {
				_ = os.Remove(filepath.Dir(s))
			}
			_ = os.Remove(g)
		}
	}
}

// joinCgroupScript is the shim a program starts through: it writes its own
// pid into each file named (the count first), then execs the rest.
const joinCgroupScript = `n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ >"$1" || { echo "sift: cannot join the session's control group $1" >&2; exit 125; }; n=$((n-1)); shift; done; exec "$@"`

// joinCgroupArgv returns argv started through the shim that joins procs
// first; argv alone when procs is empty.
func joinCgroupArgv(procs, argv []string) []string {
	if len(procs) == 0 {
		return argv
	}
	out := []string{"/bin/sh", "-c", joinCgroupScript, "sift-cgroup", strconv.Itoa(len(procs))}
	out = append(out, procs...)
	return append(out, argv...)
}

// programChain returns the program (a host pid) and the processes between
// it and cmd's own (a sandbox's wrappers), cmd's included: what endStrays
// keeps.
func programChain(cmd *exec.Cmd, program int) []int {
	top := cmd.Process.Pid
	keep := []int{top}
	for p := program; p > 1 && p != top && len(keep) < 16; p = parentPid(p) {
		keep = append(keep, p)
	}
	return keep
}

// endStrays kills every process in cmd's group but those of keep (see
// programChain): what a cell started and left behind. It returns how many
// it killed.
func endStrays(cmd *exec.Cmd, keep []int) int {
	// Every hierarchy holds the same processes: one is enough to find them.
	if dirs := sessionCgroups.groupOf(cmd); len(dirs) > 0 {
		return killGroup(dirs[0], keep)
	}
	return 0
}

// EndGroup kills every process left in cmd's group (cmd itself having
// ended, or being killed).
func EndGroup(cmd *exec.Cmd) {
	if dirs := sessionCgroups.groupOf(cmd); len(dirs) > 0 {
		killGroup(dirs[0], nil)
	}
}

// Warnings returns what a person running Sift should be told about sb's
// containment, loudly: limits it cannot apply here, and why. Empty when
// every limit holds.
//
// It also takes back the session disks that Sift processes killed while
// holding them left mounted (see quota.go): every run and chat asks
// for the warnings as it starts.
func Warnings(sb Sandbox) []string {
	diskQuotas.sweep()
	w := warningsFor(sb, hostCgroups())
	if _, ok := sb.(limitedSandbox); ok && diskBudgetOf(sb, "", Limits{}) != nil {
		if q := quotaWarning(hostQuota()); q != "" {
			w = append(w, q)
		}
	}
	return w
}

// warningsFor is Warnings with the groups h offers.
func warningsFor(sb Sandbox, h *cgroupHost) []string {
	if _, ok := sb.(limitedSandbox); !ok {
		return nil
	}
	if h.problem != "" {
		what := "memory and processes are limited per process only (rlimits), not per session"
		if h.usable() {
			what = "some session limits are missing"
		}
		return []string{"WARNING: " + what + ": " + h.problem + "."}
	}
	return nil
}
