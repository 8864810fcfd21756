package templates

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/xuri/excelize/v2"
)

// outlierRecords are rows with what pandas reads its own way from JSON:
// dates in a column named for them, date and time in a *_at column,
// missing numbers, whole numbers with gaps, whole floats, numbers written
// as text, true/false, Chinese text, and a few extreme values. text
// leaves out the column of numbers written as text.
func outlierRecords(lines, text bool) []byte {
	var b strings.Builder
	if !lines {
		b.WriteString("[")
	}
	for i := 0; i < 80; i++ {
		amount := fmt.Sprintf("%.2f", 20+float64(i*7%13)*1.25)
		switch {
		case i%23 == 5:
			amount = fmt.Sprintf("%.2f", 900+float64(i))
		case i%17 == 3:
			amount = "null"
		}
		units := fmt.Sprint(3 + i%5)
		if i%19 == 7 {
			units = "null"
		}
		if i == 41 {
			units = "250"
		}
		at := time.Date(2024, 3, 1, 8, 30, 0, 0, time.UTC).Add(time.Duration(i*37) * time.Minute).Format("2006-01-02 15:04:05")
		rec := fmt.Sprintf(`{"id": %d, "date": "%s", "created_at": "%s", "amount": %s, "units": %s, "weight": %d.0, "ok": %v, "城市": "%s"`,
			i, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format("2006-01-02"), at, amount, units, 10+i%4, i%3 == 0,
			[]string{"上海", "北京", "=深圳", "广州"}[i%4])
		if text {
			rec += fmt.Sprintf(`, "score": "%d.5"`, i%9)
			if i == 66 {
				rec += `, "extra": "x"`
			}
		}
		rec += "}"
		if !lines && i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(rec)
		if lines {
			b.WriteString("\n")
		}
	}
	if !lines {
		b.WriteString("]\n")
	}
	return []byte(b.String())
}

// outliersWorkbook is a sheet with dates, dates and times, whole numbers
// with gaps, numbers stored as text, Chinese text and extreme values.
func outliersWorkbook(t testing.TB) []byte {
	t.Helper()
	f := excelize.NewFile()
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		t.Fatal(err)
	}
	timeStyle, err := f.NewStyle(&excelize.Style{NumFmt: 22})
	if err != nil {
		t.Fatal(err)
	}
	header := []any{"日期", "when", "金额", "units", "code", "城市"}
	if err := f.SetSheetRow("Sheet1", "A1", &header); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 70; i++ {
		var amount any = 50 + float64(i*5%11)*2.5
		switch {
		case i == 9:
			amount = "1250.5" // a number stored as text
		case i%29 == 13:
			amount = 4000.25
		case i == 30:
			amount = nil
		}
		var units any = 2 + i%6
		if i%16 == 4 {
			units = nil
		}
		if i == 50 {
			units = 900
		}
		row := i + 2
		cells := []any{time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 3*i),
			time.Date(2024, 2, 1, 6, 0, 0, 0, time.UTC).Add(time.Duration(i*95) * time.Minute), amount, units,
			fmt.Sprintf("c%02d", i%7), []string{"上海", "北京", "深圳"}[i%3]}
		if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", row), &cells); err != nil {
			t.Fatal(err)
		}
		f.SetCellStyle("Sheet1", fmt.Sprintf("A%d", row), fmt.Sprintf("A%d", row), dateStyle)
		f.SetCellStyle("Sheet1", fmt.Sprintf("B%d", row), fmt.Sprintf("B%d", row), timeStyle)
	}
	b, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestOutliersSameOnDuckDBAsPandas: on JSON, JSONL and workbooks, the
