package templates

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sift-agent/sift/preview"
)

// countsTables are small tables of the shapes behind the counts a
// reading must place: individuals of a kind (penguins.json), items named
// by a synonym of the file's name (cars.json), events with dates
// (birdstrikes.csv, flights.json), one row a day (weather.csv), prices
// per symbol (stocks.csv), and shops with one column of kinds.
type countsTables struct {
	penguins, cars, strikes, flights, weather, stocks, shops, twoKinds *preview.FilePreview
	penguinsRoot                                                       string
}

func newCountsTables(t *testing.T) countsTables {
	t.Helper()
	var ct countsTables
	var pb strings.Builder
	pb.WriteString("[")
	islands := []string{"Biscoe", "Dream", "Torgersen"}
	species := []string{"Adelie", "Gentoo", "Chinstrap"}
	for i := 0; i < 30; i++ {
		if i > 0 {
			pb.WriteString(",")
		}
		// Torgersen has Adelie only; Biscoe Adelie and Gentoo; Dream all three.
		isl := islands[i%3]
		sp := species[0]
		switch {
		case isl == "Biscoe" && i%2 == 0:
			sp = species[1]
		case isl == "Dream":
			sp = species[i%9/3]
		}
		fmt.Fprintf(&pb, `{"Species":%q,"Island":%q,"Body Mass (g)":%d}`, sp, isl, 3000+10*i)
	}
	pb.WriteString("]")
	ct.penguinsRoot = writeInput(t, "penguins.json", []byte(pb.String()))
	fp, err := preview.File(context.Background(), filepath.Join(ct.penguinsRoot, "input", "penguins.json"), preview.Options{BaseDir: ct.penguinsRoot})
	if err != nil {
		t.Fatal(err)
	}
	ct.penguins = fp
	var cb strings.Builder
	cb.WriteString("[")
	for i := 0; i < 30; i++ {
		if i > 0 {
			cb.WriteString(",")
		}
		fmt.Fprintf(&cb, `{"Name":"car %d","Horsepower":%d,"Weight_in_lbs":%d,"Year":"19%d-01-01","Origin":%q}`, i, 80+i, 2000+50*i, 70+i%5, []string{"USA", "Japan", "Europe"}[i%3])
	}
	cb.WriteString("]")
	ct.cars = previewFile(t, "cars.json", []byte(cb.String()))
	var sb strings.Builder
	sb.WriteString("Flight Date,Airport Name,Wildlife Species,Phase of flight\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&sb, "%s,%s,%s,%s\n", time.Date(2000, 1, 1+i/2*11, 0, 0, 0, 0, time.UTC).Format("2006-01-02"),
			[]string{"KJFK", "KORD"}[i%2], []string{"Gull", "Hawk", "Goose", "Owl"}[i%4], []string{"Climb", "Approach", "Landing"}[i%3])
	}
	ct.strikes = previewFile(t, "birdstrikes.csv", []byte(sb.String()))
	var fb strings.Builder
	fb.WriteString("[")
	for i := 0; i < 80; i++ {
		if i > 0 {
			fb.WriteString(",")
		}
		fmt.Fprintf(&fb, `{"date":"2001/%02d/%02d %02d:%02d","delay":%d,"origin":%q,"destination":%q}`, 1+i/2%3, 1+i/2%28, 6+i/2%4, 0, i%17-3, []string{"LAX", "ORD", "ATL", "SFO", "JFK", "DEN"}[i%6], []string{"BNA", "IAH", "PIT"}[i%3])
	}
	fb.WriteString("]")
	ct.flights = previewFile(t, "flights-2k.json", []byte(fb.String()))
	var wb strings.Builder
	wb.WriteString("date,precipitation,temp_min,wind,weather\n")
	for d := 0; d < 3*365; d++ {
		fmt.Fprintf(&wb, "%s,%d.5,%d.1,%d.2,%s\n", time.Date(2013, 1, 1+d, 0, 0, 0, 0, time.UTC).Format("2006-01-02"), d%7, d%13-2, 1+d%5, []string{"rain", "sun", "fog", "snow"}[d%4])
	}
	ct.weather = previewFile(t, "weather.csv", []byte(wb.String()))
	var ob strings.Builder
	ob.WriteString("symbol,date,price\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&ob, "%s,%d-%02d-01,%d.5\n", []string{"AAPL", "MSFT", "IBM"}[i%3], 2014+i/36, 1+i/3%12, 20+i*7%23)
	}
	ct.stocks = previewFile(t, "stocks.csv", []byte(ob.String()))
	var hb strings.Builder
	hb.WriteString("shop,category,sales\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&hb, "%s,%s,%d\n", []string{"North", "South"}[i%2], []string{"toys", "food", "books"}[i%3], 10+i)
	}
	ct.shops = previewFile(t, "shops.csv", []byte(hb.String()))
	var kb strings.Builder
	kb.WriteString("shop,category,type,sales\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&kb, "%s,%s,%s,%d\n", []string{"North", "South"}[i%2], []string{"toys", "food", "books"}[i%3], []string{"online", "store"}[i%2], 10+i)
	}
	ct.twoKinds = previewFile(t, "outlets.csv", []byte(kb.String()))
	return ct
}

