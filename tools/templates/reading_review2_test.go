package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// The classes of wrong answers a second review of the reading parser
// found, each tested on tables of its own. A want of nil is a refusal
// (runNovelCases).

// review2Tables are two years of daily wind and precipitation by weather,
// and a table of one row per state with two measures.
func review2Tables(t *testing.T) (daily, states *preview.FilePreview) {
	var db strings.Builder
	db.WriteString("date,wind,precipitation,weather\n")
	for d := 0; d < 96; d++ {
		fmt.Fprintf(&db, "%d-%02d-%02d,%d.5,%d.2,%s\n", 2020+d/48, 1+(d%48)/4, 1+7*(d%4), d%9, d%5, []string{"rain", "sun", "fog"}[d%3])
	}
	daily = previewFile(t, "weather.csv", []byte(db.String()))
	var sb strings.Builder
	sb.WriteString("state,poverty,murder\n")
	for i, s := range []string{"Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado"} {
		fmt.Fprintf(&sb, "%s,%d.5,%d.1\n", s, 10+i, 3+i%4)
	}
	states = previewFile(t, "states.csv", []byte(sb.String()))
	return
}

// TestReview2CorrelationPerGroupIsRefused: "correlation between wind and
// precipitation by weather" was answered with one r of all the rows under
// a first line saying "per weather"; the correlation never splits by a
// category. Groups of one row each (states) are the rows correlated.
func TestReview2CorrelationPerGroupIsRefused(t *testing.T) {
	daily, states := review2Tables(t)
	both := &Reading{Analysis: Correlation, Measures: []Measure{{"wind", ""}, {"precipitation", ""}}, Columns: []string{"wind", "precipitation"}}
	runNovelCases(t, []novelCase{
		{daily, "correlation between wind and precipitation by weather", nil},
		{daily, "how does wind relate to precipitation for each weather", nil},
		{daily, "correlation of wind and precipitation per weather in 2020", nil},
		{daily, "按天气分组，风速与降水的相关系数", nil},
		{daily, "correlation between wind and precipitation", both},
		{daily, "风速和降水的相关性", both},
		{states, "correlation between poverty and murder across states", &Reading{Analysis: Correlation, Measures: []Measure{{"poverty", ""}, {"murder", ""}}, Columns: []string{"poverty", "murder"}}},
	})
}

// TestReview2ComparisonPerGroupIsRefused: "year over year change in
// precipitation by weather" was answered with the change of all the rows'
// total under a first line without the weather; a comparison with the
// period before follows one series. Two years compared per group are
// computed per group, and still answered.
func TestReview2ComparisonPerGroupIsRefused(t *testing.T) {
	daily, _ := review2Tables(t)
	runNovelCases(t, []novelCase{
		{daily, "year over year change in precipitation by weather", nil},
		{daily, "month over month change of total precipitation for each weather", nil},
		{daily, "mom change in average wind by weather in 2021", nil},
		{daily, "各天气的降水量同比变化", nil},
		{daily, "按天气看降水量的环比", nil},
		{daily, "year over year change in precipitation", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"precipitation", "sum"}}, Time: "date", Compare: "yoy"}},
		{daily, "compare total precipitation 2020 vs 2021 by weather", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"precipitation", "sum"}}, GroupBy: []string{"weather"}, Time: "date", Grain: "year", Periods: []string{"2020", "2021"}}},
	})
}

// TestReview2SubjectAfterEachIsTheGroup: in "各天气风速的分布" over a file
// named for the weather, 天气风速 was read as wind alone (the file's
// subject need not be said) and 各 with it, so one distribution of all
// the wind was answered where one per weather was asked. After a by or
// each word, a subject word that names a text column is the grouping.
func TestReview2SubjectAfterEachIsTheGroup(t *testing.T) {
	daily, _ := review2Tables(t)
	runNovelCases(t, []novelCase{
		{daily, "各天气风速的分布", nil},
		{daily, "每种天气风速的分布", nil},
		{daily, "各天气风速和降水的相关性", nil},
		{daily, "各天气风速的异常值", &Reading{Analysis: Outliers, Measures: []Measure{{"wind", ""}}, GroupBy: []string{"weather"}, Columns: []string{"wind"}}},
		{daily, "各天气风速的平均值", &Reading{Analysis: TopN, Measures: []Measure{{"wind", "mean"}}, GroupBy: []string{"weather"}, Order: "desc"}},
		{daily, "天气风速的分布", &Reading{Analysis: Distribution, Measures: []Measure{{"wind", ""}}, Columns: []string{"wind"}}},
	})
}

// TestReview2CountOfWhatShowsAllIsRefused: "top 5 outliers in wind" was
// answered with every outlier, "distribution of the top 3 wind values"
// with every value's, a pivot "前3名" with every cell and two years
// compared "for the top 2 weathers" with every weather: the built-ins
// that show all they find take no count, so a count asked is refused.
func TestReview2CountOfWhatShowsAllIsRefused(t *testing.T) {
	daily, _ := review2Tables(t)
	runNovelCases(t, []novelCase{
		{daily, "top 5 outliers in wind", nil},
		{daily, "the 3 most unusual wind values", nil},
		{daily, "distribution of the top 3 wind values", nil},
		{daily, "pivot of average wind by weather and year, top 3", nil},
		{daily, "compare total precipitation 2020 vs 2021 for the top 2 weathers", nil},
		{daily, "风速最高的5个异常值", nil},
		{daily, "按天气和年份的平均风速透视表，前3名", nil},
		{daily, "outliers in wind", &Reading{Analysis: Outliers, Measures: []Measure{{"wind", ""}}, Columns: []string{"wind"}}},
		{daily, "top 2 weather by average wind", &Reading{Analysis: TopN, Measures: []Measure{{"wind", "mean"}}, GroupBy: []string{"weather"}, Order: "desc"}},
		{daily, "平均风速前2的天气", &Reading{Analysis: TopN, Measures: []Measure{{"wind", "mean"}}, GroupBy: []string{"weather"}, Order: "desc"}},
	})
}

