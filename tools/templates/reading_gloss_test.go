package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// Values named in Chinese where the data writes them in English, a row of
// totals left out by name, and a column word written with two letters
// dropped (reading_gloss.go), each on small tables of their own. A want of
// nil is a refusal (runNovelCases).

// glossTables are yearly investment of firms, penguins by species and
// island, yearly deaths by kind of disaster with a row of all of them, and
// cars by origin.
func glossTables(t *testing.T) (firms, birds, deaths, cars *preview.FilePreview) {
	var fb strings.Builder
	fb.WriteString("firm,year,invest\n")
	for y := 1940; y <= 1949; y++ {
		for i, f := range []string{"Westinghouse", "Goodyear", "General Electric", "Chrysler"} {
			fmt.Fprintf(&fb, "%s,%d,%d.5\n", f, y, 50+i*20+y%5)
		}
	}
	firms = previewFile(t, "firms.csv", []byte(fb.String()))
	var bb strings.Builder
	bb.WriteString("species,island,mass\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&bb, "%s,%s,%d\n", []string{"Gentoo", "Adelie", "Chinstrap"}[i%3], []string{"Biscoe", "Dream"}[i%2], 3000+i*40)
	}
	birds = previewFile(t, "penguins.csv", []byte(bb.String()))
	var db strings.Builder
	db.WriteString("Entity,Year,Deaths\n")
	for y := 1990; y <= 1999; y++ {
		fmt.Fprintf(&db, "All natural disasters,%d,%d\nFlood,%d,%d\nDrought,%d,%d\nEarthquake,%d,%d\n", y, 600+y%9, y, 300+y%5, y, 200+y%3, y, 100+y%4)
	}
	deaths = previewFile(t, "disasters.csv", []byte(db.String()))
	var cb strings.Builder
	cb.WriteString("name,horsepower,origin\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&cb, "car %d,%d,%s\n", i, 70+i*5, []string{"USA", "Japan", "Europe"}[i%3])
	}
	cars = previewFile(t, "cars.csv", []byte(cb.String()))
	return
}

// TestGlossChineseNamesOfValues: a firm, a penguin species or a kind of
// disaster named in Chinese is the one value the data writes in English.
func TestGlossChineseNamesOfValues(t *testing.T) {
	firms, birds, deaths, _ := glossTables(t)
	runNovelCases(t, []novelCase{
		{firms, "西屋历年的invest", &Reading{Analysis: Trend, Measures: []Measure{{"invest", "sum"}}, Time: "year", Grain: "year",
			Filters: []Filter{{"firm", "=", []string{"Westinghouse"}}}}},
		{firms, "固特异和通用电气的平均invest对比", &Reading{Analysis: TopN, Measures: []Measure{{"invest", "mean"}}, GroupBy: []string{"firm"},
			Filters: []Filter{{"firm", "=", []string{"Goodyear", "General Electric"}}}}},
		{birds, "巴布亚企鹅和阿德利企鹅的平均mass对比", &Reading{Analysis: TopN, Measures: []Measure{{"mass", "mean"}}, GroupBy: []string{"species"},
			Filters: []Filter{{"species", "=", []string{"Gentoo", "Adelie"}}}}},
		{deaths, "洪灾每年的死亡人数", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year",
			Filters: []Filter{{"Entity", "=", []string{"Flood"}}}}},
		{deaths, "旱灾和地震的总死亡人数对比", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"},
			Filters: []Filter{{"Entity", "=", []string{"Drought", "Earthquake"}}}}},
		// A name whose value the data lacks is no value at all.
		{deaths, "野火每年的死亡人数", nil},
		{firms, "克莱斯勒和美国钢铁的平均invest对比", nil},
	})
}

// TestGlossTotalRowLeftOut: a row of totals left out by its name ("leave
// out the All natural disasters total", 不含所有自然灾害合计) is an
// exclusion, not a sum asked for.
func TestGlossTotalRowLeftOut(t *testing.T) {
	_, _, deaths, _ := glossTables(t)
	kinds := &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"},
		Filters: []Filter{{"Entity", "!=", []string{"All natural disasters"}}}}
	runNovelCases(t, []novelCase{
		{deaths, "total deaths by entity, leave out the All natural disasters total", kinds},
		{deaths, "total deaths by entity, leaving aside All natural disasters", kinds},
		{deaths, "各类灾害的总死亡人数，不含所有自然灾害合计", kinds},
	})
}

// TestGlossColumnWordWithTwoLettersDropped: horsepwr is horsepower when
// no other column word fits; three letters dropped, or a short word, is
// not guessed.
func TestGlossColumnWordWithTwoLettersDropped(t *testing.T) {
	_, _, _, cars := glossTables(t)
	hp := &Reading{Analysis: TopN, Measures: []Measure{{"horsepower", "mean"}}, GroupBy: []string{"origin"}}
	runNovelCases(t, []novelCase{
		{cars, "average horsepwr by origin", hp},
		{cars, "avg horsepowr by origin", hp},
		{cars, "average hrspwr by origin", nil},
	})
}
