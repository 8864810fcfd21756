package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/internal/crashpoint"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// Environment of a sift process under the crash test: it kills itself
// (SIGKILL, as a power cut or an OOM kill would end it) right after its
// SIFT_TEST_CRASH_AFTER-th write of session state, and appends each write
// to SIFT_TEST_WRITES.
const (
	crashAfterEnv = "SIFT_TEST_CRASH_AFTER"
	writesEnv     = "SIFT_TEST_WRITES"
)

// crashAfterWrites installs the crash test's write hook when its
// environment asks for it.
func crashAfterWrites() {
	k, _ := strconv.Atoi(os.Getenv(crashAfterEnv))
	log := os.Getenv(writesEnv)
	if k <= 0 && log == "" {
		return
	}
	var mu sync.Mutex
	n := 0
	crashpoint.Set(func(what string) {
		mu.Lock()
		defer mu.Unlock()
		n++
		if log != "" {
			if f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err == nil {
				fmt.Fprintln(f, filepath.Base(what))
				f.Close()
			}
		}
		if n == k {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal ends the process before anything else is written
		}
	})
}

// ranNote is how long a cell took, which differs from run to run.
var ranNote = regexp.MustCompile(`\(ran [^)]*\)`)

// planReplier plays a two-step plan whatever point a run resumes from: it
// answers each request by what it offers and shows, not by its place in a
// script. Step n prints n*10; x is kept in the kernel between the steps.
func planReplier(req scripted.Request) (*schema.Message, error) {
	offers := func(name string) bool {
		for _, t := range req.Tools {
			if t.Name == name {
				return true
			}
		}
		return false
	}
	last := req.Messages[len(req.Messages)-1]
	all := ""
	for _, m := range req.Messages {
		all += m.Content + "\n"
	}
	args := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	switch {
	case offers("python"):
		if last.Role == schema.Tool {
			// What the cell printed: the last line of its output (a
			// resumed kernel adds a note before it).
			lines := strings.Split(strings.TrimSpace(ranNote.ReplaceAllString(last.Content, "")), "\n")
			return scripted.Text("Printed " + strings.TrimSpace(lines[len(lines)-1])), nil
		}
		if strings.Contains(all, "Print x") {
			return scripted.ToolCall("python", args(map[string]string{"code": "print(x * 2)"})), nil
		}
		return scripted.ToolCall("python", args(map[string]string{"code": "x = 21\nprint(x)"})), nil
	case offers("submit_result"):
		todo := regexp.MustCompile(`(?m)^\d+\. \[todo\] (.+)$`).FindAllStringSubmatch(last.Content, -1)
		if len(todo) > 0 {
			var steps []map[string]any
			for i, m := range todo {
				steps = append(steps, map[string]any{"index": i + 1, "description": m[1]})
			}
			return scripted.ToolCall("create_plan", args(map[string]any{"steps": steps})), nil
		}
		return scripted.ToolCall("submit_result", args(map[string]string{"answer": "x doubled is 42"})), nil
	case offers("create_plan"):
		return scripted.ToolCall("create_plan", args(map[string]any{"steps": []map[string]any{
			{"index": 1, "description": "Set x to 21"}, {"index": 2, "description": "Print x doubled"}}})), nil
	case len(req.Tools) == 0:
		return scripted.Text("# Report\n\nx doubled is 42 [step 2].\n"), nil
	}
	return nil, fmt.Errorf("unexpected request offering %d tools", len(req.Tools))
}

