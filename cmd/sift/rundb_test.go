package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// regionFixture is a shop database of orders per region and a workbook of
// targets per region, with the figures a correct analysis reports.
type regionFixture struct {
	db, targets string
	// lines are "region revenue target gap" as the script's Python prints
	// them, sorted by region.
	lines []string
}

func newRegionFixture(t *testing.T) regionFixture {
	t.Helper()
	dir := t.TempDir()
	fx := regionFixture{db: filepath.Join(dir, "shop.db"), targets: filepath.Join(dir, "targets.xlsx")}
	db, err := sql.Open("sqlite", fx.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, region TEXT NOT NULL, amount REAL NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	regions := []string{"East", "North", "South", "West"}
	revenue := map[string]float64{}
	for i := 1; i <= 500; i++ {
		r := regions[(i*7)%len(regions)]
		amount := float64(10+(i*13)%90) + 0.5
		if _, err := db.Exec(`INSERT INTO orders VALUES (?, ?, ?)`, i, r, amount); err != nil {
			t.Fatal(err)
		}
		revenue[r] += amount
	}
	f := excelize.NewFile()
	defer f.Close()
	_ = f.SetCellValue("Sheet1", "A1", "region")
	_ = f.SetCellValue("Sheet1", "B1", "target")
	sort.Strings(regions)
	for i, r := range regions {
		target := 7000 + 500*i
		_ = f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i+2), r)
		_ = f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i+2), target)
		fx.lines = append(fx.lines, fmt.Sprintf("%s %.1f %d %.1f", r, revenue[r], target, revenue[r]-float64(target)))
	}
	if err := f.SaveAs(fx.targets); err != nil {
		t.Fatal(err)
	}
	return fx
}

// regionSQL is the SQL step; regionPython the Python step, which uses the
// SQL step's DataFrame rev without reading the database or its CSV.
const (
	regionSQL    = "SELECT region, SUM(amount) AS revenue FROM orders GROUP BY region ORDER BY region"
	regionPython = `import pandas as pd\nt = pd.read_excel('input/targets.xlsx')\nm = rev.merge(t, on='region').sort_values('region')\nfor _, r in m.iterrows():\n    print('%s %.1f %d %.1f' % (r.region, r.revenue, r.target, r.revenue - r.target))`
)

// regionPlan is the script up to the end of the SQL step: a plan of two
// steps, the SQL step run by the code agent with sql_query, and the
// replanner keeping step 2.
const regionPlan = `
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Revenue per region from the orders table as the DataFrame rev"},{"index":2,"description":"Join rev with input/targets.xlsx: revenue, target and gap per region"}]}}]},
 {"tool_calls":[{"name":"sql_query","arguments":{"sql":"` + regionSQL + `","as_dataframe":"rev"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":2,"description":"Join rev with input/targets.xlsx: revenue, target and gap per region"}]}}]}`

// regionFinish is the script of step 2 and the end.
const regionFinish = `
 {"tool_calls":[{"name":"python","arguments":{"code":"` + regionPython + `"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"{{last_tool_result}}"}}]},
 {"content":"# Revenue vs target per region\n\n{{section:Steps and results}}"}`

func TestRunWithDatabaseAndWorkbook(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	fx := newRegionFixture(t)
	sessions := t.TempDir()
	script := writeScript(t, `{"replies":[`+regionPlan+`,`+regionFinish+`]}`)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--yes", "--sandbox", "none", "--allow-unsandboxed", "--script", script,
		"--db", "sqlite:" + fx.db, "--file", fx.targets, "--sessions-dir", sessions, "revenue vs target per region"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	id := onlySession(t, sessions)
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range fx.lines {
		if !strings.Contains(string(report), l) {
			t.Errorf("report.md lacks %q:\n%s", l, report)
		}
	}
	// The SQL step ran in the database and handed its result to Python.
	if !strings.Contains(string(report), "the DataFrame rev now holds the full result") {
		t.Errorf("report.md must show step 1's SQL result handed to Python:\n%s", report)
	}
	cells, err := operator.ReadCells(filepath.Join(sessions, id))
	if err != nil || len(cells) != 2 || !strings.Contains(cells[0].Code, regionSQL) || !strings.Contains(cells[1].Code, "rev.merge") {
		t.Errorf("cells.jsonl must hold the DataFrame's loading cell (with its SQL), then step 2's: %+v, %v", cells, err)
	}
	rec, err := os.ReadFile(filepath.Join(sessions, id, "databases.json"))
	if err != nil || !strings.Contains(string(rec), "shop=sqlite:"+fx.db) {
		t.Errorf("the session must record its database with an absolute path: %s, %v", rec, err)
	}
}

func TestRunWithBadDatabaseURL(t *testing.T) {
	isolateEnv(t)
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--mode", "template", "--db", "oracle://x/y", "--sessions-dir", t.TempDir(), "profile"})
	if code == exitOK || !strings.Contains(errOut.String(), "unsupported database URL") || !strings.Contains(errOut.String(), "sqlite:path.db") {
		t.Errorf("exit %d; stderr must name the bad URL and the forms that work:\n%s", code, errOut)
	}
}

