package templates

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outliersCSV has what could number rows otherwise than pandas: blank
// lines, quoted fields with line breaks, missing values, text that reads
// as numbers, and true/false.
func outliersCSV() []byte {
	var b strings.Builder
	b.WriteString("id,amount,price,note,ok,day\n")
	for i := 0; i < 300; i++ {
		amount, price, note := itoa(100+i%17), "$"+itoa(10+i%7)+".50", "plain"
		switch {
		case i%50 == 7:
			amount = itoa(5000 + i)
		case i%61 == 3:
			amount = ""
		}
		if i%40 == 11 {
			price = `"$1,250.00"`
		}
		if i%9 == 4 {
			note = "\"two\nlines, quoted\""
		}
		if i%75 == 20 {
			b.WriteString("\n")
		}
		ok := "true"
		if i%3 == 0 {
			ok = "false"
		}
		b.WriteString(itoa(i) + "," + amount + "," + price + "," + note + "," + ok + ",2024-01-" + itoa(10+i%20) + "\n")
	}
	return []byte(b.String())
}

// TestDuckDBOutliersSameRowsAsPandas: on a file with blank lines, quoted
// line breaks and gaps, the DuckDB engine flags the same rows with the
// same 0-based numbers, the same numbers and the same rows file as pandas.
func TestDuckDBOutliersSameRowsAsPandas(t *testing.T) {
	op := workspace(t, map[string][]byte{"odd.csv": outliersCSV()})
	ctx := context.Background()
	for _, m := range []Match{
		{Template: Outliers},
		{Template: Outliers, Params: Params{Columns: []string{"amount", "price", "ok"}, IQRK: 1, ZThreshold: 1.2}},
	} {
		pd, err := RunWith(ctx, op, "input/odd.csv", m, RunOptions{Engine: EnginePandas})
		if err != nil {
			t.Fatal(err)
		}
		dk, err := RunWith(ctx, op, "input/odd.csv", m, RunOptions{Engine: EngineDuckDB})
		if err != nil {
			t.Fatal(err)
		}
		var a, b map[string]any
		json.Unmarshal(pd.Data, &a)
		json.Unmarshal(dk.Data, &b)
		if a["row_count"] == 0.0 {
			t.Fatalf("pandas flags no rows: %s", pd.Data)
		}
		sameNumbers(t, "data", a, b)
		if pd.Answer != dk.Answer {
			t.Errorf("answers differ:\npandas %s\nduckdb %s", pd.Answer, dk.Answer)
		}
		for i := range pd.Sections {
			if i >= len(dk.Sections) || pd.Sections[i].Markdown != dk.Sections[i].Markdown {
				t.Errorf("section %d differs:\npandas %s\nduckdb %+v", i, pd.Sections[i].Markdown, dk.Sections)
			}
		}
		if strings.Join(pd.Picked, "|") != strings.Join(dk.Picked, "|") {
			t.Errorf("picked differ:\npandas %q\nduckdb %q", pd.Picked, dk.Picked)
		}
		read := func(r *Result) string {
			for _, f := range r.Files {
				if strings.HasSuffix(f, "_rows.csv") {
					b, err := os.ReadFile(filepath.Join(op.Root(), f))
					if err != nil {
						t.Fatal(err)
					}
					return string(b)
				}
			}
			t.Fatalf("no rows file in %v", r.Files)
			return ""
		}
		if p, d := read(pd), read(dk); p != d {
			t.Errorf("rows files differ:\npandas\n%s\nduckdb\n%s", p, d)
		}
		left, _ := filepath.Glob(filepath.Join(op.Root(), "work", "outlier-rows-*"))
		if len(left) > 0 {
			t.Errorf("the engine left %v behind", left)
		}
	}
}

// TestDuckDBOutliersRefusesFilesItWouldNumberOtherwise: where DuckDB would
// read the rows otherwise than pandas, the engine refuses with what to do
// rather than report other row numbers.
func TestDuckDBOutliersRefusesFilesItWouldNumberOtherwise(t *testing.T) {
	body := func(header string) []byte {
		var b strings.Builder
		b.WriteString(header)
		for i := 0; i < 40; i++ {
			b.WriteString("r" + itoa(i) + "," + itoa(i*i%37) + "\n")
		}
		return []byte(b.String())
	}
	cases := []struct{ name, text, want string }{
		{"no header", string(body("")), "no header line"},
		{"lines before the header", "exported 2024-01-01;by:me\n" + string(body("name,amount\n")), "skips"},
		{"a line with too many fields", string(body("name,amount\n")) + "x,1,2\n", ""},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op := workspace(t, map[string][]byte{"t.csv": []byte(c.text)})
			_, err := RunWith(ctx, op, "input/t.csv", Match{Template: Outliers, Params: Params{Columns: []string{"column1"}}}, RunOptions{Engine: EngineDuckDB})
			if c.name != "no header" {
				_, err = RunWith(ctx, op, "input/t.csv", Match{Template: Outliers, Params: Params{Columns: []string{"amount"}}}, RunOptions{Engine: EngineDuckDB})
			}
			var ce *CellError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v; want a refusal", err)
			}
			if !strings.Contains(ce.Message, c.want) {
				t.Errorf("message %q does not say %q", ce.Message, c.want)
			}
		})
	}
}
