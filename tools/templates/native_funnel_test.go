package templates

import (
	"fmt"
	"strings"
	"testing"
)

// funnelEventsCSV is long data: users' events, repeated visits, stages
// written in two cases, an amount per event with fractions, missing
// values and text that is not a number.
func funnelEventsCSV() []byte {
	var b strings.Builder
	b.WriteString("user_id,event,amount,kept\n")
	for u := 1; u <= 100; u++ {
		fmt.Fprintf(&b, "%d,visit,%.2f,0\n", u, float64(u%7)*0.1)
		if u%3 == 0 {
			fmt.Fprintf(&b, "%d,Visit,0.1,\n", u) // the other case counts as another label
		}
		if u <= 40 {
			fmt.Fprintf(&b, "%d, signup ,%.1f,0\n", u, float64(u)*1.1)
		}
		if u <= 10 {
			fmt.Fprintf(&b, "%d,purchase,n/a,1\n", u)
		}
		if u <= 3 {
			fmt.Fprintf(&b, ",refund,,\n")
		}
	}
	return []byte(b.String())
}

// funnelWideCSV is wide data: one column per stage, as yes/no text, as
// numbers with gaps, as true/false, and as numbers written as text.
func funnelWideCSV() []byte {
	var b strings.Builder
	b.WriteString("id,visited,signed_up,trial,purchased\n")
	for i := 0; i < 50; i++ {
		visited := []string{"yes", "Yes", "no", " y "}[i%4]
		signed := ""
		if i%3 != 0 {
			signed = fmt.Sprint(i % 2)
		}
		fmt.Fprintf(&b, "%d,%s,%s,%t,\"%s\"\n", i, visited, signed, i%5 == 0, []string{"1,000", "0", "0"}[i%3])
	}
	return []byte(b.String())
}

// TestFunnelRenderedInGoSameAsPandas: the funnel through DuckDB and
// rendered in Go gives what py/funnel.py gives on the whole table with
// pandas: stages named, found in another case, ordered by count with
// ties, counted as rows, distinct ids or a measure's sum (fractions,
// text, a stage that sums to 0), wide data of every kind of column, one
// stage, the stage column found by its name, in English and Chinese.
func TestFunnelRenderedInGoSameAsPandas(t *testing.T) {
	ev, wide := funnelEventsCSV(), funnelWideCSV()
	m := func(p Params) Match { return Match{Template: Funnel, Params: p} }
	checkSameAsPandas(t, []renderShape{
		{"stages and entity", "ev.csv", ev, m(Params{Stage: "event", Stages: []string{"visit", "signup", "purchase"}, Entity: "user_id"}), ""},
		{"by count, rows", "ev.csv", ev, m(Params{Stage: "event"}), ""},
		{"by count, entity", "ev.csv", ev, m(Params{Stage: "event", Entity: "user_id"}), LangChinese},
		{"other case", "ev.csv", ev, m(Params{Stage: "Event", Stages: []string{"VISIT", "SignUp", "purchase"}}), ""},
		{"measure", "ev.csv", ev, m(Params{Stage: "event", Stages: []string{"visit", "signup", "purchase", "refund"}, Measure: "amount"}), ""},
		{"measure zero stage", "ev.csv", ev, m(Params{Stage: "event", Stages: []string{"signup", "purchase", "refund"}, Measure: "amount"}), LangChinese},
		{"measure by count", "ev.csv", ev, m(Params{Stage: "event", Measure: "kept"}), ""},
		{"one stage", "ev.csv", ev, m(Params{Stage: "event", Stages: []string{"signup"}}), ""},
		{"stage column by its name", "ev.csv", ev, m(Params{Stages: []string{"visit", "signup"}}), ""},
		{"wide", "w.csv", wide, m(Params{Stages: []string{"visited", "signed_up", "trial", "purchased"}}), ""},
		{"wide Chinese", "w.csv", wide, m(Params{Stages: []string{"trial", "visited"}}), LangChinese},
	})
}

// TestFunnelNeedsNoPython: the funnel runs with no Python.
func TestFunnelNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"ev.csv": funnelEventsCSV()}, "ev.csv",
		Match{Template: Funnel, Params: Params{Stage: "event", Entity: "user_id"}},
		Match{Template: Funnel, Params: Params{Stages: []string{"visit", "signup"}}})
}
