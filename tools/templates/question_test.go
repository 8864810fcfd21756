package templates

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/preview"
	"github.com/xuri/excelize/v2"
)

// Tests that built-ins answer the question asked, on data shaped like the
// public datasets people try first.

// disastersCSV is shaped like Our World in Data's "deaths from natural
// disasters": one row per entity and year, with an "All natural disasters"
// row per year that is the sum of the others.
func disastersCSV() []byte {
	kinds := map[string]float64{"Drought": 1200, "Earthquake": 9000, "Flood": 5200, "Extreme weather": 3100, "Volcanic activity": 150, "Wildfire": 90}
	order := []string{"Drought", "Earthquake", "Flood", "Extreme weather", "Volcanic activity", "Wildfire"}
	var rows [][]string
	for y := 2000; y <= 2019; y++ {
		all := 0.0
		for i, k := range order {
			v := math.Round(kinds[k] * (1 + 0.3*math.Sin(float64(y*(i+1)))))
			all += v
			rows = append(rows, []string{k, fmt.Sprint(y), ftoa(v)})
		}
		rows = append(rows, []string{"All natural disasters", fmt.Sprint(y), ftoa(all)})
	}
	return csvText([]string{"Entity", "Year", "Deaths"}, rows)
}

// stocksCSV is shaped like a daily stock prices file: date, symbol, price
// for several symbols on business days of 2020.
func stocksCSV() []byte {
	base := map[string]float64{"AAPL": 75, "MSFT": 160, "AMZN": 1900}
	var rows [][]string
	for d := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() == 2020; d = d.AddDate(0, 0, 1) {
		if d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
			continue
		}
		for _, s := range []string{"AAPL", "MSFT", "AMZN"} {
			growth := 1 + float64(d.YearDay())/366*map[string]float64{"AAPL": 0.8, "MSFT": 0.4, "AMZN": 0.7}[s]
			rows = append(rows, []string{d.Format("2006-01-02"), s, fmt.Sprintf("%.2f", base[s]*growth)})
		}
	}
	return csvText([]string{"date", "symbol", "price"}, rows)
}

// partialMonthCSV is daily revenue per region from 2024-01-01 to
// 2024-06-03: the last month holds three days.
func partialMonthCSV() []byte {
	var rows [][]string
	for d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC); !d.After(time.Date(2024, 6, 3, 0, 0, 0, 0, time.UTC)); d = d.AddDate(0, 0, 1) {
		for _, r := range []string{"East", "West"} {
			rows = append(rows, []string{d.Format("2006-01-02"), r, ftoa(100 + float64(d.Month()))})
		}
	}
	return csvText([]string{"order_date", "region", "revenue"}, rows)
}

