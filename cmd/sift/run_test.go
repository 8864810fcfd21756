package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

func testIO() (*ioStreams, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &ioStreams{In: strings.NewReader(""), Out: out, ErrOut: errOut}, out, errOut
}

// isolateEnv hides the developer's model settings and config file.
func isolateEnv(t *testing.T) {
	t.Helper()
	for _, k := range []string{"SIFT_BASE_URL", "SIFT_API_KEY", "SIFT_MODEL", "SIFT_CONFIG", "OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL", "ARK_API_KEY", "ARK_MODEL", "ARK_BASE_URL",
		"SIFT_PLANNER_MODEL", "SIFT_EXECUTOR_MODEL", "SIFT_CODE_MODEL", "SIFT_REPORT_MODEL", "SIFT_FILES_SQL_FROM"} {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
}

func TestRunFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    runOptions
		wantErr string
	}{
		{
			name: "files and question",
			args: []string{"--file", "a.csv", "-f", "b.xlsx", "which", "region?"},
			want: runOptions{Question: "which region?", Files: []string{"a.csv", "b.xlsx"}, MaxIterations: 10, Parallel: 3, CodeTimeout: 2 * time.Minute, Mode: "auto", PythonMode: "kernel"},
		},
		{
			name: "dirs, json and model flags",
			args: []string{"--dir", "data", "--json", "--base-url", "http://localhost:11434/v1", "--model", "qwen", "--planner-model", "qwen-max", "--max-iterations", "4", "--parallel", "1", "--code-timeout", "30s", "--mode", "quick", "--max-steps", "3", "--max-time", "5m", "--python-mode", "process", "--sandbox", "none", "--allow-unsandboxed", "q"},
			want: runOptions{Question: "q", Dirs: []string{"data"}, JSON: true, BaseURL: "http://localhost:11434/v1", Model: "qwen", MaxIterations: 4, Parallel: 1, CodeTimeout: 30 * time.Second, Mode: "quick", AgentModels: map[string]string{"planner": "qwen-max"}, Budget: agents.Budget{MaxSteps: 3, MaxTime: 5 * time.Minute}, PythonMode: "process", Sandbox: "none", AllowUnsandboxed: true,
				ResumeArgs: []string{"--allow-unsandboxed=true", "--base-url http://localhost:11434/v1", "--code-timeout 30s", "--model qwen", "--planner-model qwen-max", "--python-mode process", "--sandbox none"}},
		},
		{
			name: "databases",
			args: []string{"--db", "sqlite:shop.db", "--db", "sales=postgres://u@h/db", "-f", "targets.xlsx", "revenue", "vs", "target"},
			want: runOptions{Question: "revenue vs target", Files: []string{"targets.xlsx"}, DBs: []string{"sqlite:shop.db", "sales=postgres://u@h/db"}, MaxIterations: 10, Parallel: 3, CodeTimeout: 2 * time.Minute, Mode: "auto", PythonMode: "kernel"},
		},
		{
			// A script's replies go in order: its steps run one at a time
			// unless --parallel says otherwise.
			name: "script",
			args: []string{"--script", "s.json", "q"},
			want: runOptions{Question: "q", Script: "s.json", MaxIterations: 10, Parallel: 1, CodeTimeout: 2 * time.Minute, Mode: "auto", PythonMode: "kernel", ResumeArgs: []string{"--script s.json"}},
		},
		{
			name: "script in parallel",
			args: []string{"--script", "s.json", "--parallel", "2", "q"},
			want: runOptions{Question: "q", Script: "s.json", MaxIterations: 10, Parallel: 2, CodeTimeout: 2 * time.Minute, Mode: "auto", PythonMode: "kernel", ResumeArgs: []string{"--script s.json"}},
		},
		{
			name: "fresh",
			args: []string{"--fresh", "-f", "a.csv", "q"},
			want: runOptions{Question: "q", Files: []string{"a.csv"}, Fresh: true, MaxIterations: 10, Parallel: 3, CodeTimeout: 2 * time.Minute, Mode: "auto", PythonMode: "kernel"},
		},
		{name: "no question", args: []string{"--file", "a.csv"}, wantErr: "give the question"},
		{name: "unknown mode", args: []string{"--mode", "fast", "q"}, wantErr: "unknown mode"},
		{name: "no parallel steps", args: []string{"--parallel", "0", "q"}, wantErr: "--parallel must be at least 1"},
		{name: "unknown flag", args: []string{"--nope", "q"}, wantErr: "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, _ := testIO()
			var got *runOptions
			err := parse(newRunCmd(io, func(_ context.Context, o *runOptions) error { got = o; return nil }), io, tt.args)
			if tt.wantErr != "" {
				wantUsageError(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{usageError{errors.New("bad flag")}, exitUsage},
		{fmt.Errorf("x: %w", agents.ErrNoQuestion), exitUsage},
		{reportedError{fmt.Errorf("x: %w", session.ErrBadInput)}, exitUsage},
		{fmt.Errorf("x: %w", llm.ErrNotConfigured), exitModelConfig},
		{reportedError{fmt.Errorf("run: %w", &llm.AuthError{StatusCode: 401})}, exitModelConfig},
		{fmt.Errorf("x: %w", agents.ErrNoModel), exitModelConfig},
		{fmt.Errorf("x: %w", operator.ErrNoPython), exitEnvironment},
		{fmt.Errorf("x: %w", operator.ErrNoSandbox), exitEnvironment},
		{reportedError{fmt.Errorf("%w: boom", agents.ErrRunFailed)}, exitRunFailed},
		{reportedError{fmt.Errorf("%w: 5 model calls", agents.ErrBudgetExceeded)}, exitBudget},
		{errors.Join(errors.New("stopped"), context.Canceled), exitInterrupted},
		{reportedError{fmt.Errorf("%w: session s", agents.ErrPaused)}, exitPaused},
		{reportedError{fmt.Errorf("%w: step 1 failed", agents.ErrAnswerOnFailedSteps)}, exitFailedSteps},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestRunWithoutModelSaysHowToConfigure(t *testing.T) {
	isolateEnv(t)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--sessions-dir", t.TempDir(), "what is in here?"})
	if code != exitModelConfig {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitModelConfig, errOut)
	}
	for _, w := range []string{"SIFT_BASE_URL", "SIFT_MODEL", "profile", "trend"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr must mention %q:\n%s", w, errOut)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout must stay empty, got %q", out)
	}
}

func TestRunWithMissingFileIsAUsageError(t *testing.T) {
	isolateEnv(t)
	io, out, errOut := testIO()
	sessions := t.TempDir()
	code := execute(context.Background(), io, []string{"run", "--script", "../../examples/demo/script.json", "--file", "no-such.csv", "--sessions-dir", sessions, "q"})
	if code != exitUsage {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitUsage, errOut)
	}
	if !strings.Contains(errOut.String(), "no-such.csv") || out.Len() != 0 {
		t.Errorf("stderr must name the file and stdout stay empty; stderr:\n%s\nstdout: %q", errOut, out)
	}
	if entries, _ := os.ReadDir(sessions); len(entries) != 0 {
		t.Errorf("no session must be created for a bad input, found %d", len(entries))
	}
}

func TestRunOfflineBuiltInAnalysis(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--file", "../../examples/data/sales.csv", "--sessions-dir", t.TempDir(), "monthly revenue trend"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	paths := strings.Fields(out.String())
	if len(paths) != 2 {
		t.Fatalf("stdout must hold the report paths, got %q", out)
	}
	report, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"no language model was called", ".png)", "2024-12"} {
		if !strings.Contains(string(report), w) {
			t.Errorf("report.md lacks %q:\n%s", w, report)
		}
	}
	// The reading comes first: the answer's first line says what was
	// computed, from which file.
	_, after, _ := strings.Cut(string(report), "**Question:**")
	lines := strings.Split(strings.TrimSpace(after), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[2], "Total of revenue per month") || !strings.Contains(lines[2], "from input/sales.csv") {
		t.Errorf("the answer must start with the reading (Total of revenue per month …, from input/sales.csv):\n%s", report)
	}
	if !strings.Contains(errOut.String(), "built-in analyses only") || !strings.Contains(errOut.String(), "0 model calls") {
		t.Errorf("progress must say no model is used:\n%s", errOut)
	}
}

