package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// TestUnderstandBlindClasses holds the classes behind the blind set's
// wrong answer and refusals (eval/understanding/blind_src.py), each on
// other tables and phrasings: outliers "of the counties" in a table of one
// row per county are among the counties, not per county (a group of one
// row has no fences); greetings and "pls"; "一年中哪个月"; a superlative
// of deaths (deadliest); Chinese names of category values (干旱, 核能); a
// noun after a value's adjective (日本车, 德国车); 实际 (real) in Chinese headers; 通胀率 as the inflation rate;
// a census (普查) year as the year; headcount for a column 人数.
func TestUnderstandBlindClasses(t *testing.T) {
	var kb strings.Builder
	kb.WriteString("county,burglary,arson\n")
	for i := 0; i < 30; i++ {
		v := 40 + i%9
		if i == 7 {
			v = 400
		}
		fmt.Fprintf(&kb, "K%02d,%d,%d.5\n", i, v, 3+i%5)
	}
	counties := previewFile(t, "counties.csv", []byte(kb.String()))
	var sb strings.Builder
	sb.WriteString("date,sky,pm25\n")
	for d := 0; d < 400; d++ {
		fmt.Fprintf(&sb, "%d-%02d-%02d,%s,%d.5\n", 2020+d/200, 1+d/20%10, 1+d%20, []string{"clear", "cloud"}[d%2], 20+d%17)
	}
	sky := previewFile(t, "sky.csv", []byte(sb.String()))
	var hb strings.Builder
	hb.WriteString("Entity,Year,Deaths\n")
	for y := 1990; y < 2000; y++ {
		fmt.Fprintf(&hb, "Drought,%d,%d\nStorm,%d,%d\n", y, 100+y%7, y, 300+y%5)
	}
	hazards := previewFile(t, "hazards.csv", []byte(hb.String()))
	var pb strings.Builder
	pb.WriteString("year,source,output\n")
	for y := 2001; y <= 2008; y++ {
		fmt.Fprintf(&pb, "%d-01-01,Nuclear Energy,%d\n%d-01-01,Renewables,%d\n", y, 500+y%9, y, 100+y%4)
	}
	grid := previewFile(t, "grid.csv", []byte(pb.String()))
	var cb strings.Builder
	cb.WriteString(`[`)
	for i := 0; i < 30; i++ {
		if i > 0 {
			cb.WriteString(",")
		}
		fmt.Fprintf(&cb, `{"Name":"m%d","Torque":%d,"Year":"%d-01-01","Origin":"%s"}`, i, 200+i, 1990+i%5, []string{"Germany", "Japan"}[i%2])
	}
	cb.WriteString(`]`)
	autos := previewFile(t, "cars.json", []byte(cb.String()))
	var mb strings.Builder
	mb.WriteString("年份,实际消费,通胀率,失业率\n")
	for y := 1990; y < 2010; y++ {
		fmt.Fprintf(&mb, "%d,%d.5,%d.2,%d.1\n", y, 1000+y%13*7, 2+y%5, 4+y%3)
	}
	econ := previewFile(t, "econ.csv", []byte(mb.String()))
	var hb2 strings.Builder
	hb2.WriteString("地区,年份,人数\n")
	for y := 2000; y <= 2010; y += 5 {
		fmt.Fprintf(&hb2, "东区,%d,%d\n西区,%d,%d\n", y, 500+y%7, y, 400+y%3)
	}
	heads := previewFile(t, "heads.csv", []byte(hb2.String()))
	tests := []struct {
		file    *preview.FilePreview
		request string
		want    *Reading // nil: refused
	}{
		{counties, "which counties are outliers in burglary", &Reading{Analysis: Outliers, Columns: []string{"burglary"}, Measures: []Measure{{Column: "burglary"}}}},
		{counties, "哪些county的arson是异常值", &Reading{Analysis: Outliers, Columns: []string{"arson"}, Measures: []Measure{{Column: "arson"}}}},
		{sky, "hi, avg pm25 per year thx", &Reading{Analysis: Trend, Measures: []Measure{{"pm25", "mean"}}, Time: "date", Grain: "year"}},
		{sky, "pls give me the max pm25 by sky", &Reading{Analysis: TopN, Measures: []Measure{{"pm25", "max"}}, GroupBy: []string{"sky"}, Order: "desc"}},
		{sky, "一年中哪个月的pm25平均最低", &Reading{Analysis: Trend, Measures: []Measure{{"pm25", "mean"}}, Time: "date", Grain: "month_of_year", Order: "asc"}},
		{hazards, "the deadliest Entity", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Entity"}, Order: "desc"}},
		{hazards, "干旱的死亡人数每年多少", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{{"Entity", "=", []string{"Drought"}}}}},
		{grid, "核能每年的output", &Reading{Analysis: Trend, Measures: []Measure{{"output", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"source", "=", []string{"Nuclear Energy"}}}}},
		{autos, "德国车的平均Torque按年", &Reading{Analysis: Trend, Measures: []Measure{{"Torque", "mean"}}, Time: "Year", Grain: "year", Filters: []Filter{{"Origin", "=", []string{"Germany"}}}}},
		{econ, "avg real consumption by year", &Reading{Analysis: Trend, Measures: []Measure{{"实际消费", "mean"}}, Time: "年份", Grain: "year"}},
		{econ, "inflation rate outliers", &Reading{Analysis: Outliers, Columns: []string{"通胀率"}, Measures: []Measure{{Column: "通胀率"}}}},
		{econ, "avg consumption by year", &Reading{Analysis: Trend, Measures: []Measure{{"实际消费", "mean"}}, Time: "年份", Grain: "year"}},
		{econ, "avg inflation by year", &Reading{Analysis: Trend, Measures: []Measure{{"通胀率", "mean"}}, Time: "年份", Grain: "year"}},
		{econ, "每年平均通胀率", &Reading{Analysis: Trend, Measures: []Measure{{"通胀率", "mean"}}, Time: "年份", Grain: "year"}},
		{econ, "rate outliers", nil}, // which rate: 通胀率 or 失业率
		{heads, "headcount by 地区 in the 2005 census", &Reading{Analysis: TopN, Measures: []Measure{{"人数", "sum"}}, GroupBy: []string{"地区"}, Order: "desc", Time: "年份", Filters: []Filter{{"年份", "year", []string{"2005"}}}}},
		{heads, "2010年普查各地区的人数", &Reading{Analysis: TopN, Measures: []Measure{{"人数", "sum"}}, GroupBy: []string{"地区"}, Order: "desc", Time: "年份", Filters: []Filter{{"年份", "year", []string{"2010"}}}}},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced", "SheetAs", "RowIs", "N"), cmpopts.EquateEmpty()}
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
