package templates

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// salesData is a generated sales table whose true answers the generator
// keeps: monthly totals, per-customer and per-region totals.
type salesData struct {
	csv        []byte
	monthly    map[string]float64
	byCustomer map[string]float64
	byRegion   map[string]float64
	pivot      map[[2]string]float64 // region, product → amount
}

var (
	regions  = []string{"North", "South", "East", "West"}
	products = []string{"Apple", "Pear", "Plum"}
)

// genSales writes 730 rows over 2024-01-01 .. 2024-06-29: a row's amount
// depends on its index, so every total is known exactly.
func genSales() salesData {
	d := salesData{monthly: map[string]float64{}, byCustomer: map[string]float64{}, byRegion: map[string]float64{}, pivot: map[[2]string]float64{}}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var rows [][]string
	for i := 0; i < 730; i++ {
		day := start.AddDate(0, 0, i%181)
		cust := fmt.Sprintf("C%02d", i%13)
		region := regions[i%4]
		product := products[i%3]
		amount := float64((i*37)%100+1) + float64(i%13)*0.25
		rows = append(rows, []string{day.Format("2006-01-02"), cust, region, product, ftoa(amount), strconv.Itoa(i%5 + 1)})
		d.monthly[day.Format("2006-01")] += amount
		d.byCustomer[cust] += amount
		d.byRegion[region] += amount
		d.pivot[[2]string{region, product}] += amount
	}
	d.csv = csvText([]string{"order_date", "customer", "region", "product", "amount", "quantity"}, rows)
	return d
}

