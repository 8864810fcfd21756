package sqldb

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestQueryExactNumbers(t *testing.T) {
	s, tot, _ := openShop(t, Options{})
	ctx := context.Background()
	var byCountry [][]string
	for _, c := range sortedKeys(tot.RevenueByCountry) {
		byCountry = append(byCountry, []string{c, money(tot.RevenueByCountry[c])})
	}
	var byStatus [][]string
	for _, st := range sortedKeys(tot.OrdersByStatus) {
		byStatus = append(byStatus, []string{st, strconv.Itoa(tot.OrdersByStatus[st])})
	}
	cases := []struct {
		name string
		sql  string
		want [][]string
	}{
		{"counts", "SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM products), (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items)",
			[][]string{{strconv.Itoa(tot.Customers), strconv.Itoa(tot.Products), strconv.Itoa(tot.Orders), strconv.Itoa(tot.Items)}}},
		{"paid revenue", `SELECT round(sum(i.quantity * p.price), 2) FROM order_items i JOIN products p ON p.id = i.product_id JOIN orders o ON o.id = i.order_id WHERE o.status = 'paid'`,
			[][]string{{money(tot.PaidRevenue)}}},
		{"revenue by country", `SELECT c.country, round(sum(i.quantity * p.price), 2) FROM order_items i
JOIN products p ON p.id = i.product_id JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id
WHERE o.status = 'paid' GROUP BY c.country ORDER BY c.country`, byCountry},
		{"orders by status, string with semicolon", "SELECT status, count(*) FROM orders WHERE status <> 'x;y' GROUP BY status ORDER BY status", byStatus},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := s.Query(ctx, c.sql, QueryOptions{})
			if err != nil {
				t.Fatalf("Query: %v", err)
			}
			if diff := cmp.Diff(c.want, res.Rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if res.Truncated() || res.SavedTo != "" {
				t.Errorf("small result: truncated=%v saved=%q, want neither", res.Truncated(), res.SavedTo)
			}
		})
	}
}

func TestQueryRowCapSavesFullCSV(t *testing.T) {
	s, tot, _ := openShop(t, Options{MaxRows: 10})
	op := newOperator(t)
	res, err := s.Query(context.Background(), "SELECT id, customer_id, status FROM orders ORDER BY id", QueryOptions{Op: op})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 10 || res.Total != tot.Orders || !res.TotalKnown || !res.Truncated() {
		t.Fatalf("rows=%d total=%d known=%v, want 10 of %d", len(res.Rows), res.Total, res.TotalKnown, tot.Orders)
	}
	if res.SavedTo != "out/shop_query_1.csv" {
		t.Fatalf("SavedTo = %q, want out/shop_query_1.csv", res.SavedTo)
	}
	reply := FormatResult(res, time.Now())
	for _, want := range []string{"showing the first 10 of 1,000 rows", "out/shop_query_1.csv", `df = pd.read_csv("out/shop_query_1.csv")`} {
		if !strings.Contains(reply, want) {
			t.Errorf("reply lacks %q:\n%s", want, reply)
		}
	}
	data, err := os.ReadFile(filepath.Join(op.Root(), res.SavedTo))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != tot.Orders+1 {
		t.Fatalf("CSV has %d records, want header + %d", len(recs), tot.Orders)
	}
	if diff := cmp.Diff([]string{"id", "customer_id", "status"}, recs[0]); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(res.Rows, recs[1:11]); diff != "" {
		t.Errorf("CSV's first rows differ from the reply's (-want +got):\n%s", diff)
	}
	if got := recs[tot.Orders][0]; got != strconv.Itoa(tot.Orders) {
		t.Errorf("last CSV id = %s, want %d", got, tot.Orders)
	}

	// A second cut result gets the next name.
	res2, err := s.Query(context.Background(), "SELECT id FROM orders", QueryOptions{Op: op})
	if err != nil {
		t.Fatal(err)
	}
	if res2.SavedTo != "out/shop_query_2.csv" {
		t.Errorf("second SavedTo = %q, want out/shop_query_2.csv", res2.SavedTo)
	}
}

func TestQuerySaveAsAndPandas(t *testing.T) {
	s, tot, _ := openShop(t, Options{})
	op := newOperator(t)
	res, err := s.Query(context.Background(), "SELECT status, count(*) AS n, NULL AS missing FROM orders GROUP BY status ORDER BY status", QueryOptions{Op: op, SaveAs: "../by status.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if res.SavedTo != "out/by_status.csv" {
		t.Fatalf("SavedTo = %q, want out/by_status.csv", res.SavedTo)
	}
	data, err := os.ReadFile(filepath.Join(op.Root(), res.SavedTo))
	if err != nil {
		t.Fatal(err)
	}
	want := "status,n,missing\n"
	for _, st := range sortedKeys(tot.OrdersByStatus) {
		want += st + "," + strconv.Itoa(tot.OrdersByStatus[st]) + ",\n"
	}
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	if !strings.Contains(FormatResult(res, time.Now()), `pd.read_csv("out/by_status.csv")`) {
		t.Error("reply lacks the pandas line")
	}

	const python = "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("skipping the pandas load: /usr/bin/python3 is not installed")
	}
	if exec.Command(python, "-c", "import pandas").Run() != nil {
		t.Skip("skipping the pandas load: pandas is not installed for /usr/bin/python3")
	}
	code := "import pandas as pd\n" + PandasLine(res.SavedTo) + "\nprint(len(df), int(df['n'].sum()), df['missing'].isna().all())"
	cmd := exec.Command(python, "-c", code)
	cmd.Dir = op.Root()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), strconv.Itoa(len(tot.OrdersByStatus))+" "+strconv.Itoa(tot.Orders)+" True"; got != want {
		t.Errorf("pandas read %q, want %q", got, want)
	}
}

