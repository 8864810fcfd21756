package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// startPostgres starts a throwaway Postgres server on a free localhost
// port and returns the superuser's URL for database db. It skips the test
// when Postgres is not installed. Postgres refuses to run as root, so as
// root the server runs as the postgres user.
func startPostgres(t *testing.T) string {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			bins = []string{p}
		}
	}
	if len(bins) == 0 {
		t.Skip("skipping the Postgres tests: initdb not found (install the postgresql package; CI does)")
	}
	sort.Strings(bins)
	bin := filepath.Dir(bins[len(bins)-1])

	var asUser []string
	var uid, gid = -1, -1
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("skipping the Postgres tests: running as root and there is no postgres user to run the server as")
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			t.Skip("skipping the Postgres tests: running as root without runuser")
		}
		asUser = []string{runuser, "-u", "postgres", "--"}
	}
	// t.TempDir's parent is private to root; the server user needs its
	// own directory it can reach.
	dir, err := os.MkdirTemp("", "sqldb-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{data, sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if uid >= 0 {
			if err := os.Chown(d, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	logFile := filepath.Join(sock, "server.log")
	run := func(name string, args ...string) error {
		argv := append(append(append([]string(nil), asUser...), filepath.Join(bin, name)), args...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			logText, _ := os.ReadFile(logFile)
			return fmt.Errorf("%s: %v\n%s\n%s", name, err, out, logText)
		}
		return nil
	}
	if err := run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", port, sock)
	if err := run("pg_ctl", "-D", data, "-l", logFile, "-w", "-t", "60", "-o", opts, "start"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"); err != nil {
			t.Logf("stop postgres: %v", err)
		}
	})
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d", port)
}

