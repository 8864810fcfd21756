package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quickScriptFile writes a quick-path script that sums a column with
// Python and answers with what it printed.
func quickScriptFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	body := `{"replies": [
 {"tool_calls": [{"name": "python", "arguments": {"code": "import pandas as pd\nprint(f\"@total[{pd.read_csv('input/d.csv').x.sum()}]\")"}}]},
 {"content": "Total: {{last_tool_result}}"},
 {"content": "# Total\n\n{{section:Answer submitted}}"}
]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReplayAndExportCommands(t *testing.T) {
	pythonOrSkip(t)
	isolateEnv(t)
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(data, []byte("x\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	script := quickScriptFile(t)
	io, _, errOut := testIO()
	if code := execute(ctx, io, []string{"run", "--mode", "quick", "--script", script, "--file", data, "--sessions-dir", sessions, "total of x?"}); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	entries, _ := os.ReadDir(sessions)
	var id string
	for _, e := range entries {
		if e.IsDir() {
			id = e.Name()
		}
	}
	t.Setenv("SIFT_API_KEY", "sk-configured-key-123456")
	rec := filepath.Join(t.TempDir(), "rec")
	io, out, errOut := testIO()
	if code := execute(ctx, io, []string{"export-session", "--sessions-dir", sessions, "--inputs", id, rec}); code != 0 {
		t.Fatalf("export-session: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out.String(), rec) || !strings.Contains(errOut.String(), "sift replay "+rec) {
		t.Errorf("export output: %s / %s", out, errOut)
	}

	replay := func(args ...string) (int, string) {
		io, out, errOut := testIO()
		code := execute(ctx, io, append([]string{"replay", "--sessions-dir", t.TempDir()}, args...))
		return code, out.String() + errOut.String()
	}
	if code, text := replay(rec); code != 0 || !strings.Contains(text, "No divergence") {
		t.Fatalf("replay of an export: exit %d: %s", code, text)
	}

	// The recording was made with another prompt.
	traj := filepath.Join(rec, "trajectory.jsonl")
	b, _ := os.ReadFile(traj)
	if err := os.WriteFile(traj, []byte(strings.Replace(string(b), "code agent", "c0de agent", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, text := replay(rec)
	if code != exitRunFailed || !strings.Contains(text, "First divergence: call 1 (code, recording line 1): message 1") {
		t.Fatalf("replay of a changed prompt: exit %d: %s", code, text)
	}
	if code, text := replay("--update", rec); code != exitUsage || !strings.Contains(text, "needs a model") {
		t.Errorf("--update without a model: exit %d: %s", code, text)
	}
	// Re-record with a model (here the script) answering from the divergence.
	if code, text := replay("--update", "--script", script, rec); code != exitRunFailed {
		t.Fatalf("replay --update: exit %d: %s", code, text)
	}
	if code, text := replay(rec); code != 0 {
		t.Errorf("replay after --update: exit %d: %s", code, text)
	}
	if code, text := replay("no-such-session"); code != exitUsage || !strings.Contains(text, "neither a recording directory nor a session") {
		t.Errorf("replay of nothing: exit %d: %s", code, text)
	}
}

func TestEvalCommand(t *testing.T) {
	pythonOrSkip(t)
	isolateEnv(t)
	dir := t.TempDir()
	files := map[string]string{
		"suite.json": `{"name": "mini", "questions": [{"id": "q1", "question": "What is the total of x?", "files": ["d.csv"], "mode": "quick", "script": "s.json", "expected": [{"name": "total", "value": "3"}]}]}`,
		"d.csv":      "x\n1\n2\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(quickScriptFile(t))
	_ = os.WriteFile(filepath.Join(dir, "s.json"), b, 0o644)
	results := filepath.Join(t.TempDir(), "r.json")
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"eval", "--scripted", "--out", results, dir}); code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out.String(), "all          1          1        100.0%") {
		t.Errorf("eval table:\n%s", out)
	}
	if _, err := os.Stat(strings.TrimSuffix(results, ".json") + ".html"); err != nil {
		t.Errorf("no HTML summary: %v", err)
	}
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"eval", "--compare", results, results}); code != 0 || !strings.Contains(out.String(), "No question changed") {
		t.Errorf("compare: exit %d: %s %s", code, out, errOut)
	}
	io, _, errOut = testIO()
	if code := execute(context.Background(), io, []string{"eval", "--compare", results}); code != exitUsage || !strings.Contains(errOut.String(), "two results files") {
		t.Errorf("compare with one file: exit %d: %s", code, errOut)
	}
}

// TestReplayFollowUpSession replays a session of two questions (a question
// and a follow-up in the same session): both are asked again, in order,
// each is reported on its own line, and a change that touches only the
// follow-up's calls leaves the first question's line clean.
func TestReplayFollowUpSession(t *testing.T) {
	pythonOrSkip(t)
	isolateEnv(t)
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(data, []byte("x\n1\n2\n6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		io, _, errOut := testIO()
		if code := execute(ctx, io, append([]string{"run", "--mode", "quick", "--sessions-dir", sessions}, args...)); code != 0 {
			t.Fatalf("run %v: exit %d: %s", args, code, errOut)
		}
	}
	run("--script", quickScriptFile(t), "--file", data, "total of x?")
	entries, _ := os.ReadDir(sessions)
	var id string
	for _, e := range entries {
		if e.IsDir() {
			id = e.Name()
		}
	}
	meanScript := filepath.Join(t.TempDir(), "mean.json")
	if err := os.WriteFile(meanScript, []byte(`{"replies": [
 {"tool_calls": [{"name": "python", "arguments": {"code": "import pandas as pd\nprint(f\"@mean[{pd.read_csv('input/d.csv').x.mean()}]\")"}}]},
 {"content": "Mean: {{last_tool_result}}"},
 {"content": "# Mean\n\n{{section:Answer submitted}}"}
]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	run("--script", meanScript, "--session", id, "and the mean of x?")

	replay := func(src string) (int, string) {
		io, out, errOut := testIO()
		code := execute(ctx, io, []string{"replay", "--sessions-dir", sessions, src})
		return code, out.String() + errOut.String()
	}
	code, text := replay(id)
	for _, want := range []string{`Question 1 of 2, "total of x?": no divergence`, `Question 2 of 2, "and the mean of x?": no divergence`, "No divergence"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Fatalf("replay of a two-question session: exit %d, want %q in:\n%s", code, want, text)
		}
	}

	// A recording whose follow-up was asked with another prompt.
	rec := filepath.Join(t.TempDir(), "rec")
	io, _, errOut := testIO()
	if code := execute(ctx, io, []string{"export-session", "--sessions-dir", sessions, "--inputs", id, rec}); code != 0 {
		t.Fatalf("export-session: exit %d: %s", code, errOut)
	}
	traj := filepath.Join(rec, "trajectory.jsonl")
	b, _ := os.ReadFile(traj)
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"turn":2`) {
			lines[i] = strings.Replace(l, "code agent", "c0de agent", 1)
			break
		}
	}
	if err := os.WriteFile(traj, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, text = replay(rec)
	for _, want := range []string{`Question 1 of 2, "total of x?": no divergence`, `Question 2 of 2, "and the mean of x?": diverged at call `, "(code): message 1 of the request differs"} {
		if code != exitRunFailed || !strings.Contains(text, want) {
			t.Fatalf("replay of a changed follow-up: exit %d, want %q in:\n%s", code, want, text)
		}
	}
}