// ranked sorts a map by value, largest first, names breaking ties.
func ranked(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// runMatched matches request over the file and runs it.
func runMatched(t *testing.T, op operator.Operator, rel, request string) *Result {
	t.Helper()
	m := MatchRequest(request, []*preview.FilePreview{previewOf(t, op, rel)})
	if !m.OK() {
		t.Fatalf("MatchRequest(%q) matched nothing: %v", request, m.Reasons)
	}
	res, err := Run(context.Background(), op, rel, m)
	if err != nil {
		t.Fatalf("Run(%s): %v", m.Template, err)
	}
	checkFiles(t, op, res)
	return res
}

// checkFiles asserts every file a result names exists and is not empty.
func checkFiles(t *testing.T, op operator.Operator, res *Result) {
	t.Helper()
	if len(res.Files) == 0 {
		t.Errorf("%s: no files", res.Template)
	}
	for _, f := range res.Files {
		fi, err := os.Stat(filepath.Join(op.Root(), f))
		if err != nil || fi.Size() == 0 {
			t.Errorf("%s: file %s missing or empty (%v)", res.Template, f, err)
		}
		if !strings.HasPrefix(f, "out/") {
			t.Errorf("%s: file %s is not under out/", res.Template, f)
		}
	}
	if res.Answer == "" || len(res.Sections) == 0 {
		t.Errorf("%s: answer %q, %d sections", res.Template, res.Answer, len(res.Sections))
	}
}

func TestRunTrendMonthlyTotals(t *testing.T) {
	t.Parallel()
	d := genSales()
	op := workspace(t, map[string][]byte{"sales.csv": d.csv})
	res := runMatched(t, op, "input/sales.csv", "Monthly revenue trend")
	var got struct {
		Time, Measure, Aggregation, Period string
		Labels                             []string
		Values                             []float64
		Peak                               struct{ Period string }
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	wantLabels := []string{"2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06"}
	if diff := cmp.Diff(wantLabels, got.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	for i, l := range wantLabels {
		if i < len(got.Values) && !near(d.monthly[l], got.Values[i]) {
			t.Errorf("%s total = %v, want %v", l, got.Values[i], d.monthly[l])
		}
	}
	if got.Time != "order_date" || got.Measure != "amount" || got.Aggregation != "sum" || got.Period != "month" {
		t.Errorf("columns = %+v, want order_date/amount/sum/month", got)
	}
	if want := ranked(d.monthly)[0]; got.Peak.Period != want {
		t.Errorf("peak = %s, want %s", got.Peak.Period, want)
	}
}

func TestRunTopNCustomers(t *testing.T) {
	t.Parallel()
	d := genSales()
	op := workspace(t, map[string][]byte{"sales.csv": d.csv})
	res := runMatched(t, op, "input/sales.csv", "top 3 customers by amount")
	var got struct {
		Category, Measure string
		Groups            int
		Top               []struct {
			Name  string
			Value float64
			Share float64
		}
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	want := ranked(d.byCustomer)[:3]
	var total float64
	for _, v := range d.byCustomer {
		total += v
	}
	if len(got.Top) != 3 || got.Groups != 13 || got.Category != "customer" || got.Measure != "amount" {
		t.Fatalf("got %+v, want 3 of 13 customers by amount", got)
	}
	for i, name := range want {
		if got.Top[i].Name != name || !near(got.Top[i].Value, d.byCustomer[name]) || !near(got.Top[i].Share, d.byCustomer[name]/total) {
			t.Errorf("top[%d] = %+v, want %s %v", i, got.Top[i], name, d.byCustomer[name])
		}
	}
	if !strings.Contains(res.Answer, want[0]) {
		t.Errorf("answer %q does not name %s", res.Answer, want[0])
	}
}

func TestRunComparePeriods(t *testing.T) {
	t.Parallel()
	d := genSales()
	// Two years of monthly rows: 2023-m is 100*m, 2024-m is 100*m + 10*m.
	var rows [][]string
	for y := 2023; y <= 2024; y++ {
		for mth := 1; mth <= 12; mth++ {
			v := float64(100 * mth)
			if y == 2024 {
				v += float64(10 * mth)
			}
			rows = append(rows, []string{fmt.Sprintf("%d-%02d-15", y, mth), ftoa(v / 2)}, []string{fmt.Sprintf("%d-%02d-20", y, mth), ftoa(v / 2)})
		}
	}
	op := workspace(t, map[string][]byte{"sales.csv": d.csv, "monthly.csv": csvText([]string{"date", "revenue"}, rows)})

	res := runMatched(t, op, "input/sales.csv", "compare amount month over month")
	var mom struct {
		Compare string
		Latest  struct {
			Period          string
			PreviousPeriod  string `json:"previous_period"`
			Value, Previous float64
			ChangePct       float64 `json:"change_pct"`
		}
	}
	if err := res.DecodeData(&mom); err != nil {
		t.Fatal(err)
	}
	if mom.Compare != "mom" || mom.Latest.Period != "2024-06" || mom.Latest.PreviousPeriod != "2024-05" ||
		!near(mom.Latest.Value, d.monthly["2024-06"]) || !near(mom.Latest.Previous, d.monthly["2024-05"]) ||
		!near(mom.Latest.ChangePct, d.monthly["2024-06"]/d.monthly["2024-05"]-1) {
		t.Errorf("mom latest = %+v", mom)
	}

	res = runMatched(t, op, "input/monthly.csv", "revenue year over year")
	var yoy struct {
		Compare string
		Rows    []struct {
			Period         string
			PreviousPeriod string  `json:"previous_period"`
			ChangePct      float64 `json:"change_pct"`
		}
	}
	if err := res.DecodeData(&yoy); err != nil {
		t.Fatal(err)
	}
	if yoy.Compare != "yoy" || len(yoy.Rows) != 12 {
		t.Fatalf("yoy = %+v, want 12 comparable months", yoy)
	}
	for _, r := range yoy.Rows {
		if !near(r.ChangePct, 0.1) || !strings.HasPrefix(r.PreviousPeriod, "2023-") {
			t.Errorf("yoy row %+v, want +10%% against 2023", r)
		}
	}
}

func TestRunCorrelation(t *testing.T) {
	t.Parallel()
	var rows [][]string
	var xs, ys []float64
	for i := 0; i < 60; i++ {
		x := float64(i)
		y := 2*x + float64(i%7)
		z := -x + float64(i%5)*3
		xs, ys = append(xs, x), append(ys, y)
		rows = append(rows, []string{ftoa(x), ftoa(y), ftoa(z), strconv.Itoa(i % 2)})
	}
	op := workspace(t, map[string][]byte{"m.csv": csvText([]string{"price", "demand", "returns", "flag"}, rows)})
	res := runMatched(t, op, "input/m.csv", "correlation between price and demand")
	var got struct {
		Columns []string
		Matrix  [][]float64
		Pairs   []struct {
			A, B string
			R    float64
		}
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"price", "demand"}, got.Columns); diff != "" {
		t.Fatalf("columns (-want +got):\n%s", diff)
	}
	if want := pearson(xs, ys); !near(got.Matrix[0][1], want) || got.Pairs[0].R <= 0.9 {
		t.Errorf("r(price, demand) = %v, want %v", got.Matrix[0][1], want)
	}
	if len(res.Files) != 3 {
		t.Errorf("files = %v, want heatmap, scatter and matrix", res.Files)
	}
	// All numeric columns: returns falls as price rises.
	res = runMatched(t, op, "input/m.csv", "show the correlation matrix")
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, c := range got.Columns {
		idx[c] = i
	}
	if r := got.Matrix[idx["price"]][idx["returns"]]; r >= -0.9 {
		t.Errorf("r(price, returns) = %v, want strongly negative", r)
	}
}

func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func TestRunDistribution(t *testing.T) {
	t.Parallel()
	var rows [][]string
	for i := 1; i <= 100; i++ {
		rows = append(rows, []string{strconv.Itoa(i), []string{"a", "b"}[i%2]})
	}
	op := workspace(t, map[string][]byte{"v.csv": csvText([]string{"score", "group"}, rows)})
	res := runMatched(t, op, "input/v.csv", "Show the distribution of score")
	var got struct {
		Columns map[string]struct{ Count, Min, Max, Median, Q1, Q3, Mean float64 }
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	s := got.Columns["score"]
	// pandas' linear quantiles of 1..100.
	want := struct{ Count, Min, Max, Median, Q1, Q3, Mean float64 }{100, 1, 100, 50.5, 25.75, 75.25, 50.5}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("score stats (-want +got):\n%s", diff)
	}
	if len(res.Files) < 3 {
		t.Errorf("files = %v, want histogram, box plot and table", res.Files)
	}
}

func TestRunPivot(t *testing.T) {
	t.Parallel()
	d := genSales()
	op := workspace(t, map[string][]byte{"sales.csv": d.csv})
	res := runMatched(t, op, "input/sales.csv", "pivot amount by region and product")
	var got struct {
		RowsColumn    string `json:"rows_column"`
		ColumnsColumn string `json:"columns_column"`
		Rows, Columns []string
		Values        [][]float64
		GrandTotal    float64 `json:"grand_total"`
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if got.RowsColumn != "region" || got.ColumnsColumn != "product" {
		t.Fatalf("pivot of %s by %s, want region by product", got.RowsColumn, got.ColumnsColumn)
	}
	var grand float64
	for i, r := range got.Rows {
		for j, c := range got.Columns {
			want := d.pivot[[2]string{r, c}]
			grand += want
			if !near(got.Values[i][j], want) {
				t.Errorf("%s/%s = %v, want %v", r, c, got.Values[i][j], want)
			}
		}
	}
	if len(got.Rows) != 4 || len(got.Columns) != 3 || !near(got.GrandTotal, grand) {
		t.Errorf("%d×%d, grand %v; want 4×3, %v", len(got.Rows), len(got.Columns), got.GrandTotal, grand)
	}
	if got.Rows[0] != ranked(d.byRegion)[0] {
		t.Errorf("first row %s, want the largest region %s", got.Rows[0], ranked(d.byRegion)[0])
	}
}

func TestRunOutliers(t *testing.T) {
	t.Parallel()
	var rows [][]string
	for i := 0; i < 100; i++ {
		v := float64(10 + i%11)
		switch i {
		case 7:
			v = 500
		case 33:
			v = -300
		}
		rows = append(rows, []string{strconv.Itoa(i), ftoa(v)})
	}
	op := workspace(t, map[string][]byte{"o.csv": csvText([]string{"order_id", "amount"}, rows)})
	res := runMatched(t, op, "input/o.csv", "find outliers in amount")
	var got struct {
		Columns map[string]struct {
			IQRRows []int `json:"iqr_rows"`
			ZRows   []int `json:"z_rows"`
		}
		Rows []int
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	want := []int{7, 33}
	if diff := cmp.Diff(want, got.Columns["amount"].IQRRows); diff != "" {
		t.Errorf("IQR rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got.Columns["amount"].ZRows); diff != "" {
		t.Errorf("z rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got.Rows); diff != "" {
		t.Errorf("flagged rows (-want +got):\n%s", diff)
	}
}

func TestRunCohortRetention(t *testing.T) {
	t.Parallel()
	var rows [][]string
	add := func(user int, month string) { rows = append(rows, []string{fmt.Sprintf("u%02d", user), month + "-10"}) }
	for u := 1; u <= 10; u++ { // January cohort: 10, 5 back in Feb, 2 in Mar
		add(u, "2024-01")
		add(u, "2024-01") // a second visit in the same month counts once
		if u <= 5 {
			add(u, "2024-02")
		}
		if u <= 2 {
			add(u, "2024-03")
		}
	}
	for u := 11; u <= 20; u++ { // February cohort: 10, 8 back in Mar
		add(u, "2024-02")
		if u <= 18 {
			add(u, "2024-03")
		}
	}
	for u := 21; u <= 24; u++ { // March cohort: 4
		add(u, "2024-03")
	}
	op := workspace(t, map[string][]byte{"visits.csv": csvText([]string{"user_id", "visit_date"}, rows)})
	res := runMatched(t, op, "input/visits.csv", "monthly cohort retention of users")
	var got struct {
		Entity    string
		Cohorts   []string
		Sizes     []int
		Retention [][]*float64
		Average   []*float64
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	want := [][]*float64{{f(1), f(0.5), f(0.2)}, {f(1), f(0.8), nil}, {f(1), nil, nil}}
	if diff := cmp.Diff(want, got.Retention); diff != "" {
		t.Errorf("retention (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{10, 10, 4}, got.Sizes); diff != "" {
		t.Errorf("sizes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]*float64{f(1), f(0.65), f(0.2)}, got.Average); diff != "" {
		t.Errorf("average (-want +got):\n%s", diff)
	}
	if got.Entity != "user_id" || strings.Join(got.Cohorts, ",") != "2024-01,2024-02,2024-03" {
		t.Errorf("entity %s cohorts %v", got.Entity, got.Cohorts)
	}
}

func TestRunFunnel(t *testing.T) {
	t.Parallel()
	var rows [][]string
	for u := 1; u <= 100; u++ {
		rows = append(rows, []string{strconv.Itoa(u), "visit"})
		if u%3 == 0 {
			rows = append(rows, []string{strconv.Itoa(u), "visit"}) // repeat visits count once
		}
		if u <= 40 {
			rows = append(rows, []string{strconv.Itoa(u), "signup"})
		}
		if u <= 10 {
			rows = append(rows, []string{strconv.Itoa(u), "purchase"})
		}
	}
	op := workspace(t, map[string][]byte{"events.csv": csvText([]string{"user_id", "event"}, rows)})
	res := runMatched(t, op, "input/events.csv", "funnel conversion visit -> signup -> purchase")
	var got struct {
		Stages      []string
		Counts      []float64
		StepRate    []*float64 `json:"step_rate"`
		OverallRate []float64  `json:"overall_rate"`
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	want := struct {
		Stages      []string
		Counts      []float64
		StepRate    []*float64 `json:"step_rate"`
		OverallRate []float64  `json:"overall_rate"`
	}{[]string{"visit", "signup", "purchase"}, []float64{100, 40, 10}, []*float64{nil, f(0.4), f(0.25)}, []float64{1, 0.4, 0.1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("funnel (-want +got):\n%s", diff)
	}
}

func TestRunProfile(t *testing.T) {
	t.Parallel()
	rows := [][]string{
		{"1", "a", "", "3.5"},
		{"2", "b", "", ""},
		{"3", "", "", "4.5"},
		{"4", "d", "", ""},
		{"4", "d", "", ""}, // duplicate of the row before
		{"5", "e", "", "1"},
	}
	op := workspace(t, map[string][]byte{"p.csv": csvText([]string{"id", "name", "nothing", "score"}, rows)})
	res := runMatched(t, op, "input/p.csv", "profile this file")
	var got struct {
		Rows, Columns, Duplicates int
		Missing                   map[string]int
		Types                     map[string]string
		EmptyColumns              []string `json:"empty_columns"`
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if got.Rows != 6 || got.Columns != 4 || got.Duplicates != 1 {
		t.Errorf("shape %d×%d, %d duplicates; want 6×4, 1", got.Rows, got.Columns, got.Duplicates)
	}
	if diff := cmp.Diff(map[string]int{"id": 0, "name": 1, "nothing": 6, "score": 3}, got.Missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"nothing"}, got.EmptyColumns); diff != "" {
		t.Errorf("empty columns (-want +got):\n%s", diff)
	}
	if got.Types["score"] != "float" || got.Types["nothing"] != "empty" || got.Types["name"] != "text" {
		t.Errorf("types = %v", got.Types)
	}
}

func TestRunProfileSingleRow(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"one.csv": []byte("a,b,c\n1,x,2024-01-01\n")})
	res, err := Run(context.Background(), op, "input/one.csv", Match{Template: Profile})
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Rows, Columns int }
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if got.Rows != 1 || got.Columns != 3 {
		t.Errorf("shape %d×%d, want 1×3", got.Rows, got.Columns)
	}
}

func TestRunProfileWideFileStaysBounded(t *testing.T) {
	t.Parallel()
	const cols = 500
	var b bytes.Buffer
	for c := 0; c < cols; c++ {
		if c > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "c%03d", c)
	}
	b.WriteByte('\n')
	for r := 0; r < 200; r++ {
		for c := 0; c < cols; c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			if c%2 == 0 {
				fmt.Fprintf(&b, "%d", (r*c)%97)
			} else {
				fmt.Fprintf(&b, "v%d", (r+c)%5)
			}
		}
		b.WriteByte('\n')
	}
	op := workspace(t, map[string][]byte{"wide.csv": b.Bytes()})
	res, err := Run(context.Background(), op, "input/wide.csv", Match{Template: Profile})
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Rows, Columns int }
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if got.Rows != 200 || got.Columns != cols {
		t.Errorf("shape %d×%d, want 200×%d", got.Rows, got.Columns, cols)
	}
	md := res.Markdown()
	if n := len(md); n > 20000 {
		t.Errorf("markdown is %d bytes, want it bounded under 20000", n)
	}
	if len(res.Files) > 6 {
		t.Errorf("%d files, want at most 6: %v", len(res.Files), res.Files)
	}
}

func TestRunTrendWithoutTimeColumn(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"nodates.csv": []byte("region,amount\nNorth,1\nSouth,2\n")})
	_, err := Run(context.Background(), op, "input/nodates.csv", Match{Template: Trend})
	var ce *CellError
	if !errors.As(err, &ce) || !errors.Is(err, ErrTemplateFailed) {
		t.Fatalf("err = %v, want a *CellError wrapping ErrTemplateFailed", err)
	}
	for _, want := range []string{"template trend", "cell duckdb", "no date or time column", "time="} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestRunUnknownColumnNamesTheColumns(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"s.csv": genSales().csv})
	_, err := Run(context.Background(), op, "input/s.csv", Match{Template: TopN, Params: Params{Category: "segment"}})
	if err == nil || !strings.Contains(err.Error(), "no column 'segment'") || !strings.Contains(err.Error(), "order_date, customer, region") {
		t.Errorf("err = %v, want it to name the missing column and list the columns", err)
	}
}

func TestRunGB18030CSV(t *testing.T) {
	t.Parallel()
	text := "日期,地区,销售额\n2024-01-05,华东,100\n2024-01-09,华北,250.5\n2024-02-01,华东,300\n2024-02-11,华南,80\n2024-03-03,华北,49.5\n"
	enc, err := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	op := workspace(t, map[string][]byte{"销售.csv": enc})
	p := previewOf(t, op, "input/销售.csv")
	if p.Encoding != preview.EncodingGB18030 {
		t.Fatalf("preview encoding %q, want gb18030", p.Encoding)
	}
	res := runMatched(t, op, "input/销售.csv", "按地区统计销售额")
	var got struct {
		Category, Measure string
		Top               []struct {
			Name  string
			Value float64
		}
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		Name  string
		Value float64
	}{{"华东", 400}, {"华北", 300}, {"华南", 80}}
	if got.Category != "地区" || got.Measure != "销售额" {
		t.Errorf("columns %s/%s, want 地区/销售额", got.Category, got.Measure)
	}
	if diff := cmp.Diff(want, got.Top); diff != "" {
		t.Errorf("top (-want +got):\n%s", diff)
	}
	// Without the preview's encoding the cell still reads it, by trying.
	res, err = Run(context.Background(), op, "input/销售.csv", Match{Template: Trend, Params: Params{Encoding: "gb18030", Period: "month"}})
	if err != nil {
		t.Fatal(err)
	}
	var trend struct{ Values []float64 }
	if err := res.DecodeData(&trend); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{350.5, 380, 49.5}, trend.Values); diff != "" {
		t.Errorf("monthly (-want +got):\n%s", diff)
	}
}

func TestRunWorkbookFirstSheetWithData(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	f.SetSheetName("Sheet1", "Notes")
	if _, err := f.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{"region", "sales"}, {"East", 10}, {"West", 30}, {"East", 5}}
	for i, r := range rows {
		if err := f.SetSheetRow("Data", fmt.Sprintf("A%d", i+1), &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	op := workspace(t, map[string][]byte{"book.xlsx": buf.Bytes()})
	res, err := Run(context.Background(), op, "input/book.xlsx", Match{Template: TopN, Params: Params{Category: "region", Measure: "sales"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params.Sheet != "Data" {
		t.Errorf("sheet %q, want Data (the first with data)", res.Params.Sheet)
	}
	var got struct {
		Top []struct {
			Name  string
			Value float64
		}
	}
	if err := res.DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if len(got.Top) != 2 || got.Top[0].Name != "West" || got.Top[0].Value != 30 || got.Top[1].Value != 15 {
		t.Errorf("top = %+v, want West 30, East 15", got.Top)
	}
}

func TestRunSecondRunDoesNotOverwrite(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"s.csv": genSales().csv})
	m := Match{Template: TopN, Params: Params{Category: "region"}}
	first, err := Run(context.Background(), op, "input/s.csv", m)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Run(context.Background(), op, "input/s.csv", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range second.Files {
		if !strings.HasPrefix(f, "out/topn-2_") {
			t.Errorf("second run wrote %s, want out/topn-2_*", f)
		}
	}
	if first.Files[0] == second.Files[0] {
		t.Errorf("both runs wrote %s", first.Files[0])
	}
}

func TestRunRefusesBadInput(t *testing.T) {
	op, err := operator.NewLocal(operator.LocalConfig{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		m    Match
		want error
	}{
		{"no template", Match{}, ErrNoTemplate},
		{"unknown template", Match{Template: "forecast"}, ErrUnknownTemplate},
		{"bad period", Match{Template: Trend, Params: Params{Period: "fortnight"}}, ErrInvalidParams},
		{"escape", Match{Template: Profile}, operator.ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "input/x.csv"
			if tt.name == "escape" {
				file = "../x.csv"
			}
			if _, err := Run(context.Background(), op, file, tt.m); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestParseResult(t *testing.T) {
	stdout := "a warning\nSIFT_RESULT {\"answer\":\"old\"}\nmore\nSIFT_RESULT {\"answer\":\"A\",\"sections\":[{\"title\":\"T\",\"markdown\":\"m\",\"files\":[\"out/x.png\"]}],\"data\":{\"n\":1}}\n"
	out, data, err := parseResult(stdout)
	if err != nil {
		t.Fatal(err)
	}
	if out.Answer != "A" || len(out.Sections) != 1 || string(data) != `{"n":1}` {
		t.Errorf("got %+v data %s, want the last result line", out, data)
	}
	if _, _, err := parseResult("nothing here\n"); err == nil || !strings.Contains(err.Error(), "no SIFT_RESULT line") {
		t.Errorf("err = %v, want no result line", err)
	}
	if _, _, err := parseResult("SIFT_RESULT {\"answer\": \n"); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("err = %v, want invalid JSON", err)
	}
}

func TestPythonMessage(t *testing.T) {
	tests := []struct{ tb, want string }{
		{"Traceback (most recent call last):\n  File \"x\", line 1\nValueError: bad\n\nThe above exception was the direct cause of the following exception:\n\nTraceback:\n__main__.TemplateError: while trying to load the file: ValueError: bad\n", "while trying to load the file: ValueError: bad"},
		{"Traceback:\nKeyError: 'x'\n", "KeyError: 'x'"},
		{"cell timed out after 2m0s\n", "cell timed out after 2m0s"},
	}
	for _, tt := range tests {
		if got := pythonMessage(tt.tb); got != tt.want {
			t.Errorf("pythonMessage(%q) = %q, want %q", tt.tb, got, tt.want)
		}
	}
}

func TestCellCodeCarriesParamsAsData(t *testing.T) {
	tpl, _ := Lookup(TopN)
	evil := "x\"\nimport os; os.system('touch pwned') #"
	code, err := cellCode(tpl, cellInput{Params: Params{Category: evil}, File: "input/a.csv", Stem: "topn"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(code, "pwned") || strings.Contains(code, "input/a.csv") {
		t.Error("a parameter value appears in the code as text")
	}
	first, _, _ := strings.Cut(strings.SplitN(code, "\n", 3)[1], "\n")
	if !regexp.MustCompile(`^_PARAMS_B64 = "[A-Za-z0-9+/=]+"$`).MatchString(first) {
		t.Errorf("second line %q is not the base64 parameter line", first)
	}
}

func TestRunParameterInjectionIsInert(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"s.csv": genSales().csv})
	evil := "x\"); open('out/pwned', 'w').write('1'); (\""
	_, err := Run(context.Background(), op, "input/s.csv", Match{Template: TopN, Params: Params{Category: evil}})
	if err == nil || !strings.Contains(err.Error(), "no column") {
		t.Errorf("err = %v, want the odd name reported as a missing column", err)
	}
	if _, statErr := os.Stat(filepath.Join(op.Root(), "out", "pwned")); statErr == nil {
		t.Error("the parameter ran as code")
	}
}

func TestOutputStem(t *testing.T) {
	op, err := operator.NewLocal(operator.LocalConfig{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	steps := []struct {
		write, template, want string
	}{
		{"", ComparePeriods, "compare_periods"},
		{"out/compare_periods_table.csv", ComparePeriods, "compare_periods-2"},
		{"out/compare_periods-2_chart.png", ComparePeriods, "compare_periods-3"},
		{"out/trendy.png", Trend, "trend"},
	}
	for _, s := range steps {
		if s.write != "" {
			if err := op.WriteFile(ctx, s.write, []byte("x")); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := outputStem(ctx, op, s.template); err != nil || got != s.want {
			t.Errorf("after %s: stem %q, %v; want %q", s.write, got, err, s.want)
		}
	}
}

func BenchmarkRunProfileWide(b *testing.B) {
	var buf bytes.Buffer
	for c := 0; c < 500; c++ {
		fmt.Fprintf(&buf, "c%03d,", c)
	}
	buf.Truncate(buf.Len() - 1)
	buf.WriteByte('\n')
	for r := 0; r < 1000; r++ {
		for c := 0; c < 500; c++ {
			fmt.Fprintf(&buf, "%d,", (r*c)%97)
		}
		buf.Truncate(buf.Len() - 1)
		buf.WriteByte('\n')
	}
	op := workspace(b, map[string][]byte{"wide.csv": buf.Bytes()})
	for b.Loop() {
		if _, err := Run(context.Background(), op, "input/wide.csv", Match{Template: Profile}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCellLeavesKernelNamesAlone(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"s.csv": genSales().csv})
	tpl, _ := Lookup(TopN)
	code, err := cellCode(tpl, cellInput{Params: Params{Category: "region"}, File: "input/s.csv", Stem: "topn"})
	if err != nil {
		t.Fatal(err)
	}
	// As a stateful kernel would: names defined before survive, and the
	// template adds none.
	code = "P = 'mine'\nbefore = set(globals())\n" + code +
		"\nassert P == 'mine'\nprint('ADDED', sorted(k for k in set(globals()) - before - {'before'} if not k.startswith('__')))\n"
	res, err := op.RunPython(context.Background(), code, operator.RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("run: %v %s", err, res.Error)
	}
	if !strings.Contains(res.Stdout, "ADDED []") {
		t.Errorf("stdout %q, want no names added", res.Stdout)
	}
}

func TestCellErrorOutOfMemoryHint(t *testing.T) {
	for _, e := range []*CellError{
		{Template: Trend, Cell: "py/trend.py", Message: "MemoryError", Traceback: "Traceback ...\nMemoryError"},
		{Template: Profile, Cell: "py/profile.py", Message: "the kernel died during the cell (signal: killed)", Traceback: "the kernel died during the cell (signal: killed)"},
		// pandas' C tokenizer reports running out of memory as a parse error.
		{Template: Trend, Cell: "py/trend.py", Message: "while trying to load the file: ParserError: Error tokenizing data. C error: out of memory"},
	} {
		h := e.Hint()
		if !strings.Contains(h, "too large for pandas under the sandbox's memory limit") || !strings.Contains(h, "aggregate in SQL first") || strings.Contains(h, "name the columns explicitly") {
			t.Errorf("%s: hint %q must say the memory limit is the problem and what helps", e.Message, h)
		}
	}
}

// TestAnswersInChinese: with RunOptions.Lang Chinese, the built-ins whose
// answers were English in a Chinese report (correlation, distribution,
// outliers) answer in Chinese; the same runs in English stay English.
func TestAnswersInChinese(t *testing.T) {
	t.Parallel()
	var rows [][]string
	for i := range 60 {
		v := float64(i % 10)
		if i == 30 {
			v = 500
		}
		rows = append(rows, []string{ftoa(float64(i)), ftoa(2*float64(i) + float64(i%7)), ftoa(v)})
	}
	op := workspace(t, map[string][]byte{"m.csv": csvText([]string{"price", "demand", "returns"}, rows)})
	for _, tt := range []struct {
		request, zh, en string
	}{
		{"correlation between price and demand", "相关性最强的是 price 与 demand", "The strongest correlation is between price and demand"},
		{"distribution of demand", "demand：中位数", "demand: median"},
		{"outliers in returns", "行含异常值；最多的在 returns", "1 row holds outliers; most in returns"},
	} {
		chineseBothWays(t, op, "input/m.csv", tt.request, tt.zh, tt.en)
	}
	d := genSales()
	op = workspace(t, map[string][]byte{"sales.csv": d.csv})
	chineseBothWays(t, op, "input/sales.csv", "pivot amount by region and product", "按region（", " by region (")
	chineseBothWays(t, op, "input/sales.csv", "compare amount month over month", "amount总和：", ", month over month: ")
	chineseBothWays(t, op, "input/sales.csv", "top 3 regions by amount", "按region的amount总和排名：", "Top regions by total amount: ")
	chineseBothWays(t, op, "input/sales.csv", "monthly trend of amount", "月度amount总和", "Monthly total amount")
	chineseBothWays(t, op, "input/sales.csv", "profile this data", "这张表有", "rows")

	var visits [][]string
	for u := 1; u <= 10; u++ {
		visits = append(visits, []string{fmt.Sprintf("u%02d", u), "2024-01-10"})
		if u <= 5 {
			visits = append(visits, []string{fmt.Sprintf("u%02d", u), "2024-02-10"})
		}
	}
	var events [][]string
	for u := 1; u <= 20; u++ {
		events = append(events, []string{strconv.Itoa(u), "visit"})
		if u <= 8 {
			events = append(events, []string{strconv.Itoa(u), "signup"})
		}
	}
	op = workspace(t, map[string][]byte{
		"visits.csv": csvText([]string{"user_id", "visit_date"}, visits),
		"events.csv": csvText([]string{"user_id", "event"}, events),
	})
	chineseBothWays(t, op, "input/visits.csv", "monthly cohort retention of users", "同期群", "cohorts of user_id by first month")
	chineseBothWays(t, op, "input/events.csv", "funnel conversion visit -> signup", "到达最后一个阶段", "reach the last stage")
}

// chineseBothWays runs the built-in request matches in Chinese and in
// English and checks each answer has zh or en.
func chineseBothWays(t *testing.T, op operator.Operator, rel, request, zh, en string) {
	t.Helper()
	m := MatchRequest(request, []*preview.FilePreview{previewOf(t, op, rel)})
	if !m.OK() {
		t.Fatalf("MatchRequest(%q) matched nothing: %v", request, m.Reasons)
	}
	for lang, want := range map[string]string{LangChinese: zh, "": en} {
		res, err := RunWith(context.Background(), op, rel, m, RunOptions{Lang: lang})
		if err != nil {
			t.Fatalf("%s (%q): %v", m.Template, lang, err)
		}
		if !strings.Contains(res.Answer, want) {
			t.Errorf("%s in %q answered %q, want it to contain %q", m.Template, lang, res.Answer, want)
		}
		if lang == LangChinese {
			// The words Sift writes around the data (section text, table
			// headers, notes, and why each parameter was picked) are
			// Chinese too.
			text := strings.Join(append([]string{res.Markdown()}, res.Picked...), "\n")
			if words := englishWords(t, text, op, rel); len(words) > 0 {
				t.Errorf("%s in Chinese still says %q:\n%s", m.Template, words, text)
			}
		}
	}
}

// englishWords are the English words in text other than the data's
// (column names and values), file links, and names that stay as they are
// in any language (templates, methods).
func englishWords(t *testing.T, text string, op operator.Operator, rel string) []string {
	t.Helper()
	abs, err := op.Resolve(rel)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	keep := map[string]bool{}
	for _, w := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(string(data), -1) {
		keep[w] = true
	}
	for _, w := range append(Names(), "IQR", "CSV", "pearson", "spearman", "kendall") {
		keep[w] = true
	}
	text = regexp.MustCompile(`!?\[[^\]]*\]\([^)]*\)`).ReplaceAllString(text, "")
	var out []string
	for _, w := range regexp.MustCompile(`[A-Za-z]{2,}`).FindAllString(text, -1) {
		if !keep[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestDuckDBEngineInChinese: what the DuckDB engine picks and notes itself
// (the time column, the period, the columns, the measure and category)
// is Chinese in a Chinese run, as the pandas cells' own picks are.
func TestDuckDBEngineInChinese(t *testing.T) {
	t.Parallel()
	d := genSales()
	op := workspace(t, map[string][]byte{"sales.csv": d.csv})
	for _, m := range []Match{
		{Template: Trend},
		{Template: TopN},
		{Template: Distribution},
		{Template: Profile},
	} {
		res, err := RunWith(context.Background(), op, "input/sales.csv", m, RunOptions{Engine: EngineDuckDB, Lang: LangChinese})
		if err != nil {
			t.Fatalf("%s: %v", m.Template, err)
		}
		if res.Engine != EngineDuckDB || len(res.Picked) == 0 && m.Template != Profile {
			t.Fatalf("%s: engine %s picked %v; want DuckDB to pick the columns", m.Template, res.Engine, res.Picked)
		}
		text := strings.Join(append([]string{res.Markdown()}, res.Picked...), "\n")
		if words := englishWords(t, text, op, "input/sales.csv"); len(words) > 0 {
			t.Errorf("%s with DuckDB in Chinese still says %q:\n%s", m.Template, words, text)
		}
	}
}
