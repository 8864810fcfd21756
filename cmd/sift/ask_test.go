package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// defaultConversation is what the shared flags hold when none is given.
var defaultConversation = conversationOptions{CodeTimeout: 2 * time.Minute, PythonMode: "kernel"}

func TestAskFlags(t *testing.T) {
	withDBs := defaultConversation
	withDBs.DBs = []string{"sqlite:shop.db", "sales=postgres://u@h/db"}
	withDBs.Files = []string{"a.csv"}
	withDBs.Script = "s.json"
	withDBs.SessionsDir = "sess"
	tests := []struct {
		name    string
		args    []string
		want    askOptions
		wantErr string
	}{
		{
			name: "databases, files, script and question",
			args: []string{"--db", "sqlite:shop.db", "--db", "sales=postgres://u@h/db", "-f", "a.csv", "--script", "s.json", "--sessions-dir", "sess", "revenue", "by", "region?"},
			// The flags a printed `sift resume` repeats.
			want: askOptions{conversationOptions: withDBs, Question: "revenue by region?", ResumeArgs: []string{"--script s.json", "--sessions-dir sess"}},
		},
		{
			name: "a continued session as JSON",
			args: []string{"--session", "20261122-101500-ab12", "--json", "and for 2023?"},
			want: askOptions{conversationOptions: defaultConversation, Question: "and for 2023?", Session: "20261122-101500-ab12", JSON: true},
		},
		{name: "no question", args: []string{"--db", "sqlite:shop.db"}, wantErr: "give the question"},
		{name: "unknown flag", args: []string{"--nope", "q"}, wantErr: "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, _ := testIO()
			var got *askOptions
			err := parse(newAskCmd(io, func(_ context.Context, o *askOptions) error { got = o; return nil }), io, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != exitUsage {
					t.Fatalf("err = %v (exit %d), want a usage error containing %q", err, exitCode(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *got, cmp.AllowUnexported(askOptions{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

// shopDB writes a small SQLite shop and returns its path and the total
// revenue (sum of quantity times price).
func shopDB(t *testing.T) (string, float64) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(id), quantity INTEGER)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	total := 0.0
	for i := 1; i <= 5; i++ {
		if _, err := db.Exec(`INSERT INTO products VALUES (?, ?, ?)`, i, fmt.Sprintf("P%d", i), float64(i)*2.5); err != nil {
			t.Fatal(err)
		}
	}
	for o := 1; o <= 40; o++ {
		prod, qty := 1+o%5, 1+o%3
		if _, err := db.Exec(`INSERT INTO orders VALUES (?, ?, ?)`, o, prod, qty); err != nil {
			t.Fatal(err)
		}
		total += float64(qty) * float64(prod) * 2.5
	}
	return p, total
}

func writeScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const totalSQL = "SELECT 'TOTAL=' || SUM(o.quantity * p.price) AS total FROM orders o JOIN products p ON p.id = o.product_id"

func pythonOrSkip(t *testing.T) {
	t.Helper()
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
}

func TestAskScriptEndToEnd(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	db, total := shopDB(t)
	sessions := t.TempDir()
	script := writeScript(t, `{"name": "ask", "replies": [
 {"content": "Total revenue (quantity times price) over all orders.", "tool_calls": [{"name": "transfer_to_agent", "arguments": {"agent_name": "sql_analyst"}}]},
 {"tool_calls": [{"name": "sql_query", "arguments": {"sql": "`+totalSQL+`", "save_as": "total_revenue"}}]},
 {"tool_calls": [{"name": "submit_answer", "arguments": {"answer": "Total revenue is {{line:| TOTAL=}}", "sql": "`+totalSQL+`", "data_file": "out/total_revenue.csv", "follow_ups": ["By product?"]}}]}
]}`)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"ask", "--script", script, "--db", "shop=sqlite:" + db, "--sessions-dir", sessions, "What is the total revenue?"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	want := fmt.Sprintf("Total revenue is %s", strconvNum(total))
	for _, w := range []string{want, "You could ask next:\n- By product?", "Data: " + sessions, "total_revenue.csv", "Report: " + sessions, "report.md"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, out)
		}
	}
	for _, w := range []string{"scripted model", "sql_query", "Continue with: sift ask --session "} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	id := onlySession(t, sessions)
	csv, err := os.ReadFile(filepath.Join(sessions, id, "out", "total_revenue.csv"))
	if err != nil || !strings.Contains(string(csv), "TOTAL="+strconvNum(total)) {
		t.Errorf("the saved CSV must hold the total %s: %q, %v", strconvNum(total), csv, err)
	}

	// A new process continues the conversation from the session's history.
	follow := writeScript(t, `{"replies": [{"content": "Earlier I said: {{line:Total revenue is}}"}]}`)
	io2, out2, errOut2 := testIO()
	code = execute(context.Background(), io2, []string{"ask", "--script", follow, "--db", "shop=sqlite:" + db, "--sessions-dir", sessions, "--session", id, "What did you say?"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut2)
	}
	if !strings.Contains(out2.String(), "Earlier I said: "+strconvNum(total)) {
		t.Errorf("the continued conversation must see the first answer; stdout:\n%s", out2)
	}
}

func strconvNum(f float64) string { return fmt.Sprint(f) }

// TestAskRefusedWhileAnotherProcessHoldsTheSession: a sift ask turn takes
// the session's claim as run, resume and chat do, so it is refused, saying
// who holds the session, before it records anything.
func TestAskRefusedWhileAnotherProcessHoldsTheSession(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	db, _ := shopDB(t)
	sessions := t.TempDir()
	script := writeScript(t, `{"replies": [{"content": "Hello."}]}`)
	io, _, errOut := testIO()
	if code := execute(context.Background(), io, []string{"ask", "--script", script, "--db", "shop=sqlite:" + db, "--sessions-dir", sessions, "Hi?"}); code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v (%v)", entries, err)
	}
	id := entries[0].Name()
	backend, err := session.OpenFileBackend(sessions)
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	_, hold, err := session.HoldClaim(t.Context(), backend.Claims, id, "sift resume", 0)
	if err != nil {
		t.Fatal(err)
	}
	history := filepath.Join(sessions, id, "events.jsonl")
	before, _ := os.ReadFile(history)
	io2, out2, errOut2 := testIO()
	code := execute(context.Background(), io2, []string{"ask", "--script", script, "--db", "shop=sqlite:" + db, "--sessions-dir", sessions, "--session", id, "Again?"})
	if code == exitOK || !strings.Contains(errOut2.String(), "sift resume") {
		t.Fatalf("ask while another process holds the session: exit %d, stdout %q, stderr:\n%s", code, out2, errOut2)
	}
	if after, _ := os.ReadFile(history); string(after) != string(before) {
		t.Errorf("the refused turn recorded events:\n%s", after[len(before):])
	}
	hold.Release()
	io3, _, errOut3 := testIO()
	if code := execute(context.Background(), io3, []string{"ask", "--script", script, "--db", "shop=sqlite:" + db, "--sessions-dir", sessions, "--session", id, "Again?"}); code != exitOK {
		t.Fatalf("ask after the claim was released: exit %d; stderr:\n%s", code, errOut3)
	}
}

func TestAskWithoutModelIsAConfigurationError(t *testing.T) {
	isolateEnv(t)
	db, _ := shopDB(t)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"ask", "--db", "sqlite:" + db, "--sessions-dir", t.TempDir(), "revenue?"})
	if code != exitModelConfig {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitModelConfig, errOut)
	}
	for _, w := range []string{agents.ErrNoModel.Error(), "SQL", "SIFT_MODEL"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout must stay empty, got %q", out)
	}
}

func TestAskRejectsABadDatabaseURL(t *testing.T) {
	isolateEnv(t)
	script := writeScript(t, `{"replies": [{"content": "unused"}]}`)
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"ask", "--script", script, "--db", "oracle://x/y", "--sessions-dir", t.TempDir(), "q"})
	if code != exitUsage || !strings.Contains(errOut.String(), "sqlite:") {
		t.Fatalf("exit code = %d, want %d with the URL forms; stderr:\n%s", code, exitUsage, errOut)
	}
}

