package templates

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// twoTables are small tables for requests of two measures: daily
// weather over two years, cars by origin, prices by symbol, and costs by
// species.
func twoTables(t *testing.T) (weather, cars, stocks, costs *preview.FilePreview, data map[string][]byte) {
	data = map[string][]byte{}
	var wb strings.Builder
	wb.WriteString("date,temp_max,temp_min,precipitation,weather\n")
	for d := 0; d < 40; d++ {
		fmt.Fprintf(&wb, "%d-%02d-%02d,%d.5,%d,%d,%s\n", 2014+d/20, 1+d%20/2, 1+d%2*10, 10+d%7, d*d%11, d%3, []string{"sun", "rain"}[d%2])
	}
	data["weather.csv"] = []byte(wb.String())
	data["cars.csv"] = []byte("name,origin,cylinders,horsepower,weight\n" +
		"a,USA,8,130,3500\nb,USA,6,100,3000\nc,Japan,4,70,2000\nd,Japan,4,90,2400\ne,Europe,4,80,2200\nf,Europe,6,110,2900\n")
	data["stocks.csv"] = []byte("symbol,date,price\n" +
		"AAA,2020-01-01,10\nAAA,2020-02-01,14\nAAA,2021-01-01,12\nBBB,2020-01-01,50\nBBB,2020-02-01,40\nBBB,2021-01-01,45\nCCC,2020-01-01,5\nCCC,2021-01-01,7\n")
	data["costs.csv"] = []byte("species,region,cost,revenue\n" +
		"gull,north,100,150\ngull,south,300,200\nhawk,north,50,80\nhawk,north,70,60\nhawk,south,90,40\ngoose,south,400,500\n")
	var mb strings.Builder
	mb.WriteString("team,score\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&mb, "t%02d,%d\n", i%12, i)
	}
	data["teams.csv"] = []byte(mb.String())
	weather = previewFile(t, "weather.csv", data["weather.csv"])
	cars = previewFile(t, "cars.csv", data["cars.csv"])
	stocks = previewFile(t, "stocks.csv", data["stocks.csv"])
	costs = previewFile(t, "costs.csv", data["costs.csv"])
	return
}

