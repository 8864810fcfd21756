package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// The classes of answerable questions the novel set found refused
// (issue 35, coverage), each on tables of its shape and phrasings of no
// eval set: the reading places the word on the data, or refuses when the
// data does not ground it.

// coverageFlights is a log of flights with departure times, delays and
// distances from a few origins.
func coverageFlights(t *testing.T) *preview.FilePreview {
	var b strings.Builder
	b.WriteString("date,delay,distance,origin\n")
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&b, "2004/%02d/%02d %02d:%02d,%d,%d,%s\n", 1+i/50, 1+i%28, 5+i%17, i%60, i%31-6, 200+i%9*50, []string{"SEA", "PDX", "BOI", "SEA"}[i%4])
	}
	return previewFile(t, "flights.csv", []byte(b.String()))
}

// TestUnderstandCoverageUnits: a unit written in the request is the
// measure's when its name declares it, or when it is the one unit of what
// the column measures (precipitation in mm, a delay in minutes); another
// unit, or a unit of a kind recorded in several (km or miles, °C or °F)
// on a name that declares none, is refused.
func TestUnderstandCoverageUnits(t *testing.T) {
	flights := coverageFlights(t)
	var wb strings.Builder
	wb.WriteString("day,rainfall,temp_high\n")
	for d := 0; d < 90; d++ {
		fmt.Fprintf(&wb, "2019-%02d-%02d,%d.2,%d\n", 1+d/30, 1+d%28, d%5, 8+d%6)
	}
	rain := previewFile(t, "rain.csv", []byte(wb.String()))
	birds := previewFile(t, "birds.csv", []byte("Species,Wing Length (mm),Weight (g)\nwren,48,10\nrobin,130,77\nwren,50,11\nrobin,128,80\n"))
	runNovelCases(t, []novelCase{
		{flights, "sum of delay in minutes by origin", &Reading{Analysis: TopN, Measures: []Measure{{"delay", "sum"}}, GroupBy: []string{"origin"}}},
		{flights, "minutes of delay per month, on average", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "mean"}}, Time: "date", Grain: "month"}},
		{rain, "monthly rainfall in mm", &Reading{Analysis: Trend, Measures: []Measure{{"rainfall", "sum"}}, Time: "day", Grain: "month"}},
		{birds, "mean wing length in millimetres per species", &Reading{Analysis: TopN, Measures: []Measure{{"Wing Length (mm)", "mean"}}, GroupBy: []string{"Species"}}},
		{birds, "mean weight (grams) per species", &Reading{Analysis: TopN, Measures: []Measure{{"Weight (g)", "mean"}}, GroupBy: []string{"Species"}}},
		{birds, "mean wing length in cm per species", nil},
		{birds, "mean weight in kg per species", nil},
		{flights, "average distance in km by origin", nil},
		{flights, "average distance in miles by origin", nil},
		{rain, "average temp_high in fahrenheit by month", nil},
		{rain, "monthly rainfall in minutes", nil},
	})
}

// TestUnderstandCoverageCounts: a number said before an integer column
// of a few counts ("6-cyl", "4 cylinder") keeps the rows with that many;
// "by cylinder count" groups by the column; a number that is no value of
// it, or a bound ("at least 6"), is refused.
func TestUnderstandCoverageCounts(t *testing.T) {
	var b strings.Builder
	b.WriteString("Name,Cylinders,Weight,Origin\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "car %d,%d,%d,%s\n", i, []int{4, 6, 8, 4}[i%4], 2000+i*37, []string{"USA", "Japan", "Europe"}[i%3])
	}
	cars := previewFile(t, "autos.csv", []byte(b.String()))
	runNovelCases(t, []novelCase{
		{cars, "mean weight of the 6-cyl autos per origin", &Reading{Analysis: TopN, Measures: []Measure{{"Weight", "mean"}}, GroupBy: []string{"Origin"}, Filters: []Filter{{"Cylinders", "=", []string{"6"}}}}},
		{cars, "how many 8 cylinder autos does each origin have", &Reading{Analysis: TopN, GroupBy: []string{"Origin"}, Filters: []Filter{{"Cylinders", "=", []string{"8"}}}}},
		{cars, "max weight per cylinder count", &Reading{Analysis: TopN, Measures: []Measure{{"Weight", "max"}}, GroupBy: []string{"Cylinders"}}},
		{cars, "mean weight of 5-cyl autos by origin", nil},
		{cars, "mean weight of autos with at least 6 cylinders by origin", nil},
	})
}