func TestCSVExportSpillsToFile(t *testing.T) {
	op := newOperator(t)
	e := &csvExport{ctx: context.Background(), op: op, path: "out/big.csv", limit: 64}
	defer e.abort()
	var want strings.Builder
	for i := range 1000 {
		rec := []string{strconv.Itoa(i), "value, with comma", `quote " inside`}
		if err := e.write(rec); err != nil {
			t.Fatal(err)
		}
		want.WriteString(strconv.Itoa(i) + `,"value, with comma","quote "" inside"` + "\n")
	}
	if !e.spilled() {
		t.Fatal("export did not spill to a file past its limit")
	}
	if _, err := os.Stat(filepath.Join(op.Root(), "out/big.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out/big.csv exists before commit (err %v)", err)
	}
	p, err := e.commit()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(op.Root(), p))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), string(data)); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	left, _ := filepath.Glob(filepath.Join(op.Root(), "out", ".sqldb-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestQueryTimeoutSQLite(t *testing.T) {
	s, _, _ := openShop(t, Options{StatementTimeout: 200 * time.Millisecond})
	long := "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c"
	_, err := s.Query(context.Background(), long, QueryOptions{})
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Kind != KindTimeout || !errors.Is(err, ErrTimeout) {
		t.Fatalf("Query = %v, want a timeout *QueryError", err)
	}
	if !strings.Contains(qe.Hint, "add filters") || !strings.Contains(qe.Hint, "LIMIT") {
		t.Errorf("hint = %q, want it to say add filters or LIMIT", qe.Hint)
	}
	// The connection is usable afterwards.
	res, err := s.Query(context.Background(), "SELECT count(*) FROM customers", QueryOptions{NoCache: true})
	if err != nil || res.Rows[0][0] != "40" {
		t.Fatalf("query after timeout = %v, %v", res, err)
	}
}

func TestQueryCancelledIsAnError(t *testing.T) {
	s, _, _ := openShop(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Query(ctx, "SELECT 1", QueryOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Query on a cancelled context = %v, want context.Canceled", err)
	}
	var qe *QueryError
	if errors.As(err, &qe) {
		t.Errorf("cancellation became a QueryError: %v", qe)
	}
}

// TestSQLiteReadOnlyBehindTheGuard sends writes past the guard, straight
// to the connection: mode=ro, query_only and the authorizer must stop
// them.
func TestSQLiteReadOnlyBehindTheGuard(t *testing.T) {
	s, tot, path := openShop(t, Options{})
	ctx := context.Background()
	for _, q := range []string{
		"INSERT INTO customers VALUES (999, 'x', 'y')",
		"DELETE FROM orders",
		"DROP TABLE order_items",
		"PRAGMA query_only = OFF",
		"ATTACH DATABASE '" + filepath.Join(t.TempDir(), "other.db") + "' AS other",
		"CREATE TEMP TABLE scratch (a)",
		"SELECT load_extension('x')",
	} {
		err := s.run(ctx, q, func(*sql.Rows) error { return nil })
		if err == nil {
			t.Errorf("unguarded %q succeeded on the read-only connection", q)
			continue
		}
		if kind, _ := classify(SQLite, err); kind != KindReadOnly {
			t.Errorf("unguarded %q failed as %q (%v), want %q", q, kind, err, KindReadOnly)
		}
	}
	res, err := s.Query(ctx, "SELECT count(*) FROM orders", QueryOptions{NoCache: true})
	if err != nil || res.Rows[0][0] != strconv.Itoa(tot.Orders) {
		t.Fatalf("orders after the attempts = %v %v, want %d", res, err, tot.Orders)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "other.db")); err == nil {
		t.Error("ATTACH created a database file")
	}
}

func TestFormatValue(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, "NULL"},
		{int64(-3), "-3"},
		{2.5, "2.5"},
		{1e20, "1e+20"},
		{float64(7), "7"},
		{[]byte("text"), "text"},
		{[]byte{0xff, 0x00}, "x'ff00'"},
		{true, "true"},
		{time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), "2024-03-01"},
		{time.Date(2024, 3, 1, 13, 4, 5, 0, time.UTC), "2024-03-01 13:04:05"},
	}
	for _, c := range cases {
		if got := formatValue(c.in); got != c.want {
			t.Errorf("formatValue(%#v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func BenchmarkQueryExport1000Rows(b *testing.B) {
	s, _, _ := openShop(b, Options{MaxRows: 50, CacheTTL: -1})
	op := newOperator(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Query(ctx, "SELECT * FROM orders", QueryOptions{Op: op, SaveAs: "orders"}); err != nil {
			b.Fatal(err)
		}
	}
}
