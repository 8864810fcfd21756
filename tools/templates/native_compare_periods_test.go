package templates

import (
	"fmt"
	"strings"
	"testing"
)

// periodsCSV is a daily table from start for days days: an int and a
// float measure, a Chinese region, and with gaps every gap-th day's
// float left empty (0: none).
func periodsCSV(start string, days, gap int) []byte {
	var b strings.Builder
	b.WriteString("日期,units,amount,地区\n")
	t0, _ := parseDay(start)
	for i := 0; i < days; i++ {
		amount := fmt.Sprintf("%.2f", float64(i%17)*3.25+0.5)
		if gap > 0 && i%gap == 0 {
			amount = ""
		}
		fmt.Fprintf(&b, "%s,%d,%s,%s\n", t0.AddDate(0, 0, i).Format("2006-01-02"), 1+i%7, amount, []string{"华东", "华北", "西南"}[i%3])
	}
	return []byte(b.String())
}

// TestComparePeriodsRenderedInGoSameAsPython: compare_periods rendered in
// Go gives what its Python cell gave from the same aggregates, on ints,
// floats, missing values, Chinese text, partial periods and a single
// comparison.
func TestComparePeriodsRenderedInGoSameAsPython(t *testing.T) {
	pythonOrSkip(t)
	sales := salesCSV(t)
	whole := periodsCSV("2024-01-01", 366, 0)   // whole months
	partial := periodsCSV("2024-01-10", 130, 5) // partial first and last months, missing floats
	two := periodsCSV("2024-03-01", 61, 0)      // one comparison
	checkSameRendering(t, []renderShape{
		{"sales mom", "sales.csv", sales, Match{Template: ComparePeriods, Params: Params{Measure: "revenue"}}, ""},
		{"sales wow median", "sales.csv", sales, Match{Template: ComparePeriods, Params: Params{Measure: "revenue", Compare: "wow", Aggregation: "median"}}, ""},
		{"sales qoq count", "sales.csv", sales, Match{Template: ComparePeriods, Params: Params{Compare: "qoq"}}, ""},
		{"ints mom", "p.csv", whole, Match{Template: ComparePeriods, Params: Params{Measure: "units"}}, ""},
		{"floats mean Chinese", "p.csv", whole, Match{Template: ComparePeriods, Params: Params{Measure: "amount", Aggregation: "mean"}}, LangChinese},
		{"missing values partial", "p.csv", partial, Match{Template: ComparePeriods, Params: Params{Measure: "amount"}}, ""},
		{"missing values partial Chinese", "p.csv", partial, Match{Template: ComparePeriods, Params: Params{Measure: "amount", Aggregation: "max"}}, LangChinese},
		{"dod", "p.csv", two, Match{Template: ComparePeriods, Params: Params{Measure: "units", Compare: "dod"}}, ""},
		{"yoy by month", "p.csv", periodsCSV("2023-01-01", 730, 0), Match{Template: ComparePeriods, Params: Params{Measure: "amount", Compare: "yoy"}}, ""},
		{"single comparison", "p.csv", two, Match{Template: ComparePeriods, Params: Params{Measure: "amount"}}, LangChinese},
	})
}

// TestComparePeriodsNeedsNoPython: compare_periods runs with no Python.
func TestComparePeriodsNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"p.csv": periodsCSV("2024-01-10", 130, 5)}, "p.csv",
		Match{Template: ComparePeriods, Params: Params{Measure: "amount"}},
		Match{Template: ComparePeriods, Params: Params{Measure: "units", Compare: "wow", Aggregation: "mean"}})
}
