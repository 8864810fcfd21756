package templates

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// withCachedValues rewrites a workbook excelize wrote so that each formula
// in cached carries its cached value (<v>), as a workbook saved by a
// spreadsheet program does; excelize writes formulas without one.
func withCachedValues(t testing.TB, book []byte, cached map[string]string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(f.Name, "xl/worksheets/") {
			s := string(data)
			for formula, v := range cached {
				s = strings.ReplaceAll(s, "<f>"+formula+"</f></c>", "<f>"+formula+"</f><v>"+v+"</v></c>")
			}
			data = []byte(s)
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// trickyWorkbook has what a workbook typed by hand holds: an empty first
// sheet; dates styled as dates; numbers stored as text, in a column of
// numbers and in a column of their own; an empty and a merged header
// cell; a repeated header name; a formula with its cached value and one
// without; true/false with a gap; missing-value words; a column of text
// and numbers mixed; a blank row; a second sheet with other columns.
func trickyWorkbook(t testing.TB) []byte {
	t.Helper()
	f := excelize.NewFile()
	f.SetSheetName("Sheet1", "Notes")
	for _, s := range []string{"Sales", "Staff"} {
		if _, err := f.NewSheet(s); err != nil {
			t.Fatal(err)
		}
	}
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		t.Fatal(err)
	}
	header := []any{"date", "region", "amount", "units", "code", nil, "region", "double", "paid", "note", "merged", "", "score"}
	if err := f.SetSheetRow("Sales", "A1", &header); err != nil {
		t.Fatal(err)
	}
	if err := f.MergeCell("Sales", "K1", "L1"); err != nil {
		t.Fatal(err)
	}
	regions := []string{"East", "West", "North", "East", "South", "West", "East", "North", "West", "East", "South", "East"}
	start := time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)
	row := 2
	for i, reg := range regions {
		if i == 5 {
			row++ // a blank row
		}
		day := start.AddDate(0, 0, 9*i)
		amount := any(100.5 + float64(37*i%11)*12.25)
		if i == 3 {
			amount = "212.75" // a number stored as text
		}
		var units any = 3 + i%4
		if i == 7 {
			units = nil
		}
		note := any(fmt.Sprintf("n%d", i%3))
		if i == 4 {
			note = 5
		}
		var paid any = i%2 == 0
		if i == 6 {
			paid = nil
		}
		var score any = float64(i%5) + 0.5
		if i == 2 {
			score = "NA"
		} else if i == 9 {
			score = "null"
		}
		cells := []any{day, reg, amount, units, fmt.Sprintf("%03d", 7*i+1), i % 3, strings.ToLower(reg), nil, paid, note, "m", nil, score}
		if err := f.SetSheetRow("Sales", fmt.Sprintf("A%d", row), &cells); err != nil {
			t.Fatal(err)
		}
		if err := f.SetCellStyle("Sales", fmt.Sprintf("A%d", row), fmt.Sprintf("A%d", row), dateStyle); err != nil {
			t.Fatal(err)
		}
		formula := fmt.Sprintf("D%d*2", row)
		if err := f.SetCellFormula("Sales", fmt.Sprintf("H%d", row), formula); err != nil {
			t.Fatal(err)
		}
		row++
	}
	staff := [][]any{{"name", "team", "salary"}, {"Ann", "A", 5200}, {"Bo", "B", 4100}, {"Cy", "A", 6100}, {"Di", "B", 3900}, {"Ed", "A", 4500}}
	for i, r := range staff {
		if err := f.SetSheetRow("Staff", fmt.Sprintf("A%d", i+1), &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	cached := map[string]string{}
	row = 2
	for i := range regions {
		if i == 5 {
			row++
		}
		if i != 10 { // H of the 11th row has no cached value
			units := 3 + i%4
			if i == 7 {
				units = 0
			}
			cached[fmt.Sprintf("D%d*2", row)] = fmt.Sprint(2 * units)
		}
		row++
	}
	return withCachedValues(t, buf.Bytes(), cached)
}

// TestWorkbookSameOnDuckDBAsPandas runs the built-ins with a DuckDB
// engine on workbooks through both engines: the DuckDB engine reads the
// sheet through excelize as pandas' read_excel reads it, and every
// answer, note, pick, number and file must be the same.
func TestWorkbookSameOnDuckDBAsPandas(t *testing.T) {
	tricky := trickyWorkbook(t)
	cars := carsWorkbook(t)
	stores := storesWorkbook(t)
	regions := regionsWorkbook(t)
	shapes := []renderShape{
		{name: "profile", file: "tricky.xlsx", data: tricky, m: Match{Template: Profile}},
		{name: "profile zh", file: "tricky.xlsx", data: tricky, m: Match{Template: Profile}, lang: LangChinese},
		{name: "trend auto", file: "tricky.xlsx", data: tricky, m: Match{Template: Trend, Params: Params{Period: "month"}}},
		{name: "trend of text numbers by region", file: "tricky.xlsx", data: tricky, m: Match{Template: Trend, Params: Params{Time: "date", Measure: "amount", Period: "month", Category: "region"}}},
		{name: "trend of a formula", file: "tricky.xlsx", data: tricky, m: Match{Template: Trend, Params: Params{Measure: "double", Period: "month", Aggregation: "mean"}}},
		{name: "compare periods", file: "tricky.xlsx", data: tricky, m: Match{Template: ComparePeriods, Params: Params{Measure: "amount"}}},
		{name: "topn auto", file: "tricky.xlsx", data: tricky, m: Match{Template: TopN}},
		{name: "topn amount by region", file: "tricky.xlsx", data: tricky, m: Match{Template: TopN, Params: Params{Category: "region", Measure: "amount"}}},
		{name: "topn by a mixed column", file: "tricky.xlsx", data: tricky, m: Match{Template: TopN, Params: Params{Category: "note", Measure: "units", Aggregation: "mean"}}},
		{name: "topn by a repeated name", file: "tricky.xlsx", data: tricky, m: Match{Template: TopN, Params: Params{Category: "region.1", Measure: "score"}}},
		{name: "pivot", file: "tricky.xlsx", data: tricky, m: Match{Template: Pivot, Params: Params{Category: "region", Category2: "paid", Measure: "amount"}}},
		{name: "pivot by month", file: "tricky.xlsx", data: tricky, m: Match{Template: Pivot, Params: Params{Category: "region", Time: "date", Period: "month", Measure: "units"}}},
		{name: "distribution auto", file: "tricky.xlsx", data: tricky, m: Match{Template: Distribution}},
		{name: "distribution of text numbers", file: "tricky.xlsx", data: tricky, m: Match{Template: Distribution, Params: Params{Columns: []string{"code", "score", "Unnamed: 5"}}}},
		{name: "named second sheet", file: "tricky.xlsx", data: tricky, m: Match{Template: TopN, Params: Params{Sheet: "Staff", Category: "team", Measure: "salary"}}},
		{name: "cars profile", file: "cars.xlsx", data: cars, m: Match{Template: Profile}},
		{name: "cars sheet topn", file: "cars.xlsx", data: cars, m: Match{Template: TopN, Params: Params{Sheet: "Japan", Measure: "Horsepower", Category: "Name", N: 3}}},
		{name: "stores profile", file: "stores.xlsx", data: stores, m: Match{Template: Profile}},
		{name: "stores distribution", file: "stores.xlsx", data: stores, m: Match{Template: Distribution}},
		{name: "regions profile", file: "regions.xlsx", data: regions, m: Match{Template: Profile}},
		{name: "regions trend", file: "regions.xlsx", data: regions, m: Match{Template: TopN}},
	}
	checkLikePandas(t, shapes)
}

// checkLikePandas runs each shape through the DuckDB engine and the
// pandas engine and compares their outputs as
// TestDuckDBEngineSameNumbersAsPandas does: the same answer, notes,
// picks, section titles and Markdown, exactly; the same numbers in the
// data and the CSV files to 1e-9 relative (DuckDB's stddev_samp and
// numpy's std can part in the last digit).
func checkLikePandas(t *testing.T, shapes []renderShape) {
	t.Helper()
	files := map[string][]byte{}
	for i, s := range shapes {
		files[fmt.Sprintf("%d_%s", i, s.file)] = s.data
	}
	op := workspace(t, files)
	for i, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			file := fmt.Sprintf("input/%d_%s", i, s.file)
			dk, err := RunWith(context.Background(), op, file, s.m, RunOptions{Engine: EngineDuckDB, Lang: s.lang})
			if err != nil {
				t.Fatalf("duckdb: %v", err)
			}
			pd, err := RunWith(context.Background(), op, file, s.m, RunOptions{Engine: EnginePandas, Lang: s.lang})
			if err != nil {
				t.Fatalf("pandas: %v", err)
			}
			if dk.Engine != EngineDuckDB || pd.Engine != EnginePandas {
				t.Fatalf("engines %s, %s", dk.Engine, pd.Engine)
			}
			var a, b any
			if err := json.Unmarshal(pd.Data, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(dk.Data, &b); err != nil {
				t.Fatal(err)
			}
			sameNumbers(t, "data", a, b)
			if pd.Answer != dk.Answer {
				t.Errorf("answers differ:\npandas %s\nduckdb %s", pd.Answer, dk.Answer)
			}
			if g, p := strings.Join(dk.Notes, "\n"), strings.Join(pd.Notes, "\n"); g != p {
				t.Errorf("notes differ:\nduckdb %q\npandas %q", dk.Notes, pd.Notes)
			}
			if g, p := strings.Join(dk.Picked, "\n"), strings.Join(pd.Picked, "\n"); g != p {
				t.Errorf("picked differ:\nduckdb %q\npandas %q", dk.Picked, pd.Picked)
			}
			if dk.Params.Sheet != pd.Params.Sheet {
				t.Errorf("sheet: duckdb %q, pandas %q", dk.Params.Sheet, pd.Params.Sheet)
			}
			if len(pd.Sections) != len(dk.Sections) {
				t.Fatalf("sections: pandas %d, duckdb %d", len(pd.Sections), len(dk.Sections))
			}
			for k, g := range dk.Sections {
				p := pd.Sections[k]
				if g.Title != p.Title || g.Markdown != p.Markdown {
					t.Errorf("section %d differs:\nduckdb %s\n%s\npandas %s\n%s", k, g.Title, g.Markdown, p.Title, p.Markdown)
				}
				if gs, ps := fileKinds(g.Files), fileKinds(p.Files); gs != ps {
					t.Errorf("section %d files: duckdb %v, pandas %v", k, g.Files, p.Files)
					continue
				}
				for n, f := range g.Files {
					if strings.HasSuffix(f, ".csv") {
						if d := csvNear(t, op.Root(), f, p.Files[n]); d != "" {
							t.Errorf("%s differs from %s: %s", f, p.Files[n], d)
						}
					}
				}
			}
		})
	}
}

