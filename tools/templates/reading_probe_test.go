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
		{daily, "平均rainfall最大的是星期几", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "mean"}}, Time: "date", Grain: "weekday"}},
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

// probeCoverageTables are small tables for the probe set's refusals of
// answerable questions: sales of shops by kind, a Chinese table of people
// by year and sex (男, 女 only), sales by region with Chinese names, and daily
// rain in a file named for its city.
func probeCoverageTables(t *testing.T) (shops, people, cities, oslo *preview.FilePreview) {
	shops = untriedShops(t)
	var pb strings.Builder
	pb.WriteString("年份,性别,人数\n")
	for y := 2001; y <= 2010; y++ {
		fmt.Fprintf(&pb, "%d,男,%d\n%d,女,%d\n", y, 500+y%7, y, 520+y%5)
	}
	people = previewFile(t, "people.csv", []byte(pb.String()))
	var cb strings.Builder
	cb.WriteString("地区,销售额\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&cb, "%s,%d.5\n", []string{"北京", "上海", "广州"}[i%3], 100+i*7%23)
	}
	cities = previewFile(t, "cities.csv", []byte(cb.String()))
	var ob strings.Builder
	ob.WriteString("date,rainfall,sky\n")
	for d := 0; d < 120; d++ {
		fmt.Fprintf(&ob, "2022-%02d-%02d,%d.5,%s\n", 1+d/30, 1+d%28, d%6, []string{"clear", "cloud"}[d%2])
	}
	oslo = previewFile(t, "oslo-weather.csv", []byte(ob.String()))
	return
}

// TestProbeVersusGroupsByTheValues: values set against each other with
// nothing else grouping ("Ash vs Birch total amount", 男性和女性人数对比)
// are one result each, a ranking of those values by their column, not
// one number or a refusal; a filter that keeps every value of the column
// (男, 女 of 性别) is dropped. Values said with "and" alone are one
// result each too (TestListedValuesAreOneResultEach).
func TestProbeVersusGroupsByTheValues(t *testing.T) {
	shops, people, _, _ := probeCoverageTables(t)
	runNovelCases(t, []novelCase{
		{shops, "Ash vs Birch: total amount", &Reading{Analysis: TopN, Measures: []Measure{{"amount", "sum"}}, GroupBy: []string{"shop"}, Filters: []Filter{{"shop", "=", []string{"Ash", "Birch"}}}}},
		{shops, "toys versus books, how many rows", &Reading{Analysis: TopN, GroupBy: []string{"kind"}, Filters: []Filter{{"kind", "=", []string{"toys", "books"}}}}},
		{people, "2005年男性和女性人数对比", &Reading{Analysis: TopN, Measures: []Measure{{"人数", "sum"}}, GroupBy: []string{"性别"}, Time: "年份", Filters: []Filter{{"年份", "year", []string{"2005"}}}}},
		{shops, "Ash and Birch total amount", &Reading{Analysis: TopN, Measures: []Measure{{"amount", "sum"}}, GroupBy: []string{"shop"}, Filters: []Filter{{"shop", "=", []string{"Ash", "Birch"}}}}},
	})
}

// TestProbeOrderPhrases: 从高到低, 从低到高 and "lowest first" order a
// ranking; 排 ranks.
func TestProbeOrderPhrases(t *testing.T) {
	shops, _, cities, _ := probeCoverageTables(t)
	runNovelCases(t, []novelCase{
		{cities, "各地区销售额从低到高", &Reading{Analysis: TopN, Measures: []Measure{{"销售额", "sum"}}, GroupBy: []string{"地区"}}},
		{cities, "各地区销售额从高到低排", &Reading{Analysis: TopN, Measures: []Measure{{"销售额", "sum"}}, GroupBy: []string{"地区"}}},
		{shops, "total amount per kind, smallest first", &Reading{Analysis: TopN, Measures: []Measure{{"amount", "sum"}}, GroupBy: []string{"kind"}}},
	})
	for request, want := range map[string]string{"各地区销售额从低到高": "asc", "各地区销售额从大到小": "desc", "avg amount by shop, lowest first": "asc", "avg amount by shop, highest first": "desc"} {
		file := cities
		if !strings.ContainsAny(request, "地") {
			file = shops
		}
		r, ok, why := Understand(request, []*preview.FilePreview{file})
		if !ok || r.Order != want {
			t.Errorf("%s: ok %v, order %q (%s); want %q", request, ok, r.Order, why, want)
		}
	}
}

// TestProbePlaceOfTheFile: a word of the file's name said as the place
// the data is about ("in oslo", "Oslo's …" on oslo-weather.csv) is the
// file, not a word left unplaced.
func TestProbePlaceOfTheFile(t *testing.T) {
	_, _, _, oslo := probeCoverageTables(t)
	runNovelCases(t, []novelCase{
		{oslo, "avg rainfall by month in oslo", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "mean"}}, Time: "date", Grain: "month"}},
		{oslo, "Oslo's total rainfall per month", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "sum"}}, Time: "date", Grain: "month"}},
		{oslo, "oslo rainfall", nil},
	})
}