// TestUnderstandCoverageSubjectWords: the table's subject said by a
// synonym ("model year" of a car, 车型 in a file of cars) is what its rows
// are; 产 after a value of an origin column is where they are made; a
// value of several words is named by its initials (GM) when no other
// value or column has them; "capital stock" is the column a capital
// stock is; "info sector" is the column information.
func TestUnderstandCoverageSubjectWords(t *testing.T) {
	var b strings.Builder
	b.WriteString("Name,Weight,Year,Origin\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "car %d,%d,%d-01-01,%s\n", i, 2000+i*31, 1990+i%6, []string{"USA", "Japan", "Europe"}[i%3])
	}
	cars := previewFile(t, "cars.csv", []byte(b.String()))
	var fb strings.Builder
	fb.WriteString("firm,year,invest,capital\n")
	for y := 1950; y < 1960; y++ {
		fmt.Fprintf(&fb, "General Motors,%d,%d,%d\nUnion Oil,%d,%d,%d\nChrysler,%d,%d,%d\n", y, 300+y%7, 900+y%5, y, 40+y%3, 200+y%9, y, 80+y%4, 300+y%6)
	}
	firms := previewFile(t, "firms.csv", []byte(fb.String()))
	var gb strings.Builder
	gb.WriteString("firm,year,invest\n")
	for y := 1950; y < 1960; y++ {
		fmt.Fprintf(&gb, "General Electric,%d,%d\nGulf Energy,%d,%d\n", y, 300+y%7, y, 40+y%3)
	}
	twoGE := previewFile(t, "firms.csv", []byte(gb.String()))
	var eb strings.Builder
	eb.WriteString("month,information,construction\n")
	for m := 0; m < 36; m++ {
		fmt.Fprintf(&eb, "%d-%02d-01,%d,%d\n", 2010+m/12, 1+m%12, 2700+m, 5500+m*3)
	}
	jobs := previewFile(t, "us-employment.csv", []byte(eb.String()))
	runNovelCases(t, []novelCase{
		{cars, "mean weight for each model year", &Reading{Analysis: Trend, Measures: []Measure{{"Weight", "mean"}}, Time: "Year", Grain: "year"}},
		{cars, "车型每年的平均重量", &Reading{Analysis: Trend, Measures: []Measure{{"Weight", "mean"}}, Time: "Year", Grain: "year"}},
		{cars, "欧洲产汽车每年的平均重量", &Reading{Analysis: Trend, Measures: []Measure{{"Weight", "mean"}}, Time: "Year", Grain: "year", Filters: []Filter{{"Origin", "=", []string{"Europe"}}}}},
		{cars, "mean weight per model", nil},
		{firms, "GM invest by year", &Reading{Analysis: Trend, Measures: []Measure{{"invest", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"firm", "=", []string{"General Motors"}}}}},
		{firms, "Chrysler capital stock, yearly", &Reading{Analysis: Trend, Measures: []Measure{{"capital", "sum"}}, Time: "year", Grain: "year", Filters: []Filter{{"firm", "=", []string{"Chrysler"}}}}},
		{twoGE, "GE invest by year", nil},
		{jobs, "mean info sector employment by year", &Reading{Analysis: Trend, Measures: []Measure{{"information", "mean"}}, Time: "month", Grain: "year"}},
	})
}