// csvNear says where two CSV files under root differ: a cell differs
// unless it is the same text or numbers within 1e-9 relative.
func csvNear(t *testing.T, root, a, b string) string {
	t.Helper()
	read := func(name string) [][]string {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	ra, rb := read(a), read(b)
	if len(ra) != len(rb) {
		return fmt.Sprintf("%d rows, pandas %d", len(ra), len(rb))
	}
	for i := range ra {
		if len(ra[i]) != len(rb[i]) {
			return fmt.Sprintf("row %d has %d cells, pandas %d", i, len(ra[i]), len(rb[i]))
		}
		for j, x := range ra[i] {
			y := rb[i][j]
			if x == y {
				continue
			}
			fx, ex := strconv.ParseFloat(x, 64)
			fy, ey := strconv.ParseFloat(y, 64)
			if ex != nil || ey != nil || !nearRel(fx, fy, 1e-9) {
				return fmt.Sprintf("row %d cell %d: duckdb %q, pandas %q", i, j, x, y)
			}
		}
	}
	return ""
}

// TestWorkbookRunsWithoutPython: a built-in on a workbook runs through
// DuckDB by default, and one rendered in Go starts no Python.
func TestWorkbookRunsWithoutPython(t *testing.T) {
	op := noPython{workspace(t, map[string][]byte{"tricky.xlsx": trickyWorkbook(t)})}
	r, err := Run(context.Background(), op, "input/tricky.xlsx", Match{Template: TopN, Params: Params{Category: "region", Measure: "amount"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Engine != EngineDuckDB {
		t.Errorf("engine %s, want duckdb", r.Engine)
	}
	if r.Params.Sheet != "Sales" || len(r.Picked) == 0 || r.Picked[0] != "sheet: Sales" {
		t.Errorf("sheet %q, picked %q: want the first sheet with data, Sales, picked first", r.Params.Sheet, r.Picked)
	}
}

// TestWorkbookIsReadOnceForANamedSheet: a built-in on a workbook whose
// sheet the match names does not preview the workbook again (it has no
// encoding to find); with no sheet named, it previews it for the first
// sheet with data.
func TestWorkbookIsReadOnceForANamedSheet(t *testing.T) {
	var previews atomic.Int64
	orig := previewConfined
	previewConfined = func(ctx context.Context, op operator.Operator, abs string, opts preview.Options) (*preview.FilePreview, error) {
		previews.Add(1)
		return orig(ctx, op, abs, opts)
	}
	t.Cleanup(func() { previewConfined = orig })
	op := noPython{workspace(t, map[string][]byte{"tricky.xlsx": trickyWorkbook(t)})}
	named, err := Run(context.Background(), op, "input/tricky.xlsx", Match{Template: TopN, Params: Params{Category: "region", Measure: "amount", Sheet: "Sales"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := previews.Load(); n != 0 {
		t.Errorf("the workbook was previewed %d times for a named sheet, want none", n)
	}
	found, err := Run(context.Background(), op, "input/tricky.xlsx", Match{Template: TopN, Params: Params{Category: "region", Measure: "amount"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := previews.Load(); n != 1 || found.Params.Sheet != "Sales" {
		t.Errorf("with no sheet named: %d previews, sheet %q; want 1 and Sales", n, found.Params.Sheet)
	}
	if named.Answer != found.Answer {
		t.Errorf("the named sheet answers %q, the found one %q", named.Answer, found.Answer)
	}
}

// TestSheetCSVAsReadExcel: the CSV copy of a sheet holds what pandas'
// read_excel reads from it (checked against pandas 1.5 with openpyxl
// 3.0): mangled and unnamed headers, text numbers as numbers, the blank
// row making every column's numbers floats, formulas' cached values (none:
// missing), true/false with a gap as 1.0/0.0, dates by number format; and
// on a sheet whose first row is blank, that row as the header, times of
// day as text.
func TestSheetCSVAsReadExcel(t *testing.T) {
	sales := `date,region,amount,units,code,Unnamed: 5,region.1,double,paid,note,merged,Unnamed: 11,score
2024-01-03 00:00:00,East,100.5,3.0,1.0,0.0,east,6.0,1.0,n0,m,,0.5
2024-01-12 00:00:00,West,149.5,4.0,8.0,1.0,west,8.0,0.0,n1,m,,1.5
2024-01-21 00:00:00,North,198.5,5.0,15.0,2.0,north,10.0,1.0,n2,m,,
2024-01-30 00:00:00,East,212.75,6.0,22.0,0.0,east,12.0,0.0,n0,m,,3.5
2024-02-08 00:00:00,South,161.75,3.0,29.0,1.0,south,6.0,1.0,5,m,,4.5
,,,,,,,,,,,,
2024-02-17 00:00:00,West,210.75,4.0,36.0,2.0,west,8.0,0.0,n2,m,,0.5
2024-02-26 00:00:00,East,125.0,5.0,43.0,0.0,east,10.0,,n0,m,,1.5
2024-03-06 00:00:00,North,174.0,,50.0,1.0,north,0.0,0.0,n1,m,,2.5
2024-03-15 00:00:00,West,223.0,3.0,57.0,2.0,west,6.0,1.0,n2,m,,3.5
2024-03-24 00:00:00,East,137.25,4.0,64.0,0.0,east,8.0,0.0,n0,m,,
2024-04-02 00:00:00,South,186.25,5.0,71.0,1.0,south,,1.0,n1,m,,0.5
2024-04-11 00:00:00,East,100.5,6.0,78.0,2.0,east,12.0,0.0,n2,m,,1.5
`
	staff := "name,team,salary\nAnn,A,5200\nBo,B,4100\nCy,A,6100\nDi,B,3900\nEd,A,4500\n"
	wb, err := excelize.OpenReader(bytes.NewReader(trickyWorkbook(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sheet, want string
		datetimes   []string
	}{{"Sales", sales, []string{"date"}}, {"Staff", staff, nil}} {
		var out bytes.Buffer
		dt, err := writeSheetCSV(context.Background(), wb, c.sheet, &out)
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("sheet %s:\n%s\nwant:\n%s", c.sheet, out.String(), c.want)
		}
		var got []string
		for name, ok := range dt {
			if ok {
				got = append(got, name)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.datetimes, ",") {
			t.Errorf("sheet %s: datetime columns %v, want %v", c.sheet, got, c.datetimes)
		}
	}

	f := excelize.NewFile()
	clock := "h:mm"
	timeStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &clock})
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range [][]any{{nil, "n", "t", "flag"}, {nil, "3", 0.4375, true}, {nil, "007", 0.5}} {
		if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+2), &row); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SetCellStyle("Sheet1", "C3", "C4", timeStyle); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := writeSheetCSV(context.Background(), f, "Sheet1", &out); err != nil {
		t.Fatal(err)
	}
	want := "Unnamed: 0,Unnamed: 1,Unnamed: 2,Unnamed: 3\n,n,t,flag\n,3,10:30:00,True\n,007,12:00:00,\n"
	if out.String() != want {
		t.Errorf("blank first row:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestPyFloat: floats are written as Python's repr writes them.
func TestPyFloat(t *testing.T) {
	for f, want := range map[float64]string{2: "2.0", 0.1: "0.1", 1e16: "1e+16", 123456789012345.6: "123456789012345.6", 0.0001: "0.0001", 0.00001: "1e-05", -2.5e-7: "-2.5e-07", 1.5e300: "1.5e+300"} {
		if got := pyFloat(f); got != want {
			t.Errorf("pyFloat(%v) = %q, want %q", f, got, want)
		}
	}
}
