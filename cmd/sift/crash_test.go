package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
)

// TestMain lets a test run this test binary as the sift command itself
// (SIFT_TEST_BE_SIFT=1), so a test can kill a real sift process.
func TestMain(m *testing.M) {
	if os.Getenv("SIFT_TEST_BE_SIFT") == "1" {
		crashAfterWrites()
		main()
		return
	}
	os.Exit(m.Run())
}

// siftProcess starts this binary as `sift args...`.
func siftProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SIFT_TEST_BE_SIFT=1")
	return cmd
}

// stopServing ends a `sift serve` or `sift worker` process as its
// operator would, with SIGTERM (it drains, then closes its kernel pool:
// the kernels waiting end and their slots and disks go), and kills it when
// it has not ended within a minute. sessions' kernel pool is then swept
// of what a killed one left (slots, mounted disks), as the next server
// there would: the test's directory can be removed.
func stopServing(cmd *exec.Cmd, sessions string) {
	if cmd.ProcessState == nil { // not reaped by the test
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	if sessions != "" {
		_, _ = operator.SweepKernelPool(filepath.Join(sessions, agents.KernelPoolDir))
	}
}

// needsPythonAndSandbox skips without Python or bubblewrap: generated
// code runs sandboxed, and a killed sift process's kernels die with it.
func needsPythonAndSandbox(t testing.TB) {
	t.Helper()
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas (CI installs it): %v", err)
	}
	if _, err := operator.NewSandbox(operator.SandboxConfig{Mode: operator.SandboxBwrap}); err != nil {
		t.Skipf("needs bubblewrap, so code runs sandboxed and a killed sift's kernels die with it (CI installs it): %v", err)
	}
}

