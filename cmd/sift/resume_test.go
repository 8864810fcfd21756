package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
)

func TestReviewThenResumeInANewProcess(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas (CI installs it): %v", err)
	}
	sessions := t.TempDir()
	plan := writeScript(t, `{"replies":[{"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Print 6*7"}]}}]}]}`)
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--review", "--script", plan, "--sessions-dir", sessions, "what is 6*7?"})
	if code != exitWaiting {
		t.Fatalf("exit %d, want %d (waiting); stderr:\n%s", code, exitWaiting, errOut)
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v %v", entries, err)
	}
	id := entries[0].Name()
	for _, w := range []string{"1. Print 6*7", "sift resume " + id + " ", "--sessions-dir " + sessions + " --approve", "Waiting for you"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}

	// A second process answers the review and runs the plan.
	rest := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"print(6*7)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"42"}}]},
 {"content":"# Answer\n\n42 [step 1]."}]}`)
	io, out, errOut := testIO()
	code = execute(context.Background(), io, []string{"resume", id, "--approve", "--script", rest, "--sessions-dir", sessions})
	if code != exitOK {
		t.Fatalf("resume: exit %d; stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out.String(), filepath.Join(sessions, id, "report.md")) {
		t.Errorf("stdout must name the report: %q", out)
	}
	// The question's calls: the planner's in the first process, and the
	// four of this one (the code agent's two, the replanner's, the report's).
	if !strings.Contains(errOut.String(), " · 5 model calls · ") {
		t.Errorf("the done line must count the whole question's 5 model calls:\n%s", errOut)
	}
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil || !strings.Contains(string(report), "42") {
		t.Errorf("report.md: %v\n%s", err, report)
	}

	// Nothing is left to resume.
	io, _, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--script", rest, "--sessions-dir", sessions}); code == exitOK {
		t.Errorf("resuming a finished session must fail; stderr:\n%s", errOut)
	}
}

func TestResumeFlags(t *testing.T) {
	tests := []struct {
		args         []string
		wantErr      string
		wantParallel int
		wantBudget   *agents.Budget
	}{
		{args: []string{"s1", "--approve"}},
		{args: []string{"s1", "--edit", "a", "--edit", "b"}},
		{args: []string{"s1", "--approve", "--reject", "no"}, wantErr: "give one answer"},
		{args: []string{}, wantErr: "give one session id"},
		// The session's own bound, unless the flag gives another.
		{args: []string{"s1", "--parallel", "1"}, wantParallel: 1},
		{args: []string{"s1", "--parallel", "0"}, wantErr: "--parallel must be at least 1"},
		// The session's budget, unless a budget flag gives another
		// (0 lifts that bound).
		{args: []string{"s1", "--max-steps", "2", "--max-cost", "0"}, wantBudget: &agents.Budget{MaxSteps: 2}},
	}
	for _, tt := range tests {
		io, _, _ := testIO()
		var got *resumeOptions
		err := parse(newResumeCmd(io, func(_ context.Context, o *resumeOptions) error { got = o; return nil }), io, tt.args)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: err %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got.Session != "s1" || got.run.Parallel != tt.wantParallel {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
		if got != nil && (got.newBudget != (tt.wantBudget != nil) || tt.wantBudget != nil && got.run.Budget != *tt.wantBudget) {
			t.Errorf("%v: budget %+v (replaces the session's: %v), want %+v", tt.args, got.run.Budget, got.newBudget, tt.wantBudget)
		}
	}
}

// TestResumedScriptedDemoGoesOnWhereItStopped: one script plays a whole
// run that stops to ask the person; resumed with the same script in a new
// process, the run goes on with the script's next reply (the step's code),
// not its first (the plan).
func TestResumedScriptedDemoGoesOnWhereItStopped(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas (CI installs it): %v", err)
	}
	sessions := t.TempDir()
	demo := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Print 6*7"}]}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Print it as a number?","choices":["yes","no"]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print(6*7)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"42"}}]},
 {"content":"# Answer\n\n42 [step 1]."}]}`)
	io, _, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--script", demo, "--sessions-dir", sessions, "what is 6*7?"}); code != exitWaiting {
		t.Fatalf("exit %d, want %d (waiting); stderr:\n%s", code, exitWaiting, errOut)
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v %v", entries, err)
	}
	id := entries[0].Name()
	io, _, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--answer", "yes", "--script", demo, "--sessions-dir", sessions}); code != exitOK {
		t.Fatalf("resume: exit %d; stderr:\n%s", code, errOut)
	}
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil || !strings.Contains(string(report), "42") {
		t.Errorf("report.md: %v\n%s", err, report)
	}
	cells, err := os.ReadFile(filepath.Join(sessions, id, "cells.jsonl"))
	if err != nil || !strings.Contains(string(cells), "print(6*7)") {
		t.Errorf("the step did not run the script's code: %v\n%s", err, cells)
	}
}

