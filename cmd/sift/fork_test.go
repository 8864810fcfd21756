package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForkCommand forks the three-step session at step 2 with a new
// description: only steps 2 and 3 run, from a script that has no reply
// for step 1.
func TestForkCommand(t *testing.T) {
	pythonOrSkip(t)
	isolateEnv(t)
	ctx := context.Background()
	dir := t.TempDir()
	data := filepath.Join(dir, "sales.csv")
	if err := os.WriteFile(data, []byte("date,region,revenue\n2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	io, _, errOut := testIO()
	if code := execute(ctx, io, []string{"run", "--mode", "plan", "--script", threeStepScriptFile(t), "--file", data, "--sessions-dir", sessions, "Who sells most?"}); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	id := onlySession(t, sessions)
	fork := filepath.Join(dir, "fork.json")
	if err := os.WriteFile(fork, []byte(`{"replies": [
 {"tool_calls": [{"name": "python", "arguments": {"code": "print(df[df.region != 'East'].groupby('region')['revenue'].sum().to_string())"}}]},
 {"content": "Done: {{last_tool_result}}"},
 {"tool_calls": [{"name": "create_plan", "arguments": {"steps": [{"index": 3, "description": "Revenue by month"}]}}]},
 {"tool_calls": [{"name": "python", "arguments": {"code": "print(df.groupby(df.date.str[:7])['revenue'].sum().to_string())"}}]},
 {"content": "Done: {{last_tool_result}}"},
 {"tool_calls": [{"name": "submit_result", "arguments": {"answer": "Without East, North sells most (150)."}}]},
 {"content": "# Sales without East\n\nNorth sold 150 [step 2]."}
]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	io, out, errOut := testIO()
	code := execute(ctx, io, []string{"fork", "--sessions-dir", sessions, "--script", fork, id, "--at", "2", "--step", "Revenue by region without East"})
	text := out.String() + errOut.String()
	if code != 0 || strings.Contains(text, ">> Step 1") || !strings.Contains(text, ">> Step 2: Revenue by region without East") || !strings.Contains(text, ">> Step 3") || !strings.Contains(text, "7 model calls") {
		t.Fatalf("fork: exit %d:\n%s", code, text)
	}
	if !strings.Contains(text, "replaying 1 earlier cell") {
		t.Errorf("the fork must say the kernel is rebuilt from step 1's cell:\n%s", text)
	}
	code = execute(ctx, io, []string{"fork", "--sessions-dir", sessions, id, "--at", "9"})
	if code != exitUsage {
		t.Errorf("fork at a step that is not there: exit %d", code)
	}
}

// TestForkFlags: --plan (once per step) and --answer reach the fork;
// --step with --plan is a usage error.
func TestForkFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want forkOptions
		code int
	}{
		{args: []string{"s1", "--at", "2", "--plan", "a", "--plan", "b, c"}, want: forkOptions{Session: "s1", At: 2, Plan: []string{"a", "b, c"}}},
		{args: []string{"s1", "--at", "1", "--answer", "no"}, want: forkOptions{Session: "s1", At: 1, Answer: "no"}},
		{args: []string{"s1", "--at", "2", "--step", "x", "--plan", "y"}, code: exitUsage},
	} {
		io, _, _ := testIO()
		var got *forkOptions
		cmd := newForkCmd(io, func(_ context.Context, o *forkOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		cmd.SetOut(io.Out)
		cmd.SetErr(io.ErrOut)
		err := cmd.Execute()
		if tc.code != 0 {
			if err == nil || exitCode(err) != tc.code {
				t.Errorf("%v: err %v, want exit %d", tc.args, err, tc.code)
			}
			continue
		}
		if err != nil || got == nil || got.Session != tc.want.Session || got.At != tc.want.At || strings.Join(got.Plan, "|") != strings.Join(tc.want.Plan, "|") || got.Answer != tc.want.Answer {
			t.Errorf("%v: %+v %v, want %+v", tc.args, got, err, tc.want)
		}
	}
}
