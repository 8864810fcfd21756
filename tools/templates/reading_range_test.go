package templates

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// TestUnderstandYearRanges checks that a range of years is a filter on
// the time column, not two periods, and that one bounded year (since,
// before, 以来) is a bound; two years joined by a word in a request that
// compares are refused, since they can be a range or two periods.
func TestUnderstandYearRanges(t *testing.T) {
	files := map[string]*preview.FilePreview{
		"weather": previewFile(t, "seattle-weather.csv", weatherCSV()),
		"dis":     previewFile(t, "disasters.csv", disastersCSV()),
	}
	ge := func(c, v string) Filter { return Filter{c, ">=", []string{v}} }
	le := func(c, v string) Filter { return Filter{c, "<=", []string{v}} }
	tests := []struct {
		file, request string
		want          *Reading // nil: refused
		why           string
	}{
		{"weather", "total precipitation from 2013 to 2014 by month", &Reading{Analysis: Trend, Measures: []Measure{{"precipitation", "sum"}}, Time: "date", Grain: "month",
			Filters: []Filter{ge("date", "2013-01-01"), le("date", "2014-12-31")}}, ""},
		{"weather", "average wind per year, 2013–2015", &Reading{Analysis: Trend, Measures: []Measure{{"wind", "mean"}}, Time: "date", Grain: "year",
			Filters: []Filter{ge("date", "2013-01-01"), le("date", "2015-12-31")}}, ""},
		{"weather", "monthly total precipitation in 2013-2014", &Reading{Analysis: Trend, Measures: []Measure{{"precipitation", "sum"}}, Time: "date", Grain: "month",
			Filters: []Filter{ge("date", "2013-01-01"), le("date", "2014-12-31")}}, ""},
		{"dis", "total deaths since 2010 per year", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{ge("Year", "2010")}}, ""},
		{"dis", "total deaths by entity before 2005", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc", Time: "Year", Filters: []Filter{le("Year", "2004")}}, ""},
		{"dis", "total deaths by entity between 2001 and 2003", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc", Time: "Year",
			Filters: []Filter{ge("Year", "2001"), le("Year", "2003")}}, ""},
		{"dis", "2010年以来每年的死亡人数总和", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{ge("Year", "2010")}}, ""},
		{"dis", "compare total deaths in 2010 with 2005", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year", Periods: []string{"2005", "2010"}}, ""},
		{"dis", "compare total deaths from 2005 to 2010", nil, "range"},
		{"weather", "total precipitation since the start", nil, "since"},
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

// TestReadingTableFiltersADateRange checks the reading engine keeps the
// days of a range of years, ends included.
func TestReadingTableFiltersADateRange(t *testing.T) {
	root := writeInput(t, "w.csv", []byte("date,x\n2012-12-31,1\n2013-01-01,2\n2014-12-31,4\n2015-01-01,8\n"))
	r := Reading{Analysis: Trend, Measures: []Measure{{"x", "sum"}}, Time: "date", Grain: "year",
		Filters: []Filter{{"date", ">=", []string{"2013-01-01"}}, {"date", "<=", []string{"2014-12-31"}}}}
	tab, err := ReadingTable(context.Background(), root, "input/w.csv", r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]any{{"2013", 2.0}, {"2014", 4.0}}, tab.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestUnderstandWhatPerAndCountingMean checks three classes of reading:
// a dimension right before a measure modifies it ("firm value by year" is
// not grouped by firm); "how many days" counts rows only when each row is
// one day, and the reading says so; "average <summable> per year by
// <category>" is a rate or a trend, so it is refused.
func TestUnderstandWhatPerAndCountingMean(t *testing.T) {
	firms := previewFile(t, "grunfeld.csv", []byte("firm,year,invest,value\nGM,1935,10,100\nGM,1936,12,110\nGE,1935,5,50\nGE,1936,6,70\n"))
	files := map[string]*preview.FilePreview{
		"weather": previewFile(t, "seattle-weather.csv", weatherCSV()),
		"dis":     previewFile(t, "disasters.csv", disastersCSV()),
		"ohlc":    previewFile(t, "stocks.csv", ohlcCSV()),
		"firms":   firms,
	}
	tests := []struct {
		file, request string
		want          *Reading // nil: refused
		why           string
	}{
		{"firms", "average firm value by year", &Reading{Analysis: Trend, Measures: []Measure{{"value", "mean"}}, Time: "year", Grain: "year"}, ""},
		{"firms", "total firm investment per year", &Reading{Analysis: Trend, Measures: []Measure{{"invest", "sum"}}, Time: "year", Grain: "year"}, ""},
		{"firms", "total invest by firm", &Reading{Analysis: TopN, Measures: []Measure{{"invest", "sum"}}, GroupBy: []string{"firm"}, Order: "desc"}, ""},
		{"ohlc", "average symbol close per month", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, Time: "date", Grain: "month"}, ""},
		{"ohlc", "average close per month by symbol", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, GroupBy: []string{"symbol"}, Time: "date", Grain: "month"}, ""},
		{"weather", "how many days of each weather type are there", &Reading{Analysis: TopN, GroupBy: []string{"weather"}, Order: "desc", RowIs: "day"}, ""},
		{"weather", "number of days per weather", &Reading{Analysis: TopN, GroupBy: []string{"weather"}, Order: "desc", RowIs: "day"}, ""},
		{"dis", "how many years of records per entity", nil, "not one year each"},
		{"dis", "average deaths per year by entity", nil, "say which"},
		{"dis", "各类型的平均每年死亡人数", nil, ""},
		{"dis", "total deaths per year by entity", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Time: "Year", Grain: "year"}, ""},
		{"weather", "average wind per month by weather", &Reading{Analysis: Trend, Measures: []Measure{{"wind", "mean"}}, GroupBy: []string{"weather"}, Time: "date", Grain: "month"}, ""},
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
			if tt.want.RowIs != "" && !strings.Contains(r.Text("en"), "each row is one "+tt.want.RowIs) {
				t.Errorf("text %q does not say what a row is", r.Text("en"))
			}
		})
	}
}