// TestAskFileAnalystAsksAndResumes: when the data analyst of `sift ask`
// asks the person, the command stops as `sift run` does — exit 6, the
// question and how to answer it — and `sift resume` answers it in a new
// process and finishes the analysis, whose answer the next turn of the
// conversation sees.
func TestAskFileAnalystAsksAndResumes(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	sessions := t.TempDir()
	data := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(data, []byte("year,n\n2023,5\n2024,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first := writeScript(t, `{"replies":[
 {"content":"How many rows of input/sales.csv belong to the year the person picks?","tool_calls":[{"name":"transfer_to_agent","arguments":{"agent_name":"data_analyst"}}]},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Count the rows of the chosen year"}],"complexity":"normal"}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Which year?","choices":["2023","2024"]}}]}]}`)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"ask", "--script", first, "--file", data, "--sessions-dir", sessions, "How many rows for the year I pick?"})
	if code != exitWaiting {
		t.Fatalf("exit %d, want %d (waiting for the answer); stdout:\n%s\nstderr:\n%s", code, exitWaiting, out, errOut)
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v %v", entries, err)
	}
	id := entries[0].Name()
	for _, w := range []string{"Question: Which year?", "1. 2023", "sift resume " + id + " ", "--sessions-dir " + sessions, "--answer"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if strings.Contains(out.String(), "report.md") {
		t.Errorf("no report exists yet, so none may be named:\n%s", out)
	}

	// A second process answers, and the analysis finishes.
	rest := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\nd = pd.read_csv('input/sales.csv')\nprint('rows:', int(d[d.year == 2024].n.iloc[0]))"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Found: 12 rows in 2024"}}]},
 {"content":"# Rows\n\n12 rows in 2024 [step 1]."}]}`)
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--answer", "2024", "--script", rest, "--sessions-dir", sessions}); code != exitOK {
		t.Fatalf("resume: exit %d; stderr:\n%s", code, errOut)
	}
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil || !strings.Contains(string(report), "12 rows in 2024") {
		t.Errorf("report.md: %v\n%s", err, report)
	}

	// The conversation goes on, and sees the answer.
	follow := writeScript(t, `{"replies":[{"content":"Earlier: {{line:Found:}}"}]}`)
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, []string{"ask", "--script", follow, "--sessions-dir", sessions, "--session", id, "What did you find?"}); code != exitOK {
		t.Fatalf("follow-up: exit %d; stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out.String(), "Earlier: 12 rows in 2024") {
		t.Errorf("the next turn must see the resumed answer; stdout:\n%s", out)
	}
}

