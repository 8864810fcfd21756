package sqldb

import (
	"context"
	"strings"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// kernelOperator is a Python kernel over a fresh workspace, or a skip
// where the machine has no Python with pandas.
func kernelOperator(t *testing.T) *operator.KernelOperator {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas (CI installs it): %v", err)
	}
	op, err := operator.NewKernelOperator(operator.KernelConfig{Root: t.TempDir(), Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	return op
}

func TestQueryAsDataFrameLoadsTheKernel(t *testing.T) {
	s, tot, _ := openShop(t, Options{MaxRows: 2})
	op := kernelOperator(t)
	tt := &sqlTools{ss: NewSources(s), op: op}
	ctx := context.Background()
	sqlText := "SELECT c.country, sum(i.quantity * p.price) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE o.status = 'paid' GROUP BY c.country"
	reply, err := tt.query(ctx, SQLQueryArgs{SQL: sqlText, AsDataFrame: "revenue"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"saved in out/revenue.csv", "the DataFrame revenue now holds the full result"} {
		if !strings.Contains(reply, w) {
			t.Errorf("reply lacks %q:\n%s", w, reply)
		}
	}
	// The next cell uses the DataFrame without reading anything.
	res, err := op.RunPython(ctx, "print(round(float(revenue['revenue'].sum()), 2), len(revenue))", operator.RunOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("using the DataFrame: %+v, %v", res, err)
	}
	if want := money(tot.PaidRevenue) + " 4"; strings.TrimSpace(res.Stdout) != want {
		t.Errorf("DataFrame sum and rows = %q, want %q", strings.TrimSpace(res.Stdout), want)
	}
	// The loading cell is in the cell log with its provenance.
	cells, err := operator.ReadCells(op.Root())
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) == 0 || !strings.Contains(cells[0].Code, "sql_query on shop") || !strings.Contains(cells[0].Code, "o.status = 'paid'") || !strings.Contains(cells[0].Code, `pd.read_csv("out/revenue.csv")`) {
		t.Errorf("the first cell must load the DataFrame and say where it came from: %+v", cells)
	}
}

func TestQueryAsDataFrameRefusals(t *testing.T) {
	s, _, _ := openShop(t, Options{})
	ctx := context.Background()
	cases := []struct {
		name string
		op   operator.Operator
		args SQLQueryArgs
		want string
	}{
		{"not a name", newOperator(t), SQLQueryArgs{SQL: "SELECT 1", AsDataFrame: "my frame"}, `as_dataframe "my frame" is not a usable Python variable name`},
		{"keyword", newOperator(t), SQLQueryArgs{SQL: "SELECT 1", AsDataFrame: "class"}, "not a usable Python variable name"},
		{"no workspace", nil, SQLQueryArgs{SQL: "SELECT 1", AsDataFrame: "one"}, "as_dataframe needs a Python session"},
		{"process mode", newOperator(t), SQLQueryArgs{SQL: "SELECT 1 AS one", AsDataFrame: "one"}, `start your code with one = pd.read_csv("out/one.csv")`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := &sqlTools{ss: NewSources(s), op: c.op}
			reply, err := tt.query(ctx, c.args)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(reply, c.want) {
				t.Errorf("reply lacks %q:\n%s", c.want, reply)
			}
		})
	}
}