// TestUnderstandTwoMeasures: two measures, or two aggregations of one
// column, said as a list ("and", a comma, "as well as", "both … and",
// 和, 与, 、) are read as the measures of a trend or of a grouping, each
// with its own aggregation; joined by anything else (a slash, vs, per,
// to, ratio) they ask for a figure made of them and are refused, as are
// the built-ins whose answer follows one measure (a ranking, a pivot, a
// comparison with the period before). A list of values or of groupings
// is not a list of measures.
func TestUnderstandTwoMeasures(t *testing.T) {
	weather, cars, stocks, costs, _ := twoTables(t)
	temps := &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}, {"temp_min", "mean"}}, Time: "date", Grain: "year"}
	carsBy := &Reading{Analysis: TopN, Measures: []Measure{{"horsepower", "mean"}, {"weight", "mean"}}, GroupBy: []string{"origin"}}
	priceMinMax := &Reading{Analysis: TopN, Measures: []Measure{{"price", "min"}, {"price", "max"}}, GroupBy: []string{"symbol"}}
	costSumMean := &Reading{Analysis: TopN, Measures: []Measure{{"cost", "sum"}, {"cost", "mean"}}, GroupBy: []string{"species"}}
	runNovelCases(t, []novelCase{
		// Two columns, each with its aggregation.
		{weather, "avg high and avg low temperature per year", temps},
		{weather, "average temp_max and temp_min per year", temps},
		{weather, "average temp_max as well as average temp_min by year", temps},
		{weather, "平均最高气温和平均最低气温，按年", temps},
		{weather, "每年的平均最高气温与平均最低气温", temps},
		{weather, "total precipitation and average temp_max per year", &Reading{Analysis: Trend, Measures: []Measure{{"precipitation", "sum"}, {"temp_max", "mean"}}, Time: "date", Grain: "year"}},
		{cars, "avg horsepower and avg weight per origin", carsBy},
		{cars, "avg horsepower, avg weight by origin", carsBy},
		{cars, "both avg horsepower and avg weight by origin", carsBy},
		{cars, "各产地的平均马力和平均重量", carsBy},
		{cars, "各产地的平均马力、平均重量", carsBy},
		// Two aggregations of one column.
		{stocks, "min and max price per symbol", priceMinMax},
		{stocks, "minimum and maximum of price by symbol", priceMinMax},
		{stocks, "max and min of price by symbol", &Reading{Analysis: TopN, Measures: []Measure{{"price", "max"}, {"price", "min"}}, GroupBy: []string{"symbol"}}},
		{costs, "total and average cost by species", costSumMean},
		{costs, "total cost and average cost by species", costSumMean},
		{costs, "各species的cost总和与平均值", costSumMean},
		// The highest and the lowest of a measure, each per group.
		{stocks, "各年份的最高价和最低价", &Reading{Analysis: Trend, Measures: []Measure{{"price", "max"}, {"price", "min"}}, Time: "date", Grain: "year"}},
		{stocks, "每只股票的最高价和最低价", &Reading{Analysis: TopN, Measures: []Measure{{"price", "max"}, {"price", "min"}}, GroupBy: []string{"symbol"}}},
		{stocks, "highest and lowest price per symbol", &Reading{Analysis: TopN, Measures: []Measure{{"price", "max"}, {"price", "min"}}, GroupBy: []string{"symbol"}}},
		{stocks, "symbols with the highest and lowest price", nil},
		// "max temperature" names temp_max: "max and min temperature" is
		// temp_max and temp_min, not the maximum of temp_min.
		{weather, "max and min temperature per year", temps},
		{weather, "min and max temperature by month", &Reading{Analysis: Trend, Measures: []Measure{{"temp_min", "mean"}, {"temp_max", "mean"}}, Time: "date", Grain: "month"}},
		{cars, "avg horsepower as avg weight per origin", nil},
		// "high and low" alone: the columns of maxima and minima, not the
		// minimum of the highs.
		{weather, "daily high and low", &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}, {"temp_min", "mean"}}, Time: "date", Grain: "day"}},
		{weather, "highs and lows per month", &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}, {"temp_min", "mean"}}, Time: "date", Grain: "month"}},
		// The aggregation of the first measure is not said.
		{costs, "cost and avg revenue by species", nil},
		// A figure made of two measures: refused.
		{cars, "horsepower/weight per origin", nil},
		{cars, "horsepower vs weight by origin", nil},
		{cars, "ratio of horsepower and weight per origin", nil},
		{cars, "horsepower to weight ratio per origin", nil},
		{cars, "马力和重量的比值，按产地", nil},
		{costs, "cost and revenue ratio by species", nil},
		{costs, "combined cost and revenue by species", nil},
		{costs, "difference between cost and revenue by species", nil},
		// A built-in that follows one measure: refused.
		{cars, "top 2 origins by avg horsepower and avg weight", nil},
		{cars, "avg horsepower and avg weight by origin and cylinders", nil},
		{weather, "temp_max and temp_min year over year", nil},
		{weather, "avg temp_max and avg temp_min per year by weather", nil},
		// Not two measures.
		{weather, "correlation of temp_max and temp_min", &Reading{Analysis: Correlation, Measures: []Measure{{"temp_max", ""}, {"temp_min", ""}}, Columns: []string{"temp_max", "temp_min"}}},
		{cars, "average horsepower by origin and cylinders", &Reading{Analysis: Pivot, Measures: []Measure{{"horsepower", "mean"}}, GroupBy: []string{"origin", "cylinders"}}},
		{cars, "average horsepower by origin for USA and Japan", &Reading{Analysis: TopN, Measures: []Measure{{"horsepower", "mean"}}, GroupBy: []string{"origin"}, Filters: []Filter{{"origin", "=", []string{"USA", "Japan"}}}}},
	})
}

// TestTwoMeasuresTextNamesEach: the first line of a reading of two
// measures names each with its aggregation, in English and Chinese.
func TestTwoMeasuresTextNamesEach(t *testing.T) {
	_, _, stocks, _, _ := twoTables(t)
	for _, tc := range []struct{ request, want string }{
		{"min and max price per symbol", "Minimum of price and maximum of price per symbol"},
		{"各symbol的price的最小值和最大值", "price 的最小值和 price 的最大值"},
	} {
		r, ok, why := Understand(tc.request, []*preview.FilePreview{stocks})
		if !ok {
			t.Errorf("%q refused: %s", tc.request, why)
			continue
		}
		if got := r.Text(LangOf(tc.request)); !strings.Contains(got, tc.want) {
			t.Errorf("%q reads %q, want it to name %q", tc.request, got, tc.want)
		}
	}
}

