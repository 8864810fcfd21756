package sqldb

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/google/go-cmp/cmp"
)

// toolSet returns the SQL tools by name.
func toolSet(t *testing.T, ss *Sources, withOp bool) map[string]tool.InvokableTool {
	t.Helper()
	var tools []tool.BaseTool
	var err error
	if withOp {
		tools, err = Tools(ss, newOperator(t))
	} else {
		tools, err = Tools(ss, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]tool.InvokableTool{}
	for _, bt := range tools {
		info, err := bt.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out[info.Name] = bt.(tool.InvokableTool)
	}
	return out
}

// call invokes a tool with args marshalled to JSON.
func call(t *testing.T, tl tool.InvokableTool, args any) string {
	t.Helper()
	data, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tl.InvokableRun(context.Background(), string(data))
	if err != nil {
		t.Fatalf("tool returned a Go error: %v", err)
	}
	return out
}

func TestToolsOnOneSource(t *testing.T) {
	s, tot, _ := openShop(t, Options{MaxRows: 5})
	ts := toolSet(t, NewSources(s), true)
	if diff := cmp.Diff([]string{DescribeTableName, ExplainSQLName, ListTablesName, SQLQueryName}, sortedKeys(ts)); diff != "" {
		t.Fatalf("tools (-want +got):\n%s", diff)
	}

	cases := []struct {
		name string
		tool string
		args any
		want []string
	}{
		{"list tables", ListTablesName, ListTablesArgs{}, []string{"Database shop (sqlite): 4 tables", "orders (1,000 rows): id, customer_id, order_date, status"}},
		{"describe", DescribeTableName, DescribeTableArgs{Table: "Orders"}, []string{"table orders (1,000 rows)", "customer_id INTEGER → customers.id", "Referenced by: order_items(order_id)"}},
		{"describe unknown", DescribeTableName, DescribeTableArgs{Table: "order"}, []string{`Error: there is no table "order"`, "Hint:", "orders"}},
		{"query", SQLQueryName, SQLQueryArgs{SQL: "SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status"},
			[]string{"shop: 2 columns, 3 rows", "| status | n |", "| paid | " + itoa(tot.OrdersByStatus["paid"]) + " |"}},
		{"query cut", SQLQueryName, SQLQueryArgs{SQL: "SELECT id FROM customers ORDER BY id"},
			[]string{"showing the first 5 of 40 rows", "out/shop_query_1.csv", `df = pd.read_csv("out/shop_query_1.csv")`}},
		{"query save_as", SQLQueryName, SQLQueryArgs{SQL: "SELECT 1 AS one", SaveAs: "one"}, []string{"saved in out/one.csv"}},
		{"refused", SQLQueryName, SQLQueryArgs{SQL: "DELETE FROM orders"}, []string{"Error: refused: DELETE statements are not allowed", "read-only", "Hint: nothing was run"}},
		{"refused comment trick", SQLQueryName, SQLQueryArgs{SQL: "SELECT 1; -- \n DROP TABLE orders"}, []string{"Error: refused: more than one statement"}},
		{"unknown column", SQLQueryName, SQLQueryArgs{SQL: "SELECT statsu FROM orders"}, []string{"Error: unknown column on shop", "Hint:", "status (in orders)"}},
		{"empty sql", SQLQueryName, SQLQueryArgs{}, []string{"Error: sql_query needs the SQL"}},
		{"explain", ExplainSQLName, ExplainSQLArgs{SQL: "SELECT * FROM orders WHERE id = 3"}, []string{"Plan on shop (sqlite):", "orders"}},
		{"explain refused", ExplainSQLName, ExplainSQLArgs{SQL: "DROP TABLE orders"}, []string{"Error: refused"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := call(t, ts[c.tool], c.args)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("reply lacks %q:\n%s", w, out)
				}
			}
		})
	}
	// Nothing the refused calls sent changed the data.
	out := call(t, ts[SQLQueryName], SQLQueryArgs{SQL: "SELECT count(*) AS n FROM orders WHERE 1 = 1"})
	if !strings.Contains(out, "| "+itoa(tot.Orders)+" |") {
		t.Errorf("orders changed:\n%s", out)
	}
}