// TestUnderstandCoverageCalendar: "hour" is an hour of the day, and a
// departure's hour over flights from an origin the hour of their time
// (no grouping by origin); 每周各天 are the weekdays; seasonality is the
// months of the year when a month is said, and refused alone; a
// seasonally adjusted column is named with its qualifier.
func TestUnderstandCoverageCalendar(t *testing.T) {
	flights := coverageFlights(t)
	var cb strings.Builder
	cb.WriteString("Date,CO2,adjusted CO2\n")
	for m := 0; m < 48; m++ {
		fmt.Fprintf(&cb, "%d-%02d-01,%d.5,%d.1\n", 2001+m/12, 1+m%12, 370+m%12, 371+m/12)
	}
	co2 := previewFile(t, "co2.csv", []byte(cb.String()))
	runNovelCases(t, []novelCase{
		{flights, "median delay per departure hour", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "median"}}, Time: "date", Grain: "hour_of_day"}},
		{flights, "各出发小时的延误中位数", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "median"}}, Time: "date", Grain: "hour_of_day"}},
		{flights, "median delay for each hour of departure", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "median"}}, Time: "date", Grain: "hour_of_day"}},
		{flights, "total distance by hour", &Reading{Analysis: Trend, Measures: []Measure{{"distance", "sum"}}, Time: "date", Grain: "hour_of_day"}},
		{flights, "一周各天的延误总和", &Reading{Analysis: Trend, Measures: []Measure{{"delay", "sum"}}, Time: "date", Grain: "weekday"}},
		{co2, "seasonality of CO2 by month", &Reading{Analysis: Trend, Measures: []Measure{{"CO2", "mean"}}, Time: "Date", Grain: "month_of_year"}},
		{co2, "各月份二氧化碳的季节性", &Reading{Analysis: Trend, Measures: []Measure{{"CO2", "mean"}}, Time: "Date", Grain: "month_of_year"}},
		{co2, "CO2 seasonality", nil},
		{co2, "seasonally adjusted CO2 by year", &Reading{Analysis: Trend, Measures: []Measure{{"adjusted CO2", "mean"}}, Time: "Date", Grain: "year"}},
		{co2, "季节调整后二氧化碳每年的平均值", &Reading{Analysis: Trend, Measures: []Measure{{"adjusted CO2", "mean"}}, Time: "Date", Grain: "year"}},
	})
}

// TestUnderstandCoverageWords: "busiest" counts the events of an event
// log (refused over rows that are not events, or beside a measure);
// "quick overview" is a profile; "pearson r" a correlation; output a
// generation; urbanization the column urban, and "across states" over
// one row a state the rows of a distribution, not a group each.
func TestUnderstandCoverageWords(t *testing.T) {
	flights := coverageFlights(t)
	var yb strings.Builder
	yb.WriteString("year,source,net_generation\n")
	for y := 2001; y < 2011; y++ {
		fmt.Fprintf(&yb, "%d-01-01,Coal,%d\n%d-01-01,Wind,%d\n", y, 900+y%9, y, 100+y%4)
	}
	power := previewFile(t, "power.csv", []byte(yb.String()))
	states := previewFile(t, "states.tsv", []byte("state\turban\tpoverty\nOhio\t77.9\t13.1\nIowa\t64\t11.8\nUtah\t90.6\t10.2\nMaine\t38.7\t12.6\n"))
	runNovelCases(t, []novelCase{
		{flights, "the 2 busiest origins", &Reading{Analysis: TopN, GroupBy: []string{"origin"}}},
		{flights, "busiest origins by mean delay", nil},
		{power, "busiest source", nil},
		{flights, "a quick overview of this data", &Reading{Analysis: Profile}},
		{flights, "pearson r of distance and delay", &Reading{Analysis: Correlation, Measures: []Measure{{"distance", ""}, {"delay", ""}}, Columns: []string{"distance", "delay"}}},
		{power, "mean output per source", &Reading{Analysis: TopN, Measures: []Measure{{"net_generation", "mean"}}, GroupBy: []string{"source"}}},
		{states, "how is urbanization distributed across states", &Reading{Analysis: Distribution, Measures: []Measure{{"urban", ""}}, Columns: []string{"urban"}}},
	})
}

