package templates

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/preview"
)

// The classes behind the untried set's wrong answers
// (eval/understanding/untried_src.py), each tested on tables and phrasings
// the set does not have. A want of nil is a refusal (runNovelCases).

// untriedTables are small tables of the shapes behind the untried set's
// wrong answers: yearly output of plants with a headcount (a level),
// monthly sales by region, one row per school, monthly fund prices, daily
// snow, and a monthly payroll beside its monthly change.
func untriedTables(t *testing.T) (plants, sales, schools, funds, snow, payroll *preview.FilePreview) {
	var pb strings.Builder
	pb.WriteString("year,plant,output,employment\n")
	for y := 2001; y <= 2010; y++ {
		fmt.Fprintf(&pb, "%d,North,%d.5,%d\n%d,South,%d.5,%d\n", y, 300+y%7, 40+y%3, y, 500+y%5, 70+y%4)
	}
	plants = previewFile(t, "plants.csv", []byte(pb.String()))
	var sb strings.Builder
	sb.WriteString("period,region,sales\n")
	for i := 0; i < 48; i++ {
		for _, r := range []string{"east", "west", "central"} {
			fmt.Fprintf(&sb, "%d-%02d-01,%s,%d.5\n", 2010+i/12, 1+i%12, r, 100+i%11+len(r))
		}
	}
	sales = previewFile(t, "sales.csv", []byte(sb.String()))
	var cb strings.Builder
	cb.WriteString("school,score,budget\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&cb, "School %c%c,%d.5,%d\n", 'A'+i/26, 'a'+i%26, 60+i*7%31, 1000+i*37%500)
	}
	schools = previewFile(t, "schools.csv", []byte(cb.String()))
	var fb strings.Builder
	fb.WriteString("month,fund,price\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&fb, "%d-%02d-01,Alpha,%d.25\n%d-%02d-01,Beta,%d.75\n", 2011+i/12, 1+i%12, 20+i%9, 2011+i/12, 1+i%12, 40+i%13)
	}
	funds = previewFile(t, "funds.csv", []byte(fb.String()))
	var wb strings.Builder
	wb.WriteString("date,snowfall,sky\n")
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := 0; d < 400; d++ {
		fmt.Fprintf(&wb, "%s,%d.5,%s\n", day.AddDate(0, 0, d).Format("2006-01-02"), d%5, []string{"clear", "cloud", "storm"}[d%3])
	}
	snow = previewFile(t, "snow.csv", []byte(wb.String()))
	var yb strings.Builder
	yb.WriteString("month,payroll,payroll_change\n")
	for i := 0; i < 36; i++ {
		fmt.Fprintf(&yb, "%d-%02d-01,%d,%d\n", 2015+i/12, 1+i%12, 9000+i*13, i%9-4)
	}
	payroll = previewFile(t, "payroll.csv", []byte(yb.String()))
	return
}

// untriedShops is a table of two categories (shop, kind) and an amount.
func untriedShops(t *testing.T) *preview.FilePreview {
	var kb strings.Builder
	kb.WriteString("shop,kind,amount\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&kb, "%s,%s,%d.5\n", []string{"Ash", "Birch", "Cedar"}[i%3], []string{"food", "toys", "tools", "books"}[i%4], 10+i%17)
	}
	return previewFile(t, "shops.csv", []byte(kb.String()))
}

// TestUntriedAllPeriodsAreNoGrain: "across all years", "over all the
// months", "sum of months", 所有年份 name the span a total or an average
// is over, not one result per period: the periods are pooled (each
// plant's total), or, with nothing else to group by, the request asks for
// one number (refused), and a level summed over them is refused.
func TestUntriedAllPeriodsAreNoGrain(t *testing.T) {
	plants, sales, _, _, _, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{plants, "total output of each plant across all years", &Reading{Analysis: TopN, Measures: []Measure{{"output", "sum"}}, GroupBy: []string{"plant"}}},
		{plants, "各plant所有年份的output总和", &Reading{Analysis: TopN, Measures: []Measure{{"output", "sum"}}, GroupBy: []string{"plant"}}},
		{plants, "total employment of North across all years", nil},
		{plants, "各plant的employment总和（全部年份）", nil},
		{sales, "total sales of east over all the months", nil},
		{sales, "east sales in 2011 (sum of months)", nil},
		{plants, "total output per year", &Reading{Analysis: Trend, Measures: []Measure{{"output", "sum"}}, Time: "year", Grain: "year"}},
	})
}

// TestUntriedSumOfCategoryIsNoGrouping: "(sum of regions)" says the
// regions are added up, not one line each.
func TestUntriedSumOfCategoryIsNoGrouping(t *testing.T) {
	_, sales, _, _, _, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{sales, "sales per year (sum of regions)", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "year"}},
		{sales, "quarterly total of regions' sales", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "quarter"}},
		{sales, "sales per year by region", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, GroupBy: []string{"region"}, Time: "period", Grain: "year"}},
	})
}

