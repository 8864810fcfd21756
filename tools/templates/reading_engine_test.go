package templates

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/tools/sqldb"
)

// TestReadingQueryWritesPeriodsOncePerGroup checks that a trend's table
// groups the rows by their month and writes each month as text once,
// after grouping: writing every row's month as text was most of the
// table's time on a million rows.
func TestReadingQueryWritesPeriodsOncePerGroup(t *testing.T) {
	q, _ := readingQuery(Reading{Analysis: Trend, Measures: []Measure{{"revenue", "sum"}}, Time: "order_date", Grain: "month"}, "t")
	if n := strings.Count(q, "strftime("); n != 1 || !strings.Contains(q, "strftime(g0, '%Y-%m') AS k0") {
		t.Errorf("the query writes months as text %d times, not once per group from g0:\n%s", n, q)
	}
	if !strings.Contains(q, "GROUP BY g0") {
		t.Errorf("the query does not group by the month g0:\n%s", q)
	}
}

// TestReadingTableGroupsByPeriodAsByText checks that grouping by the
// period and writing it after gives, at every grain, the table that
// grouping by each row's key as text gives: the same keys, values and
// order, for typed dates, dates written as text, times of day, missing
// dates, a second key, and integer years.
func TestReadingTableGroupsByPeriodAsByText(t *testing.T) {
	csv := "when,year,region,x\n" +
		"2021-01-05 10:30:00,2021,North,1\n" +
		"2021-01-31 23:00:00,2021,South,2\n" +
		"2021-02-01 00:00:00,2021,North,4\n" +
		"2021-05-17 08:15:00,2021,,8\n" +
		",2022,North,16\n" +
		"2022-12-31 12:00:00,2022,South,32\n" +
		"2023-03-01 09:00:00,2023,North,64\n" +
		"2023-03-02 18:45:00,2023,North,\n" +
		"2024-02-29 07:00:00,2024,South,128\n"
	text := "when,region,x\nJan 5 2021,North,1\n01/31/2021,South,2\n2021-02-01,North,4\nMay 17 2021,North,8\nnot a date,North,16\n2022-12-31,South,32\n"
	type file struct{ name, data string }
	dates := "when,region,x\n2021-01-05,North,1\n2021-01-31,South,2\n,North,4\n2021-02-01,North,8\n2022-12-31,South,\n2024-02-29,South,32\n"
	files := []file{{"typed.csv", csv}, {"text.csv", text}, {"dates.csv", dates}}
	grains := []string{"day", "week", "month", "quarter", "year", "month_of_year", "weekday", "quarter_of_year", "hour_of_day"}
	ctx := context.Background()
	for _, f := range files {
		root := writeInput(t, f.name, []byte(f.data))
		var readings []Reading
		for _, g := range grains {
			readings = append(readings,
				Reading{Analysis: Trend, Measures: []Measure{{"x", "sum"}}, Time: "when", Grain: g},
				Reading{Analysis: Trend, Measures: []Measure{{"x", "mean"}, {"x", "count"}}, Time: "when", Grain: g, GroupBy: []string{"region"}},
				Reading{Analysis: Pivot, Measures: []Measure{{"x", "sum"}}, Time: "when", Grain: g, GroupBy: []string{"region"}},
			)
		}
		readings = append(readings, Reading{Analysis: ComparePeriods, Measures: []Measure{{"x", "sum"}}, Time: "when", Periods: []string{"2021", "2022"}})
		if f.name == "typed.csv" {
			readings = append(readings,
				Reading{Analysis: Trend, Measures: []Measure{{"x", "sum"}}, Time: "year", YearTime: true},
				Reading{Analysis: Trend, Measures: []Measure{{"x", "sum"}}, Time: "year", YearTime: true, GroupBy: []string{"region"}})
		}
		for _, r := range readings {
			src, view, done, err := readingSource(ctx, root, "input/"+f.name, r)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readingTableOn(ctx, src, view, r)
			if err != nil {
				done()
				t.Fatalf("%s %+v: %v", f.name, r, err)
			}
			want := perRowTable(t, src, view, r)
			done()
			if diff := cmp.Diff(want, got.Rows); diff != "" {
				t.Errorf("%s %s %s by %v: (-per row +per group):\n%s", f.name, r.Analysis, r.Grain, r.GroupBy, diff)
			}
		}
	}
}