// TestUnderstandCoverageYoYOfSeries: a year-over-year comparison of a
// rate over a table of several series, no series named and no average
// asked, is refused with its true reason (it would average the series'
// rates), not as a comparison no built-in makes; one series, or the
// average asked, is answered.
func TestUnderstandCoverageYoYOfSeries(t *testing.T) {
	var b strings.Builder
	b.WriteString("date,station,humidity_rate\n")
	for m := 0; m < 36; m++ {
		for i, s := range []string{"north", "south", "east"} {
			fmt.Fprintf(&b, "%d-%02d-01,%s,%d.5\n", 2015+m/12, 1+m%12, s, 40+i*5+m%7)
		}
	}
	hum := previewFile(t, "humidity.csv", []byte(b.String()))
	for _, q := range []string{"humidity rate year over year", "humidity_rate的同比"} {
		_, ok, why := Understand(q, []*preview.FilePreview{hum})
		if ok {
			t.Errorf("%q answered; want a refusal", q)
			continue
		}
		if !strings.Contains(why, "station") || !(strings.Contains(why, "average") || strings.Contains(why, "平均")) {
			t.Errorf("%q refused for %q; want: it would average the stations' rates", q, why)
		}
	}
	runNovelCases(t, []novelCase{
		{hum, "north humidity rate year over year", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"humidity_rate", "mean"}}, Time: "date", Compare: "yoy", Filters: []Filter{{"station", "=", []string{"north"}}}}},
		{hum, "average humidity rate year over year", &Reading{Analysis: ComparePeriods, Measures: []Measure{{"humidity_rate", "mean"}}, Time: "date", Compare: "yoy"}},
	})
}

// TestUnderstandCoverageSheetsAndChineseWords: 每张表 and "for every
// sheet" are each sheet of a workbook, "autos per sheet" how many rows
// each has; 表里 (in the sheet), 出现 (occurs) and 随 (along) say nothing
// of their own; 雌性 is the value female; 车辆数 counts the rows; 航空公司
// is an airline column, 总费用 a total cost column, 空速 a speed.
func TestUnderstandCoverageSheetsAndChineseWords(t *testing.T) {
	autos := previewFile(t, "autos.xlsx", carsWorkbook(t))
	cars := previewFile(t, "cars.xlsx", carsWorkbook(t))
	var wb strings.Builder
	wb.WriteString("date,weather,wind\n")
	for d := 0; d < 60; d++ {
		fmt.Fprintf(&wb, "2018-%02d-%02d,%s,%d.5\n", 1+d/28, 1+d%28, []string{"sun", "rain", "fog"}[d%3], d%6)
	}
	sky := previewFile(t, "sky.csv", []byte(wb.String()))
	var pb strings.Builder
	pb.WriteString(`[`)
	for i := 0; i < 12; i++ {
		if i > 0 {
			pb.WriteString(",")
		}
		fmt.Fprintf(&pb, `{"Species":"%s","Sex":"%s","Flipper Length (mm)":%d}`, []string{"Adelie", "Gentoo"}[i%2], []string{"MALE", "FEMALE", "FEMALE"}[i%3], 180+i)
	}
	pb.WriteString(`]`)
	penguins := previewFile(t, "penguins.json", []byte(pb.String()))
	var sb strings.Builder
	sb.WriteString("Airline Operator,Flight Date,Cost Repair,Cost Total $,Speed IAS in knots\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&sb, "%s,2005-%02d-%02d,%d,%d,%d\n", []string{"ACME AIR", "BOLT AIR", "COAST AIR"}[i%3], 1+i%12, 1+i%27, 100*i, 150*i, 120+i%40)
	}
	strikes := previewFile(t, "strikes.csv", []byte(sb.String()))
	runNovelCases(t, []novelCase{
		{autos, "每张表的平均马力", &Reading{Analysis: TopN, Sheet: "*", Measures: []Measure{{"Horsepower", "mean"}}, GroupBy: []string{"sheet"}}},
		{autos, "count of rows for every sheet", &Reading{Analysis: TopN, Sheet: "*", GroupBy: []string{"sheet"}}},
		{autos, "autos per sheet", &Reading{Analysis: TopN, Sheet: "*", GroupBy: []string{"sheet"}}},
		{cars, "Europe表里各气缸数的车辆数", &Reading{Analysis: TopN, Sheet: "Europe", GroupBy: []string{"Cylinders"}}},
		{sky, "各天气出现的次数", &Reading{Analysis: TopN, GroupBy: []string{"weather"}}},
		{sky, "风速随月份的平均值", &Reading{Analysis: Trend, Measures: []Measure{{"wind", "mean"}}, Time: "date", Grain: "month"}},
		{penguins, "各物种雌性企鹅的鳍长中位数", &Reading{Analysis: TopN, Measures: []Measure{{"Flipper Length (mm)", "median"}}, GroupBy: []string{"Species"}, Filters: []Filter{{"Sex", "=", []string{"FEMALE"}}}}},
		{strikes, "各航空公司的平均维修费用", &Reading{Analysis: TopN, Measures: []Measure{{"Cost Repair", "mean"}}, GroupBy: []string{"Airline Operator"}}},
		{strikes, "每月总费用的中位数", &Reading{Analysis: Trend, Measures: []Measure{{"Cost Total $", "median"}}, Time: "Flight Date", Grain: "month"}},
		{strikes, "空速的分布", &Reading{Analysis: Distribution, Measures: []Measure{{"Speed IAS in knots", ""}}, Columns: []string{"Speed IAS in knots"}}},
	})
}

