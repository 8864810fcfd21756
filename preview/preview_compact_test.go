package preview

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"
	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
)

func TestCompactSmallCSV(t *testing.T) {
	data := "id,date,region,amount,note\n1,2024-01-31,North,10.5,first\n2,2024-02-29,South,20,\"has, comma\"\n3,2024-03-31,East,,x|y\n"
	p := mustPreview(t, writeFile(t, "sales.csv", []byte(data)), Options{})
	want := `## sales.csv (csv; 115 B; encoding utf-8; delimiter comma ",")
table: 3 rows × 5 columns
id (int) | date (date) | region (text) | amount (float) | note (text)
1 | 2024-01-31 | North | 10.5 | first
2 | 2024-02-29 | South | 20 | has, comma
3 | 2024-03-31 | East |  | x\|y`
	if diff := cmp.Diff(want, p.Compact(Options{})); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// wideCSV has cols columns with unrelated names, so no run of them folds.
func wideCSV(t *testing.T, cols, rows int) string {
	var b strings.Builder
	for j := range cols {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%c%c_field_%d", 'a'+j%26, 'a'+(j*7)%26, j*j)
	}
	b.WriteByte('\n')
	for i := range rows {
		for j := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", i*j)
		}
		b.WriteByte('\n')
	}
	return writeFile(t, "wide.csv", []byte(b.String()))
}