// TestCrashAtEveryWriteResumes kills a sift run right after each of its
// writes of session state in turn (the k-th, for every k a clean run
// makes, with SIFT_TEST_EVERY_WRITE=1; else a sample of them), resumes the
// session, and checks that it ends as the clean run did: the same answer
// and the same steps with the same results.
func TestCrashAtEveryWriteResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sift twice per write of a run")
	}
	isolateEnv(t)
	pythonOrSkip(t)
	srv := scripted.NewServer(scripted.NewResponder(planReplier))
	t.Cleanup(srv.Close)
	env := []string{"SIFT_BASE_URL=" + srv.URL + "/v1", "SIFT_API_KEY=test", "SIFT_MODEL=scripted"}
	sift := func(sessions string, extra []string, args ...string) (string, error) {
		cmd := siftProcess(t, append([]string{args[0], "--sandbox", "none", "--sessions-dir", sessions}, args[1:]...)...)
		cmd.Env = append(append(cmd.Env, env...), extra...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	question := []string{"run", "--mode", "plan", "--parallel", "1", "what is x doubled?"}

	clean := t.TempDir()
	writes := filepath.Join(t.TempDir(), "writes")
	if out, err := sift(clean, []string{writesEnv + "=" + writes}, question...); err != nil {
		t.Fatalf("clean run: %v\n%s", err, out)
	}
	want := outcome(t, clean)
	b, err := os.ReadFile(writes)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(b), "\n")
	t.Logf("a clean run makes %d writes: %s", n, strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", " "))

	// Every write takes two sift processes; by default every fifth and the
	// last six (the report's and the end's), all with SIFT_TEST_EVERY_WRITE=1.
	for k := 1; k <= n; k++ {
		if os.Getenv("SIFT_TEST_EVERY_WRITE") != "1" && k%5 != 1 && k <= n-6 {
			continue
		}
		sessions := t.TempDir()
		out, err := sift(sessions, []string{crashAfterEnv + "=" + strconv.Itoa(k)}, question...)
		var exit *exec.ExitError
		if err == nil || !asExit(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("crash after write %d: the run was not killed (%v)\n%s", k, err, out)
		}
		id := soleSession(t, sessions)
		if _, err := os.Stat(filepath.Join(sessions, id, "session.json")); id == "" || err != nil {
			continue // killed before the session was recorded: there is nothing to resume
		}
		// A run killed after it recorded its end has nothing to resume.
		if out, err := sift(sessions, nil, "resume", id); err != nil && !strings.Contains(out, "nothing to resume: session "+id+" is done") {
			t.Errorf("crash after write %d: resume failed: %v\n%s", k, err, out)
			continue
		}
		if got := outcome(t, sessions); got != want {
			t.Errorf("crash after write %d: resumed to\n%s\nwant (as a clean run)\n%s", k, got, want)
		}
	}
}

func asExit(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*target = e
	return ok
}

// soleSession returns the ID of the one session under sessions, or "" when
// there is none.
func soleSession(t *testing.T, sessions string) string {
	t.Helper()
	entries, _ := os.ReadDir(sessions)
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	if len(ids) > 1 {
		t.Fatalf("%d sessions under %s, want one", len(ids), sessions)
	}
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// outcome is what a finished session ended with: its answer, each step's
// status and result, and whether its report states the answer.
func outcome(t *testing.T, sessions string) string {
	t.Helper()
	text, report := sessionOutcome(t, sessions, false)
	return text + fmt.Sprintf("report says 42: %v\n", strings.Contains(report, "x doubled is 42"))
}

// sessionOutcome is the answer and each step's status and result (with
// its files, when files) of the one session under sessions, and its
// report.md.
func sessionOutcome(t *testing.T, sessions string, files bool) (text, report string) {
	t.Helper()
	root := filepath.Join(sessions, soleSession(t, sessions))
	b, err := os.ReadFile(filepath.Join(root, "state.json"))
	if err != nil {
		return "no state.json: " + err.Error(), ""
	}
	var fp plans.FullPlan
	if err := json.Unmarshal(b, &fp); err != nil {
		return "bad state.json: " + err.Error(), ""
	}
	var sb strings.Builder
	if fp.Result != nil {
		fmt.Fprintf(&sb, "answer: %s\n", fp.Result.Answer)
	}
	for _, s := range fp.Steps {
		fmt.Fprintf(&sb, "step %d %s: %s", s.Index, s.Status, s.Summary)
		if files {
			fmt.Fprintf(&sb, " %v", s.Files)
		}
		sb.WriteString("\n")
	}
	md, _ := os.ReadFile(filepath.Join(root, "report.md"))
	return sb.String(), string(md)
}
