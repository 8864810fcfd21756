package templates

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// textDatesCSV has dates written as "Jan 1 2000", which DuckDB's cast
// does not read.
var textDatesCSV = []byte("symbol,date,price\nMSFT,Jan 1 2000,39.81\nMSFT,Feb 1 2000,36.35\nMSFT,Jan 1 2001,30.5\nIBM,Jan 1 2000,100.52\nIBM,Mar 1 2001,92.11\n")

// datesIn writes the same rows as textDatesCSV's, over three years, with
// each date written by layout.
func datesIn(layout func(y, m, d int) string) []byte {
	var b strings.Builder
	b.WriteString("symbol,date,price\n")
	for i := 0; i < 36; i++ {
		y, m, d := 2000+i/12, i%12+1, 1+(i*7)%28
		for k, s := range []string{"MSFT", "IBM"} {
			fmt.Fprintf(&b, "%s,%q,%.2f\n", s, layout(y, m, d), 30+float64((i*13+k*7)%41)*0.37)
		}
	}
	return []byte(b.String())
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// TestDuckDBTextDatesSameAsPandas: a pivot by year on a time column of
// such text was refused on DuckDB ("the time column's values are not
// dates DuckDB reads") and ran on pandas. DuckDB now reads each layout
// pandas reads the same way, and gives pandas' numbers.
func TestDuckDBTextDatesSameAsPandas(t *testing.T) {
	pythonOrSkip(t)
	layouts := []func(y, m, d int) string{
		func(y, m, d int) string { return fmt.Sprintf("%s %d %d", monthNames[m-1][:3], d, y) },
		func(y, m, d int) string { return fmt.Sprintf("%s %d, %d", monthNames[m-1], d, y) },
		func(y, m, d int) string {
			return fmt.Sprintf("%s %d, %d %d:%02d", monthNames[m-1][:3], d, y, d%24, m*4)
		},
		func(y, m, d int) string { return fmt.Sprintf("%d %s %d", d, monthNames[m-1][:3], y) },
		func(y, m, d int) string { return fmt.Sprintf("%02d-%s-%d", d, monthNames[m-1][:3], y) },
		func(y, m, d int) string { return fmt.Sprintf("%s %d", monthNames[m-1][:3], y) },
		func(y, m, d int) string { return fmt.Sprintf("%s-%d", monthNames[m-1][:3], y) },
		func(y, m, d int) string { return fmt.Sprintf("%s %d", monthNames[m-1], y) },
		func(y, m, d int) string { return fmt.Sprintf("%d-%02d", y, m) },
		func(y, m, d int) string { return fmt.Sprintf("%d/%d/%d", m, d, y) },
		func(y, m, d int) string { return fmt.Sprintf("%02d/%02d/%d %02d:%02d", m, d, y, d%24, m*4) },
		func(y, m, d int) string { return fmt.Sprintf("%d/%d/%d %02d:%02d:%02d", m, d, y, d%24, m*4, d) },
		func(y, m, d int) string { return fmt.Sprintf("%d/%02d/%02d", y, m, d) },
		func(y, m, d int) string { return fmt.Sprintf("%d/%02d/%02d %02d:%02d", y, m, d, d%24, m*4) },
		func(y, m, d int) string { return fmt.Sprintf("%d/%d/%d %d:%02d:%02d", y, m, d, d%24, m*4, d) },
		func(y, m, d int) string { return fmt.Sprintf("%d.%d.%d", m, d, y) },
		func(y, m, d int) string { return fmt.Sprintf("%d.%02d.%02d", y, m, d) },
		func(y, m, d int) string { return fmt.Sprintf("%d年%d月%d日", y, m, d) },
		func(y, m, d int) string { return fmt.Sprintf("%d年%d月%d", y, m, d) },
		func(y, m, d int) string { return fmt.Sprintf("%d年%02d月", y, m) },
	}
	n := 0
	files := map[string][]byte{
		"stocks.csv": textDatesCSV,
		"mon.csv":    datesIn(layouts[0]),
		"zh.csv":     datesIn(layouts[17]),
		// Every layout, each row in the next.
		"all.csv": datesIn(func(y, m, d int) string { n++; return layouts[n%len(layouts)](y, m, d) }),
	}
	op := workspace(t, files)
	pivot := Match{Template: Pivot, Params: Params{Category: "symbol", Time: "date", Period: "year", Measure: "price", Aggregation: "mean"}}
	for name := range files {
		t.Run(name+"/pivot", func(t *testing.T) { sameAsPandas(t, op, "input/"+name, pivot) })
	}
	// Each day as read.
	for _, m := range []Match{
		{Template: Trend, Params: Params{Time: "date", Period: "day", Measure: "price"}},
		{Template: ComparePeriods, Params: Params{Time: "date", Measure: "price", Compare: "yoy"}},
	} {
		t.Run("all.csv/"+m.Template, func(t *testing.T) { sameAsPandas(t, op, "input/all.csv", m) })
	}
}

// TestDuckDBRefusesDatesInNoLayout: dates of a layout the engine does not
// read ("01/02/99", whose century pandas takes from today) are still refused,
// rather than cast to nothing, and Run answers on pandas.
func TestDuckDBRefusesDatesInNoLayout(t *testing.T) {
	op := pythonless(t, map[string][]byte{"stocks.csv": []byte("symbol,date,price\nMSFT,Jan 1 2000,39.81\nMSFT,01/02/99,36.35\nIBM,Jan 1 2001,30.5\n")})
	m := Match{Template: Pivot, Params: Params{Category: "symbol", Time: "date", Period: "year", Measure: "price", Aggregation: "mean"}}
	_, err := RunWith(context.Background(), op, "input/stocks.csv", m, RunOptions{Engine: EngineDuckDB})
	var ce *CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, duckUnreadDates) || !duckCannotRead(err) {
		t.Errorf("err = %v, want the dates refused", err)
	}
}

// TestTextDatesAnsweredOnDuckDB: with the engine left to Run, such a
// file is answered by DuckDB, with the real averages.
func TestTextDatesAnsweredOnDuckDB(t *testing.T) {
	op := pythonless(t, map[string][]byte{"stocks.csv": textDatesCSV})
	r, err := Run(context.Background(), op, "input/stocks.csv", Match{Template: Pivot, Params: Params{Category: "symbol", Time: "date", Period: "year", Measure: "price", Aggregation: "mean"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Engine != EngineDuckDB {
		t.Errorf("engine = %s, want duckdb", r.Engine)
	}
	// MSFT 2000: (39.81+36.35)/2 = 38.08, shown 38.1; IBM 2001: 92.11.
	if md := r.Markdown(); !strings.Contains(md, "| MSFT | 38.1 | 30.50 |") || !strings.Contains(md, "| IBM | 100.5 | 92.11 |") {
		t.Errorf("the pivot lacks the yearly averages:\n%s", md)
	}
}
