package templates

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeOrders writes input/<name> under root: rows of order_date, region,
// product, customer, units and revenue (quarters, so sums are exact in
// any order), with bad(i) replacing row i's revenue when it says so.
func writeOrders(t *testing.T, root, name string, rows int, bad func(i int) (string, bool)) {
	t.Helper()
	var b strings.Builder
	b.WriteString("order_date,region,product,customer,units,revenue\n")
	regions := []string{"North", "South", "East", "West"}
	for i := 0; i < rows; i++ {
		rev := fmt.Sprintf("%.2f", float64(i%997)*0.25)
		if v, ok := bad(i); ok {
			rev = v
		}
		fmt.Fprintf(&b, "2023-%02d-%02d,%s,P%d,C%04d,%d,%s\n", i%12+1, i%28+1, regions[i%4], i%7, i%3000, i%20+1, rev)
	}
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "input", name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func noBad(int) (string, bool) { return "", false }

// TestDuckDBLoadsOnlyTheColumnsTheAnswerReads: a trend of a named measure
// over a named time column, and a top-N of a named category, load only
// those columns (and the reading's), and compute the numbers they compute
// when the template picks the same columns itself from the whole table.
func TestDuckDBLoadsOnlyTheColumnsTheAnswerReads(t *testing.T) {
	root := t.TempDir()
	writeOrders(t, root, "orders.csv", 3000, noBad)
	ctx := context.Background()
	for _, c := range []struct {
		template      string
		named, picked Params
		reading       *Reading
		load          string
	}{
		{Trend, Params{Time: "order_date", Measure: "revenue", Period: "month"}, Params{Period: "month"}, nil,
			`SELECT "order_date", "revenue" FROM`},
		// Named as the cell's col() finds them.
		{Trend, Params{Time: "Order Date", Measure: "REVENUE", Period: "month"}, Params{Period: "month"}, nil,
			`SELECT "order_date", "revenue" FROM`},
		// The reading's filter column is loaded too.
		{Trend, Params{Time: "order_date", Measure: "revenue", Period: "month"}, Params{Period: "month"},
			&Reading{Analysis: Trend, Time: "order_date", Grain: "month", Measures: []Measure{{Column: "revenue", Agg: "sum"}}, Filters: []Filter{{Column: "region", Op: "=", Values: []string{"North"}}}},
			`SELECT "order_date", "region", "revenue" FROM`},
		// Top-N picks region itself: the fewest distinct values.
		{TopN, Params{Category: "region", Measure: "revenue", N: 3}, Params{Measure: "revenue", N: 3}, nil,
			`SELECT "region", "revenue" FROM`},
		{TopN, Params{Category: "region"}, Params{}, nil, `SELECT "region" FROM`},
	} {
		d, _, err := runDuckDB(ctx, root, "input/orders.csv", mustLookup(t, c.template), c.named, "", c.reading)
		if err != nil {
			t.Fatalf("%s %+v: %v", c.template, c.named, err)
		}
		if !strings.Contains(d.sql[0], c.load) {
			t.Errorf("%s %+v loads with %q, want %q", c.template, c.named, d.sql[0], c.load)
		}
		if c.reading != nil {
			got, err := readingTableOn(ctx, d.src, d.view, *c.reading)
			if err != nil {
				t.Fatalf("reading table on the loaded columns: %v", err)
			}
			want, err := ReadingTable(ctx, root, "input/orders.csv", *c.reading)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("reading table on the loaded columns = %v, want %v", got, want)
			}
		}
		named := d.pre
		d.close()
		d, _, err = runDuckDB(ctx, root, "input/orders.csv", mustLookup(t, c.template), c.picked, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(d.sql[0], "SELECT * FROM") {
			t.Errorf("%s picking its own columns loads with %q, want every column", c.template, d.sql[0])
		}
		if !reflect.DeepEqual(named, d.pre) {
			t.Errorf("%s %+v: numbers on the loaded columns\n%v\nwant, as from every column,\n%v", c.template, c.named, named, d.pre)
		}
		d.close()
	}
}

// TestLoadColumnsNeedsEveryChoiceSettled: a template that picks a column
// itself reads every column, as the cell would look at every one.
func TestLoadColumnsNeedsEveryChoiceSettled(t *testing.T) {
	names := []string{"order_date", "region", "revenue"}
	for _, c := range []struct {
		template string
		p        Params
		reading  *Reading
		want     []string
	}{
		{Trend, Params{Time: "order_date"}, nil, nil},                            // the measure is picked
		{Trend, Params{Measure: "revenue"}, nil, nil},                            // the time column is picked
		{Trend, Params{Time: "order_date", Measure: "amount"}, nil, nil},         // no such column: the template says so
		{TopN, Params{Measure: "revenue"}, nil, nil},                             // the category is picked
		{TopN, Params{Category: "region", Aggregation: "mean"}, nil, nil},        // the measure is picked
		{Profile, Params{}, nil, nil},                                            // every column
		{TopN, Params{Category: "region"}, &Reading{Analysis: Correlation}, nil}, // the reading's own queries
		{ComparePeriods, Params{Time: "order_date", Measure: "revenue"}, nil, []string{"order_date", "revenue"}},
		{Trend, Params{Time: "order_date", Measure: "revenue", Category: "Region"}, nil, names},
	} {
		if got := loadColumns(c.template, c.p, c.reading, names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("loadColumns(%s, %+v) = %q, want %q", c.template, c.p, got, c.want)
		}
	}
}

// TestDuckDBReadsNumbersWithTextPastTheSample: a column of numbers with
// text past DuckDB's 20,480-row sample is read as text, as pandas reads
// it, with a note naming the column, line and value; its numbers are the
// other values'. Text in a date column past the sample is an error that
// names the column, line and value, not DuckDB's message.
func TestDuckDBReadsNumbersWithTextPastTheSample(t *testing.T) {
	root := t.TempDir()
	const rows, badRow = 30_000, 25_000
	writeOrders(t, root, "late.csv", rows, func(i int) (string, bool) { return "n/a", i == badRow })
	ctx := context.Background()
	for _, p := range []Params{
		{Category: "region", Measure: "revenue"}, // loads two columns
		{Measure: "revenue"},                     // loads every column, picks region
	} {
		d, _, err := runDuckDB(ctx, root, "input/late.csv", mustLookup(t, TopN), p, "", nil)
		if err != nil {
			t.Fatalf("top-N over a column with text past the sample: %v", err)
		}
		want := map[string]float64{}
		regions := []string{"North", "South", "East", "West"}
		for i := 0; i < rows; i++ {
			if i != badRow {
				want[regions[i%4]] += float64(i%997) * 0.25
			}
		}
		for _, g := range d.pre["groups"].([][]any) {
			if got := toFloat(g[1]); got != want[fmt.Sprint(g[0])] {
				t.Errorf("%v: sum %v, want %v", g[0], got, want[fmt.Sprint(g[0])])
			}
		}
		line := fmt.Sprint(badRow + 2) // the header is line 1
		if len(d.notes) != 1 || !strings.Contains(d.notes[0], "revenue") || !strings.Contains(d.notes[0], line) || !strings.Contains(d.notes[0], `"n/a"`) {
			t.Errorf("notes = %q, want one naming column revenue, line %s and \"n/a\"", d.notes, line)
		}
		d.close()
	}

	writeOrders(t, root, "baddate.csv", rows, noBad)
	b, _ := os.ReadFile(filepath.Join(root, "input", "baddate.csv"))
	lines := strings.Split(string(b), "\n")
	lines[badRow+1] = "soon" + lines[badRow+1][len("2023-01-01"):]
	os.WriteFile(filepath.Join(root, "input", "baddate.csv"), []byte(strings.Join(lines, "\n")), 0o644)
	_, _, err := runDuckDB(ctx, root, "input/baddate.csv", mustLookup(t, Trend), Params{Time: "order_date", Measure: "revenue"}, "", nil)
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("trend over a date column with text past the sample: %v, want a CellError", err)
	}
	for _, want := range []string{"order_date", fmt.Sprint(badRow + 2), `"soon"`, "date"} {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("message %q does not say %s", ce.Message, want)
		}
	}
	if strings.Contains(ce.Message, "Conversion Error") || strings.Contains(ce.Message, "Possible solutions") {
		t.Errorf("message %q is DuckDB's own", ce.Message)
	}
}
