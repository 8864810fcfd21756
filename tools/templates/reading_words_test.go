package templates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// TestUnderstandColumnWords checks the ways a request names a column
// beyond its words: initials (cpc for Cost_Per_Click), a stem
// (assessment for assess_value, expectancy for life_expect), a qualifier
// such as net that no other column needs, the file's own subject left
// out (unemployment rate in unemployment.csv is rate), 年份 as the year of
// a Chinese table, and the bilingual glossary (预期寿命, 投资, 发电量).
func TestUnderstandColumnWords(t *testing.T) {
	files := map[string]*preview.FilePreview{
		"ads":    previewSheet("input/ads.csv", "campaign:text", "day:date", "Cost_Per_Click:float", "Click_Through_Rate:float", "clicks:int"),
		"towns":  previewSheet("input/towns.csv", "town:text", "year:int", "assess_value:float", "life_expect:float", "net_generation:float", "invest:float"),
		"unemp":  previewSheet("input/unemployment.csv", "sector:text", "date:date", "rate:float", "count:int"),
		"cn":     previewSheet("input/cn.csv", "年份:int", "季度:int", "失业率:float", "地区:text"),
		"both":   previewSheet("input/power.csv", "plant:text", "net_output:float", "gross_output:float"),
		"engine": previewFile(t, "engines.csv", []byte("Name,Cylinders,Weight\na,4,2000\nb,4,2200\nc,6,3000\nd,8,4000\n")),
		"dis":    previewFile(t, "disasters.csv", disastersCSV()),
		"birds":  previewSheet("input/strikes.csv", "Phase:text", "Effect Amount of damage:text", "Speed IAS in knots:float"),
		"cars":   previewFile(t, "cars.csv", []byte("Name,Miles_per_Gallon,Origin\nchevelle,18,USA\nskylark,15,USA\ncorolla,30,Japan\ngolf,28,Europe\n")),
		"firms":  previewFile(t, "firms.csv", []byte("firm,year,invest\nGM,1935,10\nGM,1936,12\nGE,1935,5\nGE,1936,6\nUS,1935,1\nUS,1936,2\n")),
		"sect":   previewFile(t, "unemployment-across-sectors.csv", []byte("series,date,rate,count\nMining,2000-01-01,2.1,30\nMining,2000-02-01,2.3,32\nMining,2000-03-01,2.2,31\nFinance,2000-01-01,3.1,60\nFinance,2000-02-01,3.3,62\nFinance,2000-03-01,3.2,61\n")),
		"kinds":  previewSheet("input/losses.csv", "Entity:text", "Year:int", "Losses:float"),
		"named":  previewSheet("input/regions.csv", "region:text", "Year:int", "Losses:float"),
		"energy": {Path: "input/energy.csv", Name: "input/energy.csv", Kind: preview.KindCSV, Encoding: preview.EncodingUTF8, Sheets: []preview.SheetPreview{{Name: "energy",
			Columns: []preview.Column{{Name: "year", Type: "int"}, {Name: "source", Type: "text"}, {Name: "output", Type: "float"}},
			Stats:   []preview.ColumnStats{{Min: "2001", Max: "2017"}, {Top: []preview.ValueCount{{Value: "Fossil Fuels", Count: 17}, {Value: "Wind Farms", Count: 17}}, Distinct: 2}, {}}, RowCount: 34, RowCountExact: true}}},
	}
	tests := []struct {
		file, request string
		want          *Reading // nil: refused
		why           string
	}{
		{"ads", "average cpc by campaign", &Reading{Analysis: TopN, Measures: []Measure{{"Cost_Per_Click", "mean"}}, GroupBy: []string{"campaign"}, Order: "desc"}, ""},
		{"ads", "ctr per month", &Reading{Analysis: Trend, Measures: []Measure{{"Click_Through_Rate", "mean"}}, Time: "day", Grain: "month"}, ""},
		{"ads", "average xyz by campaign", nil, "xyz"},
		{"towns", "total assessment by town", &Reading{Analysis: TopN, Measures: []Measure{{"assess_value", "sum"}}, GroupBy: []string{"town"}, Order: "desc"}, ""},
		{"towns", "average life expectancy per year", &Reading{Analysis: Trend, Measures: []Measure{{"life_expect", "mean"}}, Time: "year", Grain: "year"}, ""},
		{"towns", "total generation by town", &Reading{Analysis: TopN, Measures: []Measure{{"net_generation", "sum"}}, GroupBy: []string{"town"}, Order: "desc"}, ""},
		{"towns", "total investment per year", &Reading{Analysis: Trend, Measures: []Measure{{"invest", "sum"}}, Time: "year", Grain: "year"}, ""},
		{"both", "total output by plant", nil, "net_output"},
		{"unemp", "average unemployment rate by sector", &Reading{Analysis: TopN, Measures: []Measure{{"rate", "mean"}}, GroupBy: []string{"sector"}, Order: "desc"}, ""},
		{"unemp", "average employment rate by sector", nil, "employment"},
		{"cn", "每年的平均失业率", &Reading{Analysis: Trend, Measures: []Measure{{"失业率", "mean"}}, Time: "年份", Grain: "year"}, ""},
		{"cn", "各地区的平均失业率", &Reading{Analysis: TopN, Measures: []Measure{{"失业率", "mean"}}, GroupBy: []string{"地区"}, Order: "desc"}, ""},
		{"towns", "每年的平均预期寿命", &Reading{Analysis: Trend, Measures: []Measure{{"life_expect", "mean"}}, Time: "year", Grain: "year"}, ""},
		{"towns", "各town的总投资", &Reading{Analysis: TopN, Measures: []Measure{{"invest", "sum"}}, GroupBy: []string{"town"}, Order: "desc"}, ""},
		{"towns", "每年的总发电量", &Reading{Analysis: Trend, Measures: []Measure{{"net_generation", "sum"}}, Time: "year", Grain: "year"}, ""},
		{"towns", "每年的平均湿度", nil, "湿度"},
		{"sect", "average rate by sector", &Reading{Analysis: TopN, Measures: []Measure{{"rate", "mean"}}, GroupBy: []string{"series"}, Order: "desc"}, ""},
		{"sect", "top 3 sectors by average rate", &Reading{Analysis: TopN, Measures: []Measure{{"rate", "mean"}}, GroupBy: []string{"series"}, Order: "desc", N: 3}, ""},
		{"sect", "average rate by industry", nil, "industry"},
		{"sect", "sector rate", nil, ""},
		{"kinds", "total losses by type", &Reading{Analysis: TopN, Measures: []Measure{{"Losses", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc"}, ""},
		{"kinds", "按类型统计损失总和", nil, ""},
		{"named", "total losses by type", nil, "type"},
		{"energy", "total output of fossil fuel per year", &Reading{Analysis: Trend, Measures: []Measure{{"output", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"source", "=", []string{"Fossil Fuels"}}}}, ""},
		{"energy", "average output by number of sources", nil, ""},
		{"sect", "每年的平均失业率", &Reading{Analysis: Trend, Measures: []Measure{{"rate", "mean"}}, Time: "date", Grain: "year"}, ""},
		{"sect", "monthly unemployed count", &Reading{Analysis: Trend, Measures: []Measure{{"count", "sum"}}, Time: "date", Grain: "month"}, ""},
		{"engine", "average weight by number of cylinders", &Reading{Analysis: TopN, Measures: []Measure{{"Weight", "mean"}}, GroupBy: []string{"Cylinders"}, Order: "desc"}, ""},
		{"dis", "which disaster had the most deaths", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc", N: 1}, ""},
		{"dis", "哪种灾害造成的死亡人数最多", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc", N: 1}, ""},
		{"birds", "average speed by phase", &Reading{Analysis: TopN, Measures: []Measure{{"Speed IAS in knots", "mean"}}, GroupBy: []string{"Phase"}, Order: "desc"}, ""},
		{"birds", "total amount by phase", nil, "amount"},
		{"cars", "how many cars per origin", &Reading{Analysis: TopN, GroupBy: []string{"Origin"}, Order: "desc"}, ""},
		{"towns", "total life expectancy by town", nil, "life expectancy"},
		{"firms", "outliers in investment", &Reading{Analysis: Outliers, Columns: []string{"invest"}, Measures: []Measure{{Column: "invest"}}, GroupBy: []string{"firm"}}, ""},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			fs := []*preview.FilePreview{files[tt.file]}
			r, ok, why := Understand(tt.request, fs)
			if tt.want == nil {
				if ok || MatchRequest(tt.request, fs).OK() {
					t.Fatalf("answered %+v; want a refusal", r)
				}
				if !strings.Contains(why, tt.why) {
					t.Errorf("why %q lacks %q", why, tt.why)
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

// TestUnderstandTheDataPeriod checks that a trend with no period asked
// follows the data's own when its dates are one a year, and that a period
// finer than the data's ("monthly" of yearly dates) is refused: a month
// series of yearly values would show one month a year as if it were the
// year.
func TestUnderstandTheDataPeriod(t *testing.T) {
	yearly := previewFile(t, "power.csv", []byte("year,source,output\n2001-01-01,Wind,1\n2002-01-01,Wind,2\n2003-01-01,Wind,4\n2001-01-01,Coal,5\n2002-01-01,Coal,6\n2003-01-01,Coal,7\n"))
	monthly := previewFile(t, "power.csv", []byte("month,source,output\n2001-01-01,Wind,1\n2001-02-01,Wind,2\n2001-03-01,Wind,4\n"))
	for _, tt := range []struct {
		fp    *preview.FilePreview
		q     string
		grain string
	}{
		{yearly, "wind output trend", "year"},
		{yearly, "monthly wind output", "refused"},
		{monthly, "wind output trend", ""},
	} {
		r, ok, why := Understand(tt.q, []*preview.FilePreview{tt.fp})
		if tt.grain == "refused" {
			if ok {
				t.Errorf("%s: answered at grain %q; want a refusal (the dates are one a year)", tt.q, r.Grain)
			}
			continue
		}
		if !ok {
			t.Fatalf("%s: refused: %s", tt.q, why)
		}
		if r.Grain != tt.grain {
			t.Errorf("%s: grain %q, want %q", tt.q, r.Grain, tt.grain)
		}
	}
}

// TestUnderstandGroupingsAndSheets checks: the second of two groupings
// joined by and is grouped too (a pivot), a date column named year is per
// year, "show 5" is a ranking's length, a Chinese sheet name in the
// glossary (日本) names the sheet Japan, 按产地 over sheets that stand for
// origins stacks them, and a count noun in the glossary that is the
// file's subject (汽车 in cars.xlsx) counts rows.
func TestUnderstandGroupingsAndSheets(t *testing.T) {
	power := previewFile(t, "power.csv", []byte("year,source,output\n2001-01-01,Wind,1\n2002-01-01,Wind,2\n2001-01-01,Coal,5\n2002-01-01,Coal,6\n"))
	cars := previewFile(t, "cars.xlsx", carsWorkbook(t))
	countries := previewFile(t, "countries.csv", []byte("country,year,life\nChina,1955,40\nChina,2005,72\nIndia,1955,38\nIndia,2005,64\nPeru,1955,45\nPeru,2005,71\n"))
	tests := []struct {
		fp      *preview.FilePreview
		request string
		want    *Reading
	}{
		{power, "total output by source and year as a pivot table", &Reading{Analysis: Pivot, Measures: []Measure{{"output", "sum"}}, GroupBy: []string{"source"}, Time: "year", Grain: "year"}},
		{cars, "pivot table of average Horsepower by sheet and Cylinders", &Reading{Analysis: Pivot, Sheet: "*", Measures: []Measure{{"Horsepower", "mean"}}, GroupBy: []string{"Cylinders", "sheet"}}},
		{cars, "日本表中按气缸数统计平均马力", &Reading{Analysis: TopN, Sheet: "Japan", Measures: []Measure{{"Horsepower", "mean"}}, GroupBy: []string{"Cylinders"}, Order: "desc"}},
		{cars, "Europe工作表中各气缸数的汽车数量", &Reading{Analysis: TopN, Sheet: "Europe", GroupBy: []string{"Cylinders"}, Order: "desc"}},
		{countries, "which countries had the lowest life in 1955? show 2", &Reading{Analysis: TopN, Measures: []Measure{{"life", "sum"}}, GroupBy: []string{"country"}, Order: "asc", N: 2, Time: "year", Filters: []Filter{{"year", "year", []string{"1955"}}}}},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced", "SheetAs"), cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.fp})
			if !ok {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			if diff := cmp.Diff(*tt.want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnderstandMinMaxPerGroup checks that an order word right before a
// measure, grouped by each or per and with no ranking asked, is the
// measure's minimum or maximum per group; with which, top or by it stays
// a ranking; and that a second question after and is refused.
func TestUnderstandMinMaxPerGroup(t *testing.T) {
	fp := previewFile(t, "prices.csv", stocksCSV())
	tests := []struct {
		request string
		want    *Reading // nil: refused
	}{
		{"lowest price each stock reached", &Reading{Analysis: TopN, Measures: []Measure{{"price", "min"}}, GroupBy: []string{"symbol"}, Order: "desc"}},
		{"highest price per symbol", &Reading{Analysis: TopN, Measures: []Measure{{"price", "max"}}, GroupBy: []string{"symbol"}, Order: "desc"}},
		{"每只股票的最高价", &Reading{Analysis: TopN, Measures: []Measure{{"price", "max"}}, GroupBy: []string{"symbol"}, Order: "desc"}},
		{"which symbol has the highest price", &Reading{Analysis: TopN, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc", N: 1}},
		{"average price by symbol and the trend of AAPL", nil},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{fp})
			if tt.want == nil {
				if ok {
					t.Fatalf("answered %+v; want a refusal", r)
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

// TestUnderstandRowsNamedByTheFile checks that in an event log (dates that
// repeat) named for its rows, "strikes" counts rows and the reading says
// so; in a table of yearly figures named for its subject it does not.
func TestUnderstandRowsNamedByTheFile(t *testing.T) {
	strikes := previewFile(t, "birdstrikes.csv", []byte("Flight Date,Origin State,Cost\n2000-01-01,Texas,1\n2000-01-01,Ohio,2\n2000-02-01,Texas,3\n2001-01-01,Ohio,4\n"))
	yearly := previewFile(t, "disasters.csv", disastersCSV())
	for _, tt := range []struct {
		fp      *preview.FilePreview
		request string
		want    *Reading
	}{
		{strikes, "bird strikes per year", &Reading{Analysis: Trend, Time: "Flight Date", Grain: "year", RowIs: "strike"}},
		{strikes, "number of strikes by origin state", &Reading{Analysis: TopN, GroupBy: []string{"Origin State"}, Order: "desc", RowIs: "strike"}},
		{strikes, "total cost of strikes by origin state", &Reading{Analysis: TopN, Measures: []Measure{{"Cost", "sum"}}, GroupBy: []string{"Origin State"}, Order: "desc"}},
		{yearly, "number of disasters per year", nil},
		{previewFile(t, "cars.xlsx", carsWorkbook(t)), "number of cars in each sheet", &Reading{Analysis: TopN, Sheet: "*", GroupBy: []string{"sheet"}, Order: "desc"}},
	} {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.fp})
			if tt.want == nil {
				if ok {
					t.Fatalf("answered %+v (%s); want a refusal", r, r.Text("en"))
				}
				return
			}
			if !ok {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
			if diff := cmp.Diff(*tt.want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
			if tt.want.RowIs != "" && !strings.Contains(r.Text("en"), "each row is one strike") {
				t.Errorf("text %q does not say what a row is", r.Text("en"))
			}
		})
	}
}
