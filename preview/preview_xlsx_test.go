package preview

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
)

// buildWorkbook writes an xlsx file whose sheets are filled by fill (one
// call per sheet name, in order) and returns its path.
func buildWorkbook(t testing.TB, sheets []string, fill func(f *excelize.File, sheet string)) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, name := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		fill(f, name)
	}
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func setRows(t testing.TB, f *excelize.File, sheet string, firstRow int, rows [][]any) {
	t.Helper()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, firstRow+i)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPreviewXLSXSheets(t *testing.T) {
	path := buildWorkbook(t, []string{"Orders", "Report", "Empty"}, func(f *excelize.File, sheet string) {
		switch sheet {
		case "Orders":
			setRows(t, f, sheet, 1, [][]any{
				{"id", "region", "amount", "paid"},
				{1, "North", 10.5, true},
				{2, "South", 20, false},
				{3, "East", 7.25, true},
			})
		case "Report":
			// A title merged across the table, a blank row, then the table.
			setRows(t, f, sheet, 1, [][]any{{"Quarterly report"}})
			setRows(t, f, sheet, 3, [][]any{
				{"quarter", "revenue"},
				{"Q1", 100},
				{"Q2", 120},
			})
			if err := f.MergeCell(sheet, "A1", "B1"); err != nil {
				t.Fatal(err)
			}
			if err := f.MergeCell(sheet, "A5", "A6"); err != nil {
				t.Fatal(err)
			}
		}
	})
	p := mustPreview(t, path, Options{})
	want := []SheetPreview{
		{
			Name:          "Orders",
			Columns:       []Column{{"id", ColumnInt}, {"region", ColumnText}, {"amount", ColumnFloat}, {"paid", ColumnBool}},
			Rows:          [][]string{{"1", "North", "10.5", "TRUE"}, {"2", "South", "20", "FALSE"}, {"3", "East", "7.25", "TRUE"}},
			RowCount:      3,
			RowCountExact: true,
		},
		{
			Name:          "Report",
			Columns:       []Column{{"quarter", ColumnText}, {"revenue", ColumnInt}},
			Rows:          [][]string{{"Q1", "100"}, {"Q2", "120"}},
			RowCount:      2,
			RowCountExact: true,
			Merged:        []string{"A1:B1", "A5:A6"},
			Note:          "title rows above the header: Quarterly report (pandas: skiprows=2)",
		},
		{Name: "Empty", RowCountExact: true, Note: "the sheet is empty"},
	}
	if diff := cmp.Diff(want, p.Sheets, ignoreStats); diff != "" {
		t.Errorf("sheets (-want +got)\n%s", diff)
	}
	if p.Kind != KindXLSX || p.Encoding != "" {
		t.Errorf("kind %q encoding %q, want xlsx and none", p.Kind, p.Encoding)
	}
	text := p.Compact(Options{})
	for _, want := range []string{`sheet "Orders": 3 rows × 4 columns`, `sheet "Report": 2 rows × 2 columns; merged cells A1:B1, A5:A6`, `sheet "Empty"`, "id (int) | region (text)"} {
		if !strings.Contains(text, want) {
			t.Errorf("compact preview lacks %q:\n%s", want, text)
		}
	}
}