// onlySession returns the one session under sessions.
func onlySession(t *testing.T, sessions string) string {
	t.Helper()
	entries, err := os.ReadDir(sessions)
	var ids []string
	for _, e := range entries {
		// Not every directory is a session's: the memory's is .memory.
		if e.IsDir() && session.ValidateID(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	if err != nil || len(ids) != 1 {
		t.Fatalf("want one session, got %v (%v)", ids, err)
	}
	return ids[0]
}

func TestKillDashNineAfterSQLStepThenResume(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	fx := newRegionFixture(t)
	sessions := t.TempDir()
	// Step 2 starts a cell that sleeps: the process is killed while it runs.
	first := writeScript(t, `{"replies":[`+regionPlan+`,
 {"tool_calls":[{"name":"python","arguments":{"code":"import time\ntime.sleep(120)"}}]}]}`)
	cmd, id := startRunUntilSleep(t, "--mode", "plan", "--yes", "--script", first, "--db", "sqlite:"+fx.db, "--file", fx.targets, "--sessions-dir", sessions, "revenue vs target per region")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	// The resumed run knows the database from the session and runs step 2
	// only: its Python finds rev, rebuilt by replaying the loading cell.
	second := writeScript(t, `{"replies":[`+regionFinish+`]}`)
	resumeKilledInStep2(t, sessions, id, second)
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range fx.lines {
		if !strings.Contains(string(report), l) {
			t.Errorf("report.md lacks %q:\n%s", l, report)
		}
	}
	cells, err := operator.ReadCells(filepath.Join(sessions, id))
	if err != nil {
		t.Fatal(err)
	}
	var loaded, replayed int
	for _, c := range cells {
		if strings.Contains(c.Code, regionSQL) {
			if c.Replayed {
				replayed++
			} else {
				loaded++
			}
		}
	}
	if loaded != 1 || replayed != 1 {
		t.Errorf("the SQL step's DataFrame: loaded %d times, replayed %d; want 1 and 1 (the finished step is not run again)", loaded, replayed)
	}
}

func TestRunQueriesInputFilesWithSQL(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	// SQL over the files is offered from a size on; this small file gets
	// it only because the size is 0.
	t.Setenv("SIFT_FILES_SQL_FROM", "0")
	csv := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(csv, []byte("region,amount\nnorth,10.5\nsouth,20\nnorth,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	script := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Total per region with SQL on the files source"}]}}]},
 {"tool_calls":[{"name":"sql_query","arguments":{"source":"files","sql":"SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region","as_dataframe":"totals"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"{{last_tool_result}}"}}]},
 {"content":"# Totals\n\n{{section:Steps and results}}"}]}`)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--yes", "--sandbox", "none", "--allow-unsandboxed", "--script", script,
		"--file", csv, "--sessions-dir", sessions, "total per region"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	id := onlySession(t, sessions)
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| north | 14.5 |", "| south | 20 |", "the DataFrame totals now holds the full result"} {
		if !strings.Contains(string(report), w) {
			t.Errorf("report.md lacks %q:\n%s", w, report)
		}
	}
	traj, err := os.ReadFile(filepath.Join(sessions, id, "trajectory.jsonl"))
	if err != nil || !strings.Contains(string(traj), "Source files holds the input files as views: input/sales.csv → sales.") {
		t.Errorf("the agents must be told about the files source: %v", err)
	}
	if rec, err := os.ReadFile(filepath.Join(sessions, id, "databases.json")); err == nil {
		t.Errorf("the files source is not a database to record: %s", rec)
	}
}

func TestFollowUpWarnsOfAChangedInput(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	csv := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(csv, []byte("region,amount\nnorth,10\nsouth,20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	args := []string{"run", "--mode", "template", "--sandbox", "none", "--allow-unsandboxed", "--sessions-dir", sessions}
	io, _, errOut := testIO()
	if code := execute(context.Background(), io, append(args, "--file", csv, "profile the data")); code != exitOK {
		t.Fatalf("first run: exit %d\n%s", code, errOut)
	}
	id := onlySession(t, sessions)
	if err := os.WriteFile(csv, []byte("region,amount\nnorth,10\nsouth,20\neast,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	io2, out2, errOut2 := testIO()
	if code := execute(context.Background(), io2, append(args, "--json", "--session", id, "profile the data")); code != exitOK {
		t.Fatalf("follow-up: exit %d\n%s", code, errOut2)
	}
	if !strings.Contains(out2.String(), "the original "+csv+" changed after it was added") {
		t.Errorf("the follow-up must warn that the original changed:\n%s", out2)
	}
}

// A session's database that no longer opens as recorded (a password the
// session does not keep, a moved file) is given again to sift resume with
// --db; the resume that failed to open it leaves the session waiting.
func TestResumeTakesTheDatabaseAgain(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	fx := newRegionFixture(t)
	sessions := t.TempDir()
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--review", "--mode", "template", "--sandbox", "none", "--allow-unsandboxed",
		"--db", "shop=sqlite:" + fx.db, "--file", "../../examples/data/sales.csv", "--sessions-dir", sessions, "Which region sells most?"})
	if code != exitWaiting {
		t.Fatalf("exit code = %d, want %d; stderr:\n%s", code, exitWaiting, errOut)
	}
	id := onlySession(t, sessions)
	moved := filepath.Join(t.TempDir(), "moved.db")
	if err := os.Rename(fx.db, moved); err != nil {
		t.Fatal(err)
	}
	io, _, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--approve", "--sessions-dir", sessions}); code == exitOK || !strings.Contains(errOut.String(), "give the database again with --db") {
		t.Fatalf("exit %d; the resume must fail and say how to give the database again:\n%s", code, errOut)
	}
	io, _, errOut = testIO()
	if code := execute(context.Background(), io, []string{"resume", id, "--approve", "--sessions-dir", sessions, "--db", "shop=sqlite:" + moved}); code != exitOK {
		t.Fatalf("resume --approve --db: exit %d; stderr:\n%s", code, errOut)
	}
	rec, err := os.ReadFile(filepath.Join(sessions, id, "databases.json"))
	if err != nil || !strings.Contains(string(rec), "shop=sqlite:"+moved) {
		t.Errorf("the session must record the database given again: %s, %v", rec, err)
	}
}
