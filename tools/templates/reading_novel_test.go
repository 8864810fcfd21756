package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// novelCase is one request of TestUnderstandNovelClasses: want nil is a
// refusal.
type novelCase struct {
	file    *preview.FilePreview
	request string
	want    *Reading
}

// runNovelCases checks each case's reading, or that it is refused.
func runNovelCases(t *testing.T, tests []novelCase) {
	t.Helper()
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced", "SheetAs", "RowIs", "N", "Order"), cmpopts.EquateEmpty()}
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

// novelTables are small tables of the shapes behind the novel set's
// wrong answers (eval/understanding/novel_src.py): monthly values on the
// first of each month, yearly dates, dates of events without a time of
// day, and events with times.
func novelTables(t *testing.T) (monthly, yearly, events, timed *preview.FilePreview) {
	var mb strings.Builder
	mb.WriteString("period,region,sales\n")
	for i := 0; i < 36; i++ {
		fmt.Fprintf(&mb, "%d-%02d-01,%s,%d.5\n", 2010+i/12, 1+i%12, []string{"north", "south"}[i%2], 100+i%7)
	}
	monthly = previewFile(t, "sales.csv", []byte(mb.String()))
	var yb strings.Builder
	yb.WriteString("year,fuel,output\n")
	for y := 2001; y <= 2012; y++ {
		fmt.Fprintf(&yb, "%d-01-01,Coal,%d\n%d-01-01,Wind,%d\n", y, 900+y%9, y, 100+y%4)
	}
	yearly = previewFile(t, "plants.csv", []byte(yb.String()))
	var eb strings.Builder
	eb.WriteString("Incident Date,Severity,Cost\n")
	for d := 0; d < 200; d++ {
		fmt.Fprintf(&eb, "%d-%02d-%02d,%s,%d\n", 2001+d/100, 1+d/9%12, 1+d%27, []string{"low", "high"}[d%2], 50+d%13)
	}
	events = previewFile(t, "incidents.csv", []byte(eb.String()))
	var tb strings.Builder
	tb.WriteString("departed,late,gate\n")
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&tb, "2003/%02d/%02d %02d:%02d,%d,%s\n", 1+i/40, 1+i%28, 6+i%15, i%60, i%23-4, []string{"A", "B"}[i%2])
	}
	timed = previewFile(t, "departures.csv", []byte(tb.String()))
	return
}

// TestUnderstandNovelGrainFinerThanData: a period finer than the time
// column's values tell apart is refused, not answered at the data's own
// grain (days or weeks of monthly values, months or quarters of yearly
// dates, hours of dates without a time of day); a period the data has
// is still answered.
func TestUnderstandNovelGrainFinerThanData(t *testing.T) {
	monthly, yearly, events, timed := novelTables(t)
	runNovelCases(t, []novelCase{
		{monthly, "daily sales", nil},
		{monthly, "weekly total sales", nil},
		{monthly, "每日销售额", nil},
		{monthly, "avg sales by weekday", nil},
		{monthly, "quarterly total sales", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "quarter"}},
		{monthly, "total sales per month", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "month"}},
		{yearly, "monthly output", nil},
		{yearly, "每季度output", nil},
		{yearly, "output by month of the year", nil},
		{yearly, "total output per year", &Reading{Analysis: Trend, Measures: []Measure{{"output", "sum"}}, Time: "year", Grain: "year"}},
		{events, "incidents per hour of the day", nil},
		{events, "每小时的Cost", nil},
		{events, "total Cost per weekday", &Reading{Analysis: Trend, Measures: []Measure{{"Cost", "sum"}}, Time: "Incident Date", Grain: "weekday"}},
		{timed, "avg late by hour of the day", &Reading{Analysis: Trend, Measures: []Measure{{"late", "mean"}}, Time: "departed", Grain: "hour_of_day"}},
	})
}

