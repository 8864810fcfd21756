package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeCgroupFS writes a /proc/self/cgroup and a mountinfo naming the
// hierarchies in mounts (fstype and super options -> directory under a
// temporary root, made), and returns the two files and the root.
func fakeCgroupFS(t *testing.T, procCgroup string, mounts map[string]string) (cgroupFile, mountinfo, root string) {
	t.Helper()
	root = t.TempDir()
	var mi strings.Builder
	for spec, dir := range mounts {
		fstype, opts, _ := strings.Cut(spec, ":")
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		mi.WriteString("30 1 0:26 / " + filepath.Join(root, dir) + " rw,relatime - " + fstype + " cgroup rw," + opts + "\n")
	}
	cgroupFile = filepath.Join(root, "cgroup")
	mountinfo = filepath.Join(root, "mountinfo")
	for p, s := range map[string]string{cgroupFile: procCgroup, mountinfo: mi.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cgroupFile, mountinfo, root
}

func TestDetectCgroups(t *testing.T) {
	// This machine's kind: v1 memory and pids, and a unified hierarchy
	// that delegates neither.
	t.Run("v1 where v2 delegates nothing", func(t *testing.T) {
		cg, mi, root := fakeCgroupFS(t, "8:pids:/\n4:memory:/jobs/j1\n0::/\n", map[string]string{
			"cgroup:memory": "memory", "cgroup:pids": "pids", "cgroup2:": "unified",
		})
		if err := os.MkdirAll(filepath.Join(root, "memory/jobs/j1"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "unified/cgroup.controllers"), []byte("hugetlb\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		h := detectCgroups(cg, mi)
		want := []string{filepath.Join(root, "memory/jobs/j1"), filepath.Join(root, "pids")}
		if h.v2 || h.problem != "" || !cmp.Equal(h.dirs, want) {
			t.Errorf("detect = v2 %v, dirs %v, problem %q; want v1 in %v", h.v2, h.dirs, h.problem, want)
		}
		if w := warningsFor(noSandbox{}, h); len(w) != 0 {
			t.Errorf("warnings = %q; want none", w)
		}
	})
	t.Run("v2 where it delegates memory and pids", func(t *testing.T) {
		cg, mi, root := fakeCgroupFS(t, "0::/svc\n", map[string]string{"cgroup2:": "unified"})
		dir := filepath.Join(root, "unified/svc")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, s := range map[string]string{"cgroup.controllers": "cpu memory pids", "cgroup.subtree_control": "memory pids"} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if h := detectCgroups(cg, mi); !h.v2 || !cmp.Equal(h.dirs, []string{dir}) || h.problem != "" {
			t.Errorf("detect = v2 %v, dirs %v, problem %q; want v2 in %s", h.v2, h.dirs, h.problem, dir)
		}
	})
	t.Run("none: said loudly", func(t *testing.T) {
		cg, mi, _ := fakeCgroupFS(t, "0::/\n", nil)
		h := detectCgroups(cg, mi)
		if h.usable() || !strings.Contains(h.problem, "no memory hierarchy") {
			t.Errorf("detect = dirs %v, problem %q; want none usable, and why", h.dirs, h.problem)
		}
		w := warningsFor(noSandbox{}, h)
		if len(w) != 1 || !strings.HasPrefix(w[0], "WARNING: memory and processes are limited per process only") {
			t.Errorf("warnings = %q; want one saying the limits are per process", w)
		}
	})
}

func TestJoinCgroupArgv(t *testing.T) {
	if got := joinCgroupArgv(nil, []string{"/bin/true"}); !cmp.Equal(got, []string{"/bin/true"}) {
		t.Errorf("without groups = %q; want the command alone", got)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	argv := joinCgroupArgv([]string{a, b}, []string{"/bin/sh", "-c", `echo "$$"`})
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{a, b} {
		got, _ := os.ReadFile(f)
		if strings.TrimSpace(string(got)) != strings.TrimSpace(string(out)) {
			t.Errorf("%s = %q; want the program's own pid %q (it joins before it runs)", f, got, out)
		}
	}
}

// TestSweepStaleGroups: an empty session group left by a process that
// has ended is removed; one of a live process is kept.
func TestSweepStaleGroups(t *testing.T) {
	needSessionGroups(t)
	ended := exec.Command("/bin/true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	dir := hostCgroups().dirs[0]
	stale := filepath.Join(dir, fmt.Sprintf("%s%d-1", cgroupNamePrefix, ended.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf("%s%d-999", cgroupNamePrefix, os.Getppid()))
	for _, g := range []string{stale, filepath.Join(stale, "p1"), live} {
		if err := os.Mkdir(g, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { removeGroup(stale); removeGroup(live) })
	sweepStaleGroups(dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the group of an ended process is still there (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the group of a live process was removed: %v", err)
	}
}

// TestProgramGroupKeptUntilItsProgramEnds: a program's group, made but not
// joined yet (its program not started), is empty like an ended program's;
// another program's start must not remove it, or the first program's join
// fails (parallel branches starting their kernels did, with EIO). Once the
// program has finished, its group goes.
func TestProgramGroupKeptUntilItsProgramEnds(t *testing.T) {
	dir := t.TempDir()
	r := &cgroupRegistry{
		host:     func() *cgroupHost { return &cgroupHost{dirs: []string{dir}, controllers: [][]string{{"pids"}}} },
		sessions: map[string]*sessionGroup{},
	}
	first, err := r.command("/work/a", Limits{}, []string{"/bin/true"})
	if err != nil {
		t.Fatal(err)
	}
	firstDirs := r.groupOf(first)
	if len(firstDirs) != 1 {
		t.Fatalf("first program's groups = %v; want one", firstDirs)
	}
	second, err := r.command("/work/a", Limits{}, []string{"/bin/true"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(firstDirs[0]); err != nil {
		t.Fatalf("starting a second program removed the first's group, not yet joined: %v", err)
	}
	r.finished(first)
	if _, err := os.Stat(firstDirs[0]); !os.IsNotExist(err) {
		t.Errorf("the group of a finished program is still there (%v)", err)
	}
	if r.groupOf(first) != nil || r.groupOf(second) == nil {
		t.Errorf("groups after the first finished: first %v, second %v; want none and one", r.groupOf(first), r.groupOf(second))
	}
}
