package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCtrlCTwiceLeavesTheStepToRunAgain: a real sift process stopped with
// Ctrl-C twice while step 1 runs exits 130, leaves step 1 to do in
// plan.md, and prints a resume command (with --sessions-dir) that, run as
// printed, runs step 1 again.
func TestCtrlCTwiceLeavesTheStepToRunAgain(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	sessions := t.TempDir()
	script := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Set x slowly"},{"index":2,"description":"Print x+1"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import time\ntime.sleep(30)\nx = 41\nprint('x set')"}}]}]}`)
	cmd := siftProcess(t, "run", "--mode", "plan", "--script", script, "--sessions-dir", sessions, "what is x+1?")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var shown strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		shown.WriteString(line + "\n")
		if strings.Contains(line, " python: ") {
			// Ctrl-C twice while step 1's cell runs.
			for range 2 {
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit code %d, want %d:\n%s", code, exitInterrupted, shown.String())
	}
	var hint string
	for _, l := range strings.Split(shown.String(), "\n") {
		if _, after, ok := strings.Cut(l, "Go on with: "); ok {
			hint = after
		}
	}
	if !strings.Contains(hint, "--sessions-dir "+sessions) {
		t.Fatalf("stderr must print a resume command with --sessions-dir:\n%s", shown.String())
	}
	entries, _ := os.ReadDir(sessions)
	var plan []byte
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(sessions, e.Name(), "plan.md")); err == nil {
			plan = b
		}
	}
	if !strings.Contains(string(plan), "[ ] **1.") || strings.Contains(string(plan), "[!]") {
		t.Errorf("plan.md must leave step 1 to do, never failed:\n%s", plan)
	}

	// The printed command replays the same --script file: give it the rest.
	if err := os.WriteFile(script, []byte(`{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"x = 41\nprint('x set')"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":2,"description":"Print x+1"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print(x + 1)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"42"}}]},
 {"content":"# 42"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(strings.TrimPrefix(hint, "sift "))
	out, err := siftProcess(t, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("the printed command %q failed: %v\n%s", hint, err, out)
	}
	if !strings.Contains(string(out), "Step 1:") || !strings.Contains(string(out), "Step 1 was in progress and runs again") || !strings.Contains(string(out), "42") {
		t.Errorf("the resumed run must run step 1 again and finish:\n%s", out)
	}
}

// TestPipedChatCtrlCAtThePromptEnds: over piped input, Ctrl-C (SIGINT)
// while no run is going ends the chat, as Ctrl-C twice at a terminal's
// empty prompt does (a pipe has no line to clear). It used to say a step
// would pause, and the chat went on waiting for input that never came.
func TestPipedChatCtrlCAtThePromptEnds(t *testing.T) {
	isolateEnv(t)
	script := writeScript(t, `{"replies":[{"content":"unused"}]}`)
	cmd := siftProcess(t, "chat", "--script", script, "--sandbox", "none", "--sessions-dir", t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close() // the input stays open: only Ctrl-C can end the chat
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer hung.Stop()
	var shown strings.Builder
	r := bufio.NewReader(stdout)
	for {
		b, err := r.ReadByte()
		if err != nil {
			t.Fatalf("the chat ended before its prompt: %v\n%s%s", err, shown.String(), stderr.String())
		}
		shown.WriteByte(b)
		if strings.HasSuffix(shown.String(), "> ") {
			break
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	shown.Write(rest)
	_ = cmd.Wait()
	if !hung.Stop() {
		t.Fatalf("Ctrl-C at the prompt did not end the chat:\n%s%s", shown.String(), stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitOK || strings.Contains(stderr.String(), "Pausing") {
		t.Errorf("exit %d, want %d, and no pausing message:\n%s%s", code, exitOK, shown.String(), stderr.String())
	}
}

// TestPipedChatCtrlCPausesTheTurnThenEnds: over piped input, Ctrl-C while
// a question runs pauses it after the current step, as on a terminal; the
// next one, at the prompt, ends the chat and keeps the paused session.
func TestPipedChatCtrlCPausesTheTurnThenEnds(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	script := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Set x slowly"},{"index":2,"description":"Print x+1"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import time\ntime.sleep(2)\nx = 41\nprint('x set')"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":2,"description":"Print x+1"}]}}]}]}`)
	cmd := siftProcess(t, "chat", "--mode", "plan", "--yes", "--script", script, "--sandbox", "none", "--sessions-dir", t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(2*time.Minute, func() { _ = cmd.Process.Kill() })
	defer hung.Stop()
	// Each prompt shown on stdout, so that Ctrl-C comes at the prompt.
	prompts := make(chan struct{}, 8)
	go func() {
		r := bufio.NewReader(stdout)
		var seen strings.Builder
		for {
			b, err := r.ReadByte()
			if err != nil {
				close(prompts)
				return
			}
			seen.WriteByte(b)
			if strings.HasSuffix(seen.String(), "> ") {
				seen.Reset()
				prompts <- struct{}{}
			}
		}
	}()
	<-prompts
	if _, err := io.WriteString(stdin, "what is x+1?\n"); err != nil {
		t.Fatal(err)
	}
	var shown strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		shown.WriteString(line + "\n")
		switch {
		case strings.Contains(line, " python: "):
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(line, "Type /resume to go on."):
			<-prompts // back at the prompt
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
		}
	}
	_ = cmd.Wait()
	if !hung.Stop() {
		t.Fatalf("Ctrl-C at the prompt did not end the chat:\n%s", shown.String())
	}
	got := shown.String()
	if code := cmd.ProcessState.ExitCode(); code != exitOK {
		t.Errorf("exit %d, want %d:\n%s", code, exitOK, got)
	}
	for _, w := range []string{"Pausing after the current step", "Paused after", "The session is kept.", "(it is paused)"} {
		if !strings.Contains(got, w) {
			t.Errorf("stderr lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "Step 2:") {
		t.Errorf("the paused turn must not go on to step 2:\n%s", got)
	}
}
