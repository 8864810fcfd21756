package templates

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInferMissing(t *testing.T) {
	tests := []struct {
		template string
		cols     []string
		request  string
		want     []string
	}{
		{Trend, []string{"region:text", "amount:float"}, "trend", []string{"no date or time column in the preview"}},
		{Correlation, []string{"region:text", "amount:float"}, "correlation", []string{"fewer than two numeric columns in the preview"}},
		{Pivot, []string{"region:text", "amount:float"}, "pivot", []string{"only one text column; a pivot needs two categories or a date"}},
		{Cohort, []string{"visit_date:date", "amount:float"}, "retention", []string{"no id column (user, customer) in the preview"}},
		{Funnel, []string{"user_id:int", "amount:float"}, "funnel", []string{"no stage column (stage, step, event) in the preview"}},
		{TopN, []string{"amount:float"}, "top 5", []string{"no text column to group by in the preview"}},
		{Profile, []string{"amount:float"}, "profile", nil},
	}
	for _, tt := range tests {
		cols := columnsOf(&previewSheet("x.csv", tt.cols...).Sheets[0])
		in := infer(tt.template, parseRequest(tt.request, cols), cols)
		if diff := cmp.Diff(tt.want, in.missing); diff != "" {
			t.Errorf("%s over %v: missing (-want +got):\n%s", tt.template, tt.cols, diff)
		}
	}
}

func TestInferPrefersCategoryOverIDs(t *testing.T) {
	cols := columnsOf(&previewSheet("o.csv", "order_id:text", "region:text", "amount:float").Sheets[0])
	in := infer(TopN, parseRequest("number of orders per region", cols), cols)
	if in.p.Category != "region" || in.p.Measure != "" || in.p.Aggregation != "count" {
		t.Errorf("got %+v, want a count of rows by region", in.p)
	}
}

func TestInferTimeColumnByName(t *testing.T) {
	// A text column named like a month ("2024-01" is not a preview date
	// type) still serves as the time column; a typed date wins over it.
	cols := columnsOf(&previewSheet("m.csv", "月份:text", "销售额:float").Sheets[0])
	in := infer(Trend, parseRequest("销售额趋势", cols), cols)
	if in.p.Time != "月份" || len(in.missing) > 0 {
		t.Errorf("got time %q missing %v, want 月份", in.p.Time, in.missing)
	}
	cols = columnsOf(&previewSheet("m.csv", "month:text", "created:date", "v:float").Sheets[0])
	in = infer(Trend, parseRequest("trend", cols), cols)
	if in.p.Time != "created" {
		t.Errorf("time %q, want the typed date column created", in.p.Time)
	}
}