// TestMatchCoverageBlockerPhrases: "model year" is a car's year and 各聚类
// the clusters a table has, not a request for a model or a clustering,
// which are still refused.
func TestMatchCoverageBlockerPhrases(t *testing.T) {
	var b strings.Builder
	b.WriteString("Name,Weight,Year\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "car %d,%d,%d-01-01\n", i, 2000+i*31, 1990+i%6)
	}
	cars := previewFile(t, "cars.csv", []byte(b.String()))
	var gb strings.Builder
	gb.WriteString("country,cluster,year,life_expect\n")
	for y := 1990; y < 2000; y++ {
		fmt.Fprintf(&gb, "Peru,1,%d,%d.5\nChad,2,%d,%d.5\n", y, 60+y%5, y, 50+y%3)
	}
	world := previewFile(t, "world.csv", []byte(gb.String()))
	for _, tt := range []struct {
		file    *preview.FilePreview
		request string
		want    string
	}{
		{cars, "median weight by model year", Trend},
		{world, "按聚类看预期寿命的中位数", TopN},
		{cars, "fit a model of weight by year", ""},
		{world, "把国家做聚类", ""},
	} {
		m := MatchRequest(tt.request, []*preview.FilePreview{tt.file})
		if m.Template != tt.want {
			t.Errorf("%q: matched %q (%v); want %q", tt.request, m.Template, m.Reasons, tt.want)
		}
	}
}

// TestUnderstandCoverageWholeCalendarRange: a range that is every month
// (1-12) or quarter (第1到第4) of the year, beside its period word, names
// the months or quarters of the calendar and filters nothing; 不分年 (all
// years together) makes a month a month of the year; a range that is not
// the whole year is still refused.
func TestUnderstandCoverageWholeCalendarRange(t *testing.T) {
	var wb strings.Builder
	wb.WriteString("date,rain\n")
	for d := 0; d < 400; d++ {
		fmt.Fprintf(&wb, "%d-%02d-%02d,%d.5\n", 2020+d/200, 1+d/20%10, 1+d%20, d%7)
	}
	rain := previewFile(t, "rain.csv", []byte(wb.String()))
	var qb strings.Builder
	qb.WriteString("年份,季度,失业率\n")
	for y := 1990; y < 2000; y++ {
		for q := 1; q <= 4; q++ {
			fmt.Fprintf(&qb, "%d,%d,%d.5\n", y, q, 3+(y+q)%4)
		}
	}
	macro := previewFile(t, "macro.csv", []byte(qb.String()))
	runNovelCases(t, []novelCase{
		{rain, "每个月份（1-12月）的降水总量", &Reading{Analysis: Trend, Measures: []Measure{{"rain", "sum"}}, Time: "date", Grain: "month_of_year"}},
		{rain, "月度平均rain，不分年份", &Reading{Analysis: Trend, Measures: []Measure{{"rain", "mean"}}, Time: "date", Grain: "month_of_year"}},
		{macro, "按季度（第1到第4季度）看失业率的中位数", &Reading{Analysis: TopN, Measures: []Measure{{"失业率", "median"}}, GroupBy: []string{"季度"}}},
		{rain, "每个月份（1-6月）的降水总量", nil},
	})
}

