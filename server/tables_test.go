package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
)

// getTable asks the tables endpoint for path (with its query) and decodes
// the page, or the error's code.
func (ts *testServer) getTable(t *testing.T, id, pathQuery string) (int, fileTable, string) {
	t.Helper()
	code, body := ts.getRaw(t, "/v1/sessions/"+id+"/tables/"+pathQuery)
	var tab fileTable
	var e errorBody
	if code == 200 {
		if err := json.Unmarshal([]byte(body), &tab); err != nil {
			t.Fatalf("GET tables/%s: %v in %s", pathQuery, err, body)
		}
	} else if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("GET tables/%s = %d, not an error body: %s", pathQuery, code, body)
	}
	return code, tab, e.Error.Code
}

// TestTablesPagesACSV: a 120-row CSV comes 50 rows a page with its header
// and row count; the last page holds the rest, a page past it is a 400;
// a formula stays the text it is, a huge cell is cut and counted, a BOM
// is not part of the first column's name, a TSV splits on tabs.
func TestTablesPagesACSV(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	var b strings.Builder
	b.WriteString("\xEF\xBB\xBFn,label,note\n")
	for i := 1; i <= 120; i++ {
		note := ""
		switch i {
		case 1:
			note = `"=HYPERLINK(""http://evil.example"",""click"")"`
		case 2:
			note = strings.Repeat("x", 5000)
		case 3:
			note = `"<img src=x onerror=alert(1)>"`
		}
		fmt.Fprintf(&b, "%d,row %d,%s\n", i, i, note)
	}
	id, _ := filesSession(t, ts, map[string]string{
		"out/big.csv": b.String(),
		"out/t.tsv":   "a\tb\n1\t2,3\n",
	})

	code, p1, _ := ts.getTable(t, id, "out/big.csv")
	if code != 200 {
		t.Fatalf("page 1 = %d", code)
	}
	if diff := cmp.Diff([]string{"n", "label", "note"}, p1.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if p1.RowCount != 120 || !p1.RowCountExact || p1.PageCount != 3 || p1.PageSize != 50 || len(p1.Rows) != 50 {
		t.Errorf("page 1: rows %d of %d (exact %v), %d pages of %d", len(p1.Rows), p1.RowCount, p1.RowCountExact, p1.PageCount, p1.PageSize)
	}
	if got := p1.Rows[0][2]; got != `=HYPERLINK("http://evil.example","click")` {
		t.Errorf("the formula cell is %q, want its text", got)
	}
	if got := p1.Rows[1][2]; len([]rune(got)) != maxCellRunes || !strings.HasSuffix(got, "…") || p1.CutCells != 1 {
		t.Errorf("the 5000-character cell is %d characters (cut_cells %d), want cut to %d ending in …", len([]rune(got)), p1.CutCells, maxCellRunes)
	}
	if got := p1.Rows[2][2]; got != "<img src=x onerror=alert(1)>" {
		t.Errorf("markup in a cell is %q, want it as written", got)
	}
	code, p3, _ := ts.getTable(t, id, "out/big.csv?page=3")
	if code != 200 || len(p3.Rows) != 20 || p3.Rows[0][0] != "101" || p3.Rows[19][0] != "120" {
		t.Errorf("page 3 = %d with %d rows from %v", code, len(p3.Rows), p3.Rows)
	}
	code, p, _ := ts.getTable(t, id, "out/big.csv?page=2&page_size=7")
	if code != 200 || len(p.Rows) != 7 || p.Rows[0][0] != "8" || p.PageCount != 18 {
		t.Errorf("page 2 of 7 rows = %d, %d rows from %v, %d pages", code, len(p.Rows), p.Rows, p.PageCount)
	}
	for _, q := range []string{"?page=4", "?page=0", "?page=x", "?page_size=201", "?page_size=0"} {
		if code, _, ec := ts.getTable(t, id, "out/big.csv"+q); code != 400 || ec != "bad_request" {
			t.Errorf("%s = %d %s, want 400 bad_request", q, code, ec)
		}
	}
	code, tsv, _ := ts.getTable(t, id, "out/t.tsv")
	if code != 200 || !cmp.Equal(tsv.Rows, [][]string{{"1", "2,3"}}) {
		t.Errorf("the TSV = %d %v, want one row 1 | 2,3", code, tsv.Rows)
	}
}

// TestTablesBounds: a table wider than maxTableColumns shows that many
// and says how wide it is; rows shorter or longer than the header come
// as wide as the header; a binary file, a broken workbook and a file that
// is no table are refused saying so.
func TestTablesBounds(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	var wide []string
	for i := range 150 {
		wide = append(wide, fmt.Sprintf("c%d", i))
	}
	id, _ := filesSession(t, ts, map[string]string{
		"out/wide.csv":    strings.Join(wide, ",") + "\n" + strings.Join(wide, ",") + "\n",
		"out/ragged.csv":  "a,b,c\n1\n1,2,3,4,5\n",
		"out/binary.csv":  "a,b\n\x00\x01\x02",
		"out/broken.xlsx": "PK\x03\x04 not really a zip",
		"out/chart.png":   "PNG",
	})
	code, w, _ := ts.getTable(t, id, "out/wide.csv")
	if code != 200 || len(w.Columns) != maxTableColumns || w.ColumnCount != 150 || len(w.Rows[0]) != maxTableColumns {
		t.Errorf("wide = %d: %d columns shown of %d, rows %d wide", code, len(w.Columns), w.ColumnCount, len(w.Rows[0]))
	}
	code, r, _ := ts.getTable(t, id, "out/ragged.csv")
	if code != 200 || !cmp.Equal(r.Rows, [][]string{{"1", "", ""}, {"1", "2", "3"}}) || r.ColumnCount != 5 {
		t.Errorf("ragged = %d %v (column_count %d)", code, r.Rows, r.ColumnCount)
	}
	for _, c := range []struct {
		path, code, says string
		status           int
	}{
		{"out/binary.csv", "bad_file", "binary", 422},
		{"out/broken.xlsx", "bad_file", "not a workbook", 422},
		{"out/chart.png", "bad_request", "not a table file", 400},
	} {
		_, body := ts.getRaw(t, "/v1/sessions/"+id+"/tables/"+c.path)
		code, _, ec := ts.getTable(t, id, c.path)
		if code != c.status || ec != c.code || !strings.Contains(body, c.says) {
			t.Errorf("%s = %d %s %s, want %d %s saying %q", c.path, code, ec, body, c.status, c.code, c.says)
		}
	}
}

// TestTablesWorkbookSheets: a workbook's sheets are listed; each reads by
// name, paged; the first when none is named; a formula is not evaluated
// (its cell shows the value the workbook saved, here none); a sheet it
// does not have is a 404 naming the ones it has.
func TestTablesWorkbookSheets(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	wb := excelize.NewFile()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(wb.SetSheetName("Sheet1", "Revenue"))
	must(wb.SetSheetRow("Revenue", "A1", &[]any{"month", "revenue", "double"}))
	for i := 1; i <= 60; i++ {
		must(wb.SetSheetRow("Revenue", fmt.Sprintf("A%d", i+1), &[]any{fmt.Sprintf("m%02d", i), i * 10}))
	}
	must(wb.SetCellFormula("Revenue", "C2", "B2*2"))
	_, err := wb.NewSheet("Regions")
	must(err)
	must(wb.SetSheetRow("Regions", "A1", &[]any{"region", "share"}))
	must(wb.SetSheetRow("Regions", "A2", &[]any{"North", 0.25}))
	must(wb.SetSheetRow("Regions", "A3", &[]any{"=HYPERLINK(\"http://evil.example\")", 0.75}))
	buf, err := wb.WriteToBuffer()
	must(err)
	id, ws := filesSession(t, ts, nil)
	must(os.WriteFile(filepath.Join(ws, "out", "book.xlsx"), buf.Bytes(), 0o644))

	code, first, _ := ts.getTable(t, id, "out/book.xlsx")
	if code != 200 || !cmp.Equal(first.Sheets, []string{"Revenue", "Regions"}) || first.Sheet != "Revenue" {
		t.Fatalf("book = %d, sheets %v, showing %q", code, first.Sheets, first.Sheet)
	}
	if first.RowCount != 60 || first.PageCount != 2 || len(first.Rows) != 50 || !cmp.Equal(first.Rows[0], []string{"m01", "10", ""}) {
		t.Errorf("Revenue page 1: %d rows of %d in %d pages, first %q", len(first.Rows), first.RowCount, first.PageCount, first.Rows[0])
	}
	code, p2, _ := ts.getTable(t, id, "out/book.xlsx?sheet=Revenue&page=2")
	if code != 200 || len(p2.Rows) != 10 || p2.Rows[0][0] != "m51" {
		t.Errorf("Revenue page 2 = %d, %v", code, p2.Rows)
	}
	code, reg, _ := ts.getTable(t, id, "out/book.xlsx?sheet=Regions")
	want := [][]string{{"North", "0.25"}, {`=HYPERLINK("http://evil.example")`, "0.75"}}
	if code != 200 || reg.Sheet != "Regions" || !cmp.Equal(reg.Rows, want) || !cmp.Equal(reg.Columns, []string{"region", "share"}) {
		t.Errorf("Regions = %d %q %v %v, want %v", code, reg.Sheet, reg.Columns, reg.Rows, want)
	}
	_, body := ts.getRaw(t, "/v1/sessions/"+id+"/tables/out/book.xlsx?sheet=Costs")
	if code, _, ec := ts.getTable(t, id, "out/book.xlsx?sheet=Costs"); code != 404 || ec != "not_found" || !strings.Contains(body, "Revenue, Regions") {
		t.Errorf("a missing sheet = %d %s %s, want 404 naming the sheets", code, ec, body)
	}
}

// TestTablesRefusesWhatFilesRefuses: the tables endpoint serves only what
// the files endpoint serves: not the inputs, not a path with '.' or '..'
// elements, not a link out of the workspace, not another session's id.
func TestTablesRefusesWhatFilesRefuses(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id, ws := filesSession(t, ts, map[string]string{"out/ok.csv": "a\n1\n", "out/.x.csv": "a\nHIDDEN\n", "work/.hidden": "HIDDEN"})
	host := filepath.Join(t.TempDir(), "secret.csv")
	if err := os.WriteFile(host, []byte("secret\nCANARY-HOST\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(host, filepath.Join(ws, "out", "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(host), filepath.Join(ws, "out", "hostdir")); err != nil {
		t.Fatal(err)
	}
	base := "/v1/sessions/" + id
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/tables/out/ok.csv", 200},
		{"/tables/input/sales.csv", 403},
		{"/tables/out/link.csv", 403},
		{"/tables/out/.x.csv", 403},
		{"/tables/out%2F.x.csv", 403},
		{"/tables/work/.hidden", 403},
		{"/tables/out/hostdir/secret.csv", 403},
		{"/tables/out/../input/sales.csv", 400},
		{"/tables/out/./ok.csv", 400},
		{"/tables/out%2F..%2Finput%2Fsales.csv", 400},
		{"/tables/out//ok.csv", 400},
		{"/tables/out/missing.csv", 404},
	} {
		code, body := ts.getRaw(t, base+c.path)
		if code != c.status || strings.Contains(body, "CANARY") || strings.Contains(body, "HIDDEN") {
			t.Errorf("GET %s = %d %s, want %d", c.path, code, body, c.status)
		}
		// The files endpoint answers the same.
		if fcode, _ := ts.getRaw(t, base+strings.Replace(c.path, "/tables/", "/files/", 1)); fcode != code {
			t.Errorf("GET %s = %d but the files endpoint answers %d", c.path, code, fcode)
		}
	}
	if code, _ := ts.getRaw(t, "/v1/sessions/"+strings.Repeat("0", 26)+"/tables/out/ok.csv"); code != 404 && code != 400 {
		t.Errorf("another session's id = %d, want 404", code)
	}
}

// TestTablesCountOnce: the rows of a table file are counted on its first
// read and kept by the file's identity (size, modification time), so a
// later page reads only up to its own rows; a file that changes is
// counted again.
func TestTablesCountOnce(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	rows := func(n int) string {
		var b strings.Builder
		b.WriteString("n\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%03d\n", i)
		}
		return b.String()
	}
	id, ws := filesSession(t, ts, map[string]string{"out/t.csv": rows(120)})
	p := filepath.Join(ws, "out", "t.csv")
	if code, tab, _ := ts.getTable(t, id, "out/t.csv"); code != 200 || tab.RowCount != 120 {
		t.Fatalf("first read = %d, %d rows", code, tab.RowCount)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	// The same bytes but for a quote that makes rows 3 to the end one
	// field, with the same size and time: only a count kept from the
	// first read still says 120 rows.
	same := strings.Replace(rows(120), "\n002\n", "\n002\n\"", 1)[:len(rows(120))]
	if err := os.WriteFile(p, []byte(same), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if code, tab, _ := ts.getTable(t, id, "out/t.csv?page=1&page_size=2"); code != 200 || tab.RowCount != 120 || len(tab.Rows) != 2 || tab.Rows[1][0] != "002" {
		t.Errorf("a later page of the same file = %d, %d rows of %d, want the first read's count of 120", code, len(tab.Rows), tab.RowCount)
	}
	// A new time: counted again.
	if err := os.Chtimes(p, st.ModTime().Add(time.Second), st.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if code, tab, _ := ts.getTable(t, id, "out/t.csv"); code != 200 || tab.RowCount != 3 {
		t.Errorf("the changed file = %d, %d rows, want it counted again (3)", code, tab.RowCount)
	}
}

// BenchmarkTablesPageOf100kRows reads the last page of a 100,000-row CSV
// (the whole file is read to count its rows, whichever page is asked).
func BenchmarkTablesPageOf100kRows(b *testing.B) {
	p := filepath.Join(b.TempDir(), "big.csv")
	var sb strings.Builder
	sb.WriteString("n,label,amount,note\n")
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&sb, "%d,row %d,%.2f,\n", i, i, float64(i)*1.5)
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		tab := &fileTable{Page: 2000, PageSize: 50, RowCountExact: true}
		if err := readDelimitedPage(b.Context(), f, ',', tab); err != nil || tab.RowCount != 100_000 || len(tab.Rows) != 50 {
			b.Fatalf("%v: %d rows of %d", err, len(tab.Rows), tab.RowCount)
		}
		f.Close()
	}
}

// writeWorkbook writes a workbook of one sheet, Data, with a header and
// rows numbered rows, as a program's export would (excelize's stream
// writer: the sheet's dimension is recorded).
func writeWorkbook(tb testing.TB, p string, rows int) {
	tb.Helper()
	wb := excelize.NewFile()
	defer wb.Close()
	if err := wb.SetSheetName("Sheet1", "Data"); err != nil {
		tb.Fatal(err)
	}
	sw, err := wb.NewStreamWriter("Data")
	if err != nil {
		tb.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{"n", "label", "amount", "note"}); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i <= rows; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := sw.SetRow(cell, []any{i, fmt.Sprintf("row %d", i), float64(i) * 1.5, ""}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := wb.SaveAs(p); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkWorkbookFirstPage reads the first page of a 100,000-row
// sheet as the viewer first asks for it: nothing known of the file yet.
func BenchmarkWorkbookFirstPage(b *testing.B) {
	p := filepath.Join(b.TempDir(), "big.xlsx")
	writeWorkbook(b, p, 100_000)
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		tab := &fileTable{Page: 1, PageSize: 50, RowCountExact: true}
		if err := readSheetPage(b.Context(), f, "", tab); err != nil || len(tab.Rows) != 50 || tab.Rows[0][0] != "1" || tab.RowCount != 100_000 || !tab.RowCountExact {
			b.Fatalf("%v: %d rows of %d", err, len(tab.Rows), tab.RowCount)
		}
		f.Close()
	}
}

// TestTablesFormatsAsTheReport: topn on sales.csv writes Gizmo's share as
// 0.3697... into its CSV and 37.0% into report.md; the tables endpoint
// keeps the file's value and says the column is a percent with one
// decimal, which reads 37.0% again (the web app formats with it).
func TestTablesFormatsAsTheReport(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession(salesCSV(t))
	ts.ask(id, map[string]any{"question": "top 5 products by revenue"})
	ts.openStream(id, "").rest(t)
	report, err := os.ReadFile(filepath.Join(ts.srv.root, id, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	code, tab, _ := ts.getTable(t, id, "out/topn_ranking.csv")
	if code != 200 {
		t.Fatalf("tables = %d", code)
	}
	share := slices.Index(tab.Columns, "share")
	if share < 0 || len(tab.Formats) != len(tab.Columns) || tab.Formats[share] == nil {
		t.Fatalf("columns %v, formats %v: want share's format", tab.Columns, tab.Formats)
	}
	if raw := tab.Rows[0][share]; !strings.HasPrefix(raw, "0.3697") {
		t.Errorf("share in the rows = %q, want the file's full value 0.3697...", raw)
	}
	shown := tab.Formats[share].Cell(tab.Rows[0][share])
	if shown != "37.0%" || !strings.Contains(string(report), "| Gizmo | 104,355.0 | "+shown+" |") {
		t.Errorf("share reads %q by the endpoint's format; report.md:\n%s", shown, report)
	}
	for i, f := range tab.Formats {
		if i != share && f != nil {
			t.Errorf("column %s has format %+v; only share has one", tab.Columns[i], *f)
		}
	}
}
