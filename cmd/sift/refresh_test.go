package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threeStepScriptFile writes a plan script: load, totals by region,
// rows; the report states numbers from steps 1 and 2.
func threeStepScriptFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "three.json")
	body := `{"replies": [
 {"tool_calls": [{"name": "create_plan", "arguments": {"steps": [{"index": 1, "description": "Load input/sales.csv"}, {"index": 2, "description": "Revenue by region"}, {"index": 3, "description": "Revenue by month"}]}}]},
 {"tool_calls": [{"name": "python", "arguments": {"code": "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nprint(len(df), 'rows')"}}]},
 {"content": "Done: {{last_tool_result}}"},
 {"tool_calls": [{"name": "create_plan", "arguments": {"steps": [{"index": 2, "description": "Revenue by region"}, {"index": 3, "description": "Revenue by month"}]}}]},
 {"tool_calls": [{"name": "python", "arguments": {"code": "print(df.groupby('region')['revenue'].sum().to_string())"}}]},
 {"content": "Done: {{last_tool_result}}"},
 {"tool_calls": [{"name": "create_plan", "arguments": {"steps": [{"index": 3, "description": "Revenue by month"}]}}]},
 {"tool_calls": [{"name": "python", "arguments": {"code": "print(df.groupby(df.date.str[:7])['revenue'].sum().to_string())"}}]},
 {"content": "Done: {{last_tool_result}}"},
 {"tool_calls": [{"name": "submit_result", "arguments": {"answer": "North sells most (150)."}}]},
 {"content": "# Sales\n\nNorth sold 150 and South 70 [step 2], over 4 rows [step 1]."}
]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRefreshCommand(t *testing.T) {
	pythonOrSkip(t)
	isolateEnv(t)
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	more := rows + "2025-01-07,North,200\n2025-03-02,South,120\n"
	data := write("sales.csv", "date,region,revenue\n"+rows)
	sessions := t.TempDir()
	io, _, errOut := testIO()
	if code := execute(ctx, io, []string{"run", "--mode", "plan", "--script", threeStepScriptFile(t), "--file", data, "--sessions-dir", sessions, "Who sells most?"}); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	entries, _ := os.ReadDir(sessions)
	var id string
	for _, e := range entries {
		if e.IsDir() {
			id = e.Name()
		}
	}
	refresh := func(args ...string) (int, string) {
		io, out, errOut := testIO()
		code := execute(ctx, io, append([]string{"refresh", "--sessions-dir", sessions, id}, args...))
		return code, out.String() + errOut.String()
	}
	code, text := refresh("--file", write("sales-2025.csv", "date,region,revenue\n"+more))
	if code != 0 || !strings.Contains(text, "Refreshing session "+id+": 3 cells run again with no model.") || !strings.Contains(text, "0 model calls") {
		t.Fatalf("refresh: exit %d:\n%s", code, text)
	}
	var report string
	entries, _ = os.ReadDir(sessions)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(sessions, e.Name(), "report.md")); err == nil && e.Name() != id {
			report = string(b)
		}
	}
	for _, want := range []string{"North sold 350 and South 190 [step 2], over 6 rows [step 1].", "| 150 | 350 | +200 (+133.3%) |"} {
		if !strings.Contains(report, want) {
			t.Errorf("refreshed report lacks %q:\n%s", want, report)
		}
	}

	renamed := write("renamed.csv", "date,Region,revenue_eur\n"+more)
	code, text = refresh("--file", renamed)
	if code != exitUsage || !strings.Contains(text, "revenue (int) → revenue_eur (int)") || !strings.Contains(text, "give --yes") {
		t.Errorf("renamed without --yes: exit %d:\n%s", code, text)
	}
	if code, text = refresh("--file", renamed, "--yes"); code != 0 {
		t.Errorf("renamed with --yes: exit %d:\n%s", code, text)
	}
	if code, text = refresh(); code != exitUsage || !strings.Contains(text, "give the new data, one file for each input of session") {
		t.Errorf("no new data for a session of files: exit %d:\n%s", code, text)
	}
	code, text = refresh("--file", write("gone.csv", "date,revenue\n2024-01-05,100\n"))
	if code != exitUsage || !strings.Contains(text, "no column region (text)") {
		t.Errorf("missing column: exit %d:\n%s", code, text)
	}
}

// TestRefreshCommandOnADatabase: a session that answered with SQL over a
// database is refreshed with no file; its query runs again on the
// database as it is now, and the status line counts the query.
func TestRefreshCommandOnADatabase(t *testing.T) {
	isolateEnv(t)
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE sales (region TEXT, revenue INTEGER)", "INSERT INTO sales VALUES ('North', 100), ('South', 70), ('North', 50)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(t.TempDir(), "sql.json")
	body := `{"replies": [
 {"tool_calls": [{"name": "create_plan", "arguments": {"steps": [{"index": 1, "description": "Revenue by region from the database"}]}}]},
 {"tool_calls": [{"name": "sql_query", "arguments": {"sql": "SELECT region, SUM(revenue) AS total FROM sales GROUP BY region ORDER BY total DESC"}}]},
 {"content": "Done: {{last_tool_result}}"},
 {"tool_calls": [{"name": "submit_result", "arguments": {"answer": "North sells most (150)."}}]},
 {"content": "# Sales\n\nNorth sold 150 and South 70 [step 1]."}
]}`
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	io, _, errOut := testIO()
	if code := execute(ctx, io, []string{"run", "--mode", "plan", "--script", script, "--db", "shop=sqlite:" + dbPath, "--sessions-dir", sessions, "Who sells most?"}); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	id := onlySession(t, sessions)
	if _, err := db.Exec("INSERT INTO sales VALUES ('South', 200)"); err != nil {
		t.Fatal(err)
	}
	io, out, errOut := testIO()
	if code := execute(ctx, io, []string{"refresh", "--sessions-dir", sessions, id}); code != 0 {
		t.Fatalf("refresh: exit %d:\n%s%s", code, out, errOut)
	}
	if text := out.String() + errOut.String(); !strings.Contains(text, "Refreshing session "+id+": 1 SQL query run again with no model.") {
		t.Errorf("the status line must count the query:\n%s", text)
	}
	var report string
	entries, _ := os.ReadDir(sessions)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(sessions, e.Name(), "report.md")); err == nil && e.Name() != id {
			report = string(b)
		}
	}
	if !strings.Contains(report, "North sold 150 and South 270 [step 1].") || !strings.Contains(report, "on its databases as they are now (shop)") {
		t.Errorf("the refreshed report must hold the database's numbers now:\n%s", report)
	}
}
