package sqldb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// filesWorkspace makes a session workspace with input/sales.csv,
// input/events.jsonl, input/notes.txt and a sibling session holding a
// secret, and returns the workspace root and the sibling's secret file.
func filesWorkspace(t *testing.T) (root, sibling string) {
	t.Helper()
	sessions := t.TempDir()
	root = filepath.Join(sessions, "s1")
	sibling = filepath.Join(sessions, "s2", "input", "secret.csv")
	for name, body := range map[string]string{
		"s1/input/sales.csv":    "region,amount,day\nnorth,10,2024-01-05\nsouth,20,2024-02-07\nnorth,5.5,2024-02-09\n",
		"s1/input/events.jsonl": "{\"kind\":\"click\",\"n\":3}\n{\"kind\":\"view\",\"n\":4}\n",
		"s1/input/notes.txt":    "just text\n",
		"s2/input/secret.csv":   "secret\nsibling-secret-value\n",
	} {
		p := filepath.Join(sessions, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"out", "work"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root, sibling
}

func openFilesSource(t *testing.T, root string) *Source {
	t.Helper()
	s, err := OpenFiles(context.Background(), root, []string{"input/sales.csv", "input/events.jsonl", "input/notes.txt"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestFilesSourceQueriesInputs(t *testing.T) {
	root, _ := filesWorkspace(t)
	s := openFilesSource(t, root)
	ctx := context.Background()
	if s.Name() != "files" || s.Dialect() != DuckDB {
		t.Errorf("source = %s", s)
	}
	res, err := s.Query(ctx, "SELECT region, sum(amount) AS total, count(*) AS n FROM sales GROUP BY region ORDER BY region", QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[north 15.5 2] [south 20 1]]" {
		t.Errorf("rows = %s", got)
	}
	res, err = s.Query(ctx, "SELECT sum(n) FROM events", QueryOptions{})
	if err != nil || fmt.Sprint(res.Rows) != "[[7]]" {
		t.Errorf("events: %v %v", res, err)
	}
	sc, err := s.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tableNames(sc), ","); got != "events,sales" {
		t.Errorf("tables = %s; want the views of the CSV and JSONL inputs (not the text file)", got)
	}
	if c := sc.Table("sales").Column("day"); c == nil || c.Type != "DATE" {
		t.Errorf("sales.day = %+v; want a DATE column", c)
	}
	// A cut result is exported under out/ through the operator.
	op := newOperatorAt(t, root)
	small, err := OpenFiles(ctx, root, []string{"input/sales.csv"}, FilesOptions{Options: Options{MaxRows: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	res, err = small.Query(ctx, "SELECT * FROM sales", QueryOptions{Op: op, SaveAs: "all_sales"})
	if err != nil || res.SavedTo != "out/all_sales.csv" {
		t.Fatalf("export: %+v %v", res, err)
	}
}

func newOperatorAt(t *testing.T, root string) operator.Operator {
	t.Helper()
	op, err := operator.NewLocal(operator.LocalConfig{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	return op
}

// tree lists every file under dir with its size, to show nothing changed.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, _ := d.Info()
		out = append(out, fmt.Sprintf("%s %d", p, info.Size()))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func TestFilesSourceRefusesHostileSQL(t *testing.T) {
	root, sibling := filesWorkspace(t)
	s := openFilesSource(t, root)
	ctx := context.Background()
	outside := filepath.Join(t.TempDir(), "stolen.csv")
	before := tree(t, filepath.Dir(root))
	// engine: the locked engine refuses it on its own, without the guard.
	cases := []struct {
		name, sql string
		engine    bool
	}{
		{"etc passwd", "SELECT * FROM read_csv('/etc/passwd')", true},
		{"etc passwd as text", "SELECT * FROM read_text('/etc/passwd')", true},
		{"sibling session", "SELECT * FROM read_csv('" + sibling + "')", true},
		{"sibling through dot-dot", "SELECT * FROM read_csv('" + root + "/input/../../s2/input/secret.csv')", true},
		{"copy to outside", "COPY (SELECT * FROM sales) TO '" + outside + "'", true},
		{"copy to out", "COPY sales TO '" + root + "/out/x.csv'", true},
		{"install", "INSTALL httpfs", true},
		{"load", "LOAD httpfs", true},
		{"attach", "ATTACH '" + filepath.Join(t.TempDir(), "x.db") + "' AS x", true},
		{"set external access", "SET enable_external_access = true", true},
		{"set allowed directories", "SET allowed_directories = ['/']", true},
		{"reset", "RESET lock_configuration", true},
		{"pragma memory", "PRAGMA memory_limit = '100GB'", true},
		{"pragma threads", "PRAGMA threads = 64", true},
		{"multi statement", "SELECT 1; COPY sales TO '" + outside + "'", false},
		{"query function", "SELECT * FROM query('COPY sales TO ''" + outside + "''')", true},
		{"export database", "EXPORT DATABASE '" + t.TempDir() + "'", true},
		{"replace a view", "CREATE OR REPLACE VIEW sales AS SELECT 1 AS amount", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The guard and the locked engine each refuse on their own.
			_, err := s.Query(ctx, c.sql, QueryOptions{NoCache: true})
			var qe *QueryError
			switch {
			case err == nil:
				t.Errorf("Query(%q) succeeded", c.sql)
			case errors.Is(err, ErrRefused):
				if !strings.Contains(err.Error(), "read-only") {
					t.Errorf("the refusal must say what is allowed: %v", err)
				}
			case !errors.As(err, &qe) || qe.Hint == "":
				t.Errorf("Query(%q) = %v; want a refusal or an error with a hint", c.sql, err)
			}
			if c.engine {
				if _, err := s.db.ExecContext(ctx, c.sql); err == nil {
					t.Errorf("the engine ran %q without the guard", c.sql)
				}
			}
		})
	}
	if after := tree(t, filepath.Dir(root)); after != before {
		t.Errorf("the hostile SQL changed files:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written outside the workspace: %v", err)
	}
	res, err := s.Query(ctx, "SELECT sum(amount) FROM sales", QueryOptions{NoCache: true})
	if err != nil || fmt.Sprint(res.Rows) != "[[35.5]]" {
		t.Errorf("the views must be unchanged after the hostile SQL: %v %v", res, err)
	}
}

func TestFilesSourceGuardAndHints(t *testing.T) {
	root, _ := filesWorkspace(t)
	s := openFilesSource(t, root)
	ctx := context.Background()
	for _, q := range []string{"FROM sales SELECT region", "SUMMARIZE sales", "DESCRIBE sales"} {
		if _, err := s.Query(ctx, q, QueryOptions{}); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	for _, q := range []string{"SELECT * FROM query('SELECT 1')", "SELECT getenv('HOME')"} {
		if _, err := s.Query(ctx, q, QueryOptions{}); !errors.Is(err, ErrRefused) {
			t.Errorf("%s = %v, want the guard's refusal", q, err)
		}
	}
	// DuckDB has PRAGMAs: the refusal says what to use instead, not that
	// they are SQLite's.
	if _, err := s.Query(ctx, "PRAGMA table_info('sales')", QueryOptions{}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "DESCRIBE") || strings.Contains(err.Error(), "SQLite") {
		t.Errorf("PRAGMA table_info = %v, want a refusal pointing to DESCRIBE", err)
	}
	cases := []struct {
		sql  string
		kind ErrorKind
		hint string
	}{
		{"SELECT amout FROM sales", KindUnknownColumn, "amount"},
		{"SELECT * FROM sale", KindUnknownTable, "sales"},
		{"SELECT * FROM read_csv('/etc/passwd')", KindPermission, "views"},
		// DuckDB's message advises INSTALL and SET autoinstall: the hint
		// says they cannot work here.
		{"SELECT * FROM sqlite_scan('shop.db', 'orders')", KindPermission, "cannot install or load extensions"},
	}
	for _, c := range cases {
		_, err := s.Query(ctx, c.sql, QueryOptions{})
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Kind != c.kind || !strings.Contains(qe.Hint, c.hint) {
			t.Errorf("Query(%q) = %v (hint %q), want %s with a hint naming %q", c.sql, err, hintOf(qe), c.kind, c.hint)
		}
	}
}

// TestFileViewsNameTheViewsOpenFilesMakes: the names the data context
// gives the model are the views OpenFiles creates.
func TestFileViewsNameTheViewsOpenFilesMakes(t *testing.T) {
	got := fmt.Sprint(FileViews([]string{"input/sales.csv", "input/notes.txt", "input/2024 Sales.csv", "input/sub/sales.parquet", "work/x.csv", "input/../secret.csv"}))
	if want := "[{input/sales.csv sales} {input/2024 Sales.csv t_2024_sales} {input/sub/sales.parquet sales_2}]"; got != want {
		t.Errorf("FileViews = %s; want %s", got, want)
	}
	root, _ := filesWorkspace(t)
	s := openFilesSource(t, root)
	sc, err := s.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var views []string
	for _, v := range FileViews([]string{"input/sales.csv", "input/events.jsonl", "input/notes.txt"}) {
		views = append(views, v.View)
	}
	sort.Strings(views)
	if got, want := strings.Join(views, ","), strings.Join(tableNames(sc), ","); got != want {
		t.Errorf("FileViews names %s; OpenFiles made %s", got, want)
	}
}

// A file DuckDB cannot read costs only its own view: the others are
// queried, and the source says which file it left out and why.
func TestFilesSourceLeavesOutAnUnreadableFile(t *testing.T) {
	root, _ := filesWorkspace(t)
	if err := os.WriteFile(filepath.Join(root, "input", "bad.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenFiles(context.Background(), root, []string{"input/bad.json", "input/sales.csv"}, FilesOptions{})
	if err != nil {
		t.Fatalf("one malformed file must not close the source: %v", err)
	}
	defer s.Close()
	if got := fmt.Sprint(s.Views()); got != "[{input/sales.csv sales}]" {
		t.Errorf("views = %s, want only sales", got)
	}
	if u := s.Unreadable(); len(u) != 1 || !strings.HasPrefix(u[0], "input/bad.json (9 bytes): ") || !strings.Contains(u[0], "JSON") || strings.Contains(u[0], root) {
		t.Errorf("unreadable = %q, want input/bad.json with DuckDB's reason and no absolute path", u)
	}
	if res, err := s.Query(context.Background(), "SELECT count(*) FROM sales", QueryOptions{}); err != nil || fmt.Sprint(res.Rows) != "[[3]]" {
		t.Errorf("sales must be queried: %v %v", res, err)
	}
	if _, err := OpenFiles(context.Background(), root, []string{"input/bad.json"}, FilesOptions{}); err == nil || !strings.Contains(err.Error(), "input/bad.json") {
		t.Errorf("with no readable file the source fails, naming it: %v", err)
	}
}

// A CSV DuckDB cannot read says why, on one line, not only that
// sniffing failed, and how big it is: an empty file is not a malformed
// one.
func TestFilesSourceSaysWhyACSVCannotBeRead(t *testing.T) {
	root, _ := filesWorkspace(t)
	if err := os.WriteFile(filepath.Join(root, "input", "quote.csv"), []byte("a,b\n\xff\xfe,1\n\xc3,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenFiles(context.Background(), root, []string{"input/quote.csv", "input/sales.csv"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u := s.Unreadable()
	if len(u) != 1 || !strings.HasPrefix(u[0], "input/quote.csv (13 bytes): ") || !strings.Contains(u[0], "not utf-8") || strings.Contains(u[0], "\n") {
		t.Errorf("unreadable = %q, want input/quote.csv, its size and DuckDB's reason on one line", u)
	}
	if len(u) == 1 {
		t.Logf("%s", u[0])
	}
}

// A file named after a keyword (order.csv) gets a view that can be
// queried unquoted, and the list of such keywords is DuckDB's own.
func TestFileViewsAvoidKeywords(t *testing.T) {
	if got, want := fmt.Sprint(FileViews([]string{"input/order.csv", "input/semi.csv", "input/orders.csv"})), "[{input/order.csv t_order} {input/semi.csv t_semi} {input/orders.csv orders}]"; got != want {
		t.Errorf("FileViews = %s, want %s", got, want)
	}
	s, err := OpenFiles(context.Background(), mustWorkspace(t, map[string]string{"order.csv": "id\n1\n2\n"}), []string{"input/order.csv"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if res, err := s.Query(context.Background(), "SELECT count(*) FROM t_order", QueryOptions{}); err != nil || fmt.Sprint(res.Rows) != "[[2]]" {
		t.Errorf("t_order: %v %v", res, err)
	}
	// Every keyword that cannot name a table unquoted is in duckKeywords.
	rows, err := s.Rows(context.Background(), "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category IN ('reserved', 'type_function', 'column_name')")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		kw := fmt.Sprint(r[0])
		if _, err := s.db.Exec("CREATE VIEW " + QuoteIdent(kw) + " AS SELECT 1 AS a"); err != nil {
			t.Fatal(err)
		}
		_, err := s.db.Exec("SELECT * FROM " + kw)
		if _, derr := s.db.Exec("DROP VIEW " + QuoteIdent(kw)); derr != nil {
			t.Fatal(derr)
		}
		if err != nil && !duckKeywords[kw] {
			t.Errorf("%q cannot name a table unquoted (%v) but is not in duckKeywords", kw, err)
		}
	}
}

// mustWorkspace is a workspace whose input/ holds files.
func mustWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"input", "out", "work"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, "input", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
