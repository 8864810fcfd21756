package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents"
)

func TestChatSessionWaitsThenAnotherChatAnswers(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	sessions := t.TempDir()
	data := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(data, []byte("n\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Sum n"}]}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Which column?","choices":["n","m"]}}]}]}`)
	io, _, errOut := testIO()
	// An edited plan, an unknown command, a missing file, then the input
	// ends at the question: the session is left waiting.
	io.In = strings.NewReader("/nope\n/load missing.csv\nsum it\nedit\n1: Sum the column n\n\n")
	code := execute(context.Background(), io, []string{"chat", "--mode", "plan", "--sandbox", "none", "--script", first, "--file", data, "--sessions-dir", sessions})
	if code != exitWaiting {
		t.Fatalf("exit %d, want %d (the session waits for the answer); stderr:\n%s", code, exitWaiting, errOut)
	}
	for _, w := range []string{"Unknown command /nope", "Cannot load missing.csv", "The plan above waits for your review.", "3: new text        rewrite step 3", "Step 1: Sum the column n", "Question: Which column?", "  1. n", "or: sift resume "} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	id := onlySession(t, sessions)
	// The printed commands name the sessions directory, so they run as
	// printed.
	for _, w := range []string{"Continue with: sift chat --session " + id + " ", "or: sift resume " + id + " "} {
		line := lineWith(errOut.String(), w)
		if !strings.Contains(line, "--sessions-dir "+shellQuote(sessions)) || !strings.Contains(line, "--sandbox none") {
			t.Errorf("%q does not carry --sessions-dir and --sandbox: %q", w, line)
		}
	}

	// A new chat on the session asks the pending question again, and goes on.
	second := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\nprint('SUM', pd.read_csv('input/n.csv')['n'].sum())"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"The sum is {{line:SUM}}"}}]},
 {"content":"# Sum\n\n{{line:SUM}} [step 1]."}]}`)
	io, out, errOut := testIO()
	io.In = strings.NewReader("1\n/plan\n/quit\n")
	code = execute(context.Background(), io, []string{"chat", "--session", id, "--sandbox", "none", "--script", second, "--sessions-dir", sessions})
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, w := range []string{"(waiting)", "Question: Which column?", "Result: The sum is 3", "Continue with: sift chat --session " + id + " --sandbox none"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if strings.Contains(errOut.String(), "or: sift resume") {
		t.Errorf("a finished session needs no sift resume:\n%s", errOut)
	}
	if !strings.Contains(out.String(), "answer: ") || !strings.Contains(out.String(), "The sum is 3") {
		t.Errorf("stdout must hold the answer prompt and /plan's plan.md:\n%s", out)
	}
}

func TestChatReviewShowsThePlanOnce(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	data := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(data, []byte("n\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Sum n"},{"index":2,"description":"Chart n"}]}}]}]}`)
	io, _, errOut := testIO()
	io.In = strings.NewReader("sum it\n") // the input ends at the review
	sessions := t.TempDir()
	code := execute(context.Background(), io, []string{"chat", "--mode", "plan", "--sandbox", "none", "--script", script, "--file", data, "--sessions-dir", sessions})
	if code != exitWaiting {
		t.Fatalf("exit %d, want %d (the plan waits for its review); stderr:\n%s", code, exitWaiting, errOut)
	}
	got := errOut.String()
	for _, step := range []string{"1. Sum n", "2. Chart n"} {
		if n := strings.Count(got, step); n != 1 {
			t.Errorf("%q is shown %d times, want once:\n%s", step, n, got)
		}
	}
	if !strings.Contains(got, "The plan above waits for your review.") {
		t.Errorf("the review must point at the plan shown:\n%s", got)
	}

	// Another chat takes up the waiting review: it shows the plan as the
	// first left it, and edits one of its steps in place.
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session: %v %v", entries, err)
	}
	id := entries[0].Name()
	second := writeScript(t, `{"replies":[{"content":"Summed: 3"}]}`)
	io, _, errOut = testIO()
	io.In = strings.NewReader("edit\n2: Chart n by month\n\n")
	execute(context.Background(), io, []string{"chat", "--session", id, "--mode", "plan", "--sandbox", "none", "--script", second, "--sessions-dir", sessions})
	if !strings.Contains(errOut.String(), "The plan waits for your review:\n  [ ] 1. Sum n\n  [ ] 2. Chart n\n") {
		t.Errorf("the waiting review must show its plan:\n%s", errOut)
	}
	plan, err := os.ReadFile(filepath.Join(sessions, id, "plan.md"))
	if err != nil || !strings.Contains(string(plan), "1. Sum n") || !strings.Contains(string(plan), "2. Chart n by month") {
		t.Errorf("the edit must keep step 1 and change step 2: %v\n%s\nstderr:\n%s", err, plan, errOut)
	}
}