// TestReadingTableCastsTypedDates: over a time column DuckDB typed as
// dates or timestamps the reading's query casts it and parses no text
// (TestReadingTableGroupsByPeriodAsByText checks it gives the same
// table); over dates written as text it still tries the text layouts.
func TestReadingTableCastsTypedDates(t *testing.T) {
	ctx := context.Background()
	r := Reading{Analysis: Trend, Measures: []Measure{{"x", "sum"}}, Time: "when", Grain: "month"}
	for name, c := range map[string]struct {
		data  string
		parse bool
	}{
		"dates.csv": {"when,x\n2021-01-05,1\n2021-02-01,2\n", false},
		"times.csv": {"when,x\n2021-01-05 10:30:00,1\n2021-02-01 00:00:00,2\n", false},
		"text.csv":  {"when,x\nJan 5 2021,1\n01/31/2021,2\n", true},
	} {
		root := writeInput(t, name, []byte(c.data))
		src, view, done, err := readingSource(ctx, root, "input/"+name, r)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := readingQuery(r, view)
		got := typedTime(ctx, src, view, r, q)
		done()
		if parses := strings.Contains(got, "try_strptime"); parses != c.parse {
			t.Errorf("%s: the query parses text dates: %v, want %v:\n%s", name, parses, c.parse, got)
		}
		if !c.parse && !strings.Contains(got, `date_trunc('month', CAST("when" AS TIMESTAMP))`) {
			t.Errorf("%s: the query does not group by the cast month:\n%s", name, got)
		}
	}
}

// perRowTable is readingTableOn's rows as the reading engine computed
// them before it grouped by period: each row's keys written as text
// (grainKey), grouped by that text.
func perRowTable(t *testing.T, src *sqldb.Source, view string, r Reading) [][]any {
	t.Helper()
	g := r.Grain
	if r.Analysis == ComparePeriods && len(r.Periods) > 0 {
		g = "year"
	} else if g == "" && r.Analysis != Pivot {
		g = "month"
	}
	timeKey, _ := grainKey(sqldb.QuoteIdent(r.Time), r.YearTime, g)
	var keys []string
	if r.Analysis == Pivot {
		for _, c := range r.GroupBy {
			keys = append(keys, "CAST("+sqldb.QuoteIdent(c)+" AS VARCHAR)")
		}
		keys = append(keys, timeKey)
	} else {
		keys = append(keys, timeKey)
		for _, c := range r.GroupBy {
			keys = append(keys, "CAST("+sqldb.QuoteIdent(c)+" AS VARCHAR)")
		}
	}
	var sel, group, notNull []string
	for i, k := range keys {
		sel = append(sel, k+" AS k"+string(rune('0'+i)))
		group = append(group, "k"+string(rune('0'+i)))
		notNull = append(notNull, k+" IS NOT NULL")
	}
	for i, m := range r.Measures {
		sel = append(sel, measureSQL(m)+" AS v"+string(rune('0'+i)))
	}
	where := whereSQL(r)
	if where == "" {
		where = " WHERE " + strings.Join(notNull, " AND ")
	} else {
		where += " AND " + strings.Join(notNull, " AND ")
	}
	order := group
	if r.Analysis != Pivot {
		switch {
		case r.Grain == "weekday":
			k, _ := grainKey(sqldb.QuoteIdent(r.Time), false, "day")
			order = append([]string{"min(isodow(CAST(" + k + " AS TIMESTAMP)))"}, group[1:]...)
		case slicesContains(calendarParts, r.Grain):
			order = append([]string{"TRY_CAST(k0 AS INTEGER)"}, group[1:]...)
		}
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + view + where + " GROUP BY " + strings.Join(group, ", ") + " ORDER BY " + strings.Join(order, ", ")
	rows, err := src.Rows(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out [][]any
	for _, row := range rows {
		o := make([]any, len(row))
		for i, v := range row {
			switch {
			case i < len(keys):
				o[i] = v.(string)
			case v != nil:
				o[i] = toFloat(v)
			}
		}
		out = append(out, o)
	}
	return out
}
