package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// sessionsNow is the fixed clock of the sessions tests.
var sessionsNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// testSessionsDeps are deps with the fixed clock, UTC, no environment and
// stdin a terminal or not.
func testSessionsDeps(stdinTerminal bool) sessionsDeps {
	return sessionsDeps{
		now:           func() time.Time { return sessionsNow },
		loc:           time.UTC,
		getenv:        func(string) string { return "" },
		stdinTerminal: func() bool { return stdinTerminal },
	}
}

// seedSessions makes a file store in a temporary directory holding five
// sessions of every kind, and returns its root.
func seedSessions(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	seeds := []struct {
		age  time.Duration
		meta session.Meta
	}{
		{40 * 24 * time.Hour, session.Meta{ID: "20261013-100000-aaaaaa", Status: session.StatusDone, Mode: "plan",
			Question: "Profile every sheet of the 2025 budget workbook and list the columns with missing values"}},
		{35 * 24 * time.Hour, session.Meta{ID: "20261018-100000-bbbbbb", Status: session.StatusRunning, Mode: "auto",
			Question: "Which store had the most returns?", Step: &plans.Step{Index: 1, Description: "Load returns.csv"}}},
		{31 * 24 * time.Hour, session.Meta{ID: "20261022-100000-cccccc", Status: session.StatusFailed, Mode: "quick",
			Question: "各地区的月度销售额趋势如何？请按季度汇总并画出折线图，标注同比增长率", Error: "the model timed out three times"}},
		{2 * time.Hour, session.Meta{ID: "20261122-080000-dddddd", Status: session.StatusDone, Mode: "plan",
			Question: "Monthly trend and top region?", Inputs: []string{"input/sales.csv"},
			Step: &plans.Step{Index: 3, Description: "Write the report with the chart and the regional table"}}},
		{3 * time.Minute, session.Meta{ID: "20261122-095700-eeeeee", Status: session.StatusWaiting, Mode: "plan",
			Question: "Compare churn between the two cohorts", Inputs: []string{"input/a.csv", "input/b.csv"},
			Step:    &plans.Step{Index: 2, Description: "Join the cohorts on customer_id"},
			Pending: &session.Pending{ID: "int-7", Kind: session.PendingQuestion, Prompt: "Which column holds the cohort?\nBoth files have 'group'.", Choices: []string{"group", "segment"}}}},
	}
	for _, s := range seeds {
		at := sessionsNow.Add(-s.age)
		ctx := session.WithClock(context.Background(), func() time.Time { return at })
		if err := b.Sessions.Put(ctx, s.meta); err != nil {
			t.Fatal(err)
		}
	}
	// The finished session has the files a run leaves.
	ws := filepath.Join(root, "20261122-080000-dddddd")
	for rel, body := range map[string]string{
		"out/monthly_revenue.png":       "png",
		"out/revenue_by_region.csv":     "region,revenue\n",
		"out/.ipynb_checkpoints/x.json": "{}",
		"report.md":                     "# Report\n",
		"report.html":                   "<html></html>",
		"plan.md":                       "# Plan\n\n- [x] 1. Load input/sales.csv\n- [x] 2. Chart monthly revenue\n- [x] 3. Write the report\n",
	} {
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// sessionIDs lists the ids of the sessions in the file store at root.
func sessionIDs(t *testing.T, root string) []string {
	t.Helper()
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	metas, err := b.Sessions.List(context.Background(), session.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, m := range metas {
		ids = append(ids, m.ID)
	}
	return ids
}

// checkGolden compares got with testdata/name, rewriting the file when
// UPDATE_GOLDEN is set.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
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
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func TestSessionsFlags(t *testing.T) {
	type got struct {
		list  *sessionsListOptions
		show  *sessionsShowOptions
		rm    *sessionsRmOptions
		prune *sessionsPruneOptions
	}
	tests := []struct {
		name    string
		args    []string
		want    got
		wantErr string
	}{
		{
			name: "list defaults",
			args: []string{"list"},
			want: got{list: &sessionsListOptions{}},
		},
		{
			name: "list filters, json and a store",
			args: []string{"--store", "sqlite:/tmp/s.db", "list", "--status", "running,Waiting", "--status", "running", "--limit", "5", "--json"},
			want: got{list: &sessionsListOptions{sessionsStoreOptions: sessionsStoreOptions{Store: "sqlite:/tmp/s.db"},
				Status: []session.Status{session.StatusRunning, session.StatusWaiting}, Limit: 5, JSON: true}},
		},
		{
			name: "show with the sessions dir after the verb",
			args: []string{"show", "s1", "--json", "--sessions-dir", "/tmp/ss"},
			want: got{show: &sessionsShowOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: "/tmp/ss"}, ID: "s1", JSON: true}},
		},
		{
			name: "rm several",
			args: []string{"rm", "-y", "--force", "s1", "s2"},
			want: got{rm: &sessionsRmOptions{IDs: []string{"s1", "s2"}, Yes: true, Force: true}},
		},
		{
			name: "prune defaults to 30 days",
			args: []string{"prune"},
			want: got{prune: &sessionsPruneOptions{OlderThan: 720 * time.Hour}},
		},
		{
			name: "prune with age, force and dry run",
			args: []string{"prune", "--older-than", "36h", "--force", "--dry-run"},
			want: got{prune: &sessionsPruneOptions{OlderThan: 36 * time.Hour, Force: true, DryRun: true}},
		},
		{name: "unknown status", args: []string{"list", "--status", "done,stuck"}, wantErr: `unknown status "stuck"`},
		{name: "negative limit", args: []string{"list", "--limit", "-1"}, wantErr: "negative"},
		{name: "list takes no arguments", args: []string{"list", "waiting"}, wantErr: "takes no arguments"},
		{name: "show without id", args: []string{"show"}, wantErr: "give one session id"},
		{name: "show two ids", args: []string{"show", "a", "b"}, wantErr: "give one session id"},
		{name: "rm without id", args: []string{"rm", "--yes"}, wantErr: "give the ids"},
		{name: "negative age", args: []string{"prune", "--older-than", "-1h"}, wantErr: "negative"},
		{name: "bad age", args: []string{"prune", "--older-than", "a month"}, wantErr: "invalid argument"},
		{name: "store and sessions dir", args: []string{"--store", "file:/a", "--sessions-dir", "/b", "list"}, wantErr: "not both"},
		{name: "unknown subcommand", args: []string{"ls"}, wantErr: `unknown command "ls"`},
		{name: "unknown flag", args: []string{"list", "--all"}, wantErr: "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, _ := testIO()
			var g got
			cmd := newSessionsCmd(io, sessionsRunFuncs{
				list:  func(_ context.Context, o *sessionsListOptions) error { g.list = o; return nil },
				show:  func(_ context.Context, o *sessionsShowOptions) error { g.show = o; return nil },
				rm:    func(_ context.Context, o *sessionsRmOptions) error { g.rm = o; return nil },
				prune: func(_ context.Context, o *sessionsPruneOptions) error { g.prune = o; return nil },
			})
			err := parse(cmd, io, tt.args)
			if tt.wantErr != "" {
				wantUsageError(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, g, cmp.AllowUnexported(got{}, sessionsListOptions{}, sessionsShowOptions{}, sessionsRmOptions{}, sessionsPruneOptions{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSessionsStoreURL(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == session.StoreEnv {
				return v
			}
			return ""
		}
	}
	t.Setenv("SIFT_HOME", "/home/x/.sift")
	tests := []struct {
		name       string
		opts       sessionsStoreOptions
		env        string
		wantURL    string
		wantSource string
	}{
		{"flag wins over env", sessionsStoreOptions{Store: "sqlite:a.db"}, "redis://h:6379/0", "sqlite:a.db", "--store"},
		{"sessions dir wins over env", sessionsStoreOptions{SessionsDir: "/s"}, "redis://h:6379/0", "file:/s", "--sessions-dir"},
		{"env", sessionsStoreOptions{}, " redis://h:6379/0 ", "redis://h:6379/0", "$SIFT_STORE"},
		{"default", sessionsStoreOptions{}, "", "file:/home/x/.sift/sessions", "the default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, source := sessionsStoreURL(tt.opts, env(tt.env))
			if url != tt.wantURL || source != tt.wantSource {
				t.Errorf("got (%q, %q), want (%q, %q)", url, source, tt.wantURL, tt.wantSource)
			}
		})
	}
}

func TestSessionsListGolden(t *testing.T) {
	root := seedSessions(t)
	io, out, errOut := testIO()
	opts := &sessionsListOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}}
	if err := runSessionsList(context.Background(), io, opts, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr must stay empty, got %q", errOut)
	}
	checkGolden(t, "sessions_list.golden", out.String())
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if w := displayWidth(line); w > 100 {
			t.Errorf("line is %d columns wide, more than 100: %q", w, line)
		}
	}
}

func TestSessionsListFiltersAndJSON(t *testing.T) {
	root := seedSessions(t)
	tests := []struct {
		name   string
		status []session.Status
		limit  int
		want   []string
	}{
		{"all, newest first", nil, 0, []string{"20261122-095700-eeeeee", "20261122-080000-dddddd", "20261022-100000-cccccc", "20261018-100000-bbbbbb", "20261013-100000-aaaaaa"}},
		{"status", []session.Status{session.StatusRunning, session.StatusWaiting}, 0, []string{"20261122-095700-eeeeee", "20261018-100000-bbbbbb"}},
		{"limit", nil, 2, []string{"20261122-095700-eeeeee", "20261122-080000-dddddd"}},
		{"nothing matches", []session.Status{session.StatusPaused}, 0, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, _ := testIO()
			opts := &sessionsListOptions{sessionsStoreOptions: sessionsStoreOptions{Store: "file:" + root}, Status: tt.status, Limit: tt.limit, JSON: true}
			if err := runSessionsList(context.Background(), io, opts, testSessionsDeps(false)); err != nil {
				t.Fatal(err)
			}
			var metas []session.Meta
			if err := json.Unmarshal(out.Bytes(), &metas); err != nil {
				t.Fatalf("stdout is not one JSON array: %v\n%s", err, out)
			}
			ids := []string{}
			for _, m := range metas {
				ids = append(ids, m.ID)
			}
			if diff := cmp.Diff(tt.want, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSessionsListEmptySaysSo(t *testing.T) {
	io, out, errOut := testIO()
	opts := &sessionsListOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: t.TempDir()}}
	if err := runSessionsList(context.Background(), io, opts, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || !strings.Contains(errOut.String(), "No sessions in file:") {
		t.Errorf("want empty stdout and a note on stderr; stdout %q, stderr %q", out, errOut)
	}
}

func TestSessionsShowGolden(t *testing.T) {
	root := seedSessions(t)
	for _, tt := range []struct{ id, golden string }{
		{"20261122-095700-eeeeee", "sessions_show_waiting.golden"},
		{"20261122-080000-dddddd", "sessions_show_done.golden"},
		{"20261022-100000-cccccc", "sessions_show_failed.golden"},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			io, out, _ := testIO()
			opts := &sessionsShowOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, ID: tt.id}
			if err := runSessionsShow(context.Background(), io, opts, testSessionsDeps(false)); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.golden, strings.ReplaceAll(out.String(), root, "$ROOT"))
		})
	}
}

func TestSessionsShowJSON(t *testing.T) {
	root := seedSessions(t)
	io, out, _ := testIO()
	opts := &sessionsShowOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, ID: "20261122-080000-dddddd", JSON: true}
	if err := runSessionsShow(context.Background(), io, opts, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	var d sessionDetail
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	ws := filepath.Join(root, "20261122-080000-dddddd")
	want := sessionDetail{
		Meta:           d.Meta,
		Store:          "file:" + root,
		WorkspaceFound: true,
		Artifacts:      []string{"out/monthly_revenue.png", "out/revenue_by_region.csv"},
		Report:         filepath.Join(ws, "report.md"),
		ReportHTML:     filepath.Join(ws, "report.html"),
		Plan:           "# Plan\n\n- [x] 1. Load input/sales.csv\n- [x] 2. Chart monthly revenue\n- [x] 3. Write the report\n",
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("detail (-want +got):\n%s", diff)
	}
	if d.Question != "Monthly trend and top region?" || d.Workspace != ws || !d.Updated.Equal(sessionsNow.Add(-2*time.Hour)) {
		t.Errorf("the metadata must come along: %+v", d.Meta)
	}
}

func TestSessionsShowMissingWorkspace(t *testing.T) {
	root := seedSessions(t)
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	m := session.Meta{ID: "elsewhere", Status: session.StatusPaused, Question: "q", Workspace: filepath.Join(t.TempDir(), "gone")}
	if err := b.Sessions.Put(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	io, out, _ := testIO()
	opts := &sessionsShowOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, ID: "elsewhere"}
	if err := runSessionsShow(context.Background(), io, opts, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"(not found on this machine)", "Resume with: sift resume elsewhere"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestSessionsErrorsAreUsageErrors(t *testing.T) {
	root := seedSessions(t)
	env := func(k string) string {
		if k == session.StoreEnv {
			return "mysql://db/sift"
		}
		return ""
	}
	tests := []struct {
		name    string
		run     func(*ioStreams, sessionsDeps) error
		deps    sessionsDeps
		wantErr []string
	}{
		{
			name: "show an unknown id",
			run: func(io *ioStreams, deps sessionsDeps) error {
				return runSessionsShow(context.Background(), io, &sessionsShowOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, ID: "20261122-000000-ffffff"}, deps)
			},
			wantErr: []string{`no session "20261122-000000-ffffff"`, "sift sessions list"},
		},
		{
			name: "show an invalid id",
			run: func(io *ioStreams, deps sessionsDeps) error {
				return runSessionsShow(context.Background(), io, &sessionsShowOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, ID: "../etc"}, deps)
			},
			wantErr: []string{"invalid session id"},
		},
		{
			name: "rm an unknown id among known ones",
			run: func(io *ioStreams, deps sessionsDeps) error {
				return runSessionsRm(context.Background(), io, &sessionsRmOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, IDs: []string{"20261013-100000-aaaaaa", "nope"}, Yes: true}, deps)
			},
			wantErr: []string{`no session "nope"`},
		},
		{
			name: "bad store flag",
			run: func(io *ioStreams, deps sessionsDeps) error {
				return runSessionsList(context.Background(), io, &sessionsListOptions{sessionsStoreOptions: sessionsStoreOptions{Store: "ftp://x"}}, deps)
			},
			wantErr: []string{"from --store", `unknown scheme "ftp"`},
		},
		{
			name: "bad store in the environment",
			run: func(io *ioStreams, deps sessionsDeps) error {
				return runSessionsPrune(context.Background(), io, &sessionsPruneOptions{OlderThan: time.Hour}, deps)
			},
			deps:    sessionsDeps{getenv: env},
			wantErr: []string{"from $SIFT_STORE", `unknown scheme "mysql"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deps := testSessionsDeps(false)
			if tt.deps.getenv != nil {
				deps.getenv = tt.deps.getenv
			}
			io, out, _ := testIO()
			err := tt.run(io, deps)
			if err == nil {
				t.Fatal("want an error")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if exitCode(err) != exitUsage {
				t.Errorf("exit code = %d, want %d", exitCode(err), exitUsage)
			}
			if out.Len() != 0 {
				t.Errorf("stdout must stay empty, got %q", out)
			}
		})
	}
	if got := sessionIDs(t, root); len(got) != 5 {
		t.Errorf("a failed command must remove nothing; %d sessions left", len(got))
	}
}

func TestSessionsUnknownIDThroughTheCLI(t *testing.T) {
	root := seedSessions(t)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"sessions", "show", "--sessions-dir", root, "nope"})
	if code != exitUsage {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitUsage, errOut)
	}
	if !strings.Contains(errOut.String(), `no session "nope"`) || out.Len() != 0 {
		t.Errorf("stderr must name the id and stdout stay empty; stderr %q, stdout %q", errOut, out)
	}
}

func TestSessionsRm(t *testing.T) {
	const (
		done    = "20261013-100000-aaaaaa"
		running = "20261018-100000-bbbbbb"
		failed  = "20261022-100000-cccccc"
		newer   = "20261122-080000-dddddd"
		waiting = "20261122-095700-eeeeee"
	)
	all := []string{waiting, newer, failed, running, done}
	tests := []struct {
		name      string
		opts      sessionsRmOptions
		terminal  bool
		stdin     string
		wantErr   string
		wantLeft  []string
		wantOut   string
		wantPrint string // on stderr
	}{
		{
			name:     "refuses a running session, and removes nothing",
			opts:     sessionsRmOptions{IDs: []string{done, running}, Yes: true},
			wantErr:  "is running",
			wantLeft: all,
		},
		{
			name:     "refuses a waiting session",
			opts:     sessionsRmOptions{IDs: []string{waiting}, Yes: true},
			wantErr:  "--force",
			wantLeft: all,
		},
		{
			name:     "force removes a running session",
			opts:     sessionsRmOptions{IDs: []string{running, waiting}, Yes: true, Force: true},
			wantLeft: []string{newer, failed, done},
			wantOut:  running + "\n" + waiting + "\n",
		},
		{
			name:     "yes removes without asking, once per id",
			opts:     sessionsRmOptions{IDs: []string{newer, failed, newer}, Yes: true},
			wantLeft: []string{waiting, running, done},
			wantOut:  newer + "\n" + failed + "\n",
		},
		{
			name:     "without a terminal, --yes is required",
			opts:     sessionsRmOptions{IDs: []string{done}},
			stdin:    "y\n",
			wantErr:  "pass --yes",
			wantLeft: all,
		},
		{
			name:      "on a terminal, yes removes",
			opts:      sessionsRmOptions{IDs: []string{done}},
			terminal:  true,
			stdin:     "Y\n",
			wantLeft:  []string{waiting, newer, failed, running},
			wantOut:   done + "\n",
			wantPrint: "Remove 1 session (" + done + ", with checkpoint and its workspace)? [y/N] Removed 1 session.\n",
		},
		{
			name:      "on a terminal, anything else keeps",
			opts:      sessionsRmOptions{IDs: []string{done, failed}},
			terminal:  true,
			stdin:     "\n",
			wantLeft:  all,
			wantPrint: "Remove 2 sessions (" + done + ", " + failed + ", with checkpoint and their workspaces)? [y/N] Nothing removed.\n",
		},
		{
			name:      "on a terminal, end of input keeps",
			opts:      sessionsRmOptions{IDs: []string{done}},
			terminal:  true,
			wantLeft:  all,
			wantPrint: "Remove 1 session (" + done + ", with checkpoint and its workspace)? [y/N] \nNothing removed.\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := seedSessions(t)
			io, out, errOut := testIO()
			io.In = strings.NewReader(tt.stdin)
			opts := tt.opts
			opts.SessionsDir = root
			err := runSessionsRm(context.Background(), io, &opts, testSessionsDeps(tt.terminal))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				if exitCode(err) != exitUsage {
					t.Errorf("exit code = %d, want %d", exitCode(err), exitUsage)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantLeft, sessionIDs(t, root)); diff != "" {
				t.Errorf("sessions left (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantOut, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if tt.wantPrint != "" {
				if diff := cmp.Diff(tt.wantPrint, errOut.String()); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			}
			for _, id := range opts.IDs {
				_, statErr := os.Stat(filepath.Join(root, id))
				if gone := errors.Is(statErr, os.ErrNotExist); gone == strings.Contains(strings.Join(tt.wantLeft, " "), id) {
					t.Errorf("workspace of %s: gone = %v, want the opposite", id, gone)
				}
			}
		})
	}
}

func TestSessionsPrune(t *testing.T) {
	const (
		done    = "20261013-100000-aaaaaa"
		running = "20261018-100000-bbbbbb"
		failed  = "20261022-100000-cccccc"
		newer   = "20261122-080000-dddddd"
		waiting = "20261122-095700-eeeeee"
	)
	all := []string{waiting, newer, failed, running, done}
	tests := []struct {
		name       string
		opts       sessionsPruneOptions
		wantRows   []string // ids in the stdout table, in order
		wantLeft   []string
		wantStatus string
	}{
		{
			name:       "dry run lists and keeps",
			opts:       sessionsPruneOptions{OlderThan: 720 * time.Hour, DryRun: true},
			wantRows:   []string{done, failed},
			wantLeft:   all,
			wantStatus: "Dry run: would remove 2 sessions; nothing was removed.\n",
		},
		{
			name:       "removes finished and failed sessions, oldest first",
			opts:       sessionsPruneOptions{OlderThan: 720 * time.Hour},
			wantRows:   []string{done, failed},
			wantLeft:   []string{waiting, newer, running},
			wantStatus: "Removed 2 sessions last updated more than 30d ago.\n",
		},
		{
			name:       "force also removes an old running session",
			opts:       sessionsPruneOptions{OlderThan: 720 * time.Hour, Force: true},
			wantRows:   []string{done, running, failed},
			wantLeft:   []string{waiting, newer},
			wantStatus: "Removed 3 sessions last updated more than 30d ago.\n",
		},
		{
			name:       "a shorter age reaches newer sessions",
			opts:       sessionsPruneOptions{OlderThan: time.Hour},
			wantRows:   []string{done, failed, newer},
			wantLeft:   []string{waiting, running},
			wantStatus: "Removed 3 sessions last updated more than 1h ago.\n",
		},
		{
			name:       "nothing that old",
			opts:       sessionsPruneOptions{OlderThan: 60 * 24 * time.Hour},
			wantLeft:   all,
			wantStatus: "No finished or failed sessions last updated more than 60d ago.\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := seedSessions(t)
			io, out, errOut := testIO()
			opts := tt.opts
			opts.SessionsDir = root
			if err := runSessionsPrune(context.Background(), io, &opts, testSessionsDeps(false)); err != nil {
				t.Fatal(err)
			}
			var rows []string
			for i, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if i > 0 {
					rows = append(rows, strings.Fields(line)[0])
				}
			}
			if diff := cmp.Diff(tt.wantRows, rows); diff != "" {
				t.Errorf("table rows (-want +got):\n%s\n%s", diff, out)
			}
			if diff := cmp.Diff(tt.wantLeft, sessionIDs(t, root)); diff != "" {
				t.Errorf("sessions left (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantStatus, errOut.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAgeText(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-5 * time.Second, "0s"},
		{0, "0s"},
		{59 * time.Second, "59s"},
		{3*time.Minute + 50*time.Second, "3m"},
		{5 * time.Hour, "5h"},
		{47 * time.Hour, "47h"},
		{48 * time.Hour, "2d"},
		{720 * time.Hour, "30d"},
	}
	for _, tt := range tests {
		if got := ageText(tt.d); got != tt.want {
			t.Errorf("ageText(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestCutToWidth(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"one too long", 11, "one too lo…"},
		{"lines\nand   spaces", 20, "lines and spaces"},
		{"销售额趋势", 10, "销售额趋势"},
		{"销售额趋势", 9, "销售额趋…"},
		{"销售额趋势", 8, "销售额…"},
	}
	for _, tt := range tests {
		got := cutToWidth(tt.s, tt.w)
		if got != tt.want || displayWidth(got) > tt.w {
			t.Errorf("cutToWidth(%q, %d) = %q (width %d), want %q", tt.s, tt.w, got, displayWidth(got), tt.want)
		}
	}
}

func TestSessionsOnSQLiteStore(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "sift.db")
	b, err := session.OpenBackend(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	at := sessionsNow.Add(-time.Hour)
	if err := b.Sessions.Put(session.WithClock(ctx, func() time.Time { return at }), session.Meta{ID: "s1", Status: session.StatusPaused, Question: "q"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Checkpoints.Set(ctx, "s1", []byte("checkpoint")); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	store := sessionsStoreOptions{Store: url}

	io, out, _ := testIO()
	if err := runSessionsList(ctx, io, &sessionsListOptions{sessionsStoreOptions: store}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	if want := "ID  STATUS  UPDATED  STEP  QUESTION\ns1  paused  1h ago         q\n"; out.String() != want {
		t.Errorf("list (-want +got):\n%s", cmp.Diff(want, out.String()))
	}
	io, out, _ = testIO()
	if err := runSessionsRm(ctx, io, &sessionsRmOptions{sessionsStoreOptions: store, IDs: []string{"s1"}, Yes: true}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	if out.String() != "s1\n" {
		t.Errorf("rm must print the removed id, got %q", out)
	}
	b, err = session.OpenBackend(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Sessions.Get(ctx, "s1"); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("the metadata must be gone, Get says %v", err)
	}
	if _, found, err := b.Checkpoints.Get(ctx, "s1"); err != nil || found {
		t.Errorf("the checkpoint must be gone: found %v, err %v", found, err)
	}
}

// TestSessionsStoppedAndAnswered: a session left running by a process
// that ended is listed as stopped with the command that resumes it, one
// whose process still runs stays running, and a chat whose latest question
// failed still says how many of its questions got an answer.
func TestSessionsStoppedAndAnswered(t *testing.T) {
	root := t.TempDir()
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	ended := exec.Command(os.Args[0], "-test.run=^$")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	self := session.ThisProcess()
	dead := &session.Owner{Host: self.Host, PID: ended.ProcessState.Pid()}
	for _, m := range []session.Meta{
		{ID: "20261122-090000-killed", Status: session.StatusRunning, Question: "Killed mid-step", Owner: dead},
		{ID: "20261122-091000-alive1", Status: session.StatusRunning, Question: "Still going", Owner: self},
		{ID: "20261122-092000-chat01", Status: session.StatusFailed, Question: "and by month?", Questions: 3, Answered: 2},
	} {
		at := sessionsNow.Add(-time.Hour)
		if err := b.Sessions.Put(session.WithClock(context.Background(), func() time.Time { return at }), m); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	store := sessionsStoreOptions{SessionsDir: root}

	io, out, errOut := testIO()
	if err := runSessionsList(context.Background(), io, &sessionsListOptions{sessionsStoreOptions: store}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		id, rest, _ := strings.Cut(line, "  ")
		st, _, _ := strings.Cut(strings.TrimSpace(rest), "  ")
		status[id] = st
	}
	want := map[string]string{
		"20261122-090000-killed": "stopped",
		"20261122-091000-alive1": "running",
		"20261122-092000-chat01": "failed (2 of 3 answered)",
	}
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("statuses (-want +got):\n%s\n%s", diff, out)
	}
	hint := "resume with: sift resume 20261122-090000-killed --sessions-dir " + root
	if !strings.Contains(errOut.String(), hint) || strings.Contains(errOut.String(), "alive1") {
		t.Errorf("stderr must give the resume command of the stopped session only (%q):\n%s", hint, errOut)
	}

	io, out, _ = testIO()
	if err := runSessionsList(context.Background(), io, &sessionsListOptions{sessionsStoreOptions: store, JSON: true}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	var listed []listedSession
	if err := json.Unmarshal(out.Bytes(), &listed); err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.Stopped != (l.ID == "20261122-090000-killed") {
			t.Errorf("%s: stopped = %v in JSON", l.ID, l.Stopped)
		}
	}

	io, out, _ = testIO()
	if err := runSessionsShow(context.Background(), io, &sessionsShowOptions{sessionsStoreOptions: store, ID: "20261122-090000-killed"}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Status:    stopped\n", fmt.Sprintf("Process:   pid %d on %s, ended", dead.PID, dead.Host), "Resume with: sift resume 20261122-090000-killed --sessions-dir " + root} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("show lacks %q:\n%s", w, out)
		}
	}
}

// TestSessionsPrintTheResumeCommandThatWorks: the resume command `sift
// sessions show` prints for a session started with a scripted model
// carries the flags its run was given (the script; never a key), so that,
// run as printed, it resumes the session, where before it lacked them
// and the resume refused for want of a model.
func TestSessionsPrintTheResumeCommandThatWorks(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	root := t.TempDir()
	script := filepath.Join("..", "..", "examples", "demo", "script.json")
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--review", "--mode", "plan", "--script", script, "--sessions-dir", root, "--api-key", "sk-secret",
		"--file", filepath.Join("..", "..", "examples", "data", "sales.csv"), "What is the monthly revenue trend in 2024, and which region sells most?"}); code != exitWaiting {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	id := onlySession(t, root)
	io, out, _ = testIO()
	if code := execute(context.Background(), io, []string{"sessions", "show", "--sessions-dir", root, id}); code != exitOK {
		t.Fatalf("sessions show: exit %d\n%s", code, out)
	}
	var printed string
	for _, line := range strings.Split(out.String(), "\n") {
		for _, prefix := range []string{"Resume with: ", "Answer with: "} {
			if c, ok := strings.CutPrefix(line, prefix); ok {
				printed = c
			}
		}
	}
	if !strings.Contains(printed, "--script "+script) || strings.Contains(printed, "sk-secret") {
		t.Fatalf("sessions show prints %q; want the run's --script and no key:\n%s", printed, out)
	}
	args := strings.Fields(strings.TrimPrefix(printed, "sift "))
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, append(args, "--approve")); code != exitOK {
		t.Fatalf("the printed command %q --approve: exit %d\n%s\n%s", printed, code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(root, id, "report.md")); err != nil || !strings.Contains(string(b), "North") {
		t.Errorf("the resumed session's report: %v\n%s", err, b)
	}
}

// TestSessionsShowSaysWhyAndHowToGoOn: `sift sessions show` tells a
// failed session's cause and the command that asks its question again,
// which, run as printed once the cause is gone, answers it; and a stopped
// session's cause (its process ended, and what its log last said) with
// the command that resumes it.
func TestSessionsShowSaysWhyAndHowToGoOn(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	inner := scripted.NewServer(scripted.NewResponder(planReplier))
	t.Cleanup(inner.Close)
	var refuse atomic.Bool
	refuse.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refuse.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"the key was revoked","type":"authentication_error","code":401}}`)
			return
		}
		inner.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("SIFT_API_KEY", "test")
	root := t.TempDir()
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--parallel", "1", "--sandbox", "none", "--base-url", srv.URL + "/v1", "--model", "scripted",
		"--sessions-dir", root, "what is x doubled?"}); code == exitOK {
		t.Fatalf("a run whose model refuses its key: exit 0\n%s\n%s", out, errOut)
	}
	id := onlySession(t, root)
	show := func(id string) string {
		t.Helper()
		io, out, _ := testIO()
		if code := execute(context.Background(), io, []string{"sessions", "show", "--sessions-dir", root, id}); code != exitOK {
			t.Fatalf("sessions show %s: exit %d\n%s", id, code, out)
		}
		return out.String()
	}
	shown := show(id)
	printed := ""
	for _, line := range strings.Split(shown, "\n") {
		if c, ok := strings.CutPrefix(line, "Ask again with: "); ok {
			printed = c
		}
	}
	if !strings.Contains(shown, "Status:    failed") || !regexp.MustCompile(`(?m)^Error: .*(401|revoked|auth)`).MatchString(shown) || printed == "" {
		t.Fatalf("sessions show of the failed session gives no cause or no command:\n%s", shown)
	}
	refuse.Store(false)
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, shellWords(t, strings.TrimPrefix(printed, "sift "))); code != exitOK {
		t.Fatalf("the printed command %q: exit %d\n%s\n%s", printed, code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(root, id, "report.md")); err != nil || !strings.Contains(string(b), "42") {
		t.Errorf("the session asked again has no answer: %v\n%s", err, b)
	}

	// A session whose process ended while it ran, after its status could
	// not be recorded.
	ended := exec.Command(os.Args[0], "-test.run=^$")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	dead := &session.Owner{Host: session.ThisProcess().Host, PID: ended.ProcessState.Pid()}
	stopped := "20261122-090000-killed"
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Sessions.Put(context.Background(), session.Meta{ID: stopped, Status: session.StatusRunning, Question: "Killed mid-step", Owner: dead,
		Workspace: filepath.Join(root, stopped), Step: &plans.Step{Index: 2, Description: "Chart it"}}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	log, err := session.OpenEventLog(filepath.Join(root, stopped, session.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []event.Event{
		{Kind: event.StepStarted, Step: &plans.StepState{Step: plans.Step{Index: 2, Description: "Chart it"}}},
		{Kind: event.Message, Agent: "sift", Text: "warning: could not record the session's status (running) after 3 tries: no space left on device"},
	} {
		if _, err := log.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	shown = show(stopped)
	for _, w := range []string{
		fmt.Sprintf("Cause:     its process (pid %d on %s) ended while the session ran, in step 2; its log last said: could not record the session's status (running) after 3 tries: no space left on device\n", dead.PID, dead.Host),
		"Resume with: sift resume " + stopped + " --sessions-dir " + root + "\n",
	} {
		if !strings.Contains(shown, w) {
			t.Errorf("sessions show of the stopped session lacks %q:\n%s", w, shown)
		}
	}
}

// shellWords splits a command line printed for a POSIX shell, with
// single-quoted words (shellQuote's), into its arguments.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
