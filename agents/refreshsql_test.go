package agents

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/refresh"
	"github.com/sift-agent/sift/tools/sqldb"
)

// salesDB is a SQLite database of sales rows; more adds them later, as a
// database that lives on does.
func salesDB(t *testing.T) (path string, more func(rows ...string)) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	exec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE sales (region TEXT, revenue INTEGER)")
	exec("INSERT INTO sales VALUES ('North', 100), ('South', 70), ('North', 50), ('East', 30)")
	return path, func(rows ...string) {
		for _, r := range rows {
			exec("INSERT INTO sales VALUES " + r)
		}
	}
}

// TestRefreshRerunsTheQueriesOnTheDatabaseAsItIsNow: a session that
// answered with SQL over a database is refreshed with no new file: its
// query runs again on the database, which has grown, with no model call,
// and the report's numbers are the database's new ones.
func TestRefreshRerunsTheQueriesOnTheDatabaseAsItIsNow(t *testing.T) {
	db, more := salesDB(t)
	const q = "SELECT region, SUM(revenue) AS total FROM sales GROUP BY region ORDER BY total DESC"
	script := scripted.New(
		call(toolCreatePlan, steps("Total revenue by region from the database")),
		call(sqldb.SQLQueryName, map[string]string{"sql": q}),
		echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "North sells most (150).", "findings": []string{"North 150, South 70, East 30"}}),
		text("# Revenue report\n\nNorth leads with 150, South has 70 and East 30 [step 1].\n"),
	)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Databases: []string{"shop=sqlite:" + db}, Parallel: 1})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("the analysis failed: %v", done.Err)
	}
	more("('South', 200)", "('East', 5)")
	calls := script.Calls()
	re := refreshed(t, s, RefreshRequest{Session: done.Session})
	if re.Err != nil {
		t.Fatalf("refresh failed: %v", re.Err)
	}
	if got := script.Calls() - calls; got != 0 {
		t.Errorf("the refresh made %d model calls, want 0", got)
	}
	md := readWS(t, re, "report.md")
	for _, want := range []string{"South has 270", "North leads with 150", "East 35", "on its databases as they are now (shop): its 1 SQL query ran again", "| 70 | 270 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, refresh.UnverifiedMark) {
		t.Errorf("every number came from the query's new result:\n%s", md)
	}
}