// TestRefusedResumePrintsTheCommandThatWorks: a resume with no model of
// a session started with a script (or a model's flags) is refused,
// leaves the session waiting, and prints the resume command with the
// session's flags and the answer given, which, run as printed, resumes it.
func TestRefusedResumePrintsTheCommandThatWorks(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	root := t.TempDir()
	script := filepath.Join("..", "..", "examples", "demo", "script.json")
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--review", "--mode", "plan", "--script", script, "--sessions-dir", root,
		"--file", filepath.Join("..", "..", "examples", "data", "sales.csv"), "What is the monthly revenue trend in 2024, and which region sells most?"}); code != exitWaiting {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	id := onlySession(t, root)
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--sessions-dir", root, "--approve"}); code != exitModelConfig {
		t.Fatalf("a resume with no model: exit %d, want %d\n%s\n%s", code, exitModelConfig, out, errOut)
	}
	printed := ""
	for _, line := range strings.Split(errOut.String(), "\n") {
		if c, ok := strings.CutPrefix(line, "Resume with the flags the session was started with: "); ok {
			printed = c
		}
	}
	if want := "sift resume " + id + " --sessions-dir " + root + " --script " + script + " --approve"; printed != want {
		t.Fatalf("the refused resume printed %q, want %q:\n%s", printed, want, errOut)
	}
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, shellWords(t, strings.TrimPrefix(printed, "sift "))); code != exitOK {
		t.Fatalf("the printed command %q: exit %d\n%s\n%s", printed, code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(root, id, "report.md")); err != nil || !strings.Contains(string(b), "North") {
		t.Errorf("the resumed session's report: %v\n%s", err, b)
	}
}

// A resume refused because the session's database will not open (moved,
// its server down, a password the session never keeps) leaves the session
// as it was and prints the resume command with the database to give
// again; that command, with the database where it is now, works.
func TestRefusedResumeForADatabasePrintsTheCommandThatWorks(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	root := t.TempDir()
	db, _ := shopDB(t)
	plan := writeScript(t, `{"replies":[{"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Print 6*7"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print(6*7)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"42"}}]},
 {"content":"# Answer\n\n42 [step 1]."}]}`)
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--review", "--mode", "plan", "--script", plan, "--sessions-dir", root,
		"--db", "shop=sqlite:" + db, "what is 6*7?"}); code != exitWaiting {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	id := onlySession(t, root)
	moved := filepath.Join(t.TempDir(), "shop-moved.db")
	if err := os.Rename(db, moved); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(root, id, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--sessions-dir", root, "--approve"}); code != exitEnvironment {
		t.Fatalf("a resume whose database will not open: exit %d, want %d\n%s\n%s", code, exitEnvironment, out, errOut)
	}
	if after, err := os.ReadFile(filepath.Join(root, id, "state.json")); err != nil || string(after) != string(before) {
		t.Errorf("the refused resume changed the session's record:\nbefore %s\nafter  %s (%v)", before, after, err)
	}
	printed := ""
	for _, line := range strings.Split(errOut.String(), "\n") {
		if c, ok := strings.CutPrefix(line, "Resume giving the database again (add its password, or say where it is now): "); ok {
			printed = c
		}
	}
	if want := "sift resume " + id + " --sessions-dir " + root + " --script " + plan + " --db shop=sqlite:" + db + " --approve"; printed != want {
		t.Fatalf("the refused resume printed %q, want %q:\n%s", printed, want, errOut)
	}
	io, out, errOut = testIO()
	again := strings.Replace(strings.TrimPrefix(printed, "sift "), db, moved, 1)
	if code := execute(context.Background(), io, shellWords(t, again)); code != exitOK {
		t.Fatalf("the printed command with the database where it is now (%q): exit %d\n%s\n%s", again, code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(root, id, "report.md")); err != nil || !strings.Contains(string(b), "42") {
		t.Errorf("the resumed session's report: %v\n%s", err, b)
	}
}
