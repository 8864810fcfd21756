package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// censusCSV is a census every ten years from 1850, by sex and a coded
// age band (0, 10, 20…): the headcount is a level counted at each census.
func censusCSV() []byte {
	var b strings.Builder
	b.WriteString("census_year,age_band,sex,persons\n")
	for y := 1850; y <= 1950; y += 10 {
		for a := 0; a <= 80; a += 10 {
			for i, s := range []string{"M", "F"} {
				fmt.Fprintf(&b, "%d,%d,%s,%d\n", y, a, s, 1000+y-1850+a*3+i)
			}
		}
	}
	return []byte(b.String())
}

// stockroomCSV is a monthly inventory per store with the units sold in
// the month (a flow) beside the stock on hand (a level).
func stockroomCSV() []byte {
	var b strings.Builder
	b.WriteString("month,store,inventory,units_sold\n")
	for y := 2020; y <= 2022; y++ {
		for m := 1; m <= 12; m++ {
			for i, s := range []string{"North", "South", "East"} {
				fmt.Fprintf(&b, "%d-%02d-01,%s,%d,%d\n", y, m, s, 500+10*m+i, 40+m+i)
			}
		}
	}
	return []byte(b.String())
}

// quarterlyCSV is a quarterly series written as a year and a quarter
// number: a year holds four points of time.
func quarterlyCSV() []byte {
	var b strings.Builder
	b.WriteString("year,quarter,gdp,population\n")
	for y := 1990; y <= 1999; y++ {
		for q := 1; q <= 4; q++ {
			fmt.Fprintf(&b, "%d,%d,%d.5,%d.25\n", y, q, 100+y-1990+q, 250+y-1990)
		}
	}
	return []byte(b.String())
}

// fishCSV is one row per fish caught: body measurements, never added up.
func fishCSV() []byte {
	var b strings.Builder
	b.WriteString("species,lake,length_cm,width_cm,catch_weight_g\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "%s,%s,%d,%d,%d\n", []string{"Perch", "Pike", "Roach"}[i%3], []string{"Ness", "Lomond"}[i%2], 20+i, 5+i%4, 300+10*i)
	}
	return []byte(b.String())
}

// TestUnderstandNeverSumsWhatDoesNotAdd: a coded category (an age band
// of integer codes), a level counted at each point of time (a census
// headcount, an inventory) summed over several of them, and a body
// measurement are never added up; each is refused or read otherwise, in
// English and in Chinese, on tables and names the evaluation does not use.
func TestUnderstandNeverSumsWhatDoesNotAdd(t *testing.T) {
	files := map[string]*preview.FilePreview{
		"census": previewFile(t, "population_census.csv", censusCSV()),
		"stock":  previewFile(t, "stockroom.csv", stockroomCSV()),
		"fish":   previewFile(t, "fish.csv", fishCSV()),
		"qtr":    previewFile(t, "macro.csv", quarterlyCSV()),
		"qtrcn":  previewFile(t, "宏观.csv", []byte(strings.NewReplacer("year", "年度", "quarter", "季度", "gdp", "产出", "population", "人口").Replace(string(quarterlyCSV())))),
		"cn":     previewFile(t, "人口普查.csv", []byte(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(string(censusCSV()), "census_year", "年份"), "age_band", "客户组"), "sex", "性别"), "persons", "人口"))),
	}
	tests := []struct {
		file, request string
		want          *Reading // nil: refused
		why           string   // refused: a word Why must say
	}{
		// A coded category is grouped by, never summed.
		{"census", "total age band by sex", nil, "no measure"},
		{"census", "top 3 age bands by persons in 1900", &Reading{Analysis: TopN, Measures: []Measure{{"persons", "sum"}}, GroupBy: []string{"age_band"}, Order: "desc", N: 3, Time: "census_year", Filters: []Filter{{"census_year", "year", []string{"1900"}}}}, ""},
		{"cn", "按性别统计客户组的总和", nil, "度量"},
		// A level summed over several censuses means nothing.
		{"census", "total persons by sex", nil, "census_year"},
		{"census", "persons by sex", nil, "census_year"},
		{"cn", "按性别统计总人口", nil, "年份"},
		// One census, or one sum per census, is a headcount.
		{"census", "total persons by sex in 1860", &Reading{Analysis: TopN, Measures: []Measure{{"persons", "sum"}}, GroupBy: []string{"sex"}, Order: "desc", Time: "census_year", Filters: []Filter{{"census_year", "year", []string{"1860"}}}}, ""},
		{"census", "total persons per year", &Reading{Analysis: Trend, Measures: []Measure{{"persons", "sum"}}, Time: "census_year", Grain: "year"}, ""},
		{"census", "average persons by sex", &Reading{Analysis: TopN, Measures: []Measure{{"persons", "mean"}}, GroupBy: []string{"sex"}, Order: "desc"}, ""},
		{"census", "pivot of persons by sex and year", &Reading{Analysis: Pivot, Measures: []Measure{{"persons", "sum"}}, GroupBy: []string{"sex"}, Time: "census_year", Grain: "year"}, ""},
		{"census", "total persons by sex in 1990", nil, "1990"},
		// A monthly inventory: per month it adds up over stores, per year
		// or per store over months it does not; the units sold do.
		{"stock", "inventory per month", &Reading{Analysis: Trend, Measures: []Measure{{"inventory", "sum"}}, Time: "month", Grain: "month"}, ""},
		{"stock", "total inventory per year", nil, "inventory"},
		{"stock", "total inventory by store", nil, "inventory"},
		{"stock", "各门店的库存总量", nil, "inventory"},
		{"stock", "average inventory by store", &Reading{Analysis: TopN, Measures: []Measure{{"inventory", "mean"}}, GroupBy: []string{"store"}, Order: "desc"}, ""},
		{"stock", "total units sold by store", &Reading{Analysis: TopN, Measures: []Measure{{"units_sold", "sum"}}, GroupBy: []string{"store"}, Order: "desc"}, ""},
		// Years with a column of quarters: "by quarter" groups by it, and a
		// level summed over a year's quarters is refused; a flow adds up.
		{"qtr", "average gdp by quarter", &Reading{Analysis: TopN, Measures: []Measure{{"gdp", "mean"}}, GroupBy: []string{"quarter"}, Order: "desc"}, ""},
		{"qtrcn", "按季度统计平均产出", &Reading{Analysis: TopN, Measures: []Measure{{"产出", "mean"}}, GroupBy: []string{"季度"}, Order: "desc"}, ""},
		{"qtr", "total gdp per year", &Reading{Analysis: Trend, Measures: []Measure{{"gdp", "sum"}}, Time: "year", Grain: "year"}, ""},
		{"qtr", "total population per year", nil, "population"},
		{"qtrcn", "每年的总人口", nil, "人口"},
		// Body measurements are averaged, and a total of one is refused.
		{"fish", "total length by lake", nil, "length_cm"},
		{"fish", "length by species", &Reading{Analysis: TopN, Measures: []Measure{{"length_cm", "mean"}}, GroupBy: []string{"species"}, Order: "desc"}, ""},
		{"fish", "按湖统计体长的总和", nil, "length_cm"},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{files[tt.file]})
			if tt.want == nil {
				if ok {
					t.Fatalf("answered %+v (%s); want a refusal", r, r.Text(LangOf(tt.request)))
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
