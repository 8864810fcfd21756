package sandbox

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestProcHelpers(t *testing.T) {
	cmd := exec.Command("/bin/sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	child := cmd.Process.Pid
	if got := childPids(os.Getpid()); !slices.Contains(got, child) {
		t.Errorf("childPids(self) = %v; want it to hold %d", got, child)
	}
	if got := parentPid(child); got != os.Getpid() {
		t.Errorf("parentPid(%d) = %d; want %d", child, got, os.Getpid())
	}
	if got := innermostPid(child); got != child {
		t.Errorf("innermostPid(%d) = %d; want %d (same pid namespace)", child, got, child)
	}
	if st := processState(child); st == 0 || st == 'Z' {
		t.Errorf("processState(%d) = %q; want a live state", child, st)
	}
	if st := processState(1 << 30); st != 0 {
		t.Errorf("processState(no such pid) = %q; want 0", st)
	}
}
