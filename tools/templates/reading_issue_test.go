package templates

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
	"github.com/xuri/excelize/v2"
)

// carsWorkbook has one sheet per origin with the same columns.
func carsWorkbook(t testing.TB) []byte {
	t.Helper()
	f := excelize.NewFile()
	for i, s := range []string{"USA", "Europe", "Japan"} {
		if i == 0 {
			f.SetSheetName("Sheet1", s)
		} else if _, err := f.NewSheet(s); err != nil {
			t.Fatal(err)
		}
		header := []any{"Name", "Miles_per_Gallon", "Cylinders", "Horsepower"}
		if err := f.SetSheetRow(s, "A1", &header); err != nil {
			t.Fatal(err)
		}
		for r := 0; r < 6; r++ {
			row := []any{fmt.Sprintf("%s car %d", s, r), 15 + r + 5*i, 4 + 2*(r%3), 70 + 10*r + 20*i}
			if err := f.SetSheetRow(s, fmt.Sprintf("A%d", r+2), &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestUnderstandIssue35 holds the requests a keyword matcher answered
// with a different question (issue 35), and their kin: each must read as
// asked, or be refused; none may be answered with a measure, sheet, grain
// or filter it did not ask for.
func TestUnderstandIssue35(t *testing.T) {
	files := map[string]*preview.FilePreview{
		"weather": previewFile(t, "seattle-weather.csv", weatherCSV()),
		"ohlc":    previewFile(t, "stocks.csv", ohlcCSV()),
		"prices":  previewFile(t, "prices.csv", stocksCSV()),
		"dis":     previewFile(t, "disasters.csv", disastersCSV()),
		"birds":   previewFile(t, "birdstrikes.csv", speciesCSV()),
		"cars":    previewFile(t, "cars.xlsx", carsWorkbook(t)),
		"income":  previewSheet("input/income.csv", "state:text", "year:int", "income_per_capita:float", "population:int"),
	}
	tests := []struct {
		file, request string
		want          *Reading // nil: refused
		why           string   // refused: a word Why must say
	}{
		{"weather", "annual average maximum temperature", &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}}, Time: "date", Grain: "year"}, ""},
		{"weather", "yearly avg temp_max", &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}}, Time: "date", Grain: "year"}, ""},
		{"weather", "average maximum temprature per year", &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}}, Time: "date", Grain: "year"}, ""},
		{"weather", "average daily temperature range", nil, "range"},
		{"weather", "average temperature by month", nil, "temp_max, temp_min"},
		{"weather", "average humidity by month", nil, "humidity"},
		{"weather", "每年的平均最高气温", &Reading{Analysis: Trend, Measures: []Measure{{"temp_max", "mean"}}, Time: "date", Grain: "year"}, ""},
		{"weather", "按天气类型统计平均风速", &Reading{Analysis: TopN, Measures: []Measure{{"wind", "mean"}}, GroupBy: []string{"weather"}, Order: "desc"}, ""},
		{"weather", "按天统计降水量", &Reading{Analysis: Trend, Measures: []Measure{{"precipitation", "sum"}}, Time: "date", Grain: "day"}, ""},
		{"weather", "每月的平均湿度", nil, "湿度"},
		{"weather", "which calendar month is wettest on average", &Reading{Analysis: Trend, Measures: []Measure{{"precipitation", "mean"}}, Time: "date", Grain: "month_of_year", Order: "desc"}, ""},
		{"weather", "total precipitation in 2015 by month", &Reading{Analysis: Trend, Measures: []Measure{{"precipitation", "sum"}}, Time: "date", Grain: "month", Filters: []Filter{{"date", "year", []string{"2015"}}}}, ""},
		{"weather", "compare precipitation in 2015 with 2014", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"precipitation", "sum"}}, Time: "date", Grain: "year", Periods: []string{"2014", "2015"}}, ""},
		{"weather", "total temp_max per year", nil, "temperature"},
		{"dis", "which disaster type killed the most people", nil, "people"},
		{"dis", "total deaths per year", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year"}, ""},
		{"dis", "top entities by deaths", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc"}, ""},
		{"dis", "deaths by entity in 2010", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc", Time: "Year", Filters: []Filter{{"Year", "year", []string{"2010"}}}}, ""},
		{"birds", "top species by total cost", &Reading{Analysis: TopN, Measures: []Measure{{"Cost Total $", "sum"}}, GroupBy: []string{"Species"}, Order: "desc"}, ""},
		{"birds", "top species by cost", nil, "Cost Repair"},
		{"birds", "species with the highest repair cost", &Reading{Analysis: TopN, Measures: []Measure{{"Cost Repair", "sum"}}, GroupBy: []string{"Species"}, Order: "desc"}, ""},
		{"ohlc", "average trading volume per symbol", nil, "volume"},
		{"ohlc", "average close price per symbol", &Reading{Analysis: TopN, Measures: []Measure{{"close", "mean"}}, GroupBy: []string{"symbol"}, Order: "desc"}, ""},
		{"ohlc", "monthly AAPL close", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, Time: "date", Grain: "month", Filters: []Filter{{"symbol", "=", []string{"AAPL"}}}}, ""},
		{"ohlc", "growth rate of close per symbol", nil, "growth"},
		{"prices", "outliers in price", &Reading{Analysis: Outliers, Columns: []string{"price"}, Measures: []Measure{{Column: "price"}}, GroupBy: []string{"symbol"}}, ""},
		{"prices", "total price by symbol", nil, "price"},
		{"cars", "average Horsepower in the Japan sheet by Cylinders", &Reading{Analysis: TopN, Sheet: "Japan", Measures: []Measure{{"Horsepower", "mean"}}, GroupBy: []string{"Cylinders"}, Order: "desc"}, ""},
		{"cars", "average Horsepower by Origin", &Reading{Analysis: TopN, Sheet: "*", Measures: []Measure{{"Horsepower", "mean"}}, GroupBy: []string{"sheet"}, Order: "desc", SheetAs: "origin"}, ""},
		{"cars", "average Horsepower by Cylinders", nil, "USA, Europe, Japan"},
		{"income", "total income by state", nil, "income"},
		{"income", "average income per capita by state", &Reading{Analysis: TopN, Measures: []Measure{{"income_per_capita", "mean"}}, GroupBy: []string{"state"}, Order: "desc"}, ""},
		{"income", "total population per year", &Reading{Analysis: Trend, Measures: []Measure{{"population", "sum"}}, Time: "year", Grain: "year"}, ""},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{files[tt.file]})
			m := MatchRequest(tt.request, []*preview.FilePreview{files[tt.file]})
			if tt.want == nil {
				if ok || m.OK() {
					t.Fatalf("answered %+v (%s); want a refusal", r, r.Text(LangOf(tt.request)))
				}
				if !strings.Contains(why, tt.why) {
					t.Errorf("why %q lacks %q", why, tt.why)
				}
				return
			}
			if !ok || !m.OK() {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			want := *tt.want
			if files[tt.file].Kind != preview.KindXLSX {
				want.Sheet = ""
			}
			if diff := cmp.Diff(want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
			if m.Reading.Analysis == "" || m.Template != r.Analysis {
				t.Errorf("match %q carries reading %v", m.Template, m.Reading)
			}
		})
	}
}