// regionsWorkbook is shaped like a sales workbook with one sheet per
// market: Europe 73 rows, Japan 79, USA 254.
func regionsWorkbook(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	sheets := []struct {
		name string
		rows int
	}{{"Europe", 73}, {"Japan", 79}, {"USA", 254}}
	for i, s := range sheets {
		if i == 0 {
			f.SetSheetName("Sheet1", s.name)
		} else if _, err := f.NewSheet(s.name); err != nil {
			t.Fatal(err)
		}
		header := []any{"model", "year", "sales"}
		if err := f.SetSheetRow(s.name, "A1", &header); err != nil {
			t.Fatal(err)
		}
		for r := 0; r < s.rows; r++ {
			row := []any{fmt.Sprintf("M%d", r%7), 2000 + r%20, 10 + r}
			if err := f.SetSheetRow(s.name, fmt.Sprintf("A%d", r+2), &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestMatchSaysPlainlyWhenTheNamedColumnIsAbsent(t *testing.T) {
	sales := previewSheet("input/sales.csv", "order_date:date", "region:text", "revenue:float")
	m := MatchRequest("top 10 customers", []*preview.FilePreview{sales})
	if m.OK() {
		t.Fatalf("matched %s with %+v: a table without customers must not be ranked by region", m.Template, m.Params)
	}
	if len(m.Absent) != 1 || m.Absent[0] != "customers" {
		t.Errorf("Absent = %v, want [customers]", m.Absent)
	}
	note := m.AbsentNote()
	for _, want := range []string{`"customers"`, "input/sales.csv has no such column"} {
		if !strings.Contains(note, want) {
			t.Errorf("AbsentNote %q lacks %q", note, want)
		}
	}
	for _, r := range []string{"top 10 customers by revenue", "按客户统计销售额排名", "revenue trend by customer"} {
		if m := MatchRequest(r, []*preview.FilePreview{sales}); m.OK() || len(m.Absent) == 0 {
			t.Errorf("%q: matched %q, absent %v; want no match naming what is absent", r, m.Template, m.Absent)
		}
	}
	// The same words over data that has them still match.
	for _, r := range []string{"top 10 regions by revenue", "monthly revenue trend"} {
		if m := MatchRequest(r, []*preview.FilePreview{sales}); !m.OK() || len(m.Absent) > 0 {
			t.Errorf("%q: not matched (absent %v, reasons %v)", r, m.Absent, m.Reasons)
		}
	}
	withCustomers := previewSheet("input/orders.csv", "customer_name:text", "revenue:float")
	if m := MatchRequest("top 10 customers by revenue", []*preview.FilePreview{withCustomers}); !m.OK() || m.Params.Category != "customer_name" {
		t.Errorf("top 10 customers over customer_name: %q %+v %v", m.Template, m.Params, m.Reasons)
	}
}

func TestProfileEverySheetOfAWorkbook(t *testing.T) {
	op := workspace(t, map[string][]byte{"cars.xlsx": regionsWorkbook(t)})
	fp := previewOf(t, op, "input/cars.xlsx")
	m := MatchRequest("profile every table", []*preview.FilePreview{fp})
	if !m.OK() || len(m.Each) != 3 {
		t.Fatalf("template %q over %d tables, want profile over 3; reasons %v", m.Template, len(m.Each), m.Reasons)
	}
	if !strings.Contains(strings.Join(m.Reasons, "\n"), "each of the 3 tables") {
		t.Errorf("reasons do not say 3 tables: %v", m.Reasons)
	}
	want := map[string]int{"Europe": 73, "Japan": 79, "USA": 254}
	for _, e := range m.Each {
		res, err := Run(context.Background(), op, e.File, e)
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Rows int }
		if err := res.DecodeData(&got); err != nil {
			t.Fatal(err)
		}
		if got.Rows != want[e.Params.Sheet] {
			t.Errorf("%s: %d rows, want %d", e.Table(), got.Rows, want[e.Params.Sheet])
		}
		delete(want, e.Params.Sheet)
	}
	if len(want) > 0 {
		t.Errorf("sheets not profiled: %v", want)
	}
	// One question that names no sheet of sheets alike is asked which one,
	// not answered from the first.
	if any := MatchRequest("top 5 model by sales", []*preview.FilePreview{fp}); any.OK() || !strings.Contains(strings.Join(any.Reasons, "\n"), "name one, or ask across all sheets") {
		t.Errorf("top 5 model by sales matched %q over %q; want it to ask which sheet: %v", any.Template, any.Table(), any.Reasons)
	}
	// One question on a named sheet names the sheet used and the ones not.
	one := MatchRequest("top 5 model by sales in Europe", []*preview.FilePreview{fp})
	if !one.OK() {
		t.Fatalf("not matched: %v", one.Reasons)
	}
	note := one.SheetNote()
	for _, w := range []string{`"Europe"`, `"Japan"`, `"USA"`, "other 2 sheets are not"} {
		if !strings.Contains(note, w) {
			t.Errorf("sheet note %q lacks %s", note, w)
		}
	}
	if one.Table() != "input/cars.xlsx, sheet Europe" {
		t.Errorf("Table() = %q", one.Table())
	}
}

func TestTopNLeavesOutTotalRows(t *testing.T) {
	op := workspace(t, map[string][]byte{"disasters.csv": disastersCSV()})
	fp := previewOf(t, op, "input/disasters.csv")
	m := MatchRequest("top 5 Entity by Deaths", []*preview.FilePreview{fp})
	if m.Template != TopN || m.Params.Category != "Entity" || m.Params.Measure != "Deaths" {
		t.Fatalf("match %q %+v, reasons %v", m.Template, m.Params, m.Reasons)
	}
	res, err := Run(context.Background(), op, m.File, m)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Top []struct {
			Name  string
			Share float64
		}
		LeftOutTotals []string `json:"left_out_totals"`
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	for _, r := range got.Top {
		if r.Name == "All natural disasters" {
			t.Fatalf("the total row is ranked: %+v", got.Top)
		}
	}
	if got.Top[0].Name != "Earthquake" || got.Top[0].Share < 0.4 || got.Top[0].Share > 0.6 {
		t.Errorf("top = %+v, want Earthquake with about half the deaths", got.Top[0])
	}
	if len(got.LeftOutTotals) != 1 || !strings.Contains(strings.Join(res.Notes, "\n"), "'All natural disasters' looks like a total") {
		t.Errorf("left out %v, notes %v: the report must say the total row was left out", got.LeftOutTotals, res.Notes)
	}
	if !strings.Contains(res.Markdown(), "left out of the ranking and shares") {
		t.Errorf("markdown does not say so:\n%s", res.Markdown())
	}
}

func TestTrendBySymbolLeadsWithEachSymbol(t *testing.T) {
	op := workspace(t, map[string][]byte{"stocks.csv": stocksCSV()})
	fp := previewOf(t, op, "input/stocks.csv")
	m := MatchRequest("monthly average price trend by symbol", []*preview.FilePreview{fp})
	if m.Template != Trend || m.Params.Category != "symbol" || m.Params.Aggregation != "mean" {
		t.Fatalf("match %q %+v, reasons %v", m.Template, m.Params, m.Reasons)
	}
	res, err := Run(context.Background(), op, m.File, m)
	if err != nil {
		t.Fatal(err)
	}
	// The reading comes first; the computed answer after it leads per symbol.
	reading, answer, _ := strings.Cut(res.Answer, "\n")
	if reading != m.Reading.Text("") || !strings.HasPrefix(answer, "Monthly average price by symbol") {
		t.Errorf("answer does not lead per symbol after the reading: %s", res.Answer)
	}
	for _, s := range []string{"AAPL", "MSFT", "AMZN"} {
		if !strings.Contains(res.Answer, s) {
			t.Errorf("answer lacks %s: %s", s, res.Answer)
		}
	}
	if strings.Contains(res.Answer, "highest in") {
		t.Errorf("answer leads with a mean pooled over symbols: %s", res.Answer)
	}
	if len(res.Sections) < 2 || !strings.Contains(res.Sections[0].Title, "by symbol") || !strings.Contains(res.Sections[0].Markdown, "AMZN") {
		t.Errorf("first section is not the per-symbol series: %+v", res.Sections)
	}
}

func TestPartialLastMonthIsFlaggedNotCompared(t *testing.T) {
	op := workspace(t, map[string][]byte{"sales.csv": partialMonthCSV()})
	fp := previewOf(t, op, "input/sales.csv")
	m := MatchRequest("monthly revenue trend", []*preview.FilePreview{fp})
	if m.Template != Trend {
		t.Fatalf("match %q, reasons %v", m.Template, m.Reasons)
	}
	res, err := Run(context.Background(), op, m.File, m)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Partial       []string
		LastChangePct *float64 `json:"last_change_pct"`
		Low           struct{ Period string }
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if len(got.Partial) != 1 || got.Partial[0] != "2024-06" {
		t.Errorf("partial = %v, want [2024-06]", got.Partial)
	}
	// May against April (31 days at 105 against 30 at 104), not June's three days against May.
	if got.LastChangePct == nil || *got.LastChangePct <= 0 || *got.LastChangePct > 0.05 {
		t.Errorf("last change %v, want May against April (+4.3%%), not the partial month", got.LastChangePct)
	}
	if got.Low.Period == "2024-06" {
		t.Errorf("the partial month is called the lowest")
	}
	if !strings.Contains(res.Answer, "2024-06 is partial (the data ends on 2024-06-03)") || !strings.Contains(res.Answer, "last whole month, 2024-05, was 6,510 (+4.3% on the month before)") {
		t.Errorf("answer does not flag the partial month: %s", res.Answer)
	}
	if strings.Contains(res.Answer, "-8") {
		t.Errorf("answer compares the partial month: %s", res.Answer)
	}

	cm := MatchRequest("revenue month over month", []*preview.FilePreview{fp})
	if cm.Template != ComparePeriods {
		t.Fatalf("match %q, reasons %v", cm.Template, cm.Reasons)
	}
	cres, err := Run(context.Background(), op, cm.File, cm)
	if err != nil {
		t.Fatal(err)
	}
	var cgot struct {
		Latest struct {
			Period    string
			ChangePct float64 `json:"change_pct"`
		}
	}
	if err := cres.DecodeData(&cgot); err != nil {
		t.Fatal(err)
	}
	if cgot.Latest.Period != "2024-05" || cgot.Latest.ChangePct < 0 {
		t.Errorf("latest comparison %+v, want 2024-05 against 2024-04", cgot.Latest)
	}
	if !strings.Contains(cres.Answer, "partial") {
		t.Errorf("answer does not flag the partial month: %s", cres.Answer)
	}
}