func TestCompactWideTable(t *testing.T) {
	p := mustPreview(t, wideCSV(t, 200, 30), Options{})
	text := p.Compact(Options{})
	if n := runeLen(text); n > 4000 {
		t.Errorf("compact preview is %d chars, want ≤ 4000", n)
	}
	for _, want := range []string{
		"table: 30 rows × 200 columns",
		"180 more columns, name (type):",
		"uk_field_400 (int)", // column 20, the first past the sample columns
		"… and ",             // the list is cut, saying how many are left
	} {
		if !strings.Contains(text, want) {
			t.Errorf("compact preview lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "\n0 | 1 | 2 | 3 |") {
		t.Errorf("compact preview shows no sample rows:\n%s", text)
	}
}

func TestCompactStaysWithinMaxChars(t *testing.T) {
	wide := wideCSV(t, 300, 50)
	longLines := writeFile(t, "long.txt", []byte(strings.Repeat(strings.Repeat("word ", 200)+"\n", 50)))
	keys := make([]string, 200)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"key_with_a_rather_long_name_%d": {"nested": [1, 2, 3]}`, i)
	}
	bigShape := writeFile(t, "shape.json", []byte("{"+strings.Join(keys, ",")+"}"))
	sheets := make([]string, 30)
	for i := range sheets {
		sheets[i] = fmt.Sprintf("Sheet %d with a long name", i)
	}
	book := buildWorkbook(t, sheets, func(f *excelize.File, sheet string) {
		setRows(t, f, sheet, 1, [][]any{{"alpha", "beta", "gamma"}, {"one", 2, 3.5}, {"four", 5, 6.5}})
	})
	for _, path := range []string{wide, longLines, bigShape, book} {
		p := mustPreview(t, path, Options{})
		for _, limit := range []int{120, 500, 1500, 4000} {
			text := p.Compact(Options{MaxChars: limit})
			if n := runeLen(text); n > limit {
				t.Errorf("%s with MaxChars %d: %d chars", filepath.Base(path), limit, n)
			}
			if !strings.HasPrefix(text, "## "+p.Name) {
				t.Errorf("%s with MaxChars %d: does not start with the file's name:\n%s", filepath.Base(path), limit, text)
			}
		}
	}
}

func TestSheetSharesGiveSmallSheetsWhatTheyNeed(t *testing.T) {
	small := SheetPreview{Name: "s", Columns: []Column{{"a", ColumnInt}}, Rows: [][]string{{"1"}}, RowCount: 1, RowCountExact: true}
	big := SheetPreview{Name: "b", RowCount: 100, RowCountExact: true}
	for j := range 20 {
		big.Columns = append(big.Columns, Column{fmt.Sprintf("col%d", j), ColumnText})
	}
	for range 20 {
		row := make([]string, 20)
		for j := range row {
			row[j] = strings.Repeat("v", 30)
		}
		big.Rows = append(big.Rows, row)
	}
	opts := Options{}.withDefaults()
	shares := sheetShares([]SheetPreview{big, small}, KindXLSX, 3000, opts)
	smallNeed := linesLen(renderSheet(small, KindXLSX, 1<<30, opts))
	if diff := cmp.Diff([]int{3000 - smallNeed, smallNeed}, shares); diff != "" {
		t.Errorf("shares (-want +got)\n%s", diff)
	}
}

func TestColumnItemsFoldNumberedRuns(t *testing.T) {
	cols := []Column{
		{"id", ColumnInt},
		{"q1", ColumnFloat}, {"q2", ColumnFloat}, {"q3", ColumnFloat}, {"q4", ColumnFloat},
		{"m1", ColumnInt}, {"m2", ColumnInt}, {"m3", ColumnInt}, // too short a run
		{"x10", ColumnText}, {"x11", ColumnText}, {"x12", ColumnInt}, {"x13", ColumnText}, // types differ
	}
	items, counts := columnItems(cols, 40)
	want := []string{"id (int)", "q1 … q4 (float ×4)", "m1 (int)", "m2 (int)", "m3 (int)", "x10 (text)", "x11 (text)", "x12 (int)", "x13 (text)"}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("items (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 4, 1, 1, 1, 1, 1, 1, 1}, counts); diff != "" {
		t.Errorf("counts (-want +got)\n%s", diff)
	}
}

func TestPreviewAll(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, "a.csv", []byte("x,y\n1,2\n"))
	empty := writeFile(t, "e.txt", nil)
	missing := filepath.Join(dir, "missing.csv")
	text := All(context.Background(), []string{good, missing, empty}, Options{})
	for _, want := range []string{
		"## a.csv (csv;", "x (int) | y (int)",
		"## missing.csv\nerror: preview " + missing,
		"## e.txt (empty; 0 B)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("PreviewAll output lacks %q:\n%s", want, text)
		}
	}
}

func TestPreviewAllIsBounded(t *testing.T) {
	var paths []string
	for i := range 30 {
		paths = append(paths, wideCSV(t, 100+i, 40))
	}
	opts := Options{MaxTotalChars: 3000}
	text := All(context.Background(), paths, opts)
	if n := runeLen(text); n > 3000 {
		t.Errorf("PreviewAll output is %d chars, want ≤ 3000", n)
	}
	if n := strings.Count(text, "## wide.csv"); n < 10 || n == 30 {
		t.Errorf("%d files previewed, want as many as fit at 200 chars each (over 10, not all 30):\n%s", n, text)
	}
	if !strings.Contains(text, "more files not previewed to stay compact") {
		t.Errorf("files past the budget are not named:\n%s", text)
	}
}

func TestPreviewAllCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := writeFile(t, "a.csv", []byte("x\n1\n"))
	text := All(ctx, []string{path}, Options{})
	if want := "## a.csv\nnot previewed: context canceled"; text != want {
		t.Errorf("got %q, want %q", text, want)
	}
}

func TestCapRunes(t *testing.T) {
	long := strings.Repeat("line of text\n", 20)
	got := capRunes(long, 100)
	if runeLen(got) > 100 || !strings.HasSuffix(got, "… (cut to stay compact)") || !strings.HasPrefix(got, "line of text\n") {
		t.Errorf("capRunes = %q", got)
	}
	if got := capRunes("short", 100); got != "short" {
		t.Errorf("capRunes short = %q", got)
	}
	if got := capRunes("abcdefghij", 5); runeLen(got) > 5 {
		t.Errorf("capRunes tiny = %q", got)
	}
}

func TestFormatting(t *testing.T) {
	got := []string{humanize.Comma(int64(0)), humanize.Comma(int64(999)), humanize.Comma(int64(1000)), humanize.Comma(int64(1234567)), humanize.Comma(int64(-4500)),
		formatSize(0), formatSize(1023), formatSize(1536), formatSize(200 << 20), countPhrase(1, true, "row"), countPhrase(1200, false, "row")}
	want := []string{"0", "999", "1,000", "1,234,567", "-4,500", "0 B", "1023 B", "1.5 KiB", "200.0 MiB", "1 row", "~1,200 rows"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestCompactTightBudgetKeepsRowsAndNames(t *testing.T) {
	p := mustPreview(t, wideCSV(t, 30, 40), Options{})
	text := p.Compact(Options{MaxChars: 600})
	if n := runeLen(text); n > 600 {
		t.Errorf("%d chars, want ≤ 600", n)
	}
	// Fewer sample columns, so rows still show and later columns are named.
	for _, want := range []string{"\n0 | 1 | 2", "more columns, name (type):\n", "… and "} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}