// longSheet builds a workbook with one sheet of a header and rows data
// rows; declared sets the sheet's used range as Excel would (excelize
// itself leaves a lone "A1").
func longSheet(t *testing.T, rows int, declared bool) string {
	return buildWorkbook(t, []string{"Data"}, func(f *excelize.File, sheet string) {
		data := make([][]any, 0, rows+1)
		data = append(data, []any{"n", "square"})
		for i := range rows {
			data = append(data, []any{i, i * i})
		}
		setRows(t, f, sheet, 1, data)
		if declared {
			if err := f.SetSheetDimension(sheet, fmt.Sprintf("A1:B%d", rows+1)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestPreviewXLSXRowCount(t *testing.T) {
	const rows = 3000
	declared, undeclared := longSheet(t, rows, true), longSheet(t, rows, false)
	tests := []struct {
		name      string
		path      string
		opts      Options
		wantCount int
		wantExact bool
		wantNote  string
	}{
		{"declared range", declared, Options{TypeSampleRows: 50}, rows, false, "declared used range"},
		{"small enough to read whole", declared, Options{TypeSampleRows: rows + 10}, rows, true, ""},
		{"no declared range: rows stepped over", undeclared, Options{TypeSampleRows: 50}, rows, true, "may include blank rows"},
		// 54 rows sampled (header, 3 possible title rows, 50), 1 found after
		// them, 1000 stepped over: 1055 rows seen, 1054 below the header.
		{"no declared range, scan bound hit", undeclared, Options{TypeSampleRows: 50, MaxScanRows: 1000}, 1054, false, "at least"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustPreview(t, tt.path, tt.opts).Sheets[0]
			if s.RowCount != tt.wantCount || s.RowCountExact != tt.wantExact {
				t.Errorf("row count %d exact=%v, want %d exact=%v", s.RowCount, s.RowCountExact, tt.wantCount, tt.wantExact)
			}
			if tt.wantNote != "" && !strings.Contains(s.Note, tt.wantNote) {
				t.Errorf("note %q lacks %q", s.Note, tt.wantNote)
			}
			if len(s.Rows) != 20 || s.Rows[19][0] != "19" {
				t.Errorf("kept rows %d, want the first 20", len(s.Rows))
			}
		})
	}
}

func TestPreviewXLSXWideSheetCompact(t *testing.T) {
	const cols = 200
	path := buildWorkbook(t, []string{"Wide"}, func(f *excelize.File, sheet string) {
		header := make([]any, cols)
		for j := range cols {
			header[j] = fmt.Sprintf("measurement_%03d", j)
		}
		data := [][]any{header}
		for i := range 30 {
			row := make([]any, cols)
			for j := range cols {
				row[j] = fmt.Sprintf("value %d-%d %s", i, j, strings.Repeat("x", 60))
			}
			data = append(data, row)
		}
		setRows(t, f, sheet, 1, data)
	})
	p := mustPreview(t, path, Options{})
	if got := len(p.Sheets[0].Columns); got != cols {
		t.Fatalf("%d columns, want %d", got, cols)
	}
	if got := p.Sheets[0].Rows[0][0]; runeLen(got) > 40 {
		t.Errorf("stored cell %q longer than 40 runes", got)
	}
	text := p.Compact(Options{})
	if n := runeLen(text); n > 4000 {
		t.Errorf("compact preview is %d chars, want ≤ 4000", n)
	}
	for _, want := range []string{"measurement_000 (text)", "180 more columns", "measurement_020 … measurement_199 (text ×180)", "value 0-0"} {
		if !strings.Contains(text, want) {
			t.Errorf("compact preview lacks %q:\n%s", want, text)
		}
	}
}

func TestPreviewXLSXCorrupt(t *testing.T) {
	tests := map[string][]byte{
		"not a zip":            []byte("this is not a workbook at all"),
		"truncated zip":        []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"),
		"encrypted (OLE) file": append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, "broken.xlsx", data)
			_, err := File(context.Background(), path, Options{})
			if !errors.Is(err, ErrWorkbookUnreadable) {
				t.Fatalf("err = %v, want ErrWorkbookUnreadable", err)
			}
			for _, want := range []string{path, "corrupt", "password-protected"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestPreviewXLSXManySheets(t *testing.T) {
	names := []string{"a", "b", "c"}
	path := buildWorkbook(t, names, func(f *excelize.File, sheet string) {
		setRows(t, f, sheet, 1, [][]any{{"k", "v"}, {1, 2}, {3, 4}})
		if err := f.SetSheetDimension(sheet, "A1:B3"); err != nil {
			t.Fatal(err)
		}
	})
	p := mustPreview(t, path, Options{MaxSheets: 2})
	if len(p.Sheets) != 3 {
		t.Fatalf("%d sheets, want 3", len(p.Sheets))
	}
	last := p.Sheets[2]
	if last.Name != "c" || len(last.Columns) != 0 || last.RowCount != 2 || !strings.Contains(last.Note, "not previewed") {
		t.Errorf("third sheet = %+v, want listed with its declared row count only", last)
	}
}

func TestPreviewXLSXSkipsMergedRangesOfHugeSheets(t *testing.T) {
	path := buildWorkbook(t, []string{"Data"}, func(f *excelize.File, sheet string) {
		data := [][]any{{"a", "b"}}
		for i := range 100 {
			data = append(data, []any{i, i})
		}
		setRows(t, f, sheet, 1, data)
		if err := f.MergeCell(sheet, "A2", "B2"); err != nil {
			t.Fatal(err)
		}
		// Declares more cells than a preview parses to find merged ranges.
		if err := f.SetSheetDimension(sheet, "A1:B200000"); err != nil {
			t.Fatal(err)
		}
	})
	s := mustPreview(t, path, Options{TypeSampleRows: 20}).Sheets[0]
	if len(s.Merged) != 0 || !strings.Contains(s.Note, "merged ranges not read") || s.RowCount != 199999 {
		t.Errorf("merged %v, note %q, rows %d: want no merged ranges, a note saying so, 199999 declared rows", s.Merged, s.Note, s.RowCount)
	}
	s = mustPreview(t, path, Options{TypeSampleRows: 200}).Sheets[0]
	if diff := cmp.Diff([]string{"A2:B2"}, s.Merged); diff != "" {
		t.Errorf("small enough to read whole: merged (-want +got)\n%s", diff)
	}
}
