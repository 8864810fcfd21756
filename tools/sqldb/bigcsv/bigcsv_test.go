package bigcsv

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSizeRefusesWhatIsNotASize: a size that does not parse stops the
// benchmark with the variable's name, where it used to generate an empty
// file.
func TestSizeRefusesWhatIsNotASize(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == BytesEnv {
				return v
			}
			return ""
		}
	}
	if n, err := Size(env("")); err != nil || n != DefaultBytes {
		t.Errorf("unset: %d, %v; want %d", n, err, DefaultBytes)
	}
	if n, err := Size(env("1048576")); err != nil || n != 1<<20 {
		t.Errorf("1048576: %d, %v", n, err)
	}
	for _, v := range []string{"3GB", "1e9", "-5", "0"} {
		if n, err := Size(env(v)); err == nil || !strings.Contains(err.Error(), BytesEnv) {
			t.Errorf("%s: size %d, err %v; want an error naming %s", v, n, err, BytesEnv)
		}
	}
}

// TestWatchPythonSeesTheChildsOwnPeak: a Python child that holds 300 MiB
// is seen at about 300 MiB, whatever this process holds itself (the
// figure RUSAGE_CHILDREN gave was this process's own peak).
func TestWatchPythonSeesTheChildsOwnPeak(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	hold := make([]byte, 600<<20) // this process's peak, above the child's
	for i := range hold {
		hold[i] = 1
	}
	w := WatchPython(20 * time.Millisecond)
	out, err := exec.Command("/usr/bin/python3", "-c", "import time; b = bytearray(300 << 20); time.sleep(0.5)").CombinedOutput()
	peak := w.Stop()
	if err != nil {
		t.Fatalf("python: %v: %s", err, out)
	}
	if peak < 300<<20 || peak > 400<<20 {
		t.Errorf("python peak = %d MiB; want about 300 (this process holds %d MiB)", peak>>20, len(hold)>>20)
	}
	runtime.KeepAlive(hold)
}
