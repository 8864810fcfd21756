package templates

import (
	"fmt"
	"strings"
	"testing"
)

// distributionCSV has an int column, a float one with missing values, a
// constant one, a column of two values, a Chinese text column and a
// column of amounts written as text.
func distributionCSV() []byte {
	var b strings.Builder
	b.WriteString("units,price,flat,pair,城市,amount\n")
	for i := 0; i < 57; i++ {
		price := fmt.Sprintf("%.2f", float64(i*i%23)*1.75+0.3)
		if i%6 == 0 {
			price = ""
		}
		if i == 13 {
			price = "250.5" // an outlier
		}
		pair := ""
		if i < 2 {
			pair = fmt.Sprint(i + 1)
		}
		fmt.Fprintf(&b, "%d,%s,7,%s,%s,\"$%d,%03d\"\n", 1+i%9, price, pair, []string{"上海", "北京", "深圳", "上海"}[i%4], 1+i%3, i*17%1000)
	}
	return []byte(b.String())
}

// TestDistributionRenderedInGoSameAsPython: distribution rendered in Go
// gives what its Python cell gave from the same aggregates: ints, floats,
// missing values, a constant and a two-value column, Chinese text,
// numbers written as text, a single column.
func TestDistributionRenderedInGoSameAsPython(t *testing.T) {
	pythonOrSkip(t)
	sales := salesCSV(t)
	d := distributionCSV()
	checkSameRendering(t, []renderShape{
		{"sales auto", "sales.csv", sales, Match{Template: Distribution}, ""},
		{"sales numbers and text", "sales.csv", sales, Match{Template: Distribution, Params: Params{Columns: []string{"revenue", "product", "units"}}}, ""},
		{"shapes auto Chinese", "d.csv", d, Match{Template: Distribution}, LangChinese},
		{"shapes named", "d.csv", d, Match{Template: Distribution, Params: Params{Columns: []string{"price", "flat", "pair", "城市"}}}, ""},
		{"single column", "d.csv", d, Match{Template: Distribution, Params: Params{Measure: "price"}}, LangChinese},
	})
	// The Python cell fails on the DuckDB engine's aggregates of text
	// columns alone (their list of numeric columns is null): the Go
	// rendering is held to the pandas engine's.
	checkSameAsPandas(t, []renderShape{
		{"text only", "d.csv", d, Match{Template: Distribution, Params: Params{Columns: []string{"城市"}}}, LangChinese},
	})
}

// TestDistributionNeedsNoPython: distribution runs with no Python.
func TestDistributionNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"d.csv": distributionCSV()}, "d.csv",
		Match{Template: Distribution},
		Match{Template: Distribution, Params: Params{Columns: []string{"price", "城市"}}})
}
