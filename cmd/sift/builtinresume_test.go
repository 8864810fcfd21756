package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sift-agent/sift/plans"
)

// TestKilledBuiltinOverTablesRunsOnlyTheTablesNotDone: a built-in over
// two tables (one step each) killed -9 right after its first table was
// done and recorded, then resumed with no model, runs only the second
// table again, and ends with the answer, steps and report of a clean run.
// Before, the resume ran every table again.
func TestKilledBuiltinOverTablesRunsOnlyTheTablesNotDone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sift three times")
	}
	isolateEnv(t)
	pythonOrSkip(t)
	data := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(b)), "\n")
	for name, rows := range map[string][]string{"north.csv": lines[1:200], "south.csv": lines[200:]} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(lines[0]+strings.Join(rows, "")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sift := func(sessions string, extra []string, args ...string) (string, error) {
		cmd := siftProcess(t, append([]string{args[0], "--sandbox", "none", "--sessions-dir", sessions}, args[1:]...)...)
		cmd.Env = append(cmd.Env, extra...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	question := []string{"run", "--mode", "template", "--dir", data, "Profile every table"}

	clean := t.TempDir()
	writes := filepath.Join(t.TempDir(), "writes")
	if out, err := sift(clean, []string{writesEnv + "=" + writes}, question...); err != nil {
		t.Fatalf("clean run: %v\n%s", err, out)
	}
	want := builtinOutcome(t, clean)
	if !strings.Contains(want, "step 1 done") || !strings.Contains(want, "step 2 done") {
		t.Fatalf("the clean run is not a built-in over two tables:\n%s", want)
	}
	logged, err := os.ReadFile(writes)
	if err != nil {
		t.Fatal(err)
	}
	// The first table's result is kept right after its step is done.
	k := slices.Index(strings.Split(string(logged), "\n"), "builtin-steps.json") + 1
	if k == 0 {
		t.Fatalf("the clean run kept no step's result; its writes: %s", logged)
	}

	sessions := t.TempDir()
	out, err := sift(sessions, []string{crashAfterEnv + "=" + strconv.Itoa(k)}, question...)
	var exit *exec.ExitError
	if err == nil || !asExit(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the run was not killed after write %d (%v)\n%s", k, err, out)
	}
	id := soleSession(t, sessions)
	if out, err := sift(sessions, nil, "resume", id); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if got := builtinOutcome(t, sessions); got != want {
		t.Errorf("resumed to\n%s\nwant (as a clean run)\n%s", got, want)
	}
	// Step 1 ran once, before the kill; only step 2 ran after it (the kill
	// came between the two).
	evs, err := os.ReadFile(filepath.Join(sessions, id, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	started := map[int]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(evs)), "\n") {
		var e struct {
			Kind string
			Step *plans.StepState
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Kind == "step_started" && e.Step != nil {
			started[e.Step.Index]++
		}
	}
	if started[1] != 1 || started[2] != 1 {
		t.Errorf("steps started %v; want each once: step 1 before the kill, step 2 after it", started)
	}
}

// builtinOutcome is what a finished built-in session ended with: its
// answer, each step's status and result, and its report up to how it was
// computed (which tells how the built-in was chosen).
func builtinOutcome(t *testing.T, sessions string) string {
	t.Helper()
	text, report := sessionOutcome(t, sessions, true)
	answer, _, _ := strings.Cut(report, "## How this was computed")
	return text + "report:\n" + answer
}
