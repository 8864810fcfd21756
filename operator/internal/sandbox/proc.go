package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// findSandboxedProgram returns the host pid of the program bubblewrap
// process p runs, waiting up to timeout for it to appear. With inner (the
// path of bubblewrap), the sandbox runs the program through a second
// bubblewrap (see innerBwrapArgs): the program is that one's child.
func findSandboxedProgram(p *os.Process, timeout time.Duration, inner string) (int, error) {
	deadline := time.Now().Add(timeout)
	for {
		// Signal 0 goes through the process's pidfd: it fails once p has
		// been waited for, so a reused pid is never mistaken for p.
		if err := p.Signal(syscall.Signal(0)); err != nil {
			return 0, os.ErrProcessDone
		}
		if processState(p.Pid) == 'Z' {
			return 0, os.ErrProcessDone
		}
		for _, init := range childPids(p.Pid) {
			for _, c := range childPids(init) {
				if innermostPid(c) != 2 {
					continue
				}
				if inner == "" {
					return c, nil
				}
				// Until the inner bubblewrap has started, c is setpriv; then
				// the inner bubblewrap forks its init, which forks a
				// bubblewrap that execs the program.
				if pid := belowInner(c, inner, 0); pid > 0 {
					return pid, nil
				}
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("bubblewrap (pid %d) has not started its program after %s", p.Pid, timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// belowInner returns the first process below pid (itself the inner
// bubblewrap, at path inner) that runs something else, or 0.
func belowInner(pid int, inner string, depth int) int {
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); exe != inner {
		if depth == 0 {
			return 0 // not yet the inner bubblewrap
		}
		return pid
	}
	if depth >= 3 {
		return 0
	}
	for _, c := range childPids(pid) {
		if p := belowInner(c, inner, depth+1); p > 0 {
			return p
		}
	}
	return 0
}

// childPids lists the children of pid, from /proc/PID/task/*/children
// (a child belongs to the thread that forked it), or by scanning /proc
// where the kernel lacks those files.
func childPids(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if len(tasks) > 0 {
		var out []int
		for _, p := range tasks {
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(data)) {
				if c, err := strconv.Atoi(f); err == nil {
					out = append(out, c)
				}
			}
		}
		return out
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if parentPid(c) == pid {
			out = append(out, c)
		}
	}
	return out
}

// procStat returns the fields of /proc/PID/stat after the command name.
func procStat(pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(data[i+1:]))
}

// processState returns pid's state letter (R, S, Z, ...), or 0.
func processState(pid int) byte {
	if f := procStat(pid); len(f) > 0 && f[0] != "" {
		return f[0][0]
	}
	return 0
}

// parentPid returns pid's parent, or 0.
func parentPid(pid int) int {
	var ppid int
	if f := procStat(pid); len(f) > 1 {
		fmt.Sscan(f[1], &ppid)
	}
	return ppid
}

// innermostPid returns pid's pid in its own (innermost) pid namespace, from
// the NSpid line of /proc/PID/status, or 0.
func innermostPid(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
			f := strings.Fields(rest)
			var n int
			if len(f) > 0 {
				fmt.Sscan(f[len(f)-1], &n)
			}
			return n
		}
	}
	return 0
}
