package templates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// Previews the matcher tests run over.
var (
	salesPreview   = previewSheet("input/sales.csv", "order_date:date", "customer:text", "region:text", "product:text", "amount:float", "quantity:int")
	cnPreview      = previewSheet("input/销售.csv", "日期:date", "地区:text", "客户名称:text", "产品:text", "销售额(元):float", "数量:int")
	eventsPreview  = previewSheet("input/events.csv", "user_id:int", "event:text", "ts:datetime")
	visitsPreview  = previewSheet("input/visits.csv", "user_id:text", "visit_date:date")
	noDatesPreview = previewSheet("input/nodates.csv", "region:text", "amount:float")
	metricsPreview = previewSheet("input/metrics.csv", "price:float", "demand:float", "returns:float", "rating:int")
	widePreview    = previewSheet("input/steps.csv", "visited:int", "signed_up:int", "purchased:int")
)

// paramsOpts compares the parameters a match decides, not its prose or the
// file-reading fields.
var paramsOpts = []cmp.Option{cmpopts.IgnoreFields(Params{}, "Reasons", "Encoding", "Delimiter", "Sheet"), cmpopts.EquateEmpty()}

func TestMatchRequestMatches(t *testing.T) {
	tests := []struct {
		request  string
		files    []*preview.FilePreview
		template string
		want     Params
	}{
		// profile
		{"profile this file", nil, Profile, Params{}},
		{"Give me an overview of the data", nil, Profile, Params{}},
		{"What's in this file?", nil, Profile, Params{}},
		{"check data quality and missing values", nil, Profile, Params{}},
		{"看看这个文件", nil, Profile, Params{}},
		{"数据概况", nil, Profile, Params{}},
		{"这份数据有多少缺失值？", nil, Profile, Params{}},
		// trend
		{"Monthly revenue trend", nil, Trend, Params{Time: "order_date", Measure: "amount", Period: "month"}},
		{"show the trend of amount over time", nil, Trend, Params{Time: "order_date", Measure: "amount"}},
		{"weekly sales", nil, Trend, Params{Time: "order_date", Measure: "amount", Period: "week"}},
		{"DAILY ORDER COUNT", nil, Trend, Params{Time: "order_date", Aggregation: "count", Period: "day"}},
		{"quarterly average amount by region", nil, Trend, Params{Time: "order_date", Measure: "amount", Aggregation: "mean", Period: "quarter", Category: "region"}},
		{"which month had the highest revenue?", nil, Trend, Params{Time: "order_date", Measure: "amount", Period: "month"}},
		{"按月统计销售额", []*preview.FilePreview{cnPreview}, Trend, Params{Time: "日期", Measure: "销售额(元)", Period: "month"}},
		{"销售额的月度趋势", []*preview.FilePreview{cnPreview}, Trend, Params{Time: "日期", Measure: "销售额(元)", Period: "month"}},
		{"每周订单数的走势", []*preview.FilePreview{cnPreview}, Trend, Params{Time: "日期", Aggregation: "count", Period: "week"}},
		// topn
		{"top 10 customers by sales", nil, TopN, Params{Category: "customer", Measure: "amount", N: 10}},
		{"Top 3 customers by amount", nil, TopN, Params{Category: "customer", Measure: "amount", N: 3}},
		{"top-5 products by quantity", nil, TopN, Params{Category: "product", Measure: "quantity", N: 5}},
		{"bottom 3 regions by revenue", nil, TopN, Params{Category: "region", Measure: "amount", N: 3, Ascending: true}},
		{"total amount by region", nil, TopN, Params{Category: "region", Measure: "amount", Aggregation: "sum", N: 10}},
		{"number of orders per region", nil, TopN, Params{Category: "region", Aggregation: "count", N: 10}},
		{"best-selling products", nil, TopN, Params{Category: "product", Measure: "amount", N: 10}},
		{"按地区统计销售额", []*preview.FilePreview{cnPreview}, TopN, Params{Category: "地区", Measure: "销售额(元)", N: 10}},
		{"销售额前10名客户", []*preview.FilePreview{cnPreview}, TopN, Params{Category: "客户名称", Measure: "销售额(元)", N: 10}},
		{"销量最高的前五个产品", []*preview.FilePreview{cnPreview}, TopN, Params{Category: "产品", Measure: "数量", N: 5}},
		{"各地区的平均销售额", []*preview.FilePreview{cnPreview}, TopN, Params{Category: "地区", Measure: "销售额(元)", Aggregation: "mean", N: 10}},
		// compare_periods
		{"compare amount month over month", nil, ComparePeriods, Params{Time: "order_date", Measure: "amount", Compare: "mom"}},
		{"Revenue YoY", nil, ComparePeriods, Params{Time: "order_date", Measure: "amount", Compare: "yoy"}},
		{"sales this quarter vs last quarter", nil, ComparePeriods, Params{Time: "order_date", Measure: "amount", Compare: "qoq", Period: "quarter"}},
		{"销售额同比", []*preview.FilePreview{cnPreview}, ComparePeriods, Params{Time: "日期", Measure: "销售额(元)", Compare: "yoy"}},
		{"本月销售额环比", []*preview.FilePreview{cnPreview}, ComparePeriods, Params{Time: "日期", Measure: "销售额(元)", Compare: "mom", Period: "month"}},
		// correlation
		{"correlation between price and demand", []*preview.FilePreview{metricsPreview}, Correlation, Params{Columns: []string{"price", "demand"}}},
		{"Show the correlation matrix", []*preview.FilePreview{metricsPreview}, Correlation, Params{}},
		{"spearman correlation of price, demand and rating", []*preview.FilePreview{metricsPreview}, Correlation, Params{Columns: []string{"price", "demand", "rating"}, Method: "spearman"}},
		{"价格和需求的相关性", []*preview.FilePreview{previewSheet("input/m.csv", "价格:float", "需求:float")}, Correlation, Params{Columns: []string{"价格", "需求"}}},
		// English column names inside a Chinese request are named by it.
		{"price和demand的相关性", []*preview.FilePreview{metricsPreview}, Correlation, Params{Columns: []string{"price", "demand"}}},
		{"按region和product统计amount的数据透视表", nil, Pivot, Params{Category: "region", Category2: "product", Measure: "amount"}},
		// distribution
		{"distribution of amount", nil, Distribution, Params{Columns: []string{"amount"}}},
		{"Histogram of price", []*preview.FilePreview{metricsPreview}, Distribution, Params{Columns: []string{"price"}}},
		{"销售额的分布", []*preview.FilePreview{cnPreview}, Distribution, Params{Columns: []string{"销售额(元)"}}},
		// pivot
		{"pivot amount by region and product", nil, Pivot, Params{Category: "region", Category2: "product", Measure: "amount"}},
		{"cross-tab of region and product", nil, Pivot, Params{Category: "region", Category2: "product"}},
		{"地区和产品的销售额透视表", []*preview.FilePreview{cnPreview}, Pivot, Params{Category: "地区", Category2: "产品", Measure: "销售额(元)"}},
		{"pivot sales by region per month", nil, Pivot, Params{Category: "region", Measure: "amount", Time: "order_date", Period: "month"}},
		// outliers
		{"find outliers in amount", nil, Outliers, Params{Columns: []string{"amount"}}},
		{"Any anomalies in the data?", nil, Outliers, Params{}},
		{"销售额有没有异常值", []*preview.FilePreview{cnPreview}, Outliers, Params{Columns: []string{"销售额(元)"}}},
		// cohort
		{"monthly cohort retention of users", []*preview.FilePreview{visitsPreview}, Cohort, Params{Entity: "user_id", Time: "visit_date", Period: "month"}},
		{"weekly retention", []*preview.FilePreview{visitsPreview}, Cohort, Params{Entity: "user_id", Time: "visit_date", Period: "week"}},
		{"用户留存分析", []*preview.FilePreview{visitsPreview}, Cohort, Params{Entity: "user_id", Time: "visit_date", Period: "month"}},
		// funnel
		{"funnel conversion visit -> signup -> purchase", []*preview.FilePreview{eventsPreview}, Funnel, Params{Stage: "event", Stages: []string{"visit", "signup", "purchase"}, Entity: "user_id"}},
		{"conversion rate by event", []*preview.FilePreview{eventsPreview}, Funnel, Params{Stage: "event", Entity: "user_id"}},
		{"漏斗：浏览→加购→下单", []*preview.FilePreview{eventsPreview}, Funnel, Params{Stage: "event", Stages: []string{"浏览", "加购", "下单"}, Entity: "user_id"}},
		{"funnel: visited > signed_up > purchased", []*preview.FilePreview{widePreview}, Funnel, Params{Stages: []string{"visited", "signed_up", "purchased"}}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			files := tt.files
			if files == nil {
				files = []*preview.FilePreview{salesPreview}
			}
			m := MatchRequest(tt.request, files)
			if m.Template != tt.template {
				t.Fatalf("template = %q (candidate %q, confidence %.2f), want %q; reasons: %v", m.Template, m.Candidate, m.Confidence, tt.template, m.Reasons)
			}
			if m.Confidence < MinConfidence || m.Confidence > 1 {
				t.Errorf("confidence %.2f out of range", m.Confidence)
			}
			got := m.Params
			if tt.want.Aggregation == "" {
				// The reading always states its aggregation (sum of a
				// measure, or count); the phrasing did not name one.
				got.Aggregation = ""
			}
			if diff := cmp.Diff(tt.want, got, paramsOpts...); diff != "" {
				t.Errorf("params (-want +got):\n%s\nreasons: %v", diff, m.Params.Reasons)
			}
			if len(m.Reasons) == 0 {
				t.Error("no reasons")
			}
		})
	}
	if len(tests) < 40 {
		t.Errorf("only %d phrasings; keep at least 40", len(tests))
	}
}

