package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// The shapes of requests of reading_shape.go, each tested on tables of
// its own. A want of nil is a refusal (runNovelCases).

// shapeTables are two years of daily rainfall and gusts under a sky, with
// English names and with Chinese ones.
func shapeTables(t *testing.T) (en, zh *preview.FilePreview) {
	var eb, zb strings.Builder
	eb.WriteString("date,rainfall,gust,sky\n")
	zb.WriteString("日期,降雨量,风速,天气\n")
	for d := 0; d < 120; d++ {
		row := fmt.Sprintf("%d-%02d-%02d,%d.5,%d.25,%s\n", 2020+d/60, 1+(d%60)/5, 1+5*(d%5), d%7, 10+d%9, []string{"clear", "cloud", "storm"}[d%3])
		eb.WriteString(row)
		zb.WriteString(row)
	}
	return previewFile(t, "gauges.csv", []byte(eb.String())), previewFile(t, "测站.csv", []byte(zb.String()))
}

// TestShapeAggregateOfColumnsIsRefused: "distribution of max wind" was
// answered with the distribution of every wind value, the max dropped;
// the built-ins that read a column value by value take no aggregation of
// it.
func TestShapeAggregateOfColumnsIsRefused(t *testing.T) {
	en, zh := shapeTables(t)
	gust := &Reading{Analysis: Distribution, Measures: []Measure{{"gust", ""}}, Columns: []string{"gust"}}
	runNovelCases(t, []novelCase{
		{en, "distribution of max gust", nil},
		{en, "histogram of the average rainfall", nil},
		{en, "outliers in the maximum gust", nil},
		{en, "correlation between mean gust and rainfall", nil},
		{zh, "风速最大值的分布", nil},
		{zh, "平均降雨量的分布", nil},
		{en, "distribution of gust", gust},
		{zh, "风速的分布", &Reading{Analysis: Distribution, Measures: []Measure{{"风速", ""}}, Columns: []string{"风速"}}},
	})
}

// TestShapeOrderOfComparisonIsRefused: "highest first" and "top" were
// dropped by a comparison of periods, which lists its periods in time
// order, and by outliers, which lists the rows in the file's order: an
// order asked of either is refused.
func TestShapeOrderOfComparisonIsRefused(t *testing.T) {
	en, zh := shapeTables(t)
	runNovelCases(t, []novelCase{
		{en, "compare total rainfall 2020 vs 2021, highest first", nil},
		{en, "compare total rainfall 2020 vs 2021 by sky, top sky first", nil},
		{en, "outliers in gust, lowest first", nil},
		{en, "rainfall year over year, sorted ascending", nil},
		{zh, "比较2020年和2021年的降雨量，从高到低", nil},
		{zh, "风速的异常值，从大到小", nil},
		{en, "compare total rainfall 2020 vs 2021", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"rainfall", "sum"}}, Time: "date", Grain: "year", Periods: []string{"2020", "2021"}}},
		{en, "outliers in gust", &Reading{Analysis: Outliers, Measures: []Measure{{"gust", ""}}, Columns: []string{"gust"}}},
		// "readings" is a word of the request, not a typo of "leading".
		{en, "unusual gust readings", &Reading{Analysis: Outliers, Measures: []Measure{{"gust", ""}}, Columns: []string{"gust"}}},
	})
}

// TestShapeComparedWithThePeriodBefore: 与去年相比 and 比上月 left 去年
// and 比 unplaced; said after a word that compares, a period counted back
// is the comparison, as "vs last year" is. Alone it is still refused.
func TestShapeComparedWithThePeriodBefore(t *testing.T) {
	_, zh := shapeTables(t)
	runNovelCases(t, []novelCase{
		{zh, "降雨量与去年相比", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"降雨量", "sum"}}, Time: "日期", Compare: "yoy"}},
		{zh, "平均风速比上月", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"风速", "mean"}}, Time: "日期", Compare: "mom"}},
		{zh, "每季度降雨量较上季度的变化", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"降雨量", "sum"}}, Time: "日期", Grain: "quarter", Compare: "qoq"}},
		{zh, "去年的降雨量", nil},
		{zh, "上个月的平均风速", nil},
	})
}

// TestShapeCompareHeadSaysThePeriod: "yoy by quarter" compared quarters
// under a first line that said no quarter ("Total of precipitation year
// over year"); a year over year comparison with no grain compares months
// and says so.
func TestShapeCompareHeadSaysThePeriod(t *testing.T) {
	en, zh := shapeTables(t)
	for _, tt := range []struct {
		file    *preview.FilePreview
		request string
		want    string
	}{
		{en, "rainfall yoy by quarter", "Total of rainfall per quarter, year over year"},
		{en, "rainfall year over year", "Total of rainfall per month, year over year"},
		{en, "rainfall month over month", "Total of rainfall, month over month"},
		{zh, "降雨量同比", "降雨量 的总和，按月，同比"},
		{zh, "按季度的降雨量同比", "降雨量 的总和，按季度，同比"},
	} {
		r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.file})
		if !ok {
			t.Errorf("%s: refused: %s", tt.request, why)
			continue
		}
		if got := r.Text(LangOf(tt.request)); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: first line %q, want it to start %q", tt.request, got, tt.want)
		}
	}
}