// TestProbeTogetherSaysNothing: 合起来 after 所有工作表 says the sheets
// are taken together, which 所有工作表 already says.
func TestProbeTogetherSaysNothing(t *testing.T) {
	stores := previewFile(t, "stores.xlsx", storesWorkbook(t))
	runNovelCases(t, []novelCase{
		{stores, "所有工作表合起来，每张表的平均revenue", &Reading{Analysis: TopN, Sheet: "*", Measures: []Measure{{"revenue", "mean"}}, GroupBy: []string{"sheet"}}},
	})
}

// TestProbeWordsOfTheRefusals: 有关 asks for a correlation, 损伤程度 names
// a damage column, "most populous" ranks by population, "mfg" is
// manufacturing, and "cloudy days only" with another period keeps the
// cloudy rows rather than naming a second grain.
func TestProbeWordsOfTheRefusals(t *testing.T) {
	daily, _, _, _ := probeTables(t)
	_, _, _, oslo := probeCoverageTables(t)
	var ib strings.Builder
	ib.WriteString("incident,damage,cost\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&ib, "E%d,%s,%d.5\n", i, []string{"none", "minor", "severe"}[i%3], 100+i*13%37)
	}
	incidents := previewFile(t, "incidents.csv", []byte(ib.String()))
	var cb strings.Builder
	cb.WriteString("year,city,population\n")
	for y := 2000; y <= 2010; y += 5 {
		for i, c := range []string{"Avon", "Brill", "Corfe", "Dunn"} {
			fmt.Fprintf(&cb, "%d,%s,%d\n", y, c, 1000*(i+1)+y%7)
		}
	}
	towns := previewFile(t, "towns.csv", []byte(cb.String()))
	var mb strings.Builder
	mb.WriteString("month,manufacturing,retail\n")
	for i := 0; i < 36; i++ {
		fmt.Fprintf(&mb, "%d-%02d-01,%d,%d\n", 2015+i/12, 1+i%12, 900+i%7, 400+i%5)
	}
	jobs := previewFile(t, "jobs.csv", []byte(mb.String()))
	runNovelCases(t, []novelCase{
		{daily, "rainfall和gust有关吗", &Reading{Analysis: Correlation, Measures: []Measure{{"rainfall", ""}, {"gust", ""}}, Columns: []string{"rainfall", "gust"}}},
		{incidents, "各损伤程度的平均cost", &Reading{Analysis: TopN, Measures: []Measure{{"cost", "mean"}}, GroupBy: []string{"damage"}}},
		{towns, "3 most populous cities in 2010", &Reading{Analysis: TopN, Measures: []Measure{{"population", "sum"}}, GroupBy: []string{"city"}, Time: "year", Filters: []Filter{{"year", "year", []string{"2010"}}}}},
		{jobs, "avg mfg per year", &Reading{Analysis: Trend, Measures: []Measure{{"manufacturing", "mean"}}, Time: "month", Grain: "year"}},
		{oslo, "total rainfall by month, cloud days only", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "sum"}}, Time: "date", Grain: "month", Filters: []Filter{{"sky", "=", []string{"cloud"}}}}},
	})
}

// TestValueDaysAreTheRowsNotAGrain: "on rainy days" names the rows the
// value keeps, not a day grain, with or without another period: "avg
// rainfall on cloud days" is one average over those days, which no
// built-in gives (it was a daily trend of them, 641 rows for "avg wind on
// rainy days"), while "daily rainfall on cloud days" still asks per day.
func TestValueDaysAreTheRowsNotAGrain(t *testing.T) {
	_, _, _, oslo := probeCoverageTables(t)
	runNovelCases(t, []novelCase{
		{oslo, "avg rainfall on cloud days", nil},
		{oslo, "average rainfall for cloud days", nil},
		{oslo, "daily rainfall on cloud days", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "sum"}}, Time: "date", Grain: "day", Filters: []Filter{{"sky", "=", []string{"cloud"}}}}},
		{oslo, "total rainfall by month, cloud days only", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "sum"}}, Time: "date", Grain: "month", Filters: []Filter{{"sky", "=", []string{"cloud"}}}}},
	})
}

// TestProbeSynonymInAName: "bill length" names Beak Length (mm) through
// the synonym bill → beak; bill alone is still either beak column.
func TestProbeSynonymInAName(t *testing.T) {
	var bb strings.Builder
	bb.WriteString("Kind,Beak Length (mm),Beak Depth (mm),Wing Length (mm)\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&bb, "%s,%d.5,%d.25,%d\n", []string{"tern", "gull"}[i%2], 30+i%9, 14+i%5, 200+i%11)
	}
	birds := previewFile(t, "birds.csv", []byte(bb.String()))
	runNovelCases(t, []novelCase{
		{birds, "avg bill length per kind", &Reading{Analysis: TopN, Measures: []Measure{{"Beak Length (mm)", "mean"}}, GroupBy: []string{"Kind"}}},
		{birds, "median bill depth by kind", &Reading{Analysis: TopN, Measures: []Measure{{"Beak Depth (mm)", "median"}}, GroupBy: []string{"Kind"}}},
		{birds, "avg bill per kind", nil},
	})
}