// DuckDB engine, rendered in Go, gives pandas' answer, notes, picks,
// numbers (exactly), Markdown and CSV files: the same row numbers, dates
// and datetimes as pandas shows them, whole numbers with gaps as floats,
// numbers written as text read as numbers where pandas reads them so.
func TestOutliersSameOnDuckDBAsPandas(t *testing.T) {
	pythonOrSkip(t)
	book := outliersWorkbook(t)
	shapes := []renderShape{
		{"json", "r.json", outlierRecords(false, true), Match{Template: Outliers}, ""},
		{"jsonl named", "r.jsonl", outlierRecords(true, true), Match{Template: Outliers, Params: Params{Columns: []string{"amount", "units", "score"}, IQRK: 1, ZThreshold: 2}}, ""},
		{"jsonl Chinese", "r.jsonl", outlierRecords(true, false), Match{Template: Outliers}, LangChinese},
		// Dates written "2024/01/05 06:55" in a column pandas reads dates from.
		{"jsonl text dates named date", "r.jsonl", slashDates(outlierRecords(true, false)), Match{Template: Outliers}, ""},
		// Dates in columns pandas does not read dates from are its text.
		{"jsonl dates as text", "r.jsonl", []byte(strings.ReplaceAll(string(outlierRecords(true, false)), `"created_at"`, `"shipped": "2024-02-10", "seen": "2024-02-10T10:15:00Z", "created_at"`)), Match{Template: Outliers}, ""},
		{"workbook", "b.xlsx", book, Match{Template: Outliers}, ""},
		{"workbook Chinese", "b.xlsx", book, Match{Template: Outliers, Params: Params{Columns: []string{"金额"}, ZThreshold: 1.5}}, LangChinese},
		{"tricky workbook", "t.xlsx", trickyWorkbook(t), Match{Template: Outliers, Params: Params{Sheet: "Sales", Columns: []string{"amount", "units", "score"}, IQRK: 0.5, ZThreshold: 1}}, ""},
	}
	files := map[string][]byte{}
	for i, s := range shapes {
		files[fmt.Sprintf("%d_%s", i, s.file)] = s.data
	}
	op := workspace(t, files)
	for i, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			file := fmt.Sprintf("input/%d_%s", i, s.file)
			goRes, err := RunWith(context.Background(), op, file, s.m, RunOptions{Lang: s.lang})
			if err != nil {
				t.Fatal(err)
			}
			if goRes.Engine != EngineDuckDB {
				t.Errorf("engine %s", goRes.Engine)
			}
			pyRes, err := RunWith(context.Background(), op, file, s.m, RunOptions{Engine: EnginePandas, Lang: s.lang})
			if err != nil {
				t.Fatal(err)
			}
			sameOutliers(t, op, goRes, pyRes)
		})
	}
}

// slashDates writes the records' "date" values as "2024/01/05 06:55".
func slashDates(b []byte) []byte {
	re := regexp.MustCompile(`"date": "(\d{4})-(\d{2})-(\d{2})"`)
	return re.ReplaceAll(b, []byte(`"date": "$1/$2/$3 06:55"`))
}

// sameOutliers is sameRendering for outliers, whose means and standard
// deviations are held to pandas' to 12 digits rather than exactly: the
// engine's are exact sums (meanStd), pandas' std bottleneck's sums in
// the rows' order, which round otherwise in the last digit or two.
func sameOutliers(t *testing.T, op operator.Operator, goRes, pyRes *Result) {
	t.Helper()
	var gd, pd map[string]any
	if err := json.Unmarshal(goRes.Data, &gd); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(pyRes.Data, &pd); err != nil {
		t.Fatal(err)
	}
	gc, _ := gd["columns"].(map[string]any)
	pc, _ := pd["columns"].(map[string]any)
	for name, g := range gc {
		gm, _ := g.(map[string]any)
		pm, _ := pc[name].(map[string]any)
		for _, k := range []string{"mean", "std"} {
			if x, y := gm[k], pm[k]; x != y {
				xf, _ := x.(float64)
				yf, _ := y.(float64)
				if !nearRel(xf, yf, 1e-12) {
					t.Errorf("%s %s: go %v, pandas %v", name, k, x, y)
				}
				pm[k] = x
			}
		}
	}
	b, err := json.Marshal(pd)
	if err != nil {
		t.Fatal(err)
	}
	py := *pyRes
	py.Data = b
	sameRendering(t, op, goRes, &py)
}