// TestReview2RelativePeriodIsRefused: "average price this year" was
// answered with a trend of every year, 上个月的平均价格 with one of every
// month, and "average wind in the last year" with each year against the
// one before: a period counted back from now is no filter the built-ins
// read. The period a value is compared with still compares.
func TestReview2RelativePeriodIsRefused(t *testing.T) {
	daily, _ := review2Tables(t)
	yoy := &Reading{Analysis: ComparePeriods, Measures: []Measure{{"wind", "mean"}}, Time: "date", Compare: "yoy"}
	runNovelCases(t, []novelCase{
		{daily, "average wind this year", nil},
		{daily, "total precipitation by weather this month", nil},
		{daily, "average wind in the last year", nil},
		{daily, "monthly average wind over the last year", nil},
		{daily, "今年的平均风速", nil},
		{daily, "上个月的平均风速", nil},
		{daily, "本月各天气的降水量", nil},
		{daily, "average wind vs last year", yoy},
		{daily, "average wind compared to the previous year", yoy},
		{daily, "average wind year over year", yoy},
	})
}

// firmsTable is three firms' investment each year.
func firmsTable(t *testing.T) *preview.FilePreview {
	var b strings.Builder
	b.WriteString("firm,year,invest\n")
	for y := 2001; y <= 2010; y++ {
		for i, f := range []string{"Acme", "Globex", "Initech"} {
			fmt.Fprintf(&b, "%s,%d,%d.5\n", f, y, 100+10*i+y%7)
		}
	}
	return previewFile(t, "grunfeld.csv", []byte(b.String()))
}

// TestReview2AllOfACategoryIsPooled: "total invest of all firms per year"
// was answered with one line per firm and "total invest of all firms"
// with a ranking of the firms: all before a category pools its values.
func TestReview2AllOfACategoryIsPooled(t *testing.T) {
	firms := firmsTable(t)
	total := &Reading{Analysis: Trend, Measures: []Measure{{"invest", "sum"}}, Time: "year", Grain: "year"}
	runNovelCases(t, []novelCase{
		{firms, "total invest of all firms per year", total},
		{firms, "total invest of all the firms by year", total},
		{firms, "所有公司每年的总投资", total},
		{firms, "total invest of all firms", nil},
		{firms, "全部公司的投资总和", nil},
		{firms, "total invest by firm", &Reading{Analysis: TopN, Measures: []Measure{{"invest", "sum"}}, GroupBy: []string{"firm"}, Order: "desc"}},
	})
}

// TestReview2ShareOfTotalPerGroupIsRefused: "precipitation share by
// weather" and 各天气降水量占比 were answered with each weather's mean
// precipitation, the share word taken to call the column a share; over
// groups of several rows it asks each group's part of the total, which no
// built-in computes. Over one row a state the column is the share.
func TestReview2ShareOfTotalPerGroupIsRefused(t *testing.T) {
	daily, states := review2Tables(t)
	runNovelCases(t, []novelCase{
		{daily, "precipitation share by weather", nil},
		{daily, "precipitation proportion per month", nil},
		{daily, "各天气降水量占比", nil},
		{daily, "每月降水量比例", nil},
		{states, "lowest 3 states by poverty share", &Reading{Analysis: TopN, Measures: []Measure{{"poverty", "mean"}}, GroupBy: []string{"state"}, Order: "asc"}},
		{states, "poverty比例最低的3个州", &Reading{Analysis: TopN, Measures: []Measure{{"poverty", "mean"}}, GroupBy: []string{"state"}, Order: "asc"}},
		{daily, "total precipitation by weather", &Reading{Analysis: TopN, Measures: []Measure{{"precipitation", "sum"}}, GroupBy: []string{"weather"}, Order: "desc"}},
	})
}

// TestReview2OrderOfWhatKeepsItsOwnIsRefused: "pivot of the highest wind
// by weather and year" was answered with each cell's mean wind, and
// 最高风速的分布 with the distribution of every wind value: a pivot and a
// distribution list their rows in an order of their own, so an order
// word is refused, not dropped.
func TestReview2OrderOfWhatKeepsItsOwnIsRefused(t *testing.T) {
	daily, _ := review2Tables(t)
	runNovelCases(t, []novelCase{
		{daily, "pivot of the highest wind by weather and year", nil},
		{daily, "pivot of average wind by weather and year, lowest first", nil},
		{daily, "distribution of the highest wind values", nil},
		{daily, "最高风速的分布", nil},
		{daily, "按天气和年份的最高风速透视表", nil},
		{daily, "pivot of max wind by weather and year", &Reading{Analysis: Pivot, Measures: []Measure{{"wind", "max"}}, GroupBy: []string{"weather"}, Time: "date", Grain: "year"}},
		{daily, "风速的分布", &Reading{Analysis: Distribution, Measures: []Measure{{"wind", ""}}, Columns: []string{"wind"}}},
	})
}