// TestUnderstandNovelClasses holds the other classes behind the novel
// set's wrong answers, each on other tables and phrasings: a value noun
// (station, airport) after a column whose values are not places; an
// aggregation word (lows) as the only thing a distribution names, where
// no column is of minima (highs names the one column of maxima);
// "over"/"across" a category beside another grouping (summed over, or
// ambiguous); a calendar part said in words over a table with month and
// year columns; 一年中 before a month or quarter; 人均 (per capita) as no
// mean; a mean of a period's amount per category (平均年发电量); "per
// event" over rows that are not events.
func TestUnderstandNovelClasses(t *testing.T) {
	monthly, _, _, timed := novelTables(t)
	var wb strings.Builder
	wb.WriteString("date,sky,rain,temp_max\n")
	for d := 0; d < 400; d++ {
		fmt.Fprintf(&wb, "%d-%02d-%02d,%s,%d.5,%d\n", 2020+d/200, 1+d/20%10, 1+d%20, []string{"clear", "cloud", "storm"}[d%3], d%7, 10+d%9)
	}
	sky := previewFile(t, "sky.csv", []byte(wb.String()))
	var fb strings.Builder
	fb.WriteString("company,year,capex,assets\n")
	for y := 1990; y < 2000; y++ {
		fmt.Fprintf(&fb, "Acme,%d,%d.5,%d\nBolt,%d,%d.5,%d\n", y, 10+y%7, 100+y%5, y, 20+y%3, 200+y%9)
	}
	firms := previewFile(t, "firms.csv", []byte(fb.String()))
	var jb strings.Builder
	jb.WriteString(`[`)
	for y := 2000; y < 2003; y++ {
		for m := 1; m <= 12; m++ {
			for i, s := range []string{"Mining", "Retail"} {
				if jb.Len() > 1 {
					jb.WriteString(",")
				}
				fmt.Fprintf(&jb, `{"sector":"%s","year":%d,"month":%d,"jobless":%d,"rate":%d.5,"date":"%d-%02d-01T08:00:00.000Z"}`, s, y, m, 100+i*50+m, 3+m%4, y, m)
			}
		}
	}
	jb.WriteString(`]`)
	jobs := previewFile(t, "jobless-by-sector.json", []byte(jb.String()))
	var cb strings.Builder
	cb.WriteString("年份,季度,国内生产总值,人口,人均收入\n")
	for y := 1990; y < 2000; y++ {
		for q := 1; q <= 4; q++ {
			fmt.Fprintf(&cb, "%d,%d,%d.5,%d.1,%d\n", y, q, 1000+y%13*7+q, 200+y%5, 30+y%7)
		}
	}
	econ := previewFile(t, "经济.csv", []byte(cb.String()))
	var hb strings.Builder
	hb.WriteString("Entity,Year,Deaths\n")
	for y := 1990; y < 2000; y++ {
		fmt.Fprintf(&hb, "Drought,%d,%d\nStorm,%d,%d\n", y, 100+y%7, y, 300+y%5)
	}
	hazards := previewFile(t, "disasters.csv", []byte(hb.String()))
	runNovelCases(t, []novelCase{
		{sky, "which weather station had the most rain", nil},
		{sky, "which sky station recorded the most rain", nil},
		{timed, "avg late per gate", &Reading{Analysis: TopN, Measures: []Measure{{"late", "mean"}}, GroupBy: []string{"gate"}}},
		{sky, "distribution of daily highs", &Reading{Analysis: Distribution, Measures: []Measure{{"temp_max", ""}}, Columns: []string{"temp_max"}}}, // the one column of maxima (TestUnderstandCoverageHighsAndLows)
		{sky, "outliers among the lows", nil},
		{sky, "distribution of temp_max", &Reading{Analysis: Distribution, Columns: []string{"temp_max"}, Measures: []Measure{{Column: "temp_max"}}}},
		{firms, "total capex per year across companies", nil},
		{firms, "total capex per year over all companies", &Reading{Analysis: Trend, Measures: []Measure{{"capex", "sum"}}, Time: "year", Grain: "year"}},
		{monthly, "sum of sales over regions per month", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "month"}},
		{firms, "avg capex across companies", &Reading{Analysis: TopN, Measures: []Measure{{"capex", "mean"}}, GroupBy: []string{"company"}}},
		{jobs, "Mining jobless rate by month of year", &Reading{Analysis: Trend, Measures: []Measure{{"rate", "mean"}}, Time: "date", Grain: "month_of_year", Filters: []Filter{{"sector", "=", []string{"Mining"}}}}},
		{jobs, "average rate by month of the year", &Reading{Analysis: Trend, Measures: []Measure{{"rate", "mean"}}, Time: "date", Grain: "month_of_year"}},
		{sky, "一年中各月份的平均rain", &Reading{Analysis: Trend, Measures: []Measure{{"rain", "mean"}}, Time: "date", Grain: "month_of_year"}},
		{monthly, "一年里各季度的总sales", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "quarter_of_year"}},
		{econ, "人均国内生产总值每年的平均值", nil},
		{econ, "每年人均国内生产总值", nil},
		{econ, "每年的人均收入", &Reading{Analysis: Trend, Measures: []Measure{{"人均收入", "mean"}}, Time: "年份", Grain: "year"}},
		{monthly, "按region看平均年sales", nil},
		{monthly, "average yearly sales by region", nil},
		{hazards, "average Deaths per disaster event", nil},
		{hazards, "avg deaths per incident", nil},
		{hazards, "average Deaths per Entity", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "mean"}}, GroupBy: []string{"Entity"}}},
	})
}

