package templates

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// shipmentsCSV is an event log of shipments between depots: every depot
// is both a source and a target.
func shipmentsCSV() []byte {
	var b strings.Builder
	b.WriteString("shipped,source,target,units\n")
	depots := []string{"Leeds", "York", "Hull"}
	for d := 1; d <= 60; d++ {
		fmt.Fprintf(&b, "2023-%02d-%02d,%s,%s,%d\n", 1+d%6, 1+d%27, depots[d%3], depots[(d+1)%3], 10+d)
	}
	return []byte(b.String())
}

// TestUnderstandValuesAndRows: a value found in two columns is taken from
// the column a direction word or a neighbouring column name points to,
// else refused; a value is named by its meaning in either language (男性,
// female for 女); a file's subject names its rows (quakes in
// quakes-5k.csv) and its one level column (population in
// population_by_age.csv).
func TestUnderstandValuesAndRows(t *testing.T) {
	ship := previewFile(t, "shipments-2023.csv", shipmentsCSV())
	var q strings.Builder
	q.WriteString("time,region,magnitude\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&q, "2020-%02d-%02d,%s,%d.%d\n", 1+i%4, 1+i%20, []string{"North", "South"}[i%2], 3+i%4, i%10)
	}
	quakes := previewFile(t, "quakes-5k.csv", []byte(q.String()))
	var pb strings.Builder
	pb.WriteString("年份,性别,人数\n")
	for y := 1980; y <= 2000; y += 5 {
		fmt.Fprintf(&pb, "%d,男,%d\n%d,女,%d\n", y, 100+y-1980, y, 90+y-1980)
	}
	pop := previewFile(t, "population_by_sex.csv", []byte(pb.String()))
	var sb strings.Builder
	sb.WriteString("date,airport,cost\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&sb, "20%02d-%02d-01,%s,%d\n", 10+i%3, 1+i%5, []string{"LHR", "CDG", "AMS"}[i%3], 100*i)
	}
	strikes := previewFile(t, "strikes.csv", []byte(sb.String()))
	var gb strings.Builder
	gb.WriteString("year,country,gdp\n")
	for y := 2000; y <= 2004; y++ {
		for i, c := range []string{"China", "India", "Japan"} {
			fmt.Fprintf(&gb, "%d,%s,%d\n", y, c, 100*(i+1)+y-2000)
		}
	}
	gdp := previewFile(t, "gdp.csv", []byte(gb.String()))
	var pm strings.Builder
	pm.WriteString("Date,PM25\n")
	for d := 1; d <= 28; d++ {
		fmt.Fprintf(&pm, "2021-%02d-%02d,%d.5\n", 1+d%3, d, 30+d)
	}
	pm25 := previewFile(t, "pm25-concentration.csv", []byte(pm.String()))
	dis := previewFile(t, "disasters.csv", disastersCSV())
	var tb strings.Builder
	tb.WriteString("start,zone,fare\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&tb, "2001/%02d/%02d %02d:15,%s,%d.5\n", 1+i%3, 1+i%5, 8, []string{"A", "B"}[i%2], 5+i)
	}
	trips := previewFile(t, "trips-2k.csv", []byte(tb.String()))
	tests := []struct {
		file    *preview.FilePreview
		request string
		want    *Reading // nil: refused
	}{
		{ship, "total units by target for shipments from Leeds", &Reading{Analysis: TopN, Measures: []Measure{{"units", "sum"}}, GroupBy: []string{"target"}, Order: "desc", Filters: []Filter{{"source", "=", []string{"Leeds"}}}}},
		{ship, "total units to Leeds per month", &Reading{Analysis: Trend, Measures: []Measure{{"units", "sum"}}, Time: "shipped", Grain: "month", Filters: []Filter{{"target", "=", []string{"Leeds"}}}}},
		{ship, "total units per month for target Hull", &Reading{Analysis: Trend, Measures: []Measure{{"units", "sum"}}, Time: "shipped", Grain: "month", Filters: []Filter{{"target", "=", []string{"Hull"}}}}},
		{ship, "total units by source for York", nil},
		{ship, "2 targets with the lowest total units", &Reading{Analysis: TopN, Measures: []Measure{{"units", "sum"}}, GroupBy: []string{"target"}, Order: "asc", N: 2}},
		{quakes, "number of quakes per month", &Reading{Analysis: Trend, Time: "time", Grain: "month", RowIs: "quake"}},
		{strikes, "每年的撞击次数", &Reading{Analysis: Trend, Time: "date", Grain: "year", RowIs: "strike"}},
		{strikes, "撞击次数最多的机场", &Reading{Analysis: TopN, GroupBy: []string{"airport"}, Order: "desc", RowIs: "strike"}},
		{gdp, "中国每年的gdp", &Reading{Analysis: Trend, Measures: []Measure{{"gdp", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"country", "=", []string{"China"}}}}},
		{pm25, "每月平均PM25浓度", &Reading{Analysis: Trend, Measures: []Measure{{"PM25", "mean"}}, Time: "Date", Grain: "month"}},
		{dis, "每种类型的灾害数量", nil},
		{trips, "compare average fare in 2001 with 2000", nil},
		{trips, "2001年和2000年的平均fare对比", nil},
		{trips, "number of trips per month", &Reading{Analysis: Trend, Time: "start", Grain: "month", RowIs: "trip"}},
		{trips, "average trip time by zone", nil},
		{pop, "每年女性人数", &Reading{Analysis: Trend, Measures: []Measure{{"人数", "sum"}}, Time: "年份", Grain: "year", Filters: []Filter{{"性别", "=", []string{"女"}}}}},
		{pop, "male population per year", &Reading{Analysis: Trend, Measures: []Measure{{"人数", "sum"}}, Time: "年份", Grain: "year", Filters: []Filter{{"性别", "=", []string{"男"}}}}},
		{pop, "1990年及以后每年的总人口", &Reading{Analysis: Trend, Measures: []Measure{{"人数", "sum"}}, Time: "年份", Grain: "year", Filters: []Filter{{"年份", ">=", []string{"1990"}}}}},
		{pop, "按性别统计总人口", nil},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.file})
			if tt.want == nil {
				if ok {
					t.Fatalf("answered %+v (%s); want a refusal", r, r.Text(LangOf(tt.request)))
				}
				return
			}
			if !ok {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			if diff := cmp.Diff(*tt.want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
		})
	}
}