func TestRunDemoScriptEndToEnd(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	io, out, errOut := testIO()
	sessions := t.TempDir()
	code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--script", "../../examples/demo/script.json",
		"--file", "../../examples/data/sales.csv", "--sessions-dir", sessions, "Monthly trend and top region?"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	paths := strings.Fields(out.String())
	if len(paths) != 2 || !strings.HasSuffix(paths[0], "report.md") || !strings.HasSuffix(paths[1], "report.html") {
		t.Fatalf("stdout must hold the report paths, got %q", out)
	}
	report, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	// The numbers come from the code the demo ran on the example data.
	for _, w := range []string{"North had the highest revenue (76,349.00)", "![Monthly revenue](out/monthly_revenue.png)"} {
		if !strings.Contains(string(report), w) {
			t.Errorf("report.md lacks %q", w)
		}
	}
	for _, f := range []string{"out/monthly_revenue.png", "out/revenue_by_region.csv", "plan.md", "report.html", "events.jsonl"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(paths[0]), f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	for _, w := range []string{"scripted model", "Step 3 done", "11 model calls"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("progress lacks %q:\n%s", w, errOut)
		}
	}
}

func TestUsageCommand(t *testing.T) {
	root := t.TempDir()
	ws, err := session.Create(context.Background(), root, "s1")
	if err != nil {
		t.Fatal(err)
	}
	u := `{"calls":3,"prompt_tokens":300,"completion_tokens":30,"cost":0.0123,"per_agent":{"planner":{"calls":1,"prompt_tokens":100,"completion_tokens":10}}}`
	if err := os.WriteFile(filepath.Join(ws.Root, "usage.json"), []byte(u), 0o644); err != nil {
		t.Fatal(err)
	}
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"usage", "--sessions-dir", root, "s1"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"3 model calls", "$0.0123", "| planner | 1 | 100 | 10 |"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	io, _, errOut = testIO()
	if code := execute(context.Background(), io, []string{"usage", "--sessions-dir", root, "nope"}); code != exitUsage {
		t.Errorf("an unknown session: exit %d, want %d (%s)", code, exitUsage, errOut)
	}
}