func itoa(n int) string { return formatValue(int64(n)) }

func TestToolsOnSeveralSources(t *testing.T) {
	a, _, _ := openShop(t, Options{})
	b, _, _ := openShop(t, Options{})
	ss := NewSources(a, b)
	if diff := cmp.Diff([]string{"shop", "shop_2"}, ss.Names()); diff != "" {
		t.Fatalf("names (-want +got):\n%s", diff)
	}
	ts := toolSet(t, ss, false)
	cases := []struct {
		tool string
		args any
		want string
	}{
		{SQLQueryName, SQLQueryArgs{SQL: "SELECT 1"}, "there are 2 databases (shop, shop_2); say which one with source"},
		{SQLQueryName, SQLQueryArgs{SQL: "SELECT count(*) AS n FROM customers", Source: "SHOP_2"}, "shop_2: 1 columns, 1 row"},
		{SQLQueryName, SQLQueryArgs{SQL: "SELECT 1", Source: "shop_22"}, `did you mean "shop_2"?`},
		{ListTablesName, ListTablesArgs{}, "Database shop_2 (sqlite): 4 tables"},
		{SQLQueryName, SQLQueryArgs{SQL: "SELECT id FROM orders", Source: "shop"}, "showing the first 200 of 1,000 rows. Aggregate in SQL"},
		{SQLQueryName, SQLQueryArgs{SQL: "SELECT 2", Source: "shop", SaveAs: "two"}, "save_as was ignored"},
		{DescribeTableName, DescribeTableArgs{Table: "orders", Source: "shop"}, "table orders"},
	}
	for _, c := range cases {
		if out := call(t, ts[c.tool], c.args); !strings.Contains(out, c.want) {
			t.Errorf("%s %+v: reply lacks %q:\n%s", c.tool, c.args, c.want, out)
		}
	}
	info, err := ts[SQLQueryName].Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info.Desc, "Databases: shop, shop_2") {
		t.Errorf("sql_query description does not name the databases: %s", info.Desc)
	}
	text, err := ss.Context(context.Background(), "orders", 4000)
	if err != nil || !strings.Contains(text, `Database "shop"`) || !strings.Contains(text, `Database "shop_2"`) {
		t.Errorf("Sources.Context = %v:\n%s", err, text)
	}
}

func TestToolsStopOnCancellationOnly(t *testing.T) {
	s, _, _ := openShop(t, Options{StatementTimeout: 100 * time.Millisecond})
	ts := toolSet(t, NewSources(s), false)
	long := `{"sql": "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c"}`
	out, err := ts[SQLQueryName].InvokableRun(context.Background(), long)
	if err != nil {
		t.Fatalf("a timeout ended the run: %v", err)
	}
	if !strings.Contains(out, "Error: timeout on shop") || !strings.Contains(out, "add filters") {
		t.Errorf("timeout reply:\n%s", out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ts[SQLQueryName].InvokableRun(ctx, `{"sql": "SELECT 1"}`); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call = %v, want context.Canceled", err)
	}
}

func TestOpenSourcesNames(t *testing.T) {
	pathA, _ := newShopDB(t)
	pathB, _ := newShopDB(t)
	ss, err := OpenSources(context.Background(), []string{"sales=sqlite:" + pathA, pathB}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	if diff := cmp.Diff([]string{"sales", "shop"}, ss.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if _, err := OpenSources(context.Background(), []string{"sqlite:" + pathA, "oracle://nope"}, Options{}); !errors.Is(err, ErrBadURL) {
		t.Errorf("bad URL = %v, want ErrBadURL", err)
	}
}
