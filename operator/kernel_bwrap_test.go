package operator

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// newBwrapKernel returns a Kernel started through the bubblewrap sandbox,
// skipping the test when bubblewrap does not work here.
func newBwrapKernel(t *testing.T, mod func(*KernelConfig)) *Kernel {
	t.Helper()
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxBwrap})
	if errors.Is(err, ErrNoSandbox) {
		t.Skipf("skipping: bubblewrap is not usable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return newKernel(t, func(c *KernelConfig) {
		c.Sandbox = sb
		if mod != nil {
			mod(c)
		}
	})
}

func TestKernelInBwrap(t *testing.T) {
	k := newBwrapKernel(t, func(c *KernelConfig) { c.InterruptGrace = 500 * time.Millisecond })
	mustRun(t, k, "x = 1\nimport matplotlib.pyplot as plt\nplt.plot([1])")
	res := run(t, k, "import time\ntime.sleep(60)", RunOptions{Timeout: time.Second})
	if !res.TimedOut || !strings.Contains(res.Error, "was interrupted") {
		t.Fatalf("interrupted cell in bwrap = %+v; want a KeyboardInterrupt the kernel survives", res)
	}
	if res := mustRun(t, k, "x"); res.Value != "1" {
		t.Errorf("x = %q after the interrupt; want 1", res.Value)
	}
	res = run(t, k, ignoresInterrupt, RunOptions{Timeout: time.Second})
	if !strings.Contains(res.Error, "the kernel was killed") {
		t.Fatalf("cell ignoring the interrupt in bwrap = %+v; want the kernel killed", res)
	}
	res = run(t, k, "x", RunOptions{Replay: true})
	if !res.Restarted || res.Value != "1" || res.Replayed != 2 {
		t.Errorf("after the kill = %+v; want a restarted kernel with x replayed", res)
	}
	res = run(t, k, "import os\nos._exit(1)", RunOptions{})
	if !strings.Contains(res.Error, "the kernel died") {
		t.Errorf("crash in bwrap = %+v", res)
	}
	if res := mustRun(t, k, "2"); !res.Restarted {
		t.Errorf("after the crash = %+v; want restarted", res)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	if kids := childPIDs(t); len(kids) > 0 {
		t.Errorf("processes left after Close: %v", kids)
	}
}
