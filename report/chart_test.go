package report

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator"
)

func TestChooseChart(t *testing.T) {
	tests := []struct {
		name    string
		columns []string
		rows    [][]string
		want    ChartSpec
	}{
		{"months and a measure make a line", []string{"month", "revenue"}, [][]string{{"2024-01", "10"}, {"2024-02", "12"}},
			ChartSpec{Kind: chartLine, X: "month", Y: []string{"revenue"}, Title: "revenue by month"}},
		{"dates by value make a line of every measure", []string{"d", "orders", "revenue"}, [][]string{{"2024-01-01", "1", "10"}, {"2024-01-02", "2", "12.5"}},
			ChartSpec{Kind: chartLine, X: "d", Y: []string{"orders", "revenue"}, Title: "orders, revenue by d"}},
		{"years by value make a line", []string{"y", "n"}, [][]string{{"2022", "1"}, {"2023", "2"}},
			ChartSpec{Kind: chartLine, X: "y", Y: []string{"n"}, Title: "n by y"}},
		{"few positive totals make a pie", []string{"region", "total_revenue"}, [][]string{{"North", "150"}, {"South", "70"}, {"East", "30"}},
			ChartSpec{Kind: chartPie, X: "region", Y: []string{"total_revenue"}, Title: "total_revenue by region"}},
		{"an average is a bar, not a pie", []string{"region", "avg_price"}, [][]string{{"North", "15"}, {"South", "7"}},
			ChartSpec{Kind: chartBar, X: "region", Y: []string{"avg_price"}, Title: "avg_price by region"}},
		{"more than six categories make a bar", []string{"product", "sales"}, [][]string{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"e", "5"}, {"f", "6"}, {"g", "7"}},
			ChartSpec{Kind: chartBar, X: "product", Y: []string{"sales"}, Title: "sales by product"}},
		{"a negative total makes a bar", []string{"region", "profit_total"}, [][]string{{"North", "15"}, {"South", "-7"}},
			ChartSpec{Kind: chartBar, X: "region", Y: []string{"profit_total"}, Title: "profit_total by region"}},
		{"two measures make a scatter", []string{"price", "quantity"}, [][]string{{"1.5", "10"}, {"2", "7"}},
			ChartSpec{Kind: chartScatter, X: "price", Y: []string{"quantity"}, Title: "quantity by price"}},
		{"a label and two measures make a labelled scatter", []string{"product", "price", "units"}, [][]string{{"a", "1.5", "10"}, {"b", "2", "7"}},
			ChartSpec{Kind: chartScatter, X: "price", Y: []string{"units"}, Label: "product", Title: "units by price"}},
		{"one row makes no chart", []string{"region", "revenue"}, [][]string{{"North", "150"}}, ChartSpec{}},
		{"one column makes no chart", []string{"revenue"}, [][]string{{"1"}, {"2"}}, ChartSpec{}},
		{"two categories and a measure make no chart", []string{"region", "category", "revenue"}, [][]string{{"N", "a", "1"}, {"S", "b", "2"}}, ChartSpec{}},
		{"three measures make no chart", []string{"a", "b", "c"}, [][]string{{"1", "2", "3"}, {"4", "5", "6"}}, ChartSpec{}},
		{"text only makes no chart", []string{"name", "email"}, [][]string{{"a", "x@y"}, {"b", "z@y"}}, ChartSpec{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ChooseChart(tt.columns, tt.rows)); diff != "" {
				t.Errorf("ChooseChart (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderChartWritesAPNG(t *testing.T) {
	py := pythonOrSkip(t)
	op, err := operator.NewLocal(operator.LocalConfig{Root: t.TempDir(), Python: py})
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	ctx := context.Background()
	// The title holds quotes and braces: it reaches Python only as JSON.
	data := "month,revenue\n2024-02,12\n2024-01,10\n2024-03,15\n"
	if err := op.WriteFile(ctx, "out/monthly.csv", []byte(data)); err != nil {
		t.Fatal(err)
	}
	cols, rows, err := ReadTable(ctx, op, "out/monthly.csv")
	if err != nil {
		t.Fatal(err)
	}
	spec := ChooseChart(cols, rows)
	spec.Title = `Revenue "by" {month}'s`
	if err := RenderChart(ctx, op, spec, "out/monthly.csv", "out/monthly.png"); err != nil {
		t.Fatal(err)
	}
	png, _, err := op.ReadFile(ctx, "out/monthly.png", 0)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("out/monthly.png is not a PNG: %v", err)
	}
	if err := RenderChart(ctx, op, ChartSpec{}, "out/monthly.csv", "out/x.png"); err == nil {
		t.Error("rendering no chart kind must be an error")
	}
}
