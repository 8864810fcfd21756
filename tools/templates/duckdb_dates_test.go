package templates

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// textDatesCSV has dates written as "Jan 1 2000", which DuckDB neither
// detects nor casts.
var textDatesCSV = []byte("symbol,date,price\nMSFT,Jan 1 2000,39.81\nMSFT,Feb 1 2000,36.35\nMSFT,Jan 1 2001,30.5\nIBM,Jan 1 2000,100.52\nIBM,Mar 1 2001,92.11\n")

// TestDuckDBRefusesDatesItDoesNotRead: a pivot by year on a time column
// of such text gave an empty table reported as an answer ("by symbol (0)
// and date (year) (0)"): each date cast to nothing. The DuckDB engine
// now says the dates are not ones it reads, and does not answer.
func TestDuckDBRefusesDatesItDoesNotRead(t *testing.T) {
	op := pythonless(t, map[string][]byte{"stocks.csv": textDatesCSV})
	for _, m := range []Match{
		{Template: Pivot, Params: Params{Category: "symbol", Time: "date", Period: "year", Measure: "price", Aggregation: "mean"}},
		{Template: Trend, Params: Params{Time: "date", Period: "year", Measure: "price", Aggregation: "mean"}},
	} {
		_, err := RunWith(context.Background(), op, "input/stocks.csv", m, RunOptions{Engine: EngineDuckDB})
		var ce *CellError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, duckUnreadDates) || !duckCannotRead(err) {
			t.Errorf("%s: err = %v, want the dates refused", m.Template, err)
		}
	}
}

// TestTextDatesAnsweredByPandas: with the engine left to Run, such a
// file is answered by pandas, which reads the dates: the real averages.
func TestTextDatesAnsweredByPandas(t *testing.T) {
	pythonOrSkip(t)
	op := workspace(t, map[string][]byte{"stocks.csv": textDatesCSV})
	r, err := Run(context.Background(), op, "input/stocks.csv", Match{Template: Pivot, Params: Params{Category: "symbol", Time: "date", Period: "year", Measure: "price", Aggregation: "mean"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Engine != EnginePandas {
		t.Errorf("engine = %s, want pandas", r.Engine)
	}
	// MSFT 2000: (39.81+36.35)/2 = 38.08, shown 38.1; IBM 2001: 92.11.
	if md := r.Markdown(); !strings.Contains(md, "| MSFT | 38.1 | 30.50 |") || !strings.Contains(md, "| IBM | 100.5 | 92.11 |") {
		t.Errorf("the pivot lacks the yearly averages:\n%s", md)
	}
}