// TestUnderstandCoverageFunnelGrouping: a funnel asked for each value of
// a category is refused (the funnel is one, and dropping the grouping
// answers another question), now that 航空公司 names an airline column.
func TestUnderstandCoverageFunnelGrouping(t *testing.T) {
	var b strings.Builder
	b.WriteString("user_id,stage,airline\n")
	for i := 0; i < 30; i++ {
		for _, s := range []string{"search", "select", "book"}[:1+i%3] {
			fmt.Fprintf(&b, "u%d,%s,%s\n", i, s, []string{"North Air", "South Air"}[i%2])
		}
	}
	bookings := previewFile(t, "bookings.csv", []byte(b.String()))
	runNovelCases(t, []novelCase{
		{bookings, "各航空公司的预订漏斗", nil},
		{bookings, "booking funnel for each airline", nil},
		{bookings, "booking funnel", &Reading{Analysis: Funnel, Stage: "stage", Entity: "user_id"}},
	})
}

// TestUnderstandCoverageHighsAndLows: "highs" and "lows" with no column
// named are the table's one column of maxima (minima); with two such
// columns they are refused.
func TestUnderstandCoverageHighsAndLows(t *testing.T) {
	var b strings.Builder
	b.WriteString("day,temp_high,temp_low,sky\n")
	for d := 0; d < 90; d++ {
		fmt.Fprintf(&b, "2019-%02d-%02d,%d,%d,%s\n", 1+d/30, 1+d%28, 12+d%7, 2+d%5, []string{"clear", "cloudy"}[d%2])
	}
	temps := previewFile(t, "temps.csv", []byte(b.String()))
	var wb strings.Builder
	wb.WriteString("day,temp_max,wind_max\n")
	for d := 0; d < 90; d++ {
		fmt.Fprintf(&wb, "2019-%02d-%02d,%d,%d\n", 1+d/30, 1+d%28, 12+d%7, 20+d%9)
	}
	two := previewFile(t, "maxima.csv", []byte(wb.String()))
	runNovelCases(t, []novelCase{
		{temps, "histogram of the highs", &Reading{Analysis: Distribution, Measures: []Measure{{"temp_high", ""}}, Columns: []string{"temp_high"}}},
		{temps, "median low for each sky", &Reading{Analysis: TopN, Measures: []Measure{{"temp_low", "median"}}, GroupBy: []string{"sky"}}},
		{two, "histogram of the highs", nil},
	})
}

// TestUnderstandCoveragePluralValues: a category value said in the plural
// ("quakes" for quake) is the value; "among" says nothing of its own.
func TestUnderstandCoveragePluralValues(t *testing.T) {
	var b strings.Builder
	b.WriteString("Hazard,Year,Deaths\n")
	for y := 1990; y < 2000; y++ {
		fmt.Fprintf(&b, "Quake,%d,%d\nStorm,%d,%d\nHeatwave,%d,%d\n", y, 100+y%7, y, 40+y%3, y, 10+y%5)
	}
	hazards := previewFile(t, "hazards.csv", []byte(b.String()))
	runNovelCases(t, []novelCase{
		{hazards, "yearly deaths from storms", &Reading{Analysis: Trend, Measures: []Measure{{"Deaths", "sum"}}, Time: "Year", Grain: "year", Filters: []Filter{{"Hazard", "=", []string{"Storm"}}}}},
		{hazards, "the most deaths among the hazards", &Reading{Analysis: TopN, Measures: []Measure{{"Deaths", "sum"}}, GroupBy: []string{"Hazard"}}},
		{hazards, "yearly deaths from floods", nil},
	})
}