func TestChatResumeInTheSameProcessRebuildsTheKernelWithoutBlamingAnEarlierProcess(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	data := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(data, []byte("n\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The question stops the run after a cell; answering it resumes the
	// session in this same process, with a new kernel that replays x.
	script := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Sum n"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\nx = pd.read_csv('input/n.csv')['n'].sum()"}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Which column?","choices":["n","m"]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print('AGAIN', x)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"The sum is {{line:AGAIN}}"}}]},
 {"content":"# Sum\n\n{{line:AGAIN}} [step 1]."}]}`)
	io, _, errOut := testIO()
	io.In = strings.NewReader("sum it\napprove\n1\n/quit\n")
	code := execute(context.Background(), io, []string{"chat", "--mode", "plan", "--sandbox", "none", "--script", script, "--file", data, "--sessions-dir", t.TempDir()})
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	got := errOut.String()
	if !strings.Contains(got, "AGAIN 3") || !strings.Contains(got, "Result: The sum is 3") {
		t.Errorf("the resumed step must see the state rebuilt:\n%s", got)
	}
	if strings.Contains(got, "earlier Sift process") || !strings.Contains(got, "previous run ended") {
		t.Errorf("the kernel ended with this process's previous run, not an earlier process:\n%s", got)
	}
}

// The done line of a question counts every model call of that question,
// also the planner's before the review (a run of its own, resumed by the
// approval), and only that question's: as `sift usage` splits them.
func TestChatDoneLineCountsTheWholeQuestion(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	data := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(data, []byte("n\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	question := func(word, code string) string {
		return `{"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"` + word + ` n"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\nprint('` + word + `', pd.read_csv('input/n.csv')['n'].` + code + `())"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"The ` + word + ` is {{line:` + word + `}}"}}]},
 {"content":"# ` + word + `\n\n{{line:` + word + `}} [step 1]."}`
	}
	script := writeScript(t, `{"replies":[`+question("SUM", "sum")+",\n"+question("MAX", "max")+`]}`)
	sessions := t.TempDir()
	io, _, errOut := testIO()
	io.In = strings.NewReader("sum it\napprove\nand the max?\napprove\n/quit\n")
	code := execute(context.Background(), io, []string{"chat", "--mode", "plan", "--sandbox", "none", "--script", script, "--file", data, "--sessions-dir", sessions})
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	u, err := agents.SessionUsage(filepath.Join(sessions, onlySession(t, sessions)))
	if err != nil || len(u.Questions) != 2 {
		t.Fatalf("session usage %+v, %v; want two questions", u, err)
	}
	var done []string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.HasPrefix(l, "Done in ") {
			done = append(done, l)
		}
	}
	if len(done) != 2 {
		t.Fatalf("want a done line per question:\n%s", errOut)
	}
	for i, q := range u.Questions {
		want := fmt.Sprintf(" · %d model calls · %d prompt + %d completion tokens.", q.Calls, q.PromptTokens, q.CompletionTokens)
		if q.Calls != 5 || !strings.HasSuffix(done[i], want) {
			t.Errorf("question %d: done line %q, want it to end %q (5 calls: the planner's before the review too)", q.Question, done[i], want)
		}
	}
}

// Each run of a chat (the question, its resume after the review, a
// follow-up) warns that code runs without a sandbox; the chat says it once.
func TestChatWarnsOnceWithoutASandbox(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	data := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(data, []byte("n\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Sum n"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print('SUM', 3)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"The sum is {{line:SUM}}"}}]},
 {"content":"# Sum\n\n{{line:SUM}} [step 1]."}]}`)
	io, _, errOut := testIO()
	io.In = strings.NewReader("sum it\napprove\n/quit\n")
	code := execute(context.Background(), io, []string{"chat", "--mode", "plan", "--sandbox", "none", "--script", script, "--file", data, "--sessions-dir", t.TempDir()})
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	got := errOut.String()
	if n := strings.Count(got, "WARNING: generated code runs WITHOUT a sandbox"); n != 1 || !strings.Contains(got, "Result: The sum is 3") {
		t.Errorf("the warning is shown %d times, want once in a chat that answers:\n%s", n, got)
	}
}

// lineWith returns the first line of s that contains sub, or "".
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
