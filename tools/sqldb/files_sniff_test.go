package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
)

// countSniffs counts sniff_csv's runs until the test ends.
func countSniffs(t *testing.T) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	orig := sniffCSVWith
	sniffCSVWith = func(ctx context.Context, db *sql.DB, abs, delim string) (*csvDialect, error) {
		n.Add(1)
		return orig(ctx, db, abs, delim)
	}
	t.Cleanup(func() { sniffCSVWith = orig })
	return &n
}

// sniffWorkspace writes files (name under input/ → content) into a fresh
// workspace and returns its root.
func sniffWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, "input", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestFilesSourceSniffsACSVOnce: the files source sniffs each CSV once;
// its view reads the file with the sniffed options and no detection of
// its own (a view that detects does so at every query), and so does the
// view ReadAsText makes. A sniff made ahead (SniffFiles) serves the next
// OpenFiles of the same file; a file changed since is sniffed again.
func TestFilesSourceSniffsACSVOnce(t *testing.T) {
	sniffs := countSniffs(t)
	root := sniffWorkspace(t, map[string]string{"sales.csv": "day,region,amount\n2024-01-05,north,10\n2024-02-07,south,20\n", "notes.txt": "text\n"})
	ctx := context.Background()
	inputs := make(chan []SniffInput, 1)
	inputs <- []SniffInput{{Path: "input/sales.csv"}, {Path: "input/notes.txt"}}
	SniffFiles(ctx, root, inputs)
	nothing := make(chan []SniffInput)
	close(nothing)
	SniffFiles(ctx, root, nothing) // sent no inputs: sniffs none
	if n := sniffs.Load(); n != 1 {
		t.Fatalf("SniffFiles sniffed %d times, want 1", n)
	}
	s, err := OpenFiles(ctx, root, []string{"input/sales.csv"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, q := range []string{"SELECT count(*) FROM sales", "SELECT sum(amount) FROM sales", "DESCRIBE sales"} {
		if _, err := s.Rows(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ReadAsText(ctx, "sales", []string{"amount"}); err != nil {
		t.Fatal(err)
	}
	if n := sniffs.Load(); n != 1 {
		t.Errorf("the run sniffed the file %d times, want once", n)
	}
	rows, err := s.Rows(ctx, "SELECT sql FROM duckdb_views() WHERE view_name = 'sales'")
	if err != nil || len(rows) != 1 {
		t.Fatalf("view sql: %v %v", rows, err)
	}
	// (DuckDB keeps the view's SQL as it bound it: false is CAST('f' AS
	// BOOLEAN), the columns a struct_pack.)
	if view := fmt.Sprint(rows[0][0]); !strings.Contains(view, "auto_detect = CAST('f'") || !strings.Contains(view, "amount := 'VARCHAR'") || !strings.Contains(view, `"day" := 'DATE'`) {
		t.Errorf("the view after ReadAsText is %s, want a read_csv with auto_detect = false, day a DATE and amount VARCHAR", view)
	}
	got, err := s.Rows(ctx, "SELECT typeof(day), typeof(amount), string_agg(amount, ' ') FROM sales GROUP BY ALL")
	if err != nil || fmt.Sprint(got) != "[[DATE VARCHAR 10 20]]" {
		t.Errorf("after ReadAsText: %v %v", got, err)
	}
	// The file changes: its next open sniffs it again.
	if err := os.WriteFile(filepath.Join(root, "input", "sales.csv"), []byte("day;region;amount;units\n2024-01-05;north;1.5;3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenFiles(ctx, root, []string{"input/sales.csv"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if n := sniffs.Load(); n != 2 {
		t.Errorf("a changed file was sniffed %d times in all, want 2", n)
	}
	if got, err := s2.Rows(ctx, "SELECT typeof(amount), units FROM sales"); err != nil || fmt.Sprint(got) != "[[DOUBLE 3]]" {
		t.Errorf("the changed file reads %v %v, want [[DOUBLE 3]]", got, err)
	}
}

// TestSniffedReaderReadsAsDetectionDoes: for the repository's CSV and TSV
// files and files of other dialects (semicolons, quotes with their
// escapes, comments, lines before the header, no header, CRLF, dates and
// timestamps in other formats, names with quotes), the sniffed reader
// gives the columns, types and values read_csv's own detection gives.
func TestSniffedReaderReadsAsDetectionDoes(t *testing.T) {
	files := map[string]string{
		"semi.csv":      "a;b;c\n1;x;2,5\n2;y;3,5\n",
		"quoted.csv":    "id,text,n\n1,\"hello, world\",3\n2,\"say \"\"hi\"\"\",4\n3,'single',5\n",
		"backslash.csv": "id,text\n1,\"a \\\"b\\\" c\"\n2,\"d\"\n",
		"comment.csv":   "# made by hand\nx,y\n1,2\n# a note\n3,4\n",
		"preamble.csv":  "report of sales\n\nday,amount\n2024-01-01,3\n2024-01-02,4\n",
		"noheader.csv":  "1,2,3\n4,5,6\n7,8,9\n",
		"crlf.csv":      "d,v\r\n2024-01-01,1.5\r\n2024-01-02,\r\n",
		"dmy.csv":       "when,v\n31/01/2024,1\n29/02/2024,2\n01/03/2024,3\n",
		"mdy.csv":       "when,v\n01/31/2024,1\n02/29/2024,2\n",
		"stamps.csv":    "at,v\n2024-01-01 10:00:00,1\n2024-01-02 11:30:15,2\n",
		"stampsfmt.csv": "at,v\n01/02/2024 10:00,1\n13/02/2024 11:30,2\n",
		"names.csv":     "it's,\"a \"\"b\"\"\",a,a,,x\n1,2,3,4,5,6\n",
		"bools.csv":     "f,g\ntrue,1\nfalse,\nTRUE,3\n",
		"nulls.csv":     "a,b,c\n,,\n1,,x\n,2,\n",
		"tabs.tsv":      "name\tprice\tday\nA\t1.5\t2024-03-01\nB\t\t2024-03-02\n",
		"mixed.csv":     "k,v\n1,10\n2,abc\n3,\n",
		"wide.csv":      "big,small,dec\n12345678901234567890,1,0.1\n1,2,0.25\n",
		"times.csv":     "t,v\n10:00:00,1\n23:59:59,2\n",
		"onecol.csv":    "x\n1\n\n2\n",
	}
	var long strings.Builder
	long.WriteString("day,amount,code\n")
	for i := 0; i < 30_000; i++ {
		fmt.Fprintf(&long, "2023-%02d-%02d,%d.%d,%d\n", i%12+1, i%28+1, i, i%7, i%100)
	}
	files["long.csv"] = long.String()
	repo := filepath.Join("..", "..")
	for _, rel := range []string{
		"examples/data/sales.csv", "examples/data/people.csv", "agents/testdata/data/weather.csv",
		"eval/understanding/testdata/tables/population_cn.csv", "eval/understanding/testdata/tables/birdstrikes.csv",
		"eval/understanding/testdata/tables/iowa-electricity.csv", "eval/understanding/testdata/tables/seattle-weather.csv",
		"eval/understanding/testdata/tables/macro_cn.csv", "eval/understanding/testdata/tables/statecrime.tsv",
		"eval/understanding/testdata/tables/disasters.csv", "eval/understanding/testdata/tables/us-employment.csv",
		"eval/understanding/testdata/tables/stocks.csv", "eval/understanding/testdata/tables/co2-concentration.csv",
		"eval/understanding/testdata/tables/grunfeld.csv",
	} {
		b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		files["repo_"+filepath.Base(rel)] = string(b)
	}
	root := sniffWorkspace(t, files)
	conn, err := duckdb.NewConnector("", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	ctx := context.Background()
	read := func(q string) (string, error) {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			return "", err
		}
		defer rows.Close()
		var b strings.Builder
		cols, _ := rows.ColumnTypes()
		for _, c := range cols {
			fmt.Fprintf(&b, "%s %s|", c.Name(), c.DatabaseTypeName())
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "\n%#v", vals)
		}
		return b.String(), rows.Err()
	}
	for name := range files {
		abs := filepath.Join(root, "input", name)
		delim, _ := csvDelim(abs)
		want, wantErr := read("SELECT * FROM " + FileReader(abs))
		d, err := sniffCSVWith(ctx, db, abs, delim)
		if err != nil {
			if wantErr == nil {
				t.Errorf("%s: sniff_csv failed (%v) where read_csv reads it", name, err)
			}
			continue
		}
		got, gotErr := read("SELECT * FROM " + d.reader(sqlString(abs), nil))
		if (gotErr != nil) != (wantErr != nil) || got != want {
			t.Errorf("%s: the sniffed reader (%s) reads\n%s (%v)\nwhere read_csv's detection reads\n%s (%v)", name, d.options, got, gotErr, want, wantErr)
		}
	}
}
