package templates

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCJKNumber(t *testing.T) {
	for in, want := range map[string]int{"10": 10, "三": 3, "十": 10, "十五": 15, "二十": 20, "两": 2, "一百": 100} {
		if got := parseCJKNumber(in); got != want {
			t.Errorf("parseCJKNumber(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestParseRequest(t *testing.T) {
	cols := columnsOf(&salesPreview.Sheets[0])
	tests := []struct {
		in   string
		want request
	}{
		{"Top 5 customers", request{n: 5}},
		{"5 biggest regions", request{n: 5}},
		{"ＴＯＰ１０ products", request{n: 10}},
		{"前十名客户", request{n: 10}},
		{"后3名地区", request{n: 3, bottom: true}},
		{"lowest 4 regions by amount", request{n: 4, bottom: true}},
		{"average amount per week", request{agg: "mean", period: "week"}},
		{"total amount by quarter", request{agg: "sum", period: "quarter"}},
		{"how many orders each year", request{agg: "count", period: "year"}},
		{"同比", request{compare: "yoy"}},
		{"收入最低的3个地区", request{n: 3, bottom: true}},
		{"销量最高的五家门店", request{n: 5}},
		{"环比", request{compare: "seq"}},
		{"vs last month", request{compare: "mom"}},
		{"rank correlation", request{method: "spearman"}},
		{"funnel: Visit -> Sign Up -> Buy", request{stages: []string{"Visit", "Sign Up", "Buy"}}},
		{"stages are view, cart and order", request{stages: []string{"view", "cart", "order"}}},
		{"漏斗 浏览→加购→下单的转化率", request{stages: []string{"浏览", "加购", "下单"}}},
	}
	for _, tt := range tests {
		got := parseRequest(tt.in, cols)
		got.raw, got.lang, got.text, got.masked, got.mentions = "", "", "", "", nil
		if diff := cmp.Diff(&tt.want, got, cmp.AllowUnexported(request{})); diff != "" {
			t.Errorf("parseRequest(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestFindMentions(t *testing.T) {
	cols := columnsOf(&cnPreview.Sheets[0])
	got := []string{}
	for _, m := range findMentions(normalize("前10名客户的销售额"), cols) {
		got = append(got, m.col.name)
	}
	if diff := cmp.Diff([]string{"客户名称", "销售额(元)"}, got); diff != "" {
		t.Errorf("mentions (-want +got):\n%s", diff)
	}
	// A column named like an instruction is masked before words are read.
	cols = columnsOf(&previewSheet("x.csv", "count:int", "region:text").Sheets[0])
	r := parseRequest("sum of count by region", cols)
	if r.agg != "sum" {
		t.Errorf("agg %q, want sum (the column called count is not the word count)", r.agg)
	}
}

func TestNameTokens(t *testing.T) {
	for in, want := range map[string][]string{"order_date": {"order", "date"}, "CustomerID": {"customer", "id"}, "销售额(元)": nil, "sales 2024": {"sales", "2024"}} {
		got := nameTokens(in)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("nameTokens(%q) (-want +got):\n%s", in, diff)
		}
	}
}