func TestRendererPlainGolden(t *testing.T) {
	io, out, errOut := testIO()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock }
	r := newRenderer(io, false, now)
	fp := &plans.FullPlan{Question: "q"}
	fp.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Load the data"}, {Description: "Chart it"}}})
	step1 := fp.Steps[0]
	step1.Status = plans.StatusDoing
	done1 := step1
	done1.Status, done1.Summary, done1.Files = plans.StatusDone, "504 rows\nno missing values", []string{"out/a.png"}
	events := []event.Event{
		{Kind: event.Session, Text: "s1", Path: "/w/s1"},
		{Kind: event.Plan, Plan: fp.Clone()},
		{Kind: event.StepStarted, Step: &step1},
		{Kind: event.ToolCall, Tool: "code_agent", Args: `{"request":"Load input/sales.csv"}`},
		{Kind: event.ToolCall, Tool: "python", Args: `{"code":"import pandas as pd\n\ndf = pd.read_csv('x')\n"}`},
		{Kind: event.ToolResult, Tool: "python", Text: "Error: KeyError: 'Region'\nHint: print(df.columns)"},
		{Kind: event.StepFinished, Step: &done1},
		{Kind: event.Plan, Plan: fp.Clone()},
		{Kind: event.Report, Path: "report.md"},
		{Kind: event.Done, Path: "/w/s1", Usage: &event.Usage{AgentUsage: event.AgentUsage{Calls: 6, PromptTokens: 1200, CompletionTokens: 300}}},
	}
	for _, e := range events {
		r.event(e)
	}
	got := errOut.String() + "--- stdout ---\n" + out.String()
	golden := filepath.Join("testdata", "render_plain.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("rendered output (-want +got):\n%s", diff)
	}
}

