//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
	"time"
)

// terminateAfter is how long closing a stdio server waits, after closing
// its stdin, before signalling it.
const terminateAfter = 2 * time.Second

// setProcessGroup starts cmd in a process group of its own, so stopping it
// also stops what it started (npx starting node, say).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills what is left of cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