// TestAskSessionsPrintTheResumeCommandThatWorks: a sift ask turn keeps
// the flags its resume needs with the session, as sift run does, so the
// command `sift sessions show` prints for its waiting analyst (here with
// the answer added) resumes it as printed; before, it lacked the model's
// endpoint and name, and the resume refused for want of a model.
func TestAskSessionsPrintTheResumeCommandThatWorks(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	sessions := t.TempDir()
	data := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(data, []byte("year,n\n2023,5\n2024,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A model that answers each request by what it offers, wherever the
	// session resumes from.
	args := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	srv := scripted.NewServer(scripted.NewResponder(func(req scripted.Request) (*schema.Message, error) {
		offers := map[string]bool{}
		for _, tl := range req.Tools {
			offers[tl.Name] = true
		}
		last := req.Messages[len(req.Messages)-1]
		switch {
		case offers["transfer_to_agent"]:
			return scripted.ToolCall("transfer_to_agent", args(map[string]string{"agent_name": "data_analyst"})), nil
		case offers["submit_result"]:
			return scripted.ToolCall("submit_result", args(map[string]string{"answer": "Found: 12 rows in 2024"})), nil
		case offers["create_plan"]:
			return scripted.ToolCall("create_plan", args(map[string]any{"steps": []map[string]any{{"index": 1, "description": "Count the rows of the chosen year"}}})), nil
		case offers["python"] && last.Role == schema.Tool && strings.Contains(last.Content, "answered: 2024"):
			return scripted.ToolCall("python", args(map[string]string{"code": "import pandas as pd\nd = pd.read_csv('input/sales.csv')\nprint('rows:', int(d[d.year == 2024].n.iloc[0]))"})), nil
		case offers["python"] && last.Role == schema.Tool:
			return scripted.Text("Counted: " + strings.TrimSpace(last.Content)), nil
		case offers["ask_user"]:
			return scripted.ToolCall("ask_user", args(map[string]any{"question": "Which year?", "choices": []string{"2023", "2024"}})), nil
		case len(req.Tools) == 0:
			return scripted.Text("# Rows\n\n12 rows in 2024 [step 1]."), nil
		}
		return nil, fmt.Errorf("unexpected request offering %d tools", len(req.Tools))
	}))
	t.Cleanup(srv.Close)
	t.Setenv("SIFT_API_KEY", "sk-secret")
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"ask", "--base-url", srv.URL + "/v1", "--model", "scripted", "--file", data, "--sessions-dir", sessions, "How many rows for the year I pick?"}); code != exitWaiting {
		t.Fatalf("exit %d, want %d (waiting for the answer); stdout:\n%s\nstderr:\n%s", code, exitWaiting, out, errOut)
	}
	id := onlySession(t, sessions)
	io, out, _ = testIO()
	if code := execute(context.Background(), io, []string{"sessions", "show", "--sessions-dir", sessions, id}); code != exitOK {
		t.Fatalf("sessions show: exit %d\n%s", code, out)
	}
	printed := ""
	for _, line := range strings.Split(out.String(), "\n") {
		if c, ok := strings.CutPrefix(line, "Answer with: "); ok {
			printed = c
		}
	}
	if !strings.Contains(printed, "--base-url "+srv.URL+"/v1") || !strings.Contains(printed, "--model scripted") || strings.Contains(printed, "sk-secret") {
		t.Fatalf("sessions show prints %q; want the turn's model flags and no key:\n%s", printed, out)
	}
	io, out, errOut = testIO()
	if code := execute(context.Background(), io, append(shellWords(t, strings.TrimPrefix(printed, "sift ")), "--answer", "2024")); code != exitOK {
		t.Fatalf("the printed command %q --answer 2024: exit %d\n%s\n%s", printed, code, out, errOut)
	}
	if report, err := os.ReadFile(filepath.Join(sessions, id, "report.md")); err != nil || !strings.Contains(string(report), "12 rows in 2024") {
		t.Errorf("report.md: %v\n%s", err, report)
	}
}