func TestMatchRequestRefuses(t *testing.T) {
	tests := []struct {
		request string
		files   []*preview.FilePreview
	}{
		{"why did sales drop and what should we do", nil},
		{"Write a poem about our customers", nil},
		{"join these two files and forecast next year", nil},
		{"清洗数据然后建模预测", nil},
		{"predict next month's revenue", nil},
		{"what is the best strategy to improve retention?", nil},
		{"explain the monthly trend", nil},
		{"merge orders with customers and rank them", nil},
		{"build a regression model of amount on quantity", nil},
		{"cluster customers into segments", nil},
		{"为什么三月的销售额下降了", nil},
		{"帮我写一封邮件给客户", nil},
		{"如何提高转化率", []*preview.FilePreview{eventsPreview}},
		{"search the web for competitor prices", nil},
		{"hello", nil},
		{"", nil},
		{"profile the file then show the monthly trend", nil},
		{"monthly revenue trend", []*preview.FilePreview{noDatesPreview}},
		{"monthly revenue trend", nil},
		{"show the correlation and the trend", nil},
		// Two questions in one request: more than one analysis answers.
		{"Monthly trend and top region?", []*preview.FilePreview{salesPreview}},
		{"What is the monthly revenue trend in 2024, and which region sells most?", []*preview.FilePreview{salesPreview}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			files := tt.files
			if files == nil {
				files = []*preview.FilePreview{salesPreview}
			}
			if tt.request == "monthly revenue trend" && tt.files == nil {
				files = nil // no table at all
			}
			m := MatchRequest(tt.request, files)
			if m.OK() {
				t.Fatalf("matched %q with confidence %.2f (%v); want no match", m.Template, m.Confidence, m.Reasons)
			}
			if m.Confidence >= MinConfidence {
				t.Errorf("confidence %.2f at or above the threshold without a match", m.Confidence)
			}
			if len(m.Reasons) == 0 {
				t.Error("no reason given for not matching")
			}
		})
	}
	if len(tests) < 15 {
		t.Errorf("only %d refusals; keep at least 15", len(tests))
	}
}