func TestRendererJSONLines(t *testing.T) {
	io, out, errOut := testIO()
	r := newRenderer(io, true, time.Now)
	r.event(event.Event{Kind: event.Session, Text: "s1"})
	r.event(event.Event{Kind: event.Done, Err: errors.New("boom")})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"kind":"session"`) || !strings.Contains(lines[1], `"error":"boom"`) {
		t.Errorf("want one JSON object per event with errors as text, got:\n%s", out)
	}
	if errOut.Len() != 0 {
		t.Errorf("--json must keep stderr quiet, got %q", errOut)
	}
}

func TestConfigFileInstructionsReachTheAgents(t *testing.T) {
	isolateEnv(t)
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(`{"instructions": "Revenue means net of refunds.", "glossary": {"GMV": "gross merchandise value"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := siftConfig(context.Background(), &runOptions{ConfigPath: p, SessionsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Extensions.Instructions != "Revenue means net of refunds." || cfg.Extensions.Glossary["GMV"] != "gross merchandise value" {
		t.Errorf("the config file's instructions and glossary must reach the agents: %+v", cfg.Extensions)
	}
}

// TestRunOfflineProfileEveryTable: the README's "sift run --dir ./exports
// \"Profile every table\"" profiles each table of the directory, one step
// each, and its report says why without inventing a cause.
func TestRunOfflineProfileEveryTable(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	exports := t.TempDir()
	tables := map[string]string{
		"airports.csv": "iata,name,city\nSFO,San Francisco,San Francisco\nLAX,Los Angeles,Los Angeles\n",
		"flights.csv":  "flight_date,carrier,delay\n2024-01-02,UA,12\n2024-01-03,AA,-3\n2024-01-04,UA,40\n",
		"carriers.csv": "code,carrier_name\nUA,United\nAA,American\n",
	}
	for name, text := range tables {
		if err := os.WriteFile(filepath.Join(exports, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--dir", exports, "--sessions-dir", t.TempDir(), "Profile every table"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	paths := strings.Fields(out.String())
	if len(paths) != 2 {
		t.Fatalf("stdout must hold the report paths, got %q", out)
	}
	report, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	plan, err := os.ReadFile(filepath.Join(filepath.Dir(paths[0]), "plan.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range tables {
		if !strings.Contains(string(report), "## input/"+name) {
			t.Errorf("report.md has no part for %s:\n%s", name, report)
		}
		if !strings.Contains(string(plan), "of input/"+name) {
			t.Errorf("plan.md has no step for %s:\n%s", name, plan)
		}
	}
	if !strings.Contains(string(report), `the request says "every table"`) || strings.Contains(string(report), "names the most of the request's columns") {
		t.Errorf("report.md must give the real reason:\n%s", report)
	}
}

// TestHelpAndReadmeListEveryExitCode: `sift --help` and the command's page
// of the docs (docs/cli.md) name every exit code the command can end with.
func TestHelpAndReadmeListEveryExitCode(t *testing.T) {
	io, out, _ := testIO()
	if code := execute(context.Background(), io, []string{"--help"}); code != exitOK {
		t.Fatalf("sift --help exited %d", code)
	}
	readme, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	help := strings.Join(strings.Fields(out.String()), " ")
	for _, c := range []int{exitOK, exitRunFailed, exitUsage, exitModelConfig, exitEnvironment, exitBudget, exitWaiting, exitPaused, exitInterrupted} {
		w := fmt.Sprintf("; %d ", c)
		if c == exitOK {
			w = "Exit codes: 0 "
		}
		if !strings.Contains(help, w) {
			t.Errorf("sift --help does not list exit code %d", c)
		}
		if !strings.Contains(flat, w) {
			t.Errorf("docs/cli.md does not list exit code %d", c)
		}
	}
}

// TestRunReviewBuiltInAnalysis: --review waits for the person on the
// built-in analysis route too (exit 6 when not interactive), and `sift
// resume --approve` runs it.
func TestRunReviewBuiltInAnalysis(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	sessions := t.TempDir()
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--review", "--file", "../../examples/data/sales.csv", "--sessions-dir", sessions, "Which region sells most?"})
	if code != exitWaiting {
		t.Fatalf("exit code = %d, want %d (waiting for review); stderr:\n%s", code, exitWaiting, errOut)
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v %v", entries, err)
	}
	id := entries[0].Name()
	if _, err := os.Stat(filepath.Join(sessions, id, "report.md")); err == nil {
		t.Errorf("nothing may run before the review; stdout %q", out)
	}
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", "--sessions-dir", sessions, id, "--approve"}); code != exitOK {
		t.Fatalf("resume --approve: exit code = %d; stderr:\n%s", code, errOut)
	}
	if report, err := os.ReadFile(filepath.Join(sessions, id, "report.md")); err != nil || !strings.Contains(string(report), "no language model was called") {
		t.Errorf("approved, the analysis must run: %v\n%s\nstdout %q", err, report, out)
	}
}

func TestRendererSaysWhichStepsRunSideBySide(t *testing.T) {
	io, _, errOut := testIO()
	r := newRenderer(io, false, time.Now)
	step := plans.StepState{Step: plans.Step{Index: 3, Description: "Load the South rows", Needs: []int{}}, Status: plans.StatusDoing}
	r.event(event.Event{Kind: event.StepStarted, Step: &step, Text: "running steps 1 and 3 side by side"})
	if !strings.Contains(errOut.String(), "Step 3: Load the South rows") || !strings.Contains(errOut.String(), "(running steps 1 and 3 side by side)") {
		t.Errorf("the terminal must say which steps run side by side, got:\n%s", errOut)
	}
}

// TestUsageSumsEveryRunOfTheSession: usage.json holds the latest run's
// calls only; `sift usage` counts every call trajectory.jsonl recorded,
// with a line per question, and a record cut short by a crash is named,
// not fatal.
func TestUsageSumsEveryRunOfTheSession(t *testing.T) {
	root := t.TempDir()
	ws, err := session.Create(context.Background(), root, "s2")
	if err != nil {
		t.Fatal(err)
	}
	latest := `{"calls":1,"prompt_tokens":50,"completion_tokens":5,"per_agent":{"planner":{"calls":1,"prompt_tokens":50,"completion_tokens":5}}}`
	trajectory := `{"agent":"planner","turn":1,"request":[],"latency_ms":5,"usage":{"prompt_tokens":100,"completion_tokens":10,"cached_tokens":40,"cost_usd":0.01}}
{"agent":"executor","step":1,"turn":1,"request":[],"latency_ms":5,"usage":{"prompt_tokens":200,"completion_tokens":20,"cost_usd":0.02}}
{"agent":"executor","step":1,"turn":1,"request":[],"latency_ms":5,"error":"HTTP 500"}
{"agent":"planner","turn":2,"request":[],"latency_ms":5,"usage":{"prompt_tokens":50,"completion_tokens":5,"unpriced":true}}
{"agent":"planner","turn":2,"request":[{"role":"us`
	for name, body := range map[string]string{"usage.json": latest, "trajectory.jsonl": trajectory} {
		if err := os.WriteFile(filepath.Join(ws.Root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"usage", "--sessions-dir", root, "s2"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{
		"4 model calls, 350 prompt (40 of them cached) + 35 completion tokens, about $0.0300 (1 calls of unpriced models not counted)",
		"| executor | 2 | 200 | 20 | $0.0200 |",
		"| planner | 2 | 150 | 15 | $0.0100 |",
		"| question | calls |",
		"| 1 | 3 | 300 | 30 | $0.0300 |",
		"| 2 | 1 | 50 | 5 | – |",
		"1 recorded calls could not be read",
	} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"usage", "--json", "--sessions-dir", root, "s2"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var u event.SessionUsage
	if err := json.Unmarshal(out.Bytes(), &u); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if u.Calls != 4 || u.CachedTokens != 40 || u.Unpriced != 1 || len(u.Questions) != 2 || u.Unreadable != 1 {
		t.Errorf("--json: %+v", u)
	}
}

// The plan on the terminal names what each step waits for when steps
// branch; a plain chain is shown as before.
func TestRendererShowsTheNeedsOfBranchingPlans(t *testing.T) {
	step := func(i int, desc string, status plans.StepStatus, needs ...int) plans.StepState {
		return plans.StepState{Step: plans.Step{Index: i, Description: desc, Needs: needs}, Status: status}
	}
	io, _, errOut := testIO()
	r := newRenderer(io, false, time.Now)
	r.event(event.Event{Kind: event.Plan, Plan: &plans.FullPlan{ExplicitNeeds: true, Steps: []plans.StepState{
		step(1, "Load the North rows", plans.StatusTodo), step(2, "Load the South rows", plans.StatusTodo),
		step(3, "Summary", plans.StatusTodo, 1, 2)}}})
	if got := errOut.String(); !strings.Contains(got, "2. Load the South rows\n") || !strings.Contains(got, "3. Summary (needs 1, 2)\n") {
		t.Errorf("the plan must show step 3's needs, got:\n%s", got)
	}
	io, _, errOut = testIO()
	r = newRenderer(io, false, time.Now)
	r.event(event.Event{Kind: event.Plan, Plan: &plans.FullPlan{ExplicitNeeds: true, Steps: []plans.StepState{
		step(1, "Load", plans.StatusDone), step(2, "Sum", plans.StatusTodo), step(3, "Chart", plans.StatusTodo, 2)}}})
	if got := errOut.String(); strings.Contains(got, "needs") {
		t.Errorf("a chain's needs are read from the order, got:\n%s", got)
	}
}

// A run stopped by its budget says which bound it reached on the
// terminal, not only in the report.
func TestRendererSaysWhichBudgetStoppedTheRun(t *testing.T) {
	io, _, errOut := testIO()
	r := newRenderer(io, false, time.Now)
	err := fmt.Errorf("%w: 10 model calls of 8 allowed (--max-model-calls)", agents.ErrBudgetExceeded)
	r.event(event.Event{Kind: event.Done, Err: err, Path: t.TempDir()})
	if got := errOut.String(); !strings.Contains(got, "Stopped after") || !strings.Contains(got, "budget reached: 10 model calls of 8 allowed (--max-model-calls)") {
		t.Errorf("the last line must say which budget stopped the run, got:\n%s", got)
	}
}