type countsCase struct {
	file    *preview.FilePreview
	request string
	want    *Reading // nil: refused
}

func runCountsCases(t *testing.T, tests []countsCase) {
	t.Helper()
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced", "SheetAs", "RowIs"), cmpopts.EquateEmpty()}
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

// TestUnderstandDistinctCounts: "how many different/distinct/unique X
// (per Y)", 多少个不同的X, 有多少种X, 几种X count X's distinct values
// (count_distinct), per group when one is said, in English and Chinese;
// 有多少种企鹅 counts the one column of kinds of what the file holds. A
// bare "number of species per island" (rows of each, or species?),
// "different islands" without a count, and "how many different
// penguins" (no column of them) stay refused.
func TestUnderstandDistinctCounts(t *testing.T) {
	ct := newCountsTables(t)
	distinct := func(col string, by ...string) *Reading {
		return &Reading{Analysis: TopN, Measures: []Measure{{col, "count_distinct"}}, GroupBy: by, Order: "desc"}
	}
	runCountsCases(t, []countsCase{
		{ct.penguins, "how many different species per island", distinct("Species", "Island")},
		{ct.penguins, "how many distinct species on each island", distinct("Species", "Island")},
		{ct.penguins, "number of unique species by island", distinct("Species", "Island")},
		{ct.penguins, "distinct species by island", distinct("Species", "Island")},
		{ct.penguins, "每个Island有多少个不同的Species", distinct("Species", "Island")},
		{ct.penguins, "每个Island有多少种企鹅", distinct("Species", "Island")},
		{ct.strikes, "how many different species were hit in each phase of flight", distinct("Wildlife Species", "Phase of flight")},
		{ct.flights, "how many unique destinations per origin", distinct("destination", "origin")},
		{ct.flights, "number of distinct destinations by month", &Reading{Analysis: Trend, Measures: []Measure{{"destination", "count_distinct"}}, Time: "date", Grain: "month"}},
		{ct.weather, "每年有几种天气", &Reading{Analysis: Trend, Measures: []Measure{{"weather", "count_distinct"}}, Time: "date", Grain: "year"}},
		{ct.penguins, "number of species per island", nil},
		{ct.penguins, "average body mass for different islands", nil},
		{ct.penguins, "how many different penguins per island", nil},
		{ct.penguins, "how many distinct species", nil}, // one number over the whole table
	})
	for _, tc := range []struct{ request, want string }{
		{"how many different species per island", "Distinct count of Species per Island"},
		{"每个Island有多少种不同的Species", "Species 的不同值个数"},
	} {
		r, ok, why := Understand(tc.request, []*preview.FilePreview{ct.penguins})
		if !ok {
			t.Fatalf("%s: refused: %s", tc.request, why)
		}
		if got := r.Text(LangOf(tc.request)); !strings.Contains(got, tc.want) {
			t.Errorf("%s: reading line %q, want it to say %q", tc.request, got, tc.want)
		}
	}
}

// TestDistinctCountNumbers checks the numbers of a distinct count per
// group as the reading engine computes them: the species seen on each
// island of the table, highest first.
func TestDistinctCountNumbers(t *testing.T) {
	ct := newCountsTables(t)
	r, ok, why := Understand("how many different species per island", []*preview.FilePreview{ct.penguins})
	if !ok {
		t.Fatalf("refused: %s", why)
	}
	tab, err := ReadingTable(context.Background(), ct.penguinsRoot, "input/penguins.json", r)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{"Dream", 3.0}, {"Biscoe", 2.0}, {"Torgersen", 1.0}}
	if diff := cmp.Diff(want, tab.Rows); diff != "" {
		t.Errorf("distinct species per island (-want +got):\n%s", diff)
	}
}