// TestUnderstandNovelChineseValueNames: category values that the data
// writes in English (a plural, a ticker, a company's or a state's name)
// named in Chinese, as the novel set's refusals asked (化石燃料 for Fossil
// Fuels, 谷歌 for GOOG, 通用汽车, 加州, 火山).
func TestUnderstandNovelChineseValueNames(t *testing.T) {
	var pb strings.Builder
	pb.WriteString("year,fuel,output\n")
	for y := 2001; y <= 2008; y++ {
		fmt.Fprintf(&pb, "%d-01-01,Fossil Fuels,%d\n%d-01-01,Wind Farms,%d\n", y, 500+y%9, y, 100+y%4)
	}
	grid := previewFile(t, "grid.csv", []byte(pb.String()))
	var sb strings.Builder
	sb.WriteString("ticker,day,close\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&sb, "%s,2005-%02d-%02d,%d.5\n", []string{"GOOG", "MSFT", "AAPL", "AMZN"}[i%4], 1+i/4%12, 1+i%27, 100+i)
	}
	quotes := previewFile(t, "quotes.csv", []byte(sb.String()))
	var cb strings.Builder
	cb.WriteString("owner,year,capex\n")
	for y := 1990; y < 1996; y++ {
		fmt.Fprintf(&cb, "General Motors,%d,%d\nUS Steel,%d,%d\n", y, 10+y%7, y, 20+y%3)
	}
	owners := previewFile(t, "owners.csv", []byte(cb.String()))
	var rb strings.Builder
	rb.WriteString("State,Cause,Year,Losses\n")
	for y := 1990; y < 2000; y++ {
		fmt.Fprintf(&rb, "California,Volcanic activity,%d,%d\nTexas,Flood,%d,%d\n", y, 100+y%7, y, 300+y%5)
	}
	losses := previewFile(t, "losses.csv", []byte(rb.String()))
	runNovelCases(t, []novelCase{
		{grid, "化石燃料每年的output", &Reading{Analysis: Trend, Measures: []Measure{{"output", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"fuel", "=", []string{"Fossil Fuels"}}}}},
		{quotes, "谷歌每月的平均close", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, Time: "day", Grain: "month", Filters: []Filter{{"ticker", "=", []string{"GOOG"}}}}},
		{quotes, "亚马逊每月的close最大值", &Reading{Analysis: Trend, Measures: []Measure{{"close", "max"}}, Time: "day", Grain: "month", Filters: []Filter{{"ticker", "=", []string{"AMZN"}}}}},
		{owners, "通用汽车每年的capex", &Reading{Analysis: Trend, Measures: []Measure{{"capex", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"owner", "=", []string{"General Motors"}}}}},
		{losses, "加州每年的Losses", &Reading{Analysis: Trend, Measures: []Measure{{"Losses", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{{"State", "=", []string{"California"}}}}},
		{losses, "火山造成的Losses每年多少", &Reading{Analysis: Trend, Measures: []Measure{{"Losses", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{{"Cause", "=", []string{"Volcanic activity"}}}}},
		{losses, "太阳能每年的Losses", nil},
	})
}

// TestUnderstandNovelChineseCounts: a Chinese count with its classifier
// (三种, 两家, 五个) is the length of a ranking, as 前3 is; 一个 is "a",
// not one; a time of day named in Chinese (夜间) is its value.
func TestUnderstandNovelChineseCounts(t *testing.T) {
	var wb strings.Builder
	wb.WriteString("date,sky,rain,period\n")
	for d := 0; d < 300; d++ {
		fmt.Fprintf(&wb, "%d-%02d-%02d,%s,%d.5,%s\n", 2020+d/150, 1+d/15%10, 1+d%15, []string{"clear", "cloud", "storm", "fog"}[d%4], d%7+d%4, []string{"Day", "Night"}[d%2])
	}
	sky := previewFile(t, "sky.csv", []byte(wb.String()))
	runNovelCases(t, []novelCase{
		{sky, "平均rain最大的三种sky", &Reading{Analysis: TopN, Measures: []Measure{{"rain", "mean"}}, GroupBy: []string{"sky"}}},
		{sky, "rain总量最少的两种sky", &Reading{Analysis: TopN, Measures: []Measure{{"rain", "sum"}}, GroupBy: []string{"sky"}}},
		{sky, "夜间各sky的平均rain", &Reading{Analysis: TopN, Measures: []Measure{{"rain", "mean"}}, GroupBy: []string{"sky"}, Filters: []Filter{{"period", "=", []string{"Night"}}}}},
	})
	for _, c := range []struct {
		request string
		n       int
	}{{"平均rain最大的三种sky", 3}, {"rain总量最少的两种sky", 2}} {
		r, ok, why := Understand(c.request, []*preview.FilePreview{sky})
		if !ok || r.N != c.n {
			t.Errorf("%s: n %d (ok %v, %s); want %d", c.request, r.N, ok, why, c.n)
		}
	}
}
