package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChatFlags(t *testing.T) {
	want := chatOptions{conversationOptions: defaultConversation, Session: "s1", Mode: "auto"}
	want.DBs = []string{"sqlite:a.db"}
	io, _, _ := testIO()
	var got *chatOptions
	if err := parse(newChatCmd(io, func(_ context.Context, o *chatOptions) error { got = o; return nil }), io, []string{"--db", "sqlite:a.db", "--session", "s1"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, *got, cmp.AllowUnexported(chatOptions{})); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	if err := parse(newChatCmd(io, func(context.Context, *chatOptions) error { return nil }), io, []string{"a question"}); err == nil {
		t.Error("chat takes its questions from the input, not arguments")
	}

	// The flags a printed resume needs are kept for it.
	files := chatOptions{conversationOptions: defaultConversation, Yes: true, Mode: "plan", Store: "sqlite:s.db", PolicyFile: "p.json",
		ResumeArgs: []string{"--policy p.json", "--store sqlite:s.db"}}
	files.Files = []string{"a.csv"}
	if err := parse(newChatCmd(io, func(_ context.Context, o *chatOptions) error { got = o; return nil }), io, []string{"--file", "a.csv", "--yes", "--mode", "plan", "--store", "sqlite:s.db", "--policy", "p.json"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, *got, cmp.AllowUnexported(chatOptions{})); diff != "" {
		t.Errorf("files-only options (-want +got):\n%s", diff)
	}
	// A script's replies go in order: its steps run one at a time.
	if err := parse(newChatCmd(io, func(_ context.Context, o *chatOptions) error { got = o; return nil }), io, []string{"--script", "s.json"}); err != nil || got.Parallel != 1 {
		t.Errorf("with --script, --parallel is 1 unless given: %+v, %v", got, err)
	}
	if err := parse(newChatCmd(io, func(context.Context, *chatOptions) error { return nil }), io, []string{"--mode", "fast"}); exitCode(err) != exitUsage {
		t.Errorf("an unknown --mode must be a usage error, got %v", err)
	}
}

func TestChatReadsLinesUntilQuit(t *testing.T) {
	isolateEnv(t)
	db, _ := shopDB(t)
	tests := []struct {
		name, input string
	}{
		{"ends at /quit", "What can you do?\n\n  and then?  \n/quit\nnever asked\n"},
		{"ends at the end of the input", "What can you do?\nand then?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := writeScript(t, `{"replies": [
 {"content": "I answer questions about the shop database."},
 {"content": "You asked before; I said: {{line:I answer}}"}
]}`)
			io, out, errOut := testIO()
			io.In = strings.NewReader(tt.input)
			code := execute(context.Background(), io, []string{"chat", "--script", script, "--db", "sqlite:" + db, "--sessions-dir", t.TempDir()})
			if code != exitOK {
				t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
			}
			// An empty line prompts again.
			want := "> I answer questions about the shop database.\n\n> " + strings.Repeat("> ", strings.Count(tt.input, "\n\n")) + "You asked before; I said: questions about the shop database.\n\n> "
			if !strings.HasPrefix(out.String(), want) {
				t.Errorf("stdout (-want +got):\n%s", cmp.Diff(want, out.String()))
			}
			if got, want := strings.Count(out.String(), "> "), 3+strings.Count(tt.input, "\n\n"); got != want {
				t.Errorf("want %d prompts (two turns, empty lines, then the end), got %d:\n%s", want, got, out)
			}
			if !strings.Contains(errOut.String(), "Continue with: sift chat --session ") {
				t.Errorf("stderr must say how to continue:\n%s", errOut)
			}
		})
	}
}

// yearQuestionChat sets up a `sift chat` over a shop database and a
// sales file (rows per year) whose first line goes to the data analyst;
// its code agent asks the person "Which year?", and the script then plays
// the replies in more (each after a comma). It returns the chat's
// arguments, its sessions directory and its script file.
func yearQuestionChat(t *testing.T, more string) (args []string, sessions, script string) {
	t.Helper()
	db, _ := shopDB(t)
	sessions = t.TempDir()
	data := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(data, []byte("year,n\n2023,5\n2024,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script = writeScript(t, `{"replies":[
 {"content":"How many rows of input/sales.csv belong to the year the person picks?","tool_calls":[{"name":"transfer_to_agent","arguments":{"agent_name":"data_analyst"}}]},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Count the rows of the chosen year"}],"complexity":"normal"}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Which year?","choices":["2023","2024"]}}]}`+more+`]}`)
	return []string{"chat", "--script", script, "--db", "sqlite:" + db, "--file", data, "--sessions-dir", sessions}, sessions, script
}

// TestChatDBAnalystAsksPrintsResume: when the data analyst of `sift chat
// --db` asks the person, the chat says how to answer with the `sift
// resume` command and the flags it needs to find the session, as `sift
// ask` does.
func TestChatDBAnalystAsksPrintsResume(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	args, sessions, script := yearQuestionChat(t, "")
	io, out, errOut := testIO()
	io.In = strings.NewReader("How many rows for the year I pick?\n")
	// The input ends while the question waits for its answer: as sift
	// ask, the chat exits 6 and says how to answer.
	code := execute(context.Background(), io, args)
	if !strings.Contains(errOut.String(), "Question: Which year?") {
		t.Fatalf("exit %d, the turn did not ask; stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if code != exitWaiting {
		t.Errorf("exit %d, want %d (waiting for the answer); stderr:\n%s", code, exitWaiting, errOut)
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v %v", entries, err)
	}
	id := entries[0].Name()
	var resume string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.Contains(l, "sift resume ") {
			resume = l
		}
	}
	for _, w := range []string{"sift resume " + id + " ", "--sessions-dir " + sessions, "--script " + script, "--answer"} {
		if !strings.Contains(resume, w) {
			t.Errorf("the resume command %q lacks %q; stderr:\n%s", resume, w, errOut)
		}
	}
}

// TestChatDBAnalystAsksAndGoesOnWithTheNextLine: in a chat with databases,
// the line after the data analyst's question is its answer; the analysis
// goes on with it in the chat, and the next line is a follow-up that sees
// the answer.
func TestChatDBAnalystAsksAndGoesOnWithTheNextLine(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	// The answer, 2024, goes on with the step; the follow-up sees it.
	args, _, _ := yearQuestionChat(t, `,
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\nd = pd.read_csv('input/sales.csv')\nprint('rows:', int(d[d.year == 2024].n.iloc[0]))"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Found: 12 rows in 2024"}}]},
 {"content":"# Rows\n\n12 rows in 2024 [step 1]."},
 {"content":"Earlier: {{line:Found:}}"}`)
	io, out, errOut := testIO()
	io.In = strings.NewReader("How many rows for the year I pick?\n2024\nWhat did you find?\n")
	code := execute(context.Background(), io, args)
	if code != exitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut.String(), "Question: Which year?") {
		t.Errorf("the turn did not ask; stderr:\n%s", errOut)
	}
	if strings.Contains(errOut.String(), "sift resume") {
		t.Errorf("the chat had the answer and must not point at sift resume; stderr:\n%s", errOut)
	}
	for _, w := range []string{"Found: 12 rows in 2024", "Earlier: 12 rows in 2024"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", w, out, errOut)
		}
	}
}