// startRunUntilSleep starts `sift run --json args...`, whose script has a
// Python cell that sleeps, and reads its events until that cell runs: the
// process is then mid-step, for the test to kill. It returns the process
// and its session id; when the test ends, the process is killed and
// reaped if the test has not done so.
func startRunUntilSleep(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := siftProcess(t, append([]string{"run", "--json"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	var id string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct{ Kind, Text, Tool, Args string }
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Kind == "session" {
			id = e.Text
		}
		if e.Kind == "tool_call" && e.Tool == "python" && strings.Contains(e.Args, "sleep") {
			if id == "" {
				t.Fatal("the run never said its session id")
			}
			return cmd, id
		}
	}
	t.Fatalf("the run ended before its sleeping cell ran (session %q)", id)
	return nil, ""
}

// startXPlusOneInStep2 starts (startRunUntilSleep) a planned run in
// sessions of "what is x+1?": step 1 sets x = 41 in the kernel and writes
// out/one.txt; step 2's cell sleeps, so it is mid-step.
func startXPlusOneInStep2(t *testing.T, sessions string) (*exec.Cmd, string) {
	t.Helper()
	first := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Set x"},{"index":2,"description":"Print x+1"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"x = 41\nopen('out/one.txt', 'w').write('step one')\nprint('x set')"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":2,"description":"Print x+1"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import time\ntime.sleep(120)"}}]}]}`)
	return startRunUntilSleep(t, "--mode", "plan", "--script", first, "--sessions-dir", sessions, "what is x+1?")
}

// resumeKilledInStep2 runs `sift resume id --script script` on a session
// whose run was killed in step 2, after one cell of step 1, and checks
// that it says step 2 runs again on a kernel rebuilt from that cell.
func resumeKilledInStep2(t *testing.T, sessions, id, script string) {
	t.Helper()
	out, err := siftProcess(t, "resume", id, "--script", script, "--sessions-dir", sessions).CombinedOutput()
	if err != nil {
		t.Fatalf("sift resume: %v\n%s", err, out)
	}
	for _, w := range []string{"Step 2 was in progress and runs again", "replaying 1 earlier cell from"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("resume must say %q:\n%s", w, out)
		}
	}
}

func TestKillDashNineMidStepThenResume(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	sessions := t.TempDir()
	// Kill the process while step 2 runs its cell.
	cmd, id := startXPlusOneInStep2(t, sessions)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// The session list sees that the process running it is gone.
	list, err := siftProcess(t, "sessions", "list", "--sessions-dir", sessions).CombinedOutput()
	if err != nil {
		t.Fatalf("sift sessions list: %v\n%s", err, list)
	}
	if !regexp.MustCompile(id+`\s+stopped\s`).Match(list) || !strings.Contains(string(list), "resume with: sift resume "+id+" --sessions-dir "+sessions) {
		t.Errorf("sessions list must show the killed run's session as stopped, with the command that resumes it:\n%s", list)
	}

	second := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"print(x + 1)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"{{last_tool_result}}"}}]},
 {"content":"# x+1\n\n{{section:Steps and results}}"}]}`)
	resumeKilledInStep2(t, sessions, id, second)
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil || !strings.Contains(string(report), "42") {
		t.Errorf("report.md must hold x+1 = 42 (x from the killed process's step 1): %v\n%s", err, report)
	}
	if _, err := os.Stat(filepath.Join(sessions, id, "out", "one.txt")); err != nil {
		t.Errorf("step 1's artifact must survive: %v", err)
	}
	// Step 1's cell ran once; after the crash it was only replayed.
	cells, err := operator.ReadCells(filepath.Join(sessions, id))
	if err != nil {
		t.Fatal(err)
	}
	var ran, replayed int
	for _, c := range cells {
		if strings.HasPrefix(c.Code, "x = 41") {
			if c.Replayed {
				replayed++
			} else {
				ran++
			}
		}
	}
	if ran != 1 || replayed != 1 {
		t.Errorf("step 1's cell: ran %d times, replayed %d; want 1 and 1", ran, replayed)
	}
	// No process of the killed run is left.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && kernelAlive(t, sessions) {
		time.Sleep(50 * time.Millisecond)
	}
	if kernelAlive(t, sessions) {
		t.Error("the killed run's kernel is still running")
	}
}

// kernelAlive reports whether a process's command line mentions the
// sessions directory (a kernel or a cell of a run there).
func kernelAlive(t *testing.T, sessions string) bool {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), sessions) && !strings.Contains(string(b), "test.run") {
			stat, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "stat"))
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
				continue
			}
			return true
		}
	}
	return false
}

func TestCtrlCOncePausesThenResume(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	sessions := t.TempDir()
	first := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Set x slowly"},{"index":2,"description":"Print x+1"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import time\ntime.sleep(2)\nx = 41\nprint('x set')"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":2,"description":"Print x+1"}]}}]}]}`)
	cmd := siftProcess(t, "run", "--mode", "plan", "--json", "--script", first, "--sessions-dir", sessions, "what is x+1?")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	paused := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Kind, Text, Tool, Args string
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Kind == "session":
			id = e.Text
		case e.Kind == "tool_call" && e.Tool == "python":
			// Ctrl-C once while step 1's cell runs.
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
		case e.Kind == "paused":
			paused = true
		}
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitPaused || !paused {
		t.Fatalf("want the run to pause and exit %d: exit %d (%v), paused %v\n%s", exitPaused, code, err, paused, stderr.String())
	}
	if !strings.Contains(stderr.String(), "Pausing after the current step") {
		t.Errorf("stderr must say it pauses:\n%s", stderr.String())
	}
	second := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"print(x + 1)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"42"}}]},
 {"content":"# 42"}]}`)
	out, err := siftProcess(t, "resume", id, "--script", second, "--sessions-dir", sessions).CombinedOutput()
	if err != nil {
		t.Fatalf("sift resume: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "42") || strings.Contains(string(out), "Step 1:") {
		t.Errorf("the resumed run must finish step 2 only, with x from step 1:\n%s", out)
	}
}