// TestUntriedDistributionOverSingleRowKey: a distribution "across"
// or "by" a key of one row each (a school in a table of one row per
// school) is the distribution of those rows' values, not one of a single
// value per key.
func TestUntriedDistributionOverSingleRowKey(t *testing.T) {
	_, sales, schools, _, _, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{schools, "distribution of scores across schools", &Reading{Analysis: Distribution, Columns: []string{"score"}, Measures: []Measure{{Column: "score"}}}},
		{schools, "各school的budget分布", &Reading{Analysis: Distribution, Columns: []string{"budget"}, Measures: []Measure{{Column: "budget"}}}},
		// Several rows a region: one distribution per region, which the
		// distribution does not compute (distributionNeeds).
		{sales, "distribution of sales by region", nil},
	})
}

// TestUntriedOrderWordPerPeriodIsMaxOrMin: 最高/最低, highest/lowest
// before a measure asked each period (历年, 逐年, 每年…的, with a filter's
// value between) is the period's maximum or minimum, not its mean.
func TestUntriedOrderWordPerPeriodIsMaxOrMin(t *testing.T) {
	_, _, _, funds, _, _ := untriedTables(t)
	alpha := []Filter{{"fund", "=", []string{"Alpha"}}}
	runNovelCases(t, []novelCase{
		{funds, "Alpha历年最高price", &Reading{Analysis: Trend, Measures: []Measure{{"price", "max"}}, Time: "month", Grain: "year", Filters: alpha}},
		{funds, "逐年最低的price", &Reading{Analysis: Trend, Measures: []Measure{{"price", "min"}}, Time: "month", Grain: "year"}},
		{funds, "每年最高的Alpha price", &Reading{Analysis: Trend, Measures: []Measure{{"price", "max"}}, Time: "month", Grain: "year", Filters: alpha}},
		{funds, "lowest Alpha price each year", &Reading{Analysis: Trend, Measures: []Measure{{"price", "min"}}, Time: "month", Grain: "year", Filters: alpha}},
	})
}

// TestUntriedTopPeriodsAreNoTrend: the N highest periods ("top 3 years",
// 最高的三个年份) are not answered by a trend of every period.
func TestUntriedTopPeriodsAreNoTrend(t *testing.T) {
	plants, sales, _, _, _, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{sales, "top 3 years by total sales", nil},
		{plants, "output最高的三个年份", nil},
		{plants, "bottom 2 years by output", nil},
		{plants, "output per year", &Reading{Analysis: Trend, Measures: []Measure{{"output", "sum"}}, Time: "year", Grain: "year"}},
	})
}

// TestUntriedDaysOfAMeasure: "how many days of snowfall", 有snowfall的天数
// count the days with some, a condition on the values, not how many
// values the column has nor their sum; days of a category value are
// still counted.
func TestUntriedDaysOfAMeasure(t *testing.T) {
	_, _, _, _, snow, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{snow, "how many days of snowfall per month", nil},
		{snow, "number of days with snowfall by year", nil},
		{snow, "每月有snowfall的天数", nil},
		{snow, "how many stormy days per month", &Reading{Analysis: Trend, Time: "date", Grain: "month", Filters: []Filter{{"sky", "=", []string{"storm"}}}}},
	})
}

// TestUntriedChineseCueCompletesColumn: a Chinese word that cues a
// built-in (变化) after a column's name is the rest of a longer column's
// name when one has it (payroll变化 is payroll_change), not a trend of the
// shorter one.
func TestUntriedChineseCueCompletesColumn(t *testing.T) {
	_, _, _, _, _, payroll := untriedTables(t)
	runNovelCases(t, []novelCase{
		{payroll, "2016年每月payroll变化", &Reading{Analysis: Trend, Measures: []Measure{{"payroll_change", "sum"}}, Time: "month", Grain: "month", Filters: []Filter{{"month", "year", []string{"2016"}}}}},
		{payroll, "每年payroll变化的总和", &Reading{Analysis: Trend, Measures: []Measure{{"payroll_change", "sum"}}, Time: "month", Grain: "year"}},
		{payroll, "payroll的变化趋势，按月", &Reading{Analysis: Trend, Measures: []Measure{{"payroll", "sum"}}, Time: "month", Grain: "month"}},
	})
}

// TestUntriedCumulativeIsNoTrend: a cumulative total per period is a
// running total, which a trend of each period's own total is not (found
// probing variants of the untried set's questions, not in it).
func TestUntriedCumulativeIsNoTrend(t *testing.T) {
	_, sales, _, _, snow, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{snow, "cumulative snowfall by month in 2020", nil},
		{sales, "cumulative east sales per quarter", nil},
		{sales, "cumulative sales by region", &Reading{Analysis: TopN, Measures: []Measure{{"sales", "sum"}}, GroupBy: []string{"region"}}},
	})
}

