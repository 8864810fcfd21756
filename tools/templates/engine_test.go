package templates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// salesCSV is the example data every README command uses.
func salesCSV(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameNumbers reports where two decoded result data differ: numbers to
// 1e-9 relative, everything else exactly.
func sameNumbers(t *testing.T, path string, a, b any) {
	t.Helper()
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			t.Errorf("%s: pandas %v, duckdb %v", path, a, b)
			return
		}
		for k := range x {
			sameNumbers(t, path+"."+k, x[k], y[k])
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			t.Errorf("%s: pandas %v, duckdb %v", path, a, b)
			return
		}
		for i := range x {
			sameNumbers(t, path+"["+itoa(i)+"]", x[i], y[i])
		}
	case float64:
		y, ok := b.(float64)
		if !ok || !nearRel(x, y, 1e-9) {
			t.Errorf("%s: pandas %v, duckdb %v", path, a, b)
		}
	default:
		if a != b {
			t.Errorf("%s: pandas %#v, duckdb %#v", path, a, b)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func nearRel(a, b, rel float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(abs(a), abs(b), 1)
	return d <= rel*m
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestDuckDBEngineSameNumbersAsPandas runs each template with a DuckDB
// engine on examples/data/sales.csv through both engines and compares
// their exact numbers, answers and files.
func TestDuckDBEngineSameNumbersAsPandas(t *testing.T) {
	op := workspace(t, map[string][]byte{"sales.csv": salesCSV(t)})
	cases := []struct {
		name string
		m    Match
	}{
		{"profile", Match{Template: Profile}},
		{"trend auto", Match{Template: Trend}},
		{"trend monthly revenue by region", Match{Template: Trend, Params: Params{Time: "date", Measure: "revenue", Period: "month", Category: "region"}}},
		{"trend weekly mean", Match{Template: Trend, Params: Params{Measure: "units", Aggregation: "mean", Period: "week"}}},
		{"trend quarterly count", Match{Template: Trend, Params: Params{Period: "quarter", Aggregation: "count", Measure: "revenue"}}},
		{"compare mom", Match{Template: ComparePeriods, Params: Params{Measure: "revenue"}}},
		{"compare wow median", Match{Template: ComparePeriods, Params: Params{Measure: "revenue", Compare: "wow", Aggregation: "median"}}},
		{"topn revenue by product", Match{Template: TopN, Params: Params{Category: "product", Measure: "revenue", N: 3}}},
		{"topn count auto", Match{Template: TopN}},
		{"topn bottom max", Match{Template: TopN, Params: Params{Category: "region", Measure: "units", Aggregation: "max", Ascending: true}}},
		{"pivot region by product", Match{Template: Pivot, Params: Params{Category: "region", Category2: "product", Measure: "revenue"}}},
		{"pivot region by month mean", Match{Template: Pivot, Params: Params{Category: "region", Time: "date", Period: "month", Measure: "units", Aggregation: "mean"}}},
		{"pivot count auto", Match{Template: Pivot}},
		{"distribution auto", Match{Template: Distribution}},
		{"distribution of a measure", Match{Template: Distribution, Params: Params{Measure: "unit_price"}}},
		{"distribution numbers and text", Match{Template: Distribution, Params: Params{Columns: []string{"revenue", "product", "units"}}}},
		{"outliers auto", Match{Template: Outliers}},
		{"outliers tight fences", Match{Template: Outliers, Params: Params{Columns: []string{"revenue", "units"}, IQRK: 0.5, ZThreshold: 1.5}}},
		{"outliers of a measure", Match{Template: Outliers, Params: Params{Measure: "unit_price"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sameAsPandas(t, op, "input/sales.csv", c.m)
		})
	}
}

// sameAsPandas runs m on file through both engines and compares their
// exact numbers, answers, sections and choices.
func sameAsPandas(t *testing.T, op operator.Operator, file string, m Match) {
	t.Helper()
	ctx := context.Background()
	pd, err := RunWith(ctx, op, file, m, RunOptions{Engine: EnginePandas})
	if err != nil {
		t.Fatal(err)
	}
	dk, err := RunWith(ctx, op, file, m, RunOptions{Engine: EngineDuckDB})
	if err != nil {
		t.Fatal(err)
	}
	if pd.Engine != EnginePandas || dk.Engine != EngineDuckDB {
		t.Fatalf("engines = %s, %s", pd.Engine, dk.Engine)
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
	if len(pd.Sections) != len(dk.Sections) {
		t.Fatalf("sections: pandas %d, duckdb %d", len(pd.Sections), len(dk.Sections))
	}
	for i := range pd.Sections {
		if pd.Sections[i].Title != dk.Sections[i].Title || pd.Sections[i].Markdown != dk.Sections[i].Markdown {
			t.Errorf("section %d differs:\npandas %s\n%s\nduckdb %s\n%s", i, pd.Sections[i].Title, pd.Sections[i].Markdown, dk.Sections[i].Title, dk.Sections[i].Markdown)
		}
		if len(pd.Sections[i].Files) != len(dk.Sections[i].Files) {
			t.Errorf("section %d files: pandas %v, duckdb %v", i, pd.Sections[i].Files, dk.Sections[i].Files)
		}
	}
	if strings.Join(pd.Picked, "|") != strings.Join(dk.Picked, "|") {
		t.Errorf("picked differ:\npandas %q\nduckdb %q", pd.Picked, dk.Picked)
	}
}

// TestDuckDBProfileManyValuesSameAsPandas: text columns with more
// distinct values than the profile groups by value are counted by digest;
// every number is pandas', and the top values are the true ones (ties at
// the cut in the values' order, where pandas' order is its sort's).
func TestDuckDBProfileManyValuesSameAsPandas(t *testing.T) {
	var b strings.Builder
	b.WriteString("code,grp,amount\n")
	counts := map[string]map[string]int{"code": {}, "grp": {}}
	seen, dups := map[string]bool{}, 0
	row := func(code, grp string, amount int) {
		line := code + "," + grp + "," + itoa(amount) + "\n"
		b.WriteString(line)
		counts["code"][code]++
		counts["grp"][grp]++
		if seen[line] {
			dups++
		}
		seen[line] = true
	}
	for i := 0; i < 40; i++ { // grp: 40 values 3 times each
		for j := 0; j < 3; j++ {
			row("k"+itoa(190-i*3-j), "g"+itoa(40-i), i*7+j)
		}
	}
	for i := 0; i < 80; i++ { // code: a, b, c above the cut, then ties at 1
		code := []string{"a", "b", "c", "a", "b", "c", "a", "b"}[i%8]
		if i >= 24 {
			code = "u" + itoa(1000-i)
		}
		row(code, "top", i%5)
	}
	row("a", "top", 0)
	defer func(n int64) { fewGroups = n }(fewGroups)
	fewGroups = 2
	op := workspace(t, map[string][]byte{"many.csv": []byte(b.String())})
	ctx := context.Background()
	pd, err := RunWith(ctx, op, "input/many.csv", Match{Template: Profile}, RunOptions{Engine: EnginePandas})
	if err != nil {
		t.Fatal(err)
	}
	dk, err := RunWith(ctx, op, "input/many.csv", Match{Template: Profile}, RunOptions{Engine: EngineDuckDB})
	if err != nil {
		t.Fatal(err)
	}
	var a, c map[string]any
	if err := json.Unmarshal(pd.Data, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(dk.Data, &c); err != nil {
		t.Fatal(err)
	}
	tops := c["top_values"].(map[string]any)
	delete(a, "top_values")
	delete(c, "top_values")
	sameNumbers(t, "data", a, c)
	if c["duplicates"] != float64(dups) {
		t.Errorf("duplicates = %v, want %d", c["duplicates"], dups)
	}
	for col, n := range counts {
		var want []string
		for v, k := range n {
			want = append(want, fmt.Sprintf("%06d %s", 1000000-k, v))
		}
		sort.Strings(want)
		for i := range want[:5] {
			k, _ := strconv.Atoi(want[i][:6])
			want[i] = fmt.Sprintf("%s=%d", want[i][7:], 1000000-k)
		}
		var got []string
		for _, v := range tops[col].([]any) {
			m := v.(map[string]any)
			got = append(got, fmt.Sprintf("%v=%v", m["value"], m["count"]))
		}
		if strings.Join(got, " ") != strings.Join(want[:5], " ") {
			t.Errorf("top values of %s = %v, want %v", col, got, want[:5])
		}
	}
}

// TestEngineForEverySize: DuckDB for every template with a DuckDB engine
// on every file it reads, whatever the size; pandas where DuckDB cannot
// read the file or has no engine for the template.
func TestEngineForEverySize(t *testing.T) {
	cases := []struct {
		name, template, path, encoding string
		want                           Engine
	}{
		{"csv", Trend, "input/a.csv", "utf-8-sig", EngineDuckDB},
		{"profile", Profile, "input/a.csv", "", EngineDuckDB},
		{"parquet", TopN, "input/a.parquet", "", EngineDuckDB},
		{"workbook", Trend, "input/a.xlsx", "", EngineDuckDB},
		{"workbook xlsm", Profile, "input/a.xlsm", "", EngineDuckDB},
		{"outliers workbook: rows listed as pandas shows them", Outliers, "input/a.xlsx", "", EngineDuckDB},
		{"gb18030 text", Trend, "input/a.csv", "gb18030", EngineDuckDB},
		{"utf-16 text", TopN, "input/a.tsv", "utf-16", EngineDuckDB},
		{"cp1252 text", Profile, "input/a.csv", "cp1252", EngineDuckDB},
		{"gb18030 outliers", Outliers, "input/a.csv", "gb18030", EngineDuckDB},
		{"mac-roman text", Trend, "input/a.csv", "mac-roman", EngineDuckDB},
		{"koi8-r text, Python's name in capitals", TopN, "input/a.csv", "KOI8-R", EngineDuckDB},
		{"utf-32 text", Trend, "input/a.csv", "utf-32", EngineDuckDB},
		{"an encoding not transcoded", Trend, "input/a.csv", "big5hkscs", EnginePandas},
		{"a name Python does not know", Trend, "input/a.csv", "latin-9", EnginePandas},
		{"legacy xls", Trend, "input/a.xls", "", EnginePandas},
		{"correlation csv", Correlation, "input/a.csv", "", EngineDuckDB},
		{"correlation workbook", Correlation, "input/a.xlsx", "", EngineDuckDB},
		{"cohort csv", Cohort, "input/a.csv", "", EngineDuckDB},
		{"funnel parquet", Funnel, "input/a.parquet", "", EngineDuckDB},
		{"outliers csv", Outliers, "input/a.csv", "", EngineDuckDB},
		{"outliers jsonl", Outliers, "input/a.jsonl", "", EngineDuckDB},
		{"outliers parquet", Outliers, "input/a.parquet", "", EngineDuckDB},
	}
	for _, c := range cases {
		if got := EngineFor(c.template, c.path, c.encoding); got != c.want {
			t.Errorf("%s: EngineFor = %q, want %q", c.name, got, c.want)
		}
		for _, size := range []int64{10, 3 << 30} {
			if got := ChooseEngine(c.template, c.path, size, 1<<30, c.encoding); got != c.want {
				t.Errorf("%s, %d bytes: ChooseEngine = %q, want %q", c.name, size, got, c.want)
			}
		}
	}
}

// noPython fails every Python run: what it runs must need none.
type noPython struct{ operator.Operator }

func (o noPython) RunPython(context.Context, string, operator.RunOptions) (*operator.RunResult, error) {
	return nil, errors.New("this run must not start Python")
}

// TestRunTrendAndTopNNeedNoPython: on a small file, the default engine is
// DuckDB and trend and top-N are rendered in Go: no Python cell runs, and
// the result names the SQL that computed it.
func TestRunTrendAndTopNNeedNoPython(t *testing.T) {
	op := noPython{workspace(t, map[string][]byte{"sales.csv": salesCSV(t)})}
	for _, m := range []Match{
		{Template: Trend, Params: Params{Measure: "revenue", Period: "month"}},
		{Template: Trend, Params: Params{Measure: "revenue", Period: "month", Category: "region"}},
		{Template: TopN, Params: Params{Category: "product", Measure: "revenue", N: 3}},
	} {
		r, err := Run(context.Background(), op, "input/sales.csv", m)
		if err != nil {
			t.Fatalf("%s: %v", m.Template, err)
		}
		if r.Engine != EngineDuckDB {
			t.Errorf("%s: engine %s, want duckdb", m.Template, r.Engine)
		}
		if len(r.SQL) == 0 || !strings.Contains(strings.Join(r.SQL, "\n"), "GROUP BY") {
			t.Errorf("%s: SQL %q does not show the grouping that computed it", m.Template, r.SQL)
		}
		for _, f := range r.Files {
			if fi, err := os.Stat(filepath.Join(op.Root(), f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: file %s missing or empty (%v)", m.Template, f, err)
			}
		}
	}
}

// TestDuckDBMeasureIncludesNumbersWrittenAsText: a text column whose
// values read as numbers ("$1,234.50") is a numeric column to pandas, so
// the DuckDB engine picks the same measure and the same numbers.
func TestDuckDBMeasureIncludesNumbersWrittenAsText(t *testing.T) {
	var b strings.Builder
	b.WriteString("date,region,price,units\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "2024-%02d-%02d,%s,\"$%d,%03d.50\",%d\n", 1+i%3, 1+i%28, []string{"north", "south", "east"}[i%3], 1+i%4, i*37%1000, 1+i%9)
	}
	op := workspace(t, map[string][]byte{"text.csv": []byte(b.String())})
	ctx := context.Background()
	for _, m := range []Match{
		{Template: Trend, Params: Params{Period: "month"}},
		{Template: TopN, Params: Params{Category: "region", Aggregation: "mean"}},
	} {
		pd, err := RunWith(ctx, op, "input/text.csv", m, RunOptions{Engine: EnginePandas})
		if err != nil {
			t.Fatal(err)
		}
		dk, err := RunWith(ctx, op, "input/text.csv", m, RunOptions{Engine: EngineDuckDB})
		if err != nil {
			t.Fatal(err)
		}
		if p, d := strings.Join(pd.Picked, "|"), strings.Join(dk.Picked, "|"); !strings.Contains(p, "measure: price") || p != d {
			t.Errorf("%s: picked: pandas %q, duckdb %q; want the measure price", m.Template, p, d)
		}
		var a, c any
		json.Unmarshal(pd.Data, &a)
		json.Unmarshal(dk.Data, &c)
		sameNumbers(t, m.Template+".data", a, c)
	}
}

// TestLineEndsReadOnDuckDB: a CSV whose lines end in CRLF but for some,
// which DuckDB's sniffer refuses, ran on pandas; DuckDB reads a copy whose
// lines end in LF now, with pandas' numbers, and a quoted field's line
// breaks kept as they are.
func TestLineEndsReadOnDuckDB(t *testing.T) {
	pythonOrSkip(t)
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(string(salesCSV(t)), "\r\n", "\n")), "\n")
	sales := strings.Join(lines[:200], "\r\n") + "\n"
	var notes strings.Builder
	notes.WriteString("name,note,amount\r\n")
	for i := 0; i < 60; i++ {
		note := []string{"plain", "\"two\r\nlines\"", "\"a, b\"", "\"lf\nonly\""}[[]int{0, 0, 0, 0, 1, 1, 1, 2, 2, 3}[i%10]]
		end := "\r\n"
		if i%7 == 3 {
			end = "\n"
		}
		fmt.Fprintf(&notes, "n%d,%s,%d%s", []int{0, 0, 0, 1, 1, 2}[i%6], note, (i*37)%101, end)
	}
	op := workspace(t, map[string][]byte{"mixed.csv": []byte(sales), "notes.csv": []byte(notes.String())})
	for _, c := range []struct {
		file string
		m    Match
	}{
		{"input/mixed.csv", Match{Template: Profile}},
		{"input/mixed.csv", Match{Template: Trend, Params: Params{Measure: "revenue", Period: "month"}}},
		{"input/mixed.csv", Match{Template: Outliers, Params: Params{Columns: []string{"revenue"}, IQRK: 0.5}}},
		{"input/notes.csv", Match{Template: Profile}},
		{"input/notes.csv", Match{Template: TopN, Params: Params{Category: "note", Measure: "amount"}}},
	} {
		t.Run(c.file+"/"+c.m.Template, func(t *testing.T) {
			sameAsPandas(t, op, c.file, c.m)
			r, err := Run(context.Background(), op, c.file, c.m)
			if err != nil {
				t.Fatal(err)
			}
			if r.Engine != EngineDuckDB {
				t.Errorf("engine %s, want duckdb", r.Engine)
			}
		})
	}
}