// TestPostgres runs the read-only contract, the queries, the schema and the
// error hints against a real server.
func TestPostgres(t *testing.T) {
	base := startPostgres(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE shop"); err != nil {
		t.Fatal(err)
	}
	admin.Close(ctx)
	w, err := pgx.Connect(ctx, base+"/shop?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	// Postgres's REAL is single precision; the shop's sums want double.
	tot := fillShop(t, func(q string, args ...any) error {
		_, err := w.Exec(ctx, strings.ReplaceAll(q, " REAL", " DOUBLE PRECISION"), args...)
		return err
	}, func(i int) string { return "$" + strconv.Itoa(i) })
	for _, q := range []string{
		"CREATE SCHEMA finance",
		"CREATE TABLE finance.invoices (id int PRIMARY KEY, order_id int REFERENCES orders(id), amount numeric(10,2))",
		"COMMENT ON TABLE finance.invoices IS 'one invoice per paid order'",
		"CREATE VIEW paid_orders AS SELECT * FROM orders WHERE status = 'paid'",
		"CREATE SEQUENCE seq",
	} {
		if _, err := w.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	w.Close(ctx)

	s, err := Open(ctx, base+"/shop?sslmode=disable", Options{StatementTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Name() != "shop" || s.Dialect() != Postgres {
		t.Errorf("source = %s, want shop (postgres)", s)
	}

	t.Run("exact numbers", func(t *testing.T) {
		res, err := s.Query(ctx, `SELECT (SELECT count(*) FROM orders) AS orders, sum(i.quantity * p.price) AS revenue
FROM order_items i JOIN products p ON p.id = i.product_id JOIN orders o ON o.id = i.order_id WHERE o.status = 'paid'`, QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]string{{strconv.Itoa(tot.Orders), formatValue(tot.PaidRevenue)}}
		if diff := cmp.Diff(want, res.Rows); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
		var byCountry [][]string
		for _, c := range sortedKeys(tot.RevenueByCountry) {
			byCountry = append(byCountry, []string{c, formatValue(tot.RevenueByCountry[c])})
		}
		res, err = s.Query(ctx, `WITH paid AS (SELECT * FROM orders WHERE status = 'paid')
SELECT c.country, sum(i.quantity * p.price) FROM paid o JOIN customers c ON c.id = o.customer_id
JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id GROUP BY c.country ORDER BY c.country;`, QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(byCountry, res.Rows); diff != "" {
			t.Errorf("revenue by country (-want +got):\n%s", diff)
		}
	})

	t.Run("session is read-only with a statement timeout", func(t *testing.T) {
		for q, want := range map[string]string{
			"SHOW transaction_read_only":         "on",
			"SHOW default_transaction_read_only": "on",
			"SHOW statement_timeout":             "2s",
			"SHOW standard_conforming_strings":   "on",
		} {
			res, err := s.Query(ctx, q, QueryOptions{NoCache: true})
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if res.Rows[0][0] != want {
				t.Errorf("%s = %s, want %s", q, res.Rows[0][0], want)
			}
		}
	})

	t.Run("refusals", func(t *testing.T) {
		cases := append(append([]refusalCase(nil), commonRefusals...), dialectRefusals[Postgres]...)
		for _, c := range cases {
			_, err := s.Query(ctx, c.sql, QueryOptions{})
			if !errors.Is(err, ErrRefused) {
				t.Errorf("%s: Query(%q) = %v, want a refusal", c.name, c.sql, err)
			}
		}
		res, err := s.Query(ctx, "SELECT count(*) FROM customers WHERE 2 = 2", QueryOptions{})
		if err != nil || res.Rows[0][0] != strconv.Itoa(tot.Customers) {
			t.Errorf("customers after the refusals = %v %v", res, err)
		}
	})

	t.Run("read-only behind the guard", func(t *testing.T) {
		for _, q := range []string{
			"INSERT INTO customers VALUES (999, 'x', 'y')",
			"DELETE FROM orders",
			"CREATE TABLE scratch (a int)",
			"SELECT nextval('seq')",
			"COPY customers FROM PROGRAM 'true'",
		} {
			err := s.run(ctx, q, func(*sql.Rows) error { return nil })
			if err == nil {
				t.Errorf("unguarded %q succeeded", q)
				continue
			}
			if kind, _ := classify(Postgres, err); kind != KindReadOnly {
				t.Errorf("unguarded %q failed as %q (%v), want %q", q, kind, err, KindReadOnly)
			}
		}
	})

	t.Run("timeout", func(t *testing.T) {
		short, err := Open(ctx, base+"/shop?sslmode=disable", Options{StatementTimeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer short.Close()
		_, err = short.Query(ctx, "SELECT pg_sleep(10)", QueryOptions{})
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Kind != KindTimeout || !strings.Contains(qe.Hint, "LIMIT") {
			t.Fatalf("Query = %v, want a timeout with a hint", err)
		}
	})

	t.Run("schema", func(t *testing.T) {
		sc, err := s.Schema(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"customers", "finance.invoices", "order_items", "orders", "paid_orders", "products"}, tableNames(sc)); diff != "" {
			t.Fatalf("tables (-want +got):\n%s", diff)
		}
		inv := sc.Table("finance.invoices")
		if inv.Comment != "one invoice per paid order" || len(inv.ForeignKeys) != 1 || inv.ForeignKeys[0].Table != "orders" {
			t.Errorf("finance.invoices = %+v", inv)
		}
		items := sc.Table("order_items")
		if diff := cmp.Diff([]string{"order_id", "product_id"}, items.PrimaryKey); diff != "" {
			t.Errorf("order_items PK (-want +got):\n%s", diff)
		}
		orders := sc.Table("orders")
		if orders.Rows != int64(tot.Orders) {
			t.Errorf("orders rows = %d, want %d", orders.Rows, tot.Orders)
		}
		if diff := cmp.Diff([]string{"paid", "open", "refunded"}, orders.Column("status").Values); diff != "" {
			t.Errorf("status values (-want +got):\n%s", diff)
		}
		if !sc.Table("paid_orders").View {
			t.Error("paid_orders is not marked as a view")
		}
		text, err := s.Context(ctx, "revenue by customer country", 4000)
		if err != nil || !strings.Contains(text, "country text; values: 'France', 'Germany', 'Italy', 'Spain'") {
			t.Errorf("context = %v:\n%s", err, text)
		}
	})

	t.Run("errors with hints", func(t *testing.T) {
		cases := []struct {
			sql  string
			kind ErrorKind
			hint string
		}{
			{"SELECT statsu FROM orders", KindUnknownColumn, "status (in orders)"},
			{"SELECT * FROM customer", KindUnknownTable, "customers"},
			{"SELECT strftime('%Y', order_date) FROM orders", KindUnknownFunction, "date_trunc"},
			{"SELECT FROM WHERE", KindSyntax, "date_trunc"},
		}
		for _, c := range cases {
			_, err := s.Query(ctx, c.sql, QueryOptions{})
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Kind != c.kind || !strings.Contains(qe.Hint, c.hint) {
				t.Errorf("Query(%q) = %v (hint %q), want %s with a hint naming %q", c.sql, err, hintOf(qe), c.kind, c.hint)
			}
		}
	})

	t.Run("explain", func(t *testing.T) {
		out, err := s.Explain(ctx, "SELECT * FROM orders WHERE id = 3")
		if err != nil || !strings.Contains(out, "orders") {
			t.Errorf("Explain = %v:\n%s", err, out)
		}
	})
}

func hintOf(qe *QueryError) string {
	if qe == nil {
		return ""
	}
	return qe.Hint
}