// TestUnderstandCountsOfAKind: rows counted per group or period when the
// request counts what a row is, said as a synonym of the file's name
// ("models" in cars.json), with a classifier (多少只企鹅), joined to 数
// (鸟击数, 航班数最多), or as 几天 over one row a day.
func TestUnderstandCountsOfAKind(t *testing.T) {
	ct := newCountsTables(t)
	rows := func(by string) *Reading { return &Reading{Analysis: TopN, GroupBy: []string{by}, Order: "desc"} }
	runCountsCases(t, []countsCase{
		{ct.cars, "no. of models per origin", rows("Origin")},
		{ct.cars, "number of models by origin", rows("Origin")},
		{ct.penguins, "每个Species有多少只企鹅", rows("Species")},
		{ct.strikes, "按季度统计鸟击数", &Reading{Analysis: Trend, Time: "Flight Date", Grain: "quarter"}},
		{ct.flights, "航班数最多的5个出发机场", &Reading{Analysis: TopN, GroupBy: []string{"origin"}, Order: "desc", N: 5}},
		{ct.weather, "2014年各种天气各有几天", &Reading{Analysis: TopN, GroupBy: []string{"weather"}, Order: "desc", Time: "date", Filters: []Filter{{"date", "year", []string{"2014"}}}}},
		{ct.weather, "2014年每种天气有多少天", &Reading{Analysis: TopN, GroupBy: []string{"weather"}, Order: "desc", Time: "date", Filters: []Filter{{"date", "year", []string{"2014"}}}}},
		// The rows of stocks.csv are not one stock each, nor one day; a
		// monthly observation is a row of its monthly dates.
		{ct.stocks, "每个symbol有几天", nil},
		{ct.stocks, "how many monthly observations does each symbol have", rows("symbol")},
		{ct.stocks, "how many daily observations does each symbol have", nil},
		{ct.weather, "number of monthly records per weather", nil},
		{ct.stocks, "各股票的价格是多少", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc"}},
	})
	// Counting models is no modelling: the built-in runs.
	for _, q := range []string{"no. of models per origin", "how many models per model year"} {
		if m := MatchRequest(q, []*preview.FilePreview{ct.cars}); m.Template == "" {
			t.Errorf("MatchRequest(%q) refused: %v", q, m.Reasons)
		}
	}
	if m := MatchRequest("fit a regression model of mpg", []*preview.FilePreview{ct.cars}); m.Template != "" {
		t.Errorf("MatchRequest(fit a regression model) = %s, want a refusal", m.Template)
	}
}

// TestUnderstandChineseNumerals: Chinese numerals in years and top-N
// read as the Arabic forms: 二〇一四年, 二零一四年, 两千零一十四年 as
// 2014年; 前十 as 前10; 最轻的两个 as 最轻的2个 (the count after a
// superlative, as after an order word), "heaviest 2" likewise.
func TestUnderstandChineseNumerals(t *testing.T) {
	ct := newCountsTables(t)
	for _, pair := range []struct {
		file        *preview.FilePreview
		cjk, arabic string
	}{
		{ct.stocks, "二〇一四年各股票的平均价格", "2014年各股票的平均价格"},
		{ct.stocks, "二零一四年各股票的平均价格", "2014年各股票的平均价格"},
		{ct.stocks, "两千零一十四年各股票的平均价格", "2014年各股票的平均价格"},
		{ct.cars, "平均马力前十的产地", "平均马力前10的产地"},
		{ct.cars, "平均重量最轻的两个产地", "平均重量最轻的2个产地"},
		{ct.cars, "平均重量最重的两个产地", "平均重量最高的2个产地"},
		{ct.cars, "heaviest 2 origins on average", "平均重量最重的两个产地"},
	} {
		want, ok, why := Understand(pair.arabic, []*preview.FilePreview{pair.file})
		if !ok {
			t.Fatalf("%s: refused: %s", pair.arabic, why)
		}
		got, ok, why := Understand(pair.cjk, []*preview.FilePreview{pair.file})
		if !ok {
			t.Fatalf("%s: refused: %s", pair.cjk, why)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Reading{}, "ByMean"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s read otherwise than %s (-arabic +chinese):\n%s", pair.cjk, pair.arabic, diff)
		}
	}
	r, ok, _ := Understand("平均重量最轻的两个产地", []*preview.FilePreview{ct.cars})
	if !ok || r.N != 2 || r.Order != "asc" {
		t.Errorf("平均重量最轻的两个产地: N %d order %q ok %v, want the 2 lightest", r.N, r.Order, ok)
	}
	for _, s := range []struct {
		s    string
		want int
	}{{"二〇一五", 2015}, {"二零一五", 2015}, {"两千零一十五", 2015}, {"一千九百九十", 1990}, {"十二", 12}, {"三四", 4}} {
		if got := parseCJKNumber(s.s); got != s.want {
			t.Errorf("parseCJKNumber(%s) = %d, want %d", s.s, got, s.want)
		}
	}
}

// TestUnderstandLooseWords: words with one meaning over the data are
// placed — "stats", "statistics", 统计信息 as the summary statistics of
// the columns named (their distribution) or, naming none, a profile;
// "kind of weather" as the weather column; "kind", 种类 as the one
// column named category; 均价 as the mean of the price column; 咋样 as
// filler. Where the meaning is not in the data (均价 with no price, a
// kind over two kind columns) they stay refused.
func TestUnderstandLooseWords(t *testing.T) {
	ct := newCountsTables(t)
	dist := func(cols ...string) *Reading {
		r := &Reading{Analysis: Distribution, Columns: cols}
		for _, c := range cols {
			r.Measures = append(r.Measures, Measure{Column: c})
		}
		return r
	}
	meanBy := func(m, by string) *Reading {
		return &Reading{Analysis: TopN, Measures: []Measure{{m, "mean"}}, GroupBy: []string{by}, Order: "desc"}
	}
	runCountsCases(t, []countsCase{
		{ct.weather, "summary stats for temp_min", dist("temp_min")},
		{ct.weather, "statistics of temp_min and wind", dist("temp_min", "wind")},
		{ct.weather, "temp_min的统计信息", dist("temp_min")},
		{ct.weather, "summary statistics", &Reading{Analysis: Profile}},
		{ct.weather, "统计信息", &Reading{Analysis: Profile}},
		{ct.weather, "avg precipitation for each kind of weather", meanBy("precipitation", "weather")},
		{ct.weather, "which type of weather has the most wind on average", &Reading{Analysis: TopN, Measures: []Measure{{"wind", "mean"}}, GroupBy: []string{"weather"}, Order: "desc", N: 1}},
		{ct.shops, "average sales per kind", meanBy("sales", "category")},
		{ct.shops, "各种类的平均sales", meanBy("sales", "category")},
		{ct.twoKinds, "average sales per kind", nil},
		{ct.stocks, "各股票的均价", meanBy("price", "symbol")},
		{ct.stocks, "股价最低的那只股票（按均价）", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "asc"}},
		{ct.cars, "各产地的均价", nil},
		{ct.weather, "temp_min的分布咋样", dist("temp_min")},
	})
	// With no price column 均价 is refused as the word it is.
	if _, ok, why := Understand("各产地的均价", []*preview.FilePreview{ct.cars}); ok || !strings.Contains(why, "“均价”") && !strings.Contains(why, `"均价"`) {
		t.Errorf("各产地的均价 over cars without a price: ok %v, why %q; want a refusal naming 均价", ok, why)
	}
}