func TestMatchNoTimeColumnLowersConfidence(t *testing.T) {
	m := MatchRequest("monthly revenue trend", []*preview.FilePreview{noDatesPreview})
	if m.OK() || m.Candidate != Trend {
		t.Fatalf("got template %q candidate %q, want no match with candidate trend", m.Template, m.Candidate)
	}
	if !strings.Contains(strings.Join(m.Reasons, "; "), "no date or time column") {
		t.Errorf("reasons %v do not say the time column is missing", m.Reasons)
	}
}

func TestMatchPicksFileByMentionedColumns(t *testing.T) {
	m := MatchRequest("correlation between price and demand", []*preview.FilePreview{salesPreview, metricsPreview})
	if m.Template != Correlation || m.File != "input/metrics.csv" || m.FileIndex != 1 {
		t.Errorf("got %s on %s (#%d), want correlation on input/metrics.csv (#1)", m.Template, m.File, m.FileIndex)
	}
}

func TestMatchRecordsReasons(t *testing.T) {
	m := MatchRequest("top 10 customers by sales", []*preview.FilePreview{salesPreview})
	want := []string{
		"every word of the request is placed on the reading",
		"measure: amount (named in the request)",
		"category: customer (named in the request)",
		"n: 10 (from the request)",
	}
	if diff := cmp.Diff(want, m.Params.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if m.Params.Encoding != "utf-8-sig" || m.Params.Delimiter != "," {
		t.Errorf("reading params %q %q, want utf-8-sig and comma from the preview", m.Params.Encoding, m.Params.Delimiter)
	}
}

func TestMatchTemplate(t *testing.T) {
	m, err := MatchTemplate("group_by", "by region", []*preview.FilePreview{salesPreview})
	if err != nil {
		t.Fatal(err)
	}
	if m.Template != TopN || m.Params.Category != "region" || m.Confidence != 1 {
		t.Errorf("got %+v, want topn by region with confidence 1", m)
	}
	m, err = MatchTemplate(Trend, "", []*preview.FilePreview{noDatesPreview})
	if err != nil {
		t.Fatal(err)
	}
	if m.Template != Trend || m.Confidence >= MinConfidence {
		t.Errorf("forced trend without dates: template %q confidence %.2f, want trend below the threshold", m.Template, m.Confidence)
	}
	if _, err := MatchTemplate("forecast", "", nil); err == nil || !strings.Contains(err.Error(), "profile") {
		t.Errorf("err = %v, want ErrUnknownTemplate listing the templates", err)
	}
}

func BenchmarkMatchRequest(b *testing.B) {
	files := []*preview.FilePreview{salesPreview, cnPreview, metricsPreview}
	requests := []string{"top 10 customers by sales", "按地区统计销售额", "monthly revenue trend", "why did sales drop and what should we do"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		MatchRequest(requests[i%len(requests)], files)
	}
}

func TestMatchPrefersTotalsOverPerUnitPrices(t *testing.T) {
	// unit_price comes first and is money-like, but summing prices means
	// nothing: the total-like revenue column is the measure.
	p := previewSheet("input/sales.csv", "date:date", "region:text", "unit_price:float", "revenue:float")
	for _, req := range []string{"Which region sells most?", "monthly revenue trend"} {
		m := MatchRequest(req, []*preview.FilePreview{p})
		if !m.OK() || m.Params.Measure != "revenue" {
			t.Errorf("%q: template %q measure %q, want revenue", req, m.Template, m.Params.Measure)
		}
	}
	// A request that names no measure is not given the money-like one.
	if m := MatchRequest("monthly trend", []*preview.FilePreview{p}); m.OK() {
		t.Errorf("monthly trend: matched %s on %q, want a refusal naming the numeric columns", m.Template, m.Params.Measure)
	}
}

// TestMatchRequestSeveralTables: among several tables the matcher runs on
// the one the request singles out, and on each table otherwise; its
// reasons say what singled a table out and never claim a column the
// request did not name.
func TestMatchRequestSeveralTables(t *testing.T) {
	airports := previewSheet("input/airports.csv", "iata:text", "name:text", "city:text", "lat:float", "lon:float")
	flights := previewSheet("input/flights.csv", "flight_date:date", "carrier:text", "origin:text", "delay:float")
	carriers := previewSheet("input/carriers.csv", "code:text", "carrier_name:text")
	three := []*preview.FilePreview{airports, flights, carriers}
	tests := []struct {
		request  string
		files    []*preview.FilePreview
		template string
		want     []string // files run on, in order
		reason   string   // a reason that must be given
	}{
		{"Profile every table", three, Profile, []string{"input/airports.csv", "input/flights.csv", "input/carriers.csv"}, `the request says "every table": each of the 3 tables is analysed`},
		{"profile all the files", three, Profile, []string{"input/airports.csv", "input/flights.csv", "input/carriers.csv"}, "each of the 3 tables"},
		{"数据概况：所有表", three, Profile, []string{"input/airports.csv", "input/flights.csv", "input/carriers.csv"}, "3 张表逐一分析"},
		{"profile the data", three, Profile, []string{"input/airports.csv", "input/flights.csv", "input/carriers.csv"}, "names no file and no column"},
		{"profile flights.csv", three, Profile, []string{"input/flights.csv"}, "Data profile, from input/flights.csv"},
		{"profile the carriers table", three, Profile, []string{"input/carriers.csv"}, "Data profile, from input/carriers.csv"},
		{"profile flights and carriers", three, Profile, []string{"input/flights.csv", "input/carriers.csv"}, "each is analysed"},
		{"monthly delay trend", three, Trend, []string{"input/flights.csv"}, "Total of delay per month, from input/flights.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			m := MatchRequest(tt.request, tt.files)
			if m.Template != tt.template {
				t.Fatalf("template = %q (candidate %q, confidence %.2f), want %q; reasons: %v", m.Template, m.Candidate, m.Confidence, tt.template, m.Reasons)
			}
			got := []string{m.File}
			if len(m.Each) > 0 {
				got = nil
				for _, e := range m.Each {
					if e.Template != tt.template || e.FileIndex < 0 || tt.files[e.FileIndex].Name != e.File {
						t.Errorf("each: %+v", e)
					}
					got = append(got, e.File)
				}
				if m.File != got[0] {
					t.Errorf("File = %q, want the first table %q", m.File, got[0])
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tables (-want +got):\n%s", diff)
			}
			all := strings.Join(m.Reasons, "\n")
			if !strings.Contains(all, tt.reason) {
				t.Errorf("reasons lack %q:\n%s", tt.reason, all)
			}
			if strings.Contains(tt.reason, "names no file") && strings.Contains(all, "columns the request names") {
				t.Errorf("a reason claims columns the request did not name:\n%s", all)
			}
		})
	}
	// A trend that names no measure is not given the only numeric column.
	if m := MatchRequest("show the trend over time", three); m.OK() {
		t.Errorf("matched %s of %q: the request names no measure", m.Template, m.Params.Measure)
	}
	// A question no table can answer still goes to the model.
	if m := MatchRequest("top 5 by revenue over time", []*preview.FilePreview{airports, carriers}); m.OK() {
		t.Errorf("matched %s on %v with neither dates nor numbers: %v", m.Template, m.File, m.Reasons)
	}
}
