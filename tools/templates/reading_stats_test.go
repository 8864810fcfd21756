package templates

import (
	"context"
	"math"
	"os"
	"path/filepath"
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