// valuesPricesCSV is a small price table: three tickers over two years,
// with a region that some rows leave blank.
const valuesPricesCSV = `symbol,date,price,region
AMZN,2020-01-01,100,US
AMZN,2020-06-01,110,US
AMZN,2021-01-01,130,EU
AMZN,2021-06-01,150,
AAPL,2020-01-01,70,US
AAPL,2020-06-01,75,EU
AAPL,2021-01-01,80,EU
AAPL,2021-06-01,95,US
MSFT,2020-01-01,150,US
MSFT,2020-06-01,160,
MSFT,2021-01-01,210,EU
MSFT,2021-06-01,230,US
`

// TestUnderstandValuesByMeaningExcludedAndVersus: a value named by its
// meaning ("amazon" for AMZN, 苹果 for AAPL, "nuclear" for Nuclear
// Energy, 洛杉矶（LAX）), excluded ("excluding MSFT", 除了…以外, 不含) or
// set against another ("AMZN vs MSFT", 亚马逊和微软…对比) is read into the
// filter, shown in the reading's first line in both languages, and acted
// on by the computation, with the numbers pandas gives:
//
//	df[df.symbol == "AMZN"].groupby(year).price.mean()
//	df[df.symbol != "MSFT"].groupby("symbol").price.mean()
//	df[~df.symbol.isin(["AAPL", "MSFT"])].groupby("symbol").price.mean()
//	df[df.region != "EU"].groupby("symbol").price.mean()   (blank regions kept)
//	df[df.symbol.isin(["AMZN", "MSFT"])].groupby("symbol").price.mean()
//
// A word two values fit, a value next to no exclusion word, or values set
// against each other beside another grouping is refused.
func TestUnderstandValuesByMeaningExcludedAndVersus(t *testing.T) {
	root := writeInput(t, "prices.csv", []byte(valuesPricesCSV))
	prices, err := preview.File(context.Background(), filepath.Join(root, "input", "prices.csv"), preview.Options{BaseDir: root})
	if err != nil {
		t.Fatal(err)
	}
	var eb strings.Builder
	eb.WriteString("year,source,generation\n")
	for y := 2001; y <= 2004; y++ {
		fmt.Fprintf(&eb, "%d,Fossil Fuels,%d\n%d,Nuclear Energy,%d\n%d,Renewables,%d\n", y, 100+y, y, 50+y, y, 10+y)
	}
	energy := previewFile(t, "iowa-energy.csv", []byte(eb.String()))
	var fb strings.Builder
	fb.WriteString("date,origin,delay\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&fb, "2001-%02d-%02d,%s,%d\n", 1+i%3, 1+i%28, []string{"LAX", "BUR", "SEA"}[i%3], i)
	}
	flights := previewFile(t, "flights.csv", []byte(fb.String()))
	tickers := previewFile(t, "tickers.csv", []byte("symbol,price\nGOOG,1\nGOOGL,2\nMSFT,3\nGOOG,4\n"))
	var cb strings.Builder
	cb.WriteString("year,country,pop\n")
	for y := 2000; y <= 2003; y++ {
		fmt.Fprintf(&cb, "%d,New Zealand,%d\n%d,Burkina Faso,%d\n", y, 4000+y, y, 12000+y)
	}
	countries := previewFile(t, "countries.csv", []byte(cb.String()))
	tests := []struct {
		file    *preview.FilePreview
		request string
		want    *Reading // nil: refused
		line    string   // in the reading's first line (in the refusal, for a refusal)
		rows    [][]any  // pandas' numbers, for a file with rows
	}{
		{prices, "avg price per year for amazon", &Reading{Analysis: Trend, Measures: []Measure{{"price", "mean"}}, Time: "date", Grain: "year", Filters: []Filter{{"symbol", "=", []string{"AMZN"}}}},
			"where symbol is AMZN", [][]any{{"2020", 105.0}, {"2021", 140.0}}},
		{prices, "average price by symbol excluding MSFT", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"symbol", "!=", []string{"MSFT"}}}},
			"excluding MSFT (symbol)", [][]any{{"AMZN", 122.5}, {"AAPL", 80.0}}},
		{prices, "average price by symbol other than AAPL and MSFT", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"symbol", "!=", []string{"AAPL", "MSFT"}}}},
			"excluding AAPL and MSFT (symbol)", [][]any{{"AMZN", 122.5}}},
		{prices, "average price by symbol, except EU", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"region", "!=", []string{"EU"}}}},
			"excluding EU (region)", [][]any{{"MSFT", 180.0}, {"AMZN", 120.0}, {"AAPL", 82.5}}},
		{prices, "除了苹果以外，各股票的平均价格", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"symbol", "!=", []string{"AAPL"}}}},
			"不含 AAPL（symbol）", nil},
		{prices, "不含微软，各股票的平均价格", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"symbol", "!=", []string{"MSFT"}}}},
			"不含 MSFT（symbol）", [][]any{{"AMZN", 122.5}, {"AAPL", 80.0}}},
		{prices, "AMZN vs MSFT: average price", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"symbol", "=", []string{"AMZN", "MSFT"}}}},
			"where symbol is AMZN or MSFT", [][]any{{"MSFT", 187.5}, {"AMZN", 122.5}}},
		{prices, "亚马逊和微软的平均价格对比", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", Filters: []Filter{{"symbol", "=", []string{"AMZN", "MSFT"}}}},
			"symbol 为 AMZN、MSFT", [][]any{{"MSFT", 187.5}, {"AMZN", 122.5}}},
		{prices, "AMZN vs MSFT average price by region", nil, "", nil},
		{prices, "average price excluding weekends", nil, "", nil},
		{prices, "average price by region for AMZN excluding MSFT", nil, "", nil},
		{prices, "summary of AMZN prices", nil, "", nil},
		{energy, "nuclear generation per year", &Reading{Analysis: Trend, Measures: []Measure{{"generation", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"source", "=", []string{"Nuclear Energy"}}}}, "", nil},
		{energy, "total energy per year", nil, "", nil},
		{energy, "total generation per year without renewables", &Reading{Analysis: Trend, Measures: []Measure{{"generation", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"source", "!=", []string{"Renewables"}}}}, "", nil},
		{flights, "从洛杉矶（LAX）出发的航班每月平均延误", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "mean"}}, Time: "date", Grain: "month", Filters: []Filter{{"origin", "=", []string{"LAX"}}}}, "", nil},
		{flights, "从洛杉矶出发的航班每月平均延误", nil, "", nil},
		{flights, "从西雅图出发的航班每月平均延误", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "mean"}}, Time: "date", Grain: "month", Filters: []Filter{{"origin", "=", []string{"SEA"}}}}, "", nil},
		{tickers, "average price for google", nil, "could be any of GOOG, GOOGL: say which", nil},
		{countries, "burkina population per year", &Reading{Analysis: Trend, Measures: []Measure{{"pop", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"country", "=", []string{"Burkina Faso"}}}}, "", nil},
		{countries, "new population per year", nil, "", nil},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced", "RowIs"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.file})
			if tt.want == nil {
				if ok {
					t.Fatalf("answered %+v (%s); want a refusal", r, r.Text(LangOf(tt.request)))
				}
				if !strings.Contains(why, tt.line) {
					t.Errorf("refusal %q does not say %q", why, tt.line)
				}
				return
			}
			if !ok {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			if diff := cmp.Diff(*tt.want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
			if line := r.Text(LangOf(tt.request)); !strings.Contains(line, tt.line) {
				t.Errorf("reading line %q does not say %q", line, tt.line)
			}
			if tt.rows == nil {
				return
			}
			tab, err := ReadingTable(context.Background(), root, "input/prices.csv", r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.rows, tab.Rows); diff != "" {
				t.Errorf("rows (-pandas +got):\n%s", diff)
			}
		})
	}
}

