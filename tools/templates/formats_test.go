package templates

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/numfmt"
)

// TestColumnFormatsMatchReport: each built-in whose CSV holds fractions
// records their format beside the file, and that format, applied to the
// file's full-precision values, gives the very cells of its report table
// (topn's share 0.3697... in the CSV is "37.0%" in both).
func TestColumnFormatsMatchReport(t *testing.T) {
	t.Parallel()
	sales, err := os.ReadFile(filepath.Join("..", "..", "examples", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	op := workspace(t, map[string][]byte{"sales.csv": sales})
	for _, q := range []string{"top 5 products by revenue", "monthly revenue trend"} {
		res := runMatched(t, op, "input/sales.csv", q)
		checked := 0
		for _, s := range res.Sections {
			for _, f := range s.Files {
				if !strings.HasSuffix(f, ".csv") {
					continue
				}
				fm, err := numfmt.Read(op.Root(), f)
				if err != nil {
					t.Fatal(err)
				}
				if len(fm) == 0 {
					continue
				}
				rows := readCSVFile(t, filepath.Join(op.Root(), f))
				for _, row := range rows[1:] {
					shown := fm.Row(rows[0], row)
					for i, c := range rows[0] {
						if _, ok := fm[c]; !ok || row[i] == "" {
							continue
						}
						checked++
						if shown[i] == row[i] || !strings.Contains(s.Markdown, "| "+shown[i]+" |") {
							t.Errorf("%s: %s %s of %s reads %q by its recorded format, which the report's table (%s) does not show", q, c, row[i], f, shown[i], s.Markdown)
						}
					}
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no CSV column had a recorded format (files %v)", q, res.Files)
		}
	}
}

func readCSVFile(t *testing.T, p string) [][]string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: %v (%d rows)", p, err, len(rows))
	}
	return rows
}
