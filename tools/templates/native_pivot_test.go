package templates

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// pivotCSV is a table of shops: a Chinese region and channel, an int and a
// float measure with every fifth left empty, a date, and with total a
// "合计" row per channel that sums the others.
func pivotCSV(total bool) []byte {
	var b strings.Builder
	b.WriteString("地区,channel,units,amount,day,store\n")
	regions := []string{"华东", "华北", "西南", "东北"}
	channels := []string{"online", "shop", "=phone"}
	sums := map[string]int{}
	for i := 0; i < 90; i++ {
		amount := fmt.Sprintf("%.3f", float64(i%11)*1.37+0.01)
		if i%5 == 0 {
			amount = ""
		}
		ch := channels[i%3]
		units := 1 + i%9
		sums[ch] += units
		fmt.Fprintf(&b, "%s,%s,%d,%s,2024-%02d-%02d,only\n", regions[i%4], ch, units, amount, 1+i%6, 1+i%27)
	}
	if total {
		for _, ch := range channels {
			fmt.Fprintf(&b, "合计,%s,%d,,2024-06-30,only\n", ch, sums[ch])
		}
	}
	return []byte(b.String())
}

// TestPivotRenderedInGoSameAsPython: pivot rendered in Go gives what its
// Python cell gave from the same aggregates: ints, floats, missing
// values, Chinese text, a total row left out, periods as columns, a
// single group, a formula-like label neutralised in the CSV.
func TestPivotRenderedInGoSameAsPython(t *testing.T) {
	pythonOrSkip(t)
	sales := salesCSV(t)
	shops := pivotCSV(false)
	checkSameRendering(t, []renderShape{
		{"sales region by product", "sales.csv", sales, Match{Template: Pivot, Params: Params{Category: "region", Category2: "product", Measure: "revenue"}}, ""},
		{"sales region by month mean", "sales.csv", sales, Match{Template: Pivot, Params: Params{Category: "region", Time: "date", Period: "month", Measure: "units", Aggregation: "mean"}}, ""},
		{"sales count auto", "sales.csv", sales, Match{Template: Pivot}, ""},
		{"ints Chinese", "s.csv", shops, Match{Template: Pivot, Params: Params{Category: "地区", Category2: "channel", Measure: "units"}}, LangChinese},
		{"floats missing median", "s.csv", shops, Match{Template: Pivot, Params: Params{Category: "channel", Category2: "地区", Measure: "amount", Aggregation: "median"}}, ""},
		{"floats sum by week", "s.csv", shops, Match{Template: Pivot, Params: Params{Category: "地区", Time: "day", Period: "week", Measure: "amount"}}, LangChinese},
		{"total row left out", "s.csv", pivotCSV(true), Match{Template: Pivot, Params: Params{Category: "地区", Category2: "channel", Measure: "units"}}, LangChinese},
		{"single group", "s.csv", shops, Match{Template: Pivot, Params: Params{Category: "store", Category2: "channel", Measure: "amount", Aggregation: "max"}}, ""},
	})
}

// TestPivotNeedsNoPython: pivot runs with no Python.
func TestPivotNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"s.csv": pivotCSV(true)}, "s.csv",
		Match{Template: Pivot, Params: Params{Category: "地区", Category2: "channel", Measure: "units"}},
		Match{Template: Pivot, Params: Params{Category: "channel", Time: "day", Period: "month", Measure: "amount", Aggregation: "mean"}})
}

// TestPivotSQLReadsTheSameOnEveryRun: a pivot by mean runs its cells', row
// totals', column totals' and grand total's queries in that order, so the
// SQL shown as its provenance is the same on every run (they were taken
// from a map, in random order).
func TestPivotSQLReadsTheSameOnEveryRun(t *testing.T) {
	op := pythonless(t, map[string][]byte{"s.csv": pivotCSV(false)})
	m := Match{Template: Pivot, Params: Params{Category: "地区", Category2: "channel", Measure: "amount", Aggregation: "mean"}}
	var first string
	for i := range 8 {
		r, err := Run(context.Background(), op, "input/s.csv", m)
		if err != nil {
			t.Fatal(err)
		}
		sql := strings.Join(r.SQL, "\n")
		if i == 0 {
			first = sql
			// The last three queries are the row totals, the column
			// totals and the grand total.
			n := len(r.SQL)
			if n < 3 || !strings.Contains(strings.ToLower(r.SQL[n-3]), "as r, (") || strings.Contains(strings.ToLower(r.SQL[n-3]), "as c") ||
				!strings.Contains(strings.ToLower(r.SQL[n-2]), "as c, (") || strings.Contains(strings.ToLower(r.SQL[n-2]), "as r") ||
				!strings.HasPrefix(strings.ToLower(r.SQL[n-1]), "select 'all'") {
				t.Errorf("the totals' queries are not last, in the order rows, columns, grand total:\n%s", sql)
			}
			continue
		}
		if sql != first {
			t.Fatalf("run %d shows other SQL:\n%s\nthan the first:\n%s", i+1, sql, first)
		}
	}
}
