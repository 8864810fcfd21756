package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// The classes behind the probe set's wrong answers
// (eval/understanding/probe_src.py), each tested on tables and phrasings
// the set does not have. A want of nil is a refusal (runNovelCases).

// probeTables are small tables of the shapes behind the probe set's wrong
// answers: daily rainfall and gusts, a monthly Chinese-named ozone series,
// yearly output of plants, and headcounts by age group.
func probeTables(t *testing.T) (daily, ozone, plants, ages *preview.FilePreview) {
	var db strings.Builder
	db.WriteString("date,rainfall,gust,sky\n")
	for d := 0; d < 90; d++ {
		fmt.Fprintf(&db, "2021-%02d-%02d,%d.5,%d.25,%s\n", 1+d/30, 1+d%28, d%7, 10+d%9, []string{"clear", "cloud"}[d%2])
	}
	daily = previewFile(t, "rain.csv", []byte(db.String()))
	var ob strings.Builder
	ob.WriteString("日期,臭氧浓度\n")
	for i := 0; i < 48; i++ {
		fmt.Fprintf(&ob, "%d-%02d-01,%d.5\n", 2016+i/12, 1+i%12, 40+i%13)
	}
	ozone = previewFile(t, "ozone.csv", []byte(ob.String()))
	var pb strings.Builder
	pb.WriteString("year,plant,output\n")
	for y := 2001; y <= 2012; y++ {
		fmt.Fprintf(&pb, "%d,North,%d\n%d,South,%d\n", y, 300+y%7, y, 500+y%5)
	}
	plants = previewFile(t, "plants.csv", []byte(pb.String()))
	var ab strings.Builder
	ab.WriteString("年份,年龄组,人数\n")
	for y := 1990; y <= 2010; y += 10 {
		for g := 0; g <= 60; g += 10 {
			fmt.Fprintf(&ab, "%d,%d,%d\n", y, g, 1000+y%7*g+g*3)
		}
	}
	ages = previewFile(t, "ages.csv", []byte(ab.String()))
	return
}

// TestProbeProfileOfNamedColumnIsRefused: "describe rainfall" names one
// column to describe; a profile of the whole table answers another
// question, so it is refused. A profile of the data is still one, and
// so is a column word that names the data (人口数据概况).
func TestProbeProfileOfNamedColumnIsRefused(t *testing.T) {
	daily, _, _, ages := probeTables(t)
	runNovelCases(t, []novelCase{
		{daily, "describe rainfall", nil},
		{daily, "summarize the gust column", nil},
		{daily, "profile the data", &Reading{Analysis: Profile}},
		{daily, "describe this file", &Reading{Analysis: Profile}},
		{ages, "人数数据概况", &Reading{Analysis: Profile}},
	})
}

// TestProbeHighestValueIsMax: 最高值 and 最低值 after a measure are its
// maximum and minimum per period, not the period's mean with "highest"
// dropped.
func TestProbeHighestValueIsMax(t *testing.T) {
	_, ozone, _, _ := probeTables(t)
	runNovelCases(t, []novelCase{
		{ozone, "每年臭氧浓度最高值", &Reading{Analysis: Trend, Measures: []Measure{{"臭氧浓度", "max"}}, Time: "日期", Grain: "year"}},
		{ozone, "历年臭氧浓度的最低值", &Reading{Analysis: Trend, Measures: []Measure{{"臭氧浓度", "min"}}, Time: "日期", Grain: "year"}},
	})
}

// TestProbeTrendDropsNoOrder: a trend lists every period in time order;
// "highest" or 最低 that nothing turned into a maximum or a ranking would
// be dropped, so the request is refused. A question of which period is
// still answered by the trend, and an order word before the measure with
// each is the maximum per period.
func TestProbeTrendDropsNoOrder(t *testing.T) {
	daily, ozone, _, _ := probeTables(t)
	runNovelCases(t, []novelCase{
		{daily, "rainfall highest each month", nil},
		{ozone, "每年臭氧浓度最高", nil},
		{ozone, "历年臭氧浓度最低", nil},
		{daily, "which month had the highest rainfall", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "sum"}}, Time: "date", Grain: "month"}},
		{ozone, "每年最高的臭氧浓度", &Reading{Analysis: Trend, Measures: []Measure{{"臭氧浓度", "max"}}, Time: "日期", Grain: "year"}},
		{daily, "peak gust reading per month", &Reading{Analysis: Trend, Measures: []Measure{{"gust", "max"}}, Time: "date", Grain: "month"}},
	})
}

// TestProbeStatOfPeriodByGroupIsAsked: "median annual output by plant"
// can be each plant's median over the years or a trend of the median per
// year; the trend alone answers the second, so it is refused. Without a
// category, or said per year, it is a trend.
func TestProbeStatOfPeriodByGroupIsAsked(t *testing.T) {
	_, _, plants, _ := probeTables(t)
	runNovelCases(t, []novelCase{
		{plants, "median annual output by plant", nil},
		{plants, "max yearly output for each plant", nil},
		{plants, "minimum annual output per plant", nil},
		{plants, "median output per year", &Reading{Analysis: Trend, Measures: []Measure{{"output", "median"}}, Time: "year", Grain: "year"}},
	})
}

// TestProbeAggregatedDimensionIsRefused: 平均年龄 averages the age, and
// the table's 年龄组 is a category of the rows; reading it as the average
// headcount per age group answers another question. Said with 各 or 按
// it is the grouping.
func TestProbeAggregatedDimensionIsRefused(t *testing.T) {
	_, _, _, ages := probeTables(t)
	runNovelCases(t, []novelCase{
		{ages, "人口的平均年龄", nil},
		{ages, "2000年人数的平均年龄", nil},
		{ages, "各年龄组的平均人数", &Reading{Analysis: TopN, Measures: []Measure{{"人数", "mean"}}, GroupBy: []string{"年龄组"}}},
	})
}
