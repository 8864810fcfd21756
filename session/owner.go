package session

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Owner is the process that runs a session, recorded in its Meta while it
// runs so that a reader can tell a running session from one whose process
// was killed (kill -9, a crash, a machine that went down) and left it
// marked running.
type Owner struct {
	// Host is the name of the machine the process runs on.
	Host string `json:"host"`
	// PID is the process id.
	PID int `json:"pid"`
	// Start tells the process apart from a later one given the same pid:
	// its start time in clock ticks after boot (field 22 of /proc/PID/stat).
	// 0 when unknown.
	Start uint64 `json:"start,omitempty"`
}

// ThisProcess returns the Owner describing the calling process.
func ThisProcess() *Owner {
	host, _ := os.Hostname()
	pid := os.Getpid()
	start, _ := processStart(pid)
	return &Owner{Host: host, PID: pid, Start: start}
}

// Gone reports whether o is known to have ended: it ran on this machine
// and no process with its pid (started when it was) runs now. A zombie (a
// process that exited and that its parent has not reaped yet) has ended:
// it holds its pid but runs nothing. An owner on another machine, or a nil
// one, is not known to have ended.
func (o *Owner) Gone() bool {
	if o == nil || o.PID <= 0 {
		return false
	}
	if host, err := os.Hostname(); err != nil || host != o.Host {
		return false
	}
	// Signal 0 checks that the process exists without disturbing it;
	// EPERM means it exists under another user.
	if err := syscall.Kill(o.PID, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	state, start, err := processStat(o.PID)
	if err != nil {
		return false
	}
	if state == 'Z' || state == 'X' || state == 'x' {
		return true
	}
	return o.Start != 0 && start != o.Start
}

// String names the process for people: "pid 1234 on host".
func (o *Owner) String() string {
	if o == nil {
		return ""
	}
	return fmt.Sprintf("pid %d on %s", o.PID, o.Host)
}

// OwnerGone reports whether m is marked running by a process known to have
// ended (see Owner.Gone): the session stopped where its checkpoint is, and
// resuming it goes on from there.
func (m Meta) OwnerGone() bool {
	return m.Status == StatusRunning && m.Owner.Gone()
}

// processStart reads the start time of process pid from /proc.
func processStart(pid int) (uint64, error) {
	_, start, err := processStat(pid)
	return start, err
}

// processStat reads the state (R, S, Z, ...) and the start time of
// process pid from /proc.
func processStat(pid int) (byte, uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces or
	// parentheses itself, so the fields are counted after its last ")".
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("/proc/%d/stat has no command name", pid)
	}
	fields := strings.Fields(s[i+1:])
	// fields[0] is field 3 (state); the start time is field 22.
	const startField = 22 - 3
	if len(fields) <= startField || fields[0] == "" {
		return 0, 0, fmt.Errorf("/proc/%d/stat has %d fields", pid, len(fields)+2)
	}
	start, err := strconv.ParseUint(fields[startField], 10, 64)
	return fields[0][0], start, err
}
