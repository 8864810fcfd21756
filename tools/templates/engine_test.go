package templates

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
	ctx := context.Background()
	cases := []struct {
		name string
		m    Match
	}{
		{"profile", Match{Template: Profile}},
		{"trend auto", Match{Template: Trend}},
		{"trend monthly revenue by region", Match{Template: Trend, Params: Params{Time: "date", Measure: "revenue", Period: "month", Category: "region"}}},
		{"trend weekly mean", Match{Template: Trend, Params: Params{Measure: "units", Aggregation: "mean", Period: "week"}}},
		{"trend quarterly count", Match{Template: Trend, Params: Params{Period: "quarter", Aggregation: "count", Measure: "revenue"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pd, err := RunWith(ctx, op, "input/sales.csv", c.m, RunOptions{Engine: EnginePandas})
			if err != nil {
				t.Fatal(err)
			}
			dk, err := RunWith(ctx, op, "input/sales.csv", c.m, RunOptions{Engine: EngineDuckDB})
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
		})
	}
}

// TestChooseEngineBySize: pandas while it can hold the file under the
// memory limit, DuckDB past that, and pandas where DuckDB cannot read the
// file or has no engine for the template.
func TestChooseEngineBySize(t *testing.T) {
	const gib = 1 << 30
	cases := []struct {
		name, template, path, encoding string
		size, limit                    int64
		want                           Engine
	}{
		{"small csv", Trend, "input/a.csv", "utf-8-sig", 10 << 20, 4 * gib, EnginePandas},
		{"large csv", Trend, "input/a.csv", "utf-8-sig", 3 * gib, 4 * gib, EngineDuckDB},
		{"just under a sixth", Profile, "input/a.csv", "", gib/6 - 1, gib, EnginePandas},
		{"just over a sixth", Profile, "input/a.csv", "", gib/6 + 1, gib, EngineDuckDB},
		{"no limit", Trend, "input/a.csv", "", 30 * gib, 0, EnginePandas},
		{"parquet", Trend, "input/a.parquet", "", 2 * gib, gib, EngineDuckDB},
		{"workbook", Trend, "input/a.xlsx", "", 2 * gib, gib, EnginePandas},
		{"gb18030 text", Trend, "input/a.csv", "gb18030", 2 * gib, gib, EnginePandas},
		{"no duckdb engine", Cohort, "input/a.csv", "", 2 * gib, gib, EnginePandas},
	}
	for _, c := range cases {
		if got := ChooseEngine(c.template, c.path, c.size, c.limit, c.encoding); got != c.want {
			t.Errorf("%s: ChooseEngine = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRunChoosesDuckDBForAFileTooLargeForTheLimit: with the operator's
// memory limit small against the file, Run goes through DuckDB on its own.
func TestRunChoosesDuckDBForAFileTooLargeForTheLimit(t *testing.T) {
	data := salesCSV(t)
	py := pythonOrSkip(t)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "input"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "input", "sales.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit int64
		want  Engine
	}{{int64(len(data)) * pandasBytesPerFileByte * 2, EnginePandas}, {int64(len(data)) * 2, EngineDuckDB}} {
		// The limit is only read, never applied: the cell runs unlimited.
		op := limitOperator{workspaceOp(t, root, py), c.limit}
		r, err := Run(context.Background(), op, "input/sales.csv", Match{Template: Trend, Params: Params{Measure: "revenue", Period: "month"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Engine != c.want {
			t.Errorf("limit %d bytes for a %d-byte file: engine %s, want %s", c.limit, len(data), r.Engine, c.want)
		}
	}
}

// limitOperator reports a memory limit it does not apply.
type limitOperator struct {
	operator.Operator
	limit int64
}

func (o limitOperator) MemoryLimit() int64 { return o.limit }

func workspaceOp(t *testing.T, root, py string) operator.Operator {
	t.Helper()
	var env []string
	if mplDir != "" {
		env = append(env, "MPLCONFIGDIR="+mplDir)
	}
	op, err := operator.NewLocal(operator.LocalConfig{Root: root, Python: py, ExtraEnv: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	return op
}
