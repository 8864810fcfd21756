package templates

import (
	"fmt"
	"strings"
	"testing"
)

// TestListedValuesAreOneResultEach: values of one column listed side by
// side ("MSFT and IBM", 西屋和固特异) with nothing else to group by are one
// result each, not one number of the values pooled: a mean price of two
// stocks is no stock's price. A list that keeps every value of its column
// (男性和女性 of 性别) keeps every row and is no filter.
func TestListedValuesAreOneResultEach(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("ticker,day,close\n")
	for d := 0; d < 400; d++ {
		for i, s := range []string{"AAA", "BBB", "CCC"} {
			fmt.Fprintf(&sb, "%s,%s,%d.25\n", s, dayOf(d), 20+i*30+d%11)
		}
	}
	stocks := previewFile(t, "quotes.csv", []byte(sb.String()))
	var pb strings.Builder
	pb.WriteString("年份,性别,人数\n")
	for y := 1990; y <= 2010; y += 10 {
		fmt.Fprintf(&pb, "%d,男,%d\n%d,女,%d\n", y, 500+y%7, y, 480+y%5)
	}
	people := previewFile(t, "people.csv", []byte(pb.String()))
	two := []Filter{{"ticker", "=", []string{"AAA", "CCC"}}}
	byTicker := []string{"ticker"}
	runNovelCases(t, []novelCase{
		{stocks, "monthly avg close of AAA and CCC", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, GroupBy: byTicker, Time: "day", Grain: "month", Filters: two}},
		{stocks, "AAA和CCC每年的平均close", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, GroupBy: byTicker, Time: "day", Grain: "year", Filters: two}},
		{stocks, "AAA and CCC avg close in 2021", &Reading{Analysis: TopN, Measures: []Measure{{"close", "mean"}}, GroupBy: byTicker, Time: "day",
			Filters: append(append([]Filter{}, two...), Filter{"day", "year", []string{"2021"}})}},
		{stocks, "AAA、CCC的平均close", &Reading{Analysis: TopN, Measures: []Measure{{"close", "mean"}}, GroupBy: byTicker, Filters: two}},
		// Every ticker listed keeps every row; a total of prices is none.
		{stocks, "avg close of AAA, BBB and CCC", &Reading{Analysis: TopN, Measures: []Measure{{"close", "mean"}}, GroupBy: byTicker}},
		{stocks, "total close of AAA, BBB and CCC", nil},
		// One value is a filter, and one number is no built-in's.
		{stocks, "AAA avg close in 2021", nil},
		{stocks, "monthly avg close of AAA", &Reading{Analysis: Trend, Measures: []Measure{{"close", "mean"}}, Time: "day", Grain: "month",
			Filters: []Filter{{"ticker", "=", []string{"AAA"}}}}},
		{people, "2000年男性和女性人数", &Reading{Analysis: TopN, Measures: []Measure{{"人数", "sum"}}, GroupBy: []string{"性别"}, Time: "年份",
			Filters: []Filter{{"年份", "year", []string{"2000"}}}}},
	})
}

// dayOf is the date d days after 1 January 2020.
func dayOf(d int) string {
	return fmt.Sprintf("%d-%02d-%02d", 2020+d/336, 1+d%336/28, 1+d%28)
}