// TestOutliersOnParquetAsPandasOnJSON: a Parquet file of the JSONL's
// rows (dates as timestamps) gives what pandas gives on the JSONL.
func TestOutliersOnParquetAsPandasOnJSON(t *testing.T) {
	pythonOrSkip(t)
	op := workspace(t, map[string][]byte{"r.jsonl": outlierRecords(true, false)})
	src, err := sqldb.OpenFiles(context.Background(), filepath.Join(op.Root()), []string{"input/r.jsonl"}, sqldb.FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(op.Root(), "input", "r.parquet")
	if _, err := src.Rows(context.Background(), "COPY (SELECT * REPLACE (CAST(\"date\" AS TIMESTAMP) AS \"date\") FROM "+sqldb.QuoteIdent(src.Views()[0].View)+") TO "+sqldb.SQLString(out)+" (FORMAT parquet)"); err != nil {
		t.Fatal(err)
	}
	src.Close()
	for _, m := range []Match{{Template: Outliers}, {Template: Outliers, Params: Params{Columns: []string{"units"}, ZThreshold: 1}}} {
		goRes, err := RunWith(context.Background(), op, "input/r.parquet", m, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if goRes.Engine != EngineDuckDB {
			t.Errorf("engine %s on Parquet", goRes.Engine)
		}
		pyRes, err := RunWith(context.Background(), op, "input/r.jsonl", m, RunOptions{Engine: EnginePandas})
		if err != nil {
			t.Fatal(err)
		}
		sameOutliers(t, op, goRes, pyRes)
	}
}

// TestOutliersOnWorkbookNeedsNoPython: outliers on a sheet, a JSON and a
// CSV file runs on DuckDB by default, with no Python.
func TestOutliersOnWorkbookNeedsNoPython(t *testing.T) {
	for _, f := range []struct {
		name string
		data []byte
	}{{"b.xlsx", outliersWorkbook(t)}, {"r.json", outlierRecords(false, true)}, {"odd.csv", outliersCSV()}} {
		checkNeedsNoPython(t, map[string][]byte{f.name: f.data}, f.name, Match{Template: Outliers}, Match{Template: Outliers, Params: Params{IQRK: 3}})
	}
	if EngineFor(Outliers, "input/b.xlsm", "") != EngineDuckDB || EngineFor(Outliers, "input/r.parquet", "") != EngineDuckDB {
		t.Error("EngineFor does not pick DuckDB for outliers on workbooks and Parquet")
	}
}

// TestOutliersOnMixedSheetColumnRunsPandas: a sheet's text column that
// holds numbers (pandas keeps them as numbers among the strings, and
// md_table shows 1234.5 as 1,234.5) is refused by the DuckDB engine,
// and the default engine runs pandas.
func TestOutliersOnMixedSheetColumnRunsPandas(t *testing.T) {
	pythonOrSkip(t)
	f := excelize.NewFile()
	header := []any{"amount", "ref"}
	if err := f.SetSheetRow("Sheet1", "A1", &header); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		var ref any = fmt.Sprintf("r%d", i)
		if i%5 == 0 {
			ref = 1234.5 + float64(i)
		}
		row := []any{10 + i%7, ref}
		if i == 20 {
			row[0] = 500
		}
		if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+2), &row); err != nil {
			t.Fatal(err)
		}
	}
	b, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	op := workspace(t, map[string][]byte{"m.xlsx": b.Bytes()})
	m := Match{Template: Outliers, Params: Params{Columns: []string{"amount"}}}
	if _, err := RunWith(context.Background(), op, "input/m.xlsx", m, RunOptions{Engine: EngineDuckDB}); err == nil || !strings.Contains(err.Error(), notAsPandas) {
		t.Errorf("DuckDB engine on a mixed column: err = %v, want a refusal", err)
	}
	r, err := RunWith(context.Background(), op, "input/m.xlsx", m, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Engine != EnginePandas || !strings.Contains(r.Sections[len(r.Sections)-1].Markdown, "1,254.5") {
		t.Errorf("engine %s, rows:\n%s", r.Engine, r.Sections[len(r.Sections)-1].Markdown)
	}
}