// TestUntriedVersusValuesSplitTheTrend: two values of a category set
// against each other over time ("Alpha vs Beta", 对比) are one line each,
// not one line of the two pooled; grouped by another category they are
// refused, not pooled (found probing, not in the set).
func TestUntriedVersusValuesSplitTheTrend(t *testing.T) {
	_, sales, _, funds, _, _ := untriedTables(t)
	shops := untriedShops(t)
	runNovelCases(t, []novelCase{
		{shops, "Ash vs Birch avg amount by kind", nil},
		{shops, "Ash vs Birch avg amount by shop", &Reading{Analysis: TopN, Measures: []Measure{{"amount", "mean"}}, GroupBy: []string{"shop"}, Filters: []Filter{{"shop", "=", []string{"Ash", "Birch"}}}}},
		{funds, "Alpha vs Beta avg price by year", &Reading{Analysis: Trend, Measures: []Measure{{"price", "mean"}}, GroupBy: []string{"fund"}, Time: "month", Grain: "year", Filters: []Filter{{"fund", "=", []string{"Alpha", "Beta"}}}}},
		{sales, "east和west每季度sales对比", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, GroupBy: []string{"region"}, Time: "period", Grain: "quarter", Filters: []Filter{{"region", "=", []string{"east", "west"}}}}},
		{sales, "east and west sales per quarter", &Reading{Analysis: Trend, Measures: []Measure{{"sales", "sum"}}, Time: "period", Grain: "quarter", Filters: []Filter{{"region", "=", []string{"east", "west"}}}}},
	})
}

// TestUntriedPercentSignIsAShare: "%" asks for a percentage of a total,
// which no built-in computes, though the tokens drop the sign; a column
// whose name has it is still named (found probing, not in the set).
func TestUntriedPercentSignIsAShare(t *testing.T) {
	_, sales, _, _, _, _ := untriedTables(t)
	margins := previewFile(t, "margins.csv", []byte("shop,margin (%)\nA,10.5\nB,12.5\nA,11.5\nC,9.5\n"))
	runNovelCases(t, []novelCase{
		{sales, "% of sales by region", nil},
		{sales, "各region的sales占比％", nil},
		{margins, "avg margin (%) by shop", &Reading{Analysis: TopN, Measures: []Measure{{"margin (%)", "mean"}}, GroupBy: []string{"shop"}}},
	})
}

// TestUntriedColumnsAnalysesPerPeriod: a distribution, an outlier search
// or a correlation asked per period ("by year", 每年) reads all the rows
// at once, so it is refused rather than answered over the whole span; a
// period said of the values ("daily snowfall") is still answered (found
// probing, not in the set).
func TestUntriedColumnsAnalysesPerPeriod(t *testing.T) {
	_, _, _, _, snow, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{snow, "distribution of snowfall by month", nil},
		{snow, "每年snowfall的分布", nil},
		{snow, "snowfall outliers per year", nil},
		{snow, "distribution of daily snowfall", &Reading{Analysis: Distribution, Columns: []string{"snowfall"}, Measures: []Measure{{Column: "snowfall"}}}},
	})
}

// TestUntriedProfileIsNotSplit: a profile is of the whole table; asked
// per period or per category it is refused, not answered unsplit (found
// probing, not in the set).
func TestUntriedProfileIsNotSplit(t *testing.T) {
	_, sales, _, _, _, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{sales, "missing values per year", nil},
		{sales, "profile of the sales data by region", nil},
		{sales, "profile of the sales data", &Reading{Analysis: Profile}},
	})
}

// TestUntriedWorstAndBestNeedADirection: "worst" or "best" ordering a
// count of rows (the worst shops for returns are those with the most),
// or "worst" ordering a measure (the worst delay is the longest), says
// no direction the data holds; "best" of a measure is still its highest
// (found probing, not in the set).
func TestUntriedWorstAndBestNeedADirection(t *testing.T) {
	_, sales, _, _, _, _ := untriedTables(t)
	runNovelCases(t, []novelCase{
		{sales, "worst regions by number of rows", nil},
		{sales, "worst 2 regions by avg sales", nil},
		{sales, "最差的region（按记录数）", nil},
		{sales, "best 2 regions by avg sales", &Reading{Analysis: TopN, Measures: []Measure{{"sales", "mean"}}, GroupBy: []string{"region"}}},
	})
}

// TestUntriedCountedColumnIsNoGrouping: "number of regions per year",
// "how many shops", 多少个不同的kind count a text column's values; the
// column is not a grouping of a row count (found probing, not in the
// set). A count by a column is still one; said distinct (多少个不同的)
// it is a distinct count (TestUnderstandDistinctCounts).
func TestUntriedCountedColumnIsNoGrouping(t *testing.T) {
	_, sales, _, _, _, _ := untriedTables(t)
	shops := untriedShops(t)
	runNovelCases(t, []novelCase{
		{sales, "number of regions per year", nil},
		{shops, "how many kinds per shop", nil},
		{shops, "distinct kinds by shop", &Reading{Analysis: TopN, Measures: []Measure{{"kind", "count_distinct"}}, GroupBy: []string{"shop"}}},
		{shops, "每个shop有多少个不同的kind", &Reading{Analysis: TopN, Measures: []Measure{{"kind", "count_distinct"}}, GroupBy: []string{"shop"}}},
		{shops, "count by kind", &Reading{Analysis: TopN, GroupBy: []string{"kind"}}},
	})
}
