package templates

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// cohortVisitsCSV is users' visits over 14 months: cohorts of different
// sizes, offsets no cohort reaches (a gap), visits with no user or no
// date, a second date column, ids as numbers.
func cohortVisitsCSV() []byte {
	var b strings.Builder
	b.WriteString("customer_id,visit_date,signup,amount\n")
	start := time.Date(2023, 11, 27, 0, 0, 0, 0, time.UTC)
	for u := 1; u <= 90; u++ {
		first := start.AddDate(0, 0, (u*37)%300)
		for v := 0; v < 1+u%5; v++ {
			day := first.AddDate(0, 0, v*((u*11)%45+1))
			fmt.Fprintf(&b, "%d,%s,%s,%d\n", u, day.Format("2006-01-02"), first.Format("2006-01-02"), v)
		}
		if u%17 == 0 {
			fmt.Fprintf(&b, ",%s,,1\n", first.Format("2006-01-02"))
			fmt.Fprintf(&b, "%d,,,1\n", u)
		}
	}
	b.WriteString("500,2025-01-15,2025-01-15,1\n") // alone, two months after the rest
	return []byte(b.String())
}

// cohortOneCSV is a single cohort, seen in every month after its first:
// the table has no gap (its sizes are whole numbers, not floats).
func cohortOneCSV() []byte {
	var b strings.Builder
	b.WriteString("user,day\n")
	for u := 1; u <= 7; u++ {
		for m := 1; m <= 3; m++ {
			if m == 1 || u%m == 0 || u == 1 {
				fmt.Fprintf(&b, "u%d,2024-%02d-0%d\n", u, m, 1+u%7)
			}
		}
	}
	return []byte(b.String())
}

// TestCohortRenderedInGoSameAsPandas: the cohort through DuckDB and
// rendered in Go gives what py/cohort.py gives on the whole table with
// pandas, for every period, the entity and time found or named, rows
// without an id or a date, a cohort alone, one cohort, in English and
// Chinese.
func TestCohortRenderedInGoSameAsPandas(t *testing.T) {
	v, one := cohortVisitsCSV(), cohortOneCSV()
	m := func(p Params) Match { return Match{Template: Cohort, Params: p} }
	checkSameAsPandas(t, []renderShape{
		{"found, month", "v.csv", v, m(Params{Time: "visit_date"}), ""},
		{"week", "v.csv", v, m(Params{Time: "visit_date", Entity: "customer_id", Period: "week"}), LangChinese},
		{"day", "v.csv", v, m(Params{Time: "visit_date", Entity: "customer_id", Period: "day"}), ""},
		{"quarter", "v.csv", v, m(Params{Time: "visit_date", Period: "quarter"}), ""},
		{"year Chinese", "v.csv", v, m(Params{Time: "visit_date", Period: "year"}), LangChinese},
		{"time found", "v.csv", v, m(Params{Entity: "customer_id"}), ""},
		{"one cohort", "one.csv", one, m(Params{}), ""},
		{"one cohort Chinese", "one.csv", one, m(Params{Period: "month"}), LangChinese},
	})
}

// TestCohortNeedsNoPython: the cohort runs with no Python.
func TestCohortNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"v.csv": cohortVisitsCSV()}, "v.csv",
		Match{Template: Cohort, Params: Params{Time: "visit_date"}})
}
