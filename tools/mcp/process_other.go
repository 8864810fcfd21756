//go:build !unix

package mcp

import (
	"os/exec"
	"time"
)

// terminateAfter is how long closing a stdio server waits, after closing
// its stdin, before signalling it.
const terminateAfter = 2 * time.Second

func setProcessGroup(*exec.Cmd) {}

// killGroup kills cmd's process if it still runs.
func killGroup(cmd *exec.Cmd) {
	if cmd != nil && cmd.Process != nil && cmd.ProcessState == nil {
		_ = cmd.Process.Kill()
	}
}