// TestUnderstandIndustriesInChineseAndYearsVersus: the glossary's
// Chinese names of industries name the columns and values the data
// writes in English (信息业 information, 批发业 wholesale_trade, 休闲和酒店业
// leisure_and_hospitality, 教育医疗 education_and_health_services, 山体滑坡
// Landslide); a value named by meaning filters periods compared.
func TestUnderstandIndustriesInChineseAndYearsVersus(t *testing.T) {
	var eb strings.Builder
	eb.WriteString("year,source,generation\n")
	for y := 2001; y <= 2004; y++ {
		fmt.Fprintf(&eb, "%d,Fossil Fuels,%d\n%d,Nuclear Energy,%d\n%d,Renewables,%d\n", y, 100+y, y, 50+y, y, 10+y)
	}
	energy := previewFile(t, "iowa-energy.csv", []byte(eb.String()))
	var jb strings.Builder
	jb.WriteString("month,information,wholesale_trade,retail_trade,leisure_and_hospitality,education_and_health_services\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&jb, "20%02d-%02d-01,%d,%d,%d,%d,%d\n", 10+i/12, 1+i%12, 100+i, 200+i*i%7, 300+i%5, 400+i, 500+2*i)
	}
	jobs := previewFile(t, "us-employment.csv", []byte(jb.String()))
	var db strings.Builder
	db.WriteString("Entity,Year,Deaths\n")
	for y := 2000; y <= 2005; y++ {
		fmt.Fprintf(&db, "Landslide,%d,%d\nFlood,%d,%d\n", y, 10*y%97, y, 20*y%89)
	}
	dis := previewFile(t, "disasters.csv", []byte(db.String()))
	tests := []struct {
		file    *preview.FilePreview
		request string
		want    *Reading
	}{
		{energy, "nuclear generation: 2002 vs 2004", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"generation", "sum"}}, Time: "year", Grain: "year", Periods: []string{"2002", "2004"}, Filters: []Filter{{"source", "=", []string{"Nuclear Energy"}}}}},
		{jobs, "信息业和批发业就业的相关性", &Reading{Analysis: Correlation, Measures: []Measure{{"information", ""}, {"wholesale_trade", ""}}, Columns: []string{"information", "wholesale_trade"}}},
		{jobs, "休闲和酒店业就业人数的分布", &Reading{Analysis: Distribution, Measures: []Measure{{"leisure_and_hospitality", ""}}, Columns: []string{"leisure_and_hospitality"}}},
		{jobs, "按季度看平均教育医疗就业", &Reading{Analysis: Trend, Measures: []Measure{{"education_and_health_services", "mean"}}, Time: "month", Grain: "quarter"}},
		{dis, "山体滑坡每年的死亡人数", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{{"Entity", "=", []string{"Landslide"}}}}},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced", "RowIs"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.file})
			if !ok {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			if diff := cmp.Diff(*tt.want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
		})
	}
}
