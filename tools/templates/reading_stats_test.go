package templates

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// statsCSV is a small table whose outliers, profile and correlations
// were computed with pandas (quantile, notna/isna, corr).
const statsCSV = `g,x,y,name
a,1,2,p
a,2,1,q
a,3,4,
a,4,3,r
a,100,5,s
b,10,10,t
b,11,,u
b,12,30,v
b,13,20,w
b,14,20,x
,7,7,y
`

func writeInput(t *testing.T, name string, data []byte) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "input", name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestReadingTableOfEveryBuiltIn checks that the analyses which do not
// aggregate by keys have their answer table too, with pandas' numbers:
// outliers per column and per group, profile, Spearman and Kendall.
func TestReadingTableOfEveryBuiltIn(t *testing.T) {
	root := writeInput(t, "s.csv", []byte(statsCSV))
	tests := []struct {
		name string
		r    Reading
		want [][]any
	}{
		{"outliers of a column", Reading{Analysis: Outliers, Columns: []string{"x"}},
			[][]any{{"x", -10.0, 26.0, 1.0}}},
		{"outliers per group", Reading{Analysis: Outliers, Columns: []string{"x"}, GroupBy: []string{"g"}},
			[][]any{{"a", "x", -1.0, 7.0, 1.0}, {"b", "x", 8.0, 16.0, 0.0}}},
		{"profile", Reading{Analysis: Profile},
			[][]any{{"g", 10.0, 1.0}, {"x", 11.0, 0.0}, {"y", 10.0, 1.0}, {"name", 10.0, 1.0}}},
		{"spearman", Reading{Analysis: Correlation, Columns: []string{"x", "y"}, Method: "spearman"},
			[][]any{{"x", "y", 0.7538028741632801}}},
		{"kendall", Reading{Analysis: Correlation, Columns: []string{"x", "y"}, Method: "kendall"},
			[][]any{{"x", "y", 0.5843065474681431}}},
		{"pearson", Reading{Analysis: Correlation, Columns: []string{"x", "y"}},
			[][]any{{"x", "y", -0.04439637471643211}}},
	}
	near := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := ReadingTable(context.Background(), root, "input/s.csv", tt.r)
			if err != nil {
				t.Fatal(err)
			}
			if tab == nil {
				t.Fatal("no table")
			}
			if diff := cmp.Diff(tt.want, tab.Rows, near); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadingTableReadsALegacyEncoding checks that a GB18030 file, which
// DuckDB cannot read, is answered from a UTF-8 copy.
func TestReadingTableReadsALegacyEncoding(t *testing.T) {
	data, err := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte("年份,失业率,地区\n2000,4.0,华北\n2001,4.5,华北\n2002,5.8,华南\n"))
	if err != nil {
		t.Fatal(err)
	}
	root := writeInput(t, "macro.csv", data)
	tab, err := ReadingTable(context.Background(), root, "input/macro.csv", Reading{Analysis: TopN, Measures: []Measure{{"失业率", "mean"}}, GroupBy: []string{"地区"}, Order: "desc"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{"华南", 5.8}, {"华北", 4.25}}
	if diff := cmp.Diff(want, tab.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestReadingCorrelationIsPandas: the reading's correlation table is
// pandas' DataFrame.corr of the pair, digit for digit, computed as the
// correlation built-in computes it: DuckDB's corr() differed from
// pandas' Pearson in the last digits, and Spearman's and Kendall's were
// refused past 200,000 and 20,000 rows.
func TestReadingCorrelationIsPandas(t *testing.T) {
	py := pythonOrSkip(t)
	var b strings.Builder
	b.WriteString("x,y,z\n")
	for i := 0; i < 250_000; i++ {
		x := math.Sin(float64(i)*0.731) * 1000.0 / 7
		y := x*0.37 + math.Cos(float64(i)*1.913)*55.5 + float64(i%97)/3
		z := fmt.Sprint((i * 7919) % 1013)
		if i%101 == 7 {
			z = ""
		}
		fmt.Fprintf(&b, "%.6f,%.6f,%s\n", x, y, z)
	}
	root := writeInput(t, "c.csv", []byte(b.String()))
	for _, method := range []string{"pearson", "spearman", "kendall"} {
		rows := 250_000
		if method == "kendall" {
			rows = 30_000 // scipy's tau takes long on more
		}
		out, err := exec.Command(py, "-c", `
import sys, pandas as pd
df = pd.read_csv(sys.argv[1]).head(int(sys.argv[3])).apply(pd.to_numeric, errors="coerce")
c = df.corr(method=sys.argv[2])
print(repr(float(c.loc["x", "y"])), repr(float(c.loc["x", "z"])), repr(float(c.loc["y", "z"])))`, filepath.Join(root, "input", "c.csv"), method, fmt.Sprint(rows)).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{}
		for i, f := range strings.Fields(string(out)) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			want[[]string{"x/y", "x/z", "y/z"}[i]] = v
		}
		file := "input/c.csv"
		if rows < 250_000 {
			head := strings.Join(strings.SplitN(b.String(), "\n", rows+2)[:rows+1], "\n") + "\n"
			file = "input/c" + method + ".csv"
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(file)), []byte(head), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tab, err := ReadingTable(context.Background(), root, file, Reading{Analysis: Correlation, Columns: []string{"x", "y", "z"}, Method: method})
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		for _, row := range tab.Rows {
			k := row[0].(string) + "/" + row[1].(string)
			if got, _ := row[2].(float64); got != want[k] {
				t.Errorf("%s %s: r = %v, pandas %v", method, k, row[2], want[k])
			}
		}
	}
}