// TestRunTwoMeasures runs requests of two measures end to end: the
// answer's table holds each measure with its own numbers, and its first
// line and headline name each.
func TestRunTwoMeasures(t *testing.T) {
	weather, cars, stocks, _, data := twoTables(t)
	teams := previewFile(t, "teams.csv", data["teams.csv"])
	op := workspace(t, data)
	ctx := context.Background()
	for _, tc := range []struct {
		file    *preview.FilePreview
		request string
		columns []string
		rows    [][]any
		says    []string
	}{
		{stocks, "min and max price per symbol", []string{"symbol", "price (min)", "price (max)"},
			[][]any{{"BBB", 40.0, 50.0}, {"AAA", 10.0, 14.0}, {"CCC", 5.0, 7.0}},
			[]string{"Minimum of price and maximum of price per symbol", "Minimum of price: highest BBB (40), lowest CCC (5); Maximum of price: highest BBB (50), lowest CCC (7); 3 rows."}},
		{cars, "avg horsepower and avg weight per origin", []string{"origin", "horsepower", "weight"},
			[][]any{{"USA", 115.0, 3250.0}, {"Europe", 95.0, 2550.0}, {"Japan", 80.0, 2200.0}},
			[]string{"Average of horsepower and average of weight per origin", "Average of weight: highest USA (3250), lowest Japan (2200)"}},
		// No ranking asked: every group, not the first 10.
		{teams, "min and max score per team", []string{"team", "score (min)", "score (max)"}, teamRows(),
			[]string{"Minimum of score and maximum of score per team", "12 rows."}},
		{weather, "avg high and avg low temperature per year", []string{"year", "temp_max", "temp_min"}, nil,
			[]string{"Average of temp_max and average of temp_min per calendar year"}},
	} {
		m := MatchRequest(tc.request, []*preview.FilePreview{tc.file})
		if !m.OK() {
			t.Errorf("%q: no match: %v", tc.request, m.Reasons)
			continue
		}
		res, err := RunWith(ctx, op, tc.file.Name, m, RunOptions{})
		if err != nil {
			t.Errorf("%q: run: %v", tc.request, err)
			continue
		}
		if res.Table == nil || strings.Join(res.Table.Columns, "|") != strings.Join(tc.columns, "|") {
			t.Errorf("%q: table %+v, want columns %q", tc.request, res.Table, tc.columns)
			continue
		}
		rows := tc.rows
		if rows == nil {
			// The yearly means, from the data.
			rows = yearlyMeans(data["weather.csv"])
		}
		if !sameRows(res.Table.Rows, rows) {
			t.Errorf("%q: rows %v, want %v", tc.request, res.Table.Rows, rows)
		}
		for _, s := range tc.says {
			if !strings.Contains(res.Answer, s) {
				t.Errorf("%q: answer %q does not say %q", tc.request, res.Answer, s)
			}
		}
	}
}

// teamRows are the teams table's minimum and maximum score per team,
// highest minimum first.
func teamRows() [][]any {
	var out [][]any
	for i := 11; i >= 0; i-- {
		out = append(out, []any{fmt.Sprintf("t%02d", i), float64(i), float64(i + 12)})
	}
	return out
}

// yearlyMeans are the weather table's mean temp_max and temp_min per
// year.
func yearlyMeans(csv []byte) [][]any {
	type acc struct{ hi, lo, n float64 }
	by := map[string]*acc{}
	var years []string
	for _, line := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
		f := strings.Split(line, ",")
		y := f[0][:4]
		if by[y] == nil {
			by[y] = &acc{}
			years = append(years, y)
		}
		var hi, lo float64
		fmt.Sscan(f[1], &hi)
		fmt.Sscan(f[2], &lo)
		by[y].hi += hi
		by[y].lo += lo
		by[y].n++
	}
	var out [][]any
	for _, y := range years {
		out = append(out, []any{y, by[y].hi / by[y].n, by[y].lo / by[y].n})
	}
	return out
}

func sameRows(got, want [][]any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return false
		}
		for j := range got[i] {
			g, gok := got[i][j].(float64)
			w, wok := want[i][j].(float64)
			if gok != wok || gok && math.Abs(g-w) > 1e-9 || !gok && fmt.Sprint(got[i][j]) != fmt.Sprint(want[i][j]) {
				return false
			}
		}
	}
	return true
}
