package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// dialectFixture is one dialect under the conformance suite: how to get
// the shop database as a source of that dialect, and what the dialect
// answers in its own words. Every registered dialect must have one.
type dialectFixture struct {
	dialect Dialect
	// setup makes the shop database, starting a server where one is
	// needed.
	setup func(t *testing.T) shopDB
	// tables are the schema's tables and views, sorted.
	tables []string
	// catalog: the dialect's catalog knows keys, exact row counts and
	// views, so the schema shows them and lists low-cardinality values.
	catalog bool
	// session are queries that show the read-only session, and their
	// rows.
	session map[string][][]string
	// unguarded are writes sent past the guard, straight to the
	// connection: each must fail, as one of unguardedKinds.
	unguarded      []string
	unguardedKinds []ErrorKind
	// sleep is a statement that runs for seconds; a source opened with
	// the statement timeout shortTimeout (300ms when 0) must stop it.
	sleep        string
	shortTimeout time.Duration
	// timeout is the statement timeout of the source the suite queries
	// (2s when 0; the servers' session checks show it).
	timeout time.Duration
	// plan is a word the plan of a query of orders shows ("orders" when
	// empty).
	plan string
	// unknownFunction calls a function the dialect does not have; notes is
	// a word of the dialect's notes its hint must carry.
	unknownFunction, notes string
	// schema checks what the dialect's catalog alone tells, if anything.
	schema func(t *testing.T, sc *Schema)
}

// shopDB is the shop database of one dialect.
type shopDB struct {
	// tot are the figures it holds.
	tot shopTotals
	// open opens it as a Source with the given options.
	open func(Options) (*Source, error)
	// count counts a table's rows behind Sift's back (over a writable
	// connection, or in the files).
	count func(table string) int
	// wrongPassword, if set, is its URL with a wrong password, and
	// password the right one: the error must hide both.
	wrongPassword, password string
}

// fixtures are the dialects the suite runs against.
var fixtures = []dialectFixture{
	{
		dialect: SQLite,
		setup: func(t *testing.T) shopDB {
			path, tot := newShopDB(t)
			addSQL(t, "sqlite", path, "CREATE VIEW paid_orders AS SELECT * FROM orders WHERE status = 'paid'")
			open := func(o Options) (*Source, error) { return Open(context.Background(), "sqlite:"+path, o) }
			return shopDB{tot: tot, open: open, count: countSQL(t, "sqlite", path)}
		},
		tables:  []string{"customers", "order_items", "orders", "paid_orders", "products"},
		catalog: true,
		session: map[string][][]string{"PRAGMA query_only": {{"1"}}},
		unguarded: []string{
			"INSERT INTO customers VALUES (999, 'x', 'y')",
			"DELETE FROM orders",
			"DROP TABLE order_items",
			"PRAGMA query_only = OFF",
			"ATTACH DATABASE '" + filepath.Join(os.TempDir(), "sqldb-conformance-other.db") + "' AS other",
			"CREATE TEMP TABLE scratch (a)",
			"SELECT load_extension('x')",
		},
		unguardedKinds:  []ErrorKind{KindReadOnly},
		sleep:           "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c",
		unknownFunction: "SELECT date_trunc('month', order_date) FROM orders",
		notes:           "strftime",
	},
	{
		dialect: Postgres,
		setup: func(t *testing.T) shopDB {
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
			dsn := base + "/shop?sslmode=disable"
			w := openWriter(t, "pgx", dsn)
			// Postgres's REAL is single precision; the shop's sums want double.
			tot := fillShop(t, func(q string, args ...any) error {
				_, err := w.Exec(strings.ReplaceAll(q, " REAL", " DOUBLE PRECISION"), args...)
				return err
			}, func(i int) string { return "$" + strconv.Itoa(i) })
			addSQL(t, "pgx", dsn,
				"CREATE SCHEMA finance",
				"CREATE TABLE finance.invoices (id int PRIMARY KEY, order_id int REFERENCES orders(id), amount numeric(10,2))",
				"COMMENT ON TABLE finance.invoices IS 'one invoice per paid order'",
				"CREATE VIEW paid_orders AS SELECT * FROM orders WHERE status = 'paid'",
				"CREATE SEQUENCE seq",
			)
			open := func(o Options) (*Source, error) { return Open(ctx, dsn, o) }
			return shopDB{tot: tot, open: open, count: countSQL(t, "pgx", dsn)}
		},
		tables:  []string{"customers", "finance.invoices", "order_items", "orders", "paid_orders", "products"},
		catalog: true,
		session: map[string][][]string{
			"SHOW transaction_read_only":         {{"on"}},
			"SHOW default_transaction_read_only": {{"on"}},
			"SHOW statement_timeout":             {{"2s"}},
			"SHOW standard_conforming_strings":   {{"on"}},
		},
		unguarded: []string{
			"INSERT INTO customers VALUES (999, 'x', 'y')",
			"DELETE FROM orders",
			"CREATE TABLE scratch (a int)",
			"SELECT nextval('seq')",
			"COPY customers FROM PROGRAM 'true'",
		},
		unguardedKinds:  []ErrorKind{KindReadOnly},
		sleep:           "SELECT pg_sleep(10)",
		unknownFunction: "SELECT strftime('%Y', order_date) FROM orders",
		notes:           "date_trunc",
		schema: func(t *testing.T, sc *Schema) {
			inv := sc.Table("finance.invoices")
			if inv.Comment != "one invoice per paid order" || len(inv.ForeignKeys) != 1 || inv.ForeignKeys[0].Table != "orders" {
				t.Errorf("finance.invoices = %+v", inv)
			}
		},
	},
	{
		dialect: MySQL,
		setup: func(t *testing.T) shopDB {
			m := startMariaDB(t)
			// Sift connects over TCP as a user who may write: only its
			// read-only session keeps the data safe.
			addSQL(t, "mysql", m.rootDSN(""),
				"CREATE DATABASE shop",
				"CREATE USER 'analyst'@'127.0.0.1' IDENTIFIED BY '"+mysqlPassword+"'",
				"GRANT ALL ON shop.* TO 'analyst'@'127.0.0.1'",
			)
			w := openWriter(t, "mysql", m.rootDSN("shop"))
			tot := fillShop(t, func(q string, args ...any) error {
				q = strings.ReplaceAll(q, " TEXT NOT NULL", " VARCHAR(100) NOT NULL")
				q = strings.ReplaceAll(q, " REAL", " DOUBLE")
				_, err := w.Exec(q, args...)
				return err
			}, func(int) string { return "?" })
			addSQL(t, "mysql", m.rootDSN("shop"),
				"ALTER TABLE orders COMMENT = 'one row per order'",
				"CREATE VIEW paid_orders AS SELECT * FROM orders WHERE status = 'paid'",
			)
			url := fmt.Sprintf("mysql://analyst:%s@127.0.0.1:%d/shop", mysqlPassword, m.port)
			open := func(o Options) (*Source, error) { return Open(context.Background(), url, o) }
			return shopDB{tot: tot, open: open, count: countSQL(t, "mysql", m.rootDSN("shop")),
				wrongPassword: fmt.Sprintf("mysql://analyst:wrong-%s@127.0.0.1:%d/shop", mysqlPassword, m.port), password: mysqlPassword}
		},
		tables:  []string{"customers", "order_items", "orders", "paid_orders", "products"},
		catalog: true,
		session: map[string][][]string{"SELECT @@session.tx_read_only, @@session.max_statement_time": {{"1", "2"}}},
		unguarded: []string{
			"INSERT INTO customers VALUES (999, 'x', 'y')",
			"DELETE FROM orders",
			"UPDATE products SET price = 0",
		},
		unguardedKinds:  []ErrorKind{KindReadOnly},
		sleep:           "SELECT SLEEP(10) FROM customers",
		unknownFunction: "SELECT strftime('%Y', order_date) FROM orders",
		notes:           "DATE_FORMAT",
		schema: func(t *testing.T, sc *Schema) {
			if c := sc.Table("orders").Comment; c != "one row per order" {
				t.Errorf("orders comment = %q", c)
			}
		},
	},
	{
		dialect: DuckDB,
		setup: func(t *testing.T) shopDB {
			root, tot := newShopFiles(t)
			inputs := []string{"input/customers.csv", "input/products.csv", "input/orders.csv", "input/order_items.csv"}
			open := func(o Options) (*Source, error) {
				return OpenFiles(context.Background(), root, inputs, FilesOptions{Options: o})
			}
			count := func(table string) int {
				var n int
				w := openWriter(t, "duckdb", "")
				if err := w.QueryRow("SELECT count(*) FROM read_csv(" + sqlString(filepath.Join(root, "input", table+".csv")) + ")").Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			return shopDB{tot: tot, open: open, count: count}
		},
		tables:  []string{"customers", "order_items", "orders", "products"},
		session: map[string][][]string{"SELECT current_setting('lock_configuration'), current_setting('enable_external_access')": {{"true", "false"}}},
		unguarded: []string{
			"COPY customers TO '" + filepath.Join(os.TempDir(), "sqldb-conformance-stolen.csv") + "'",
			"INSTALL httpfs",
			"SET enable_external_access = true",
			"SET lock_configuration = false",
			"ATTACH '" + filepath.Join(os.TempDir(), "sqldb-conformance-other.duckdb") + "' AS other",
		},
		// The engine refuses external access as a permission error, a
		// locked setting as a plain failure.
		unguardedKinds: []ErrorKind{KindPermission, KindOther},
		sleep:          "SELECT sum(a.range * b.range) FROM range(100000000) a, range(100000000) b",
		// Opening the files source reads every file under the timeout,
		// and its joins run in process: on a loaded machine they take
		// seconds.
		shortTimeout:    2 * time.Second,
		timeout:         20 * time.Second,
		plan:            "FILTER",
		unknownFunction: "SELECT DATE_FORMAT(order_date, '%Y') FROM orders",
		notes:           "date_trunc",
	},
}

// mysqlPassword is the analyst's password on the private MariaDB server.
const mysqlPassword = "s3cret-pw"

// TestEveryDialectIsUnderTheConformanceSuite: a dialect that registers
// itself must bring its fixture, so that it is run against the suite.
func TestEveryDialectIsUnderTheConformanceSuite(t *testing.T) {
	var reg, fx []string
	for _, d := range registered() {
		reg = append(reg, string(d.name()))
	}
	for _, f := range fixtures {
		fx = append(fx, string(f.dialect))
	}
	slices.Sort(fx)
	if diff := cmp.Diff(reg, fx); diff != "" {
		t.Errorf("registered dialects vs conformance fixtures (-registered +fixtures):\n%s", diff)
	}
}

// TestDialectConformance runs one suite against every dialect, each on a
// real database: SQLite and DuckDB in process, Postgres and MariaDB on
// private servers. The exact figures, the read-only session, the guard's
// refusals and what stands behind it, the statement timeout, the schema,
// the errors' kinds and hints, and plans.
func TestDialectConformance(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(string(fx.dialect), func(t *testing.T) {
			fx.run(t)
		})
	}
}

func (fx dialectFixture) run(t *testing.T) {
	ctx := context.Background()
	db := fx.setup(t)
	tot, open, count := db.tot, db.open, db.count
	timeout := fx.timeout
	if timeout == 0 {
		timeout = 2 * time.Second
	}
	s, err := open(Options{StatementTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Dialect() != fx.dialect {
		t.Fatalf("source %s has dialect %s, want %s", s, s.Dialect(), fx.dialect)
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
		for q, want := range fx.session {
			res, err := s.Query(ctx, q, QueryOptions{NoCache: true})
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if diff := cmp.Diff(want, res.Rows); diff != "" {
				t.Errorf("%s (-want +got):\n%s", q, diff)
			}
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, c := range append(append([]refusalCase(nil), commonRefusals...), dialectRefusals[fx.dialect]...) {
			_, err := s.Query(ctx, c.sql, QueryOptions{})
			if !errors.Is(err, ErrRefused) || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.reason)) {
				t.Errorf("%s: Query(%q) = %v, want a refusal naming %q", c.name, c.sql, err, c.reason)
			}
		}
		if n := count("customers"); n != tot.Customers {
			t.Errorf("customers after the refusals = %d, want %d", n, tot.Customers)
		}
	})

	t.Run("read-only behind the guard", func(t *testing.T) {
		for _, q := range fx.unguarded {
			err := s.run(ctx, q, func(*sql.Rows) error { return nil })
			if err == nil {
				t.Errorf("unguarded %q succeeded", q)
				continue
			}
			if kind, _ := classify(fx.dialect, err); !slices.Contains(fx.unguardedKinds, kind) {
				t.Errorf("unguarded %q failed as %q (%v), want one of %q", q, kind, err, fx.unguardedKinds)
			}
		}
		if n := count("orders"); n != tot.Orders {
			t.Errorf("orders after the writes = %d, want %d", n, tot.Orders)
		}
		res, err := s.Query(ctx, "SELECT count(*) FROM order_items", QueryOptions{NoCache: true})
		if err != nil || res.Rows[0][0] != strconv.Itoa(tot.Items) {
			t.Errorf("the source after the writes: %v %v, want %d items", res, err, tot.Items)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		timeout := fx.shortTimeout
		if timeout == 0 {
			timeout = 300 * time.Millisecond
		}
		short, err := open(Options{StatementTimeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		defer short.Close()
		start := time.Now()
		_, err = short.Query(ctx, fx.sleep, QueryOptions{})
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Kind != KindTimeout || !errors.Is(err, ErrTimeout) || !strings.Contains(qe.Hint, "LIMIT") {
			t.Fatalf("Query = %v, want a timeout with a hint", err)
		}
		if took := time.Since(start); took > timeout+5*time.Second {
			t.Errorf("the timeout took %s to stop the statement", took)
		}
		res, err := short.Query(ctx, "SELECT count(*) FROM customers", QueryOptions{NoCache: true})
		if err != nil || res.Rows[0][0] != strconv.Itoa(tot.Customers) {
			t.Errorf("query after the timeout = %v, %v", res, err)
		}
	})

	t.Run("schema", func(t *testing.T) {
		sc, err := s.Schema(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Dialect != fx.dialect {
			t.Errorf("schema dialect = %s", sc.Dialect)
		}
		if diff := cmp.Diff(fx.tables, tableNames(sc)); diff != "" {
			t.Fatalf("tables (-want +got):\n%s", diff)
		}
		orders := sc.Table("orders")
		if diff := cmp.Diff([]string{"id", "customer_id", "order_date", "status"}, columnNames(orders)); diff != "" {
			t.Errorf("orders columns (-want +got):\n%s", diff)
		}
		if len(orders.Column("status").Samples) == 0 {
			t.Errorf("orders.status has no sample values")
		}
		if fx.schema != nil {
			fx.schema(t, sc)
		}
		if !fx.catalog {
			return
		}
		if orders.Rows != int64(tot.Orders) || orders.RowsEstimated {
			t.Errorf("orders rows = %d (estimated %v), want exactly %d", orders.Rows, orders.RowsEstimated, tot.Orders)
		}
		if len(orders.ForeignKeys) != 1 || orders.ForeignKeys[0].Table != "customers" {
			t.Errorf("orders foreign keys = %+v, want one to customers", orders.ForeignKeys)
		}
		if diff := cmp.Diff([]string{"order_id", "product_id"}, sc.Table("order_items").PrimaryKey); diff != "" {
			t.Errorf("order_items PK (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"paid", "open", "refunded"}, orders.Column("status").Values); diff != "" {
			t.Errorf("status values (-want +got):\n%s", diff)
		}
		if !sc.Table("paid_orders").View {
			t.Error("paid_orders is not marked as a view")
		}
		text, err := s.Context(ctx, "revenue by customer country", 4000)
		if err != nil || !strings.Contains(text, "values: 'France', 'Germany', 'Italy', 'Spain'") {
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
			{fx.unknownFunction, KindUnknownFunction, fx.notes},
			{"SELECT FROM WHERE", KindSyntax, fx.notes},
		}
		for _, c := range cases {
			_, err := s.Query(ctx, c.sql, QueryOptions{})
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Kind != c.kind || !strings.Contains(qe.Hint, c.hint) {
				t.Errorf("Query(%q) = %v (hint %q), want %s with a hint naming %q", c.sql, err, hintOf(qe), c.kind, c.hint)
			}
		}
	})

	t.Run("errors hide the password", func(t *testing.T) {
		if db.wrongPassword == "" {
			t.Skip("the dialect's test database has no password")
		}
		_, err := Open(ctx, db.wrongPassword, Options{})
		if err == nil || strings.Contains(err.Error(), db.password) || !strings.Contains(err.Error(), "password") {
			t.Errorf("Open with a wrong password = %v; want an error that hides it and says to check it", err)
		}
		if strings.Contains(s.String(), db.password) || strings.Contains(s.Spec(), db.password) {
			t.Errorf("source = %s (spec %s), want no password", s, s.Spec())
		}
	})

	t.Run("explain", func(t *testing.T) {
		out, err := s.Explain(ctx, "SELECT * FROM orders WHERE id = 3")
		word := fx.plan
		if word == "" {
			word = "orders"
		}
		if err != nil || !strings.Contains(out, word) {
			t.Errorf("Explain = %v:\n%s", err, out)
		}
	})
}

// openWriter opens a writable connection to the test database, closed
// when the test ends.
func openWriter(t *testing.T, driverName, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// addSQL runs statements on a writable connection.
func addSQL(t *testing.T, driverName, dsn string, stmts ...string) {
	t.Helper()
	db := openWriter(t, driverName, dsn)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// countSQL counts a table's rows over a writable connection.
func countSQL(t *testing.T, driverName, dsn string) func(string) int {
	db := openWriter(t, driverName, dsn)
	return func(table string) int {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		return n
	}
}

// newShopFiles writes the shop's tables as CSV files under a workspace's
// input/, for the files source, and returns the workspace and totals.
func newShopFiles(t *testing.T) (string, shopTotals) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"input", "out", "work"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := openWriter(t, "duckdb", "")
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	tot := fillShop(t, func(q string, args ...any) error {
		_, err := tx.Exec(strings.ReplaceAll(q, " REAL", " DOUBLE"), args...)
		return err
	}, func(int) string { return "?" })
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"customers", "products", "orders", "order_items"} {
		if _, err := w.Exec("COPY " + table + " TO " + sqlString(filepath.Join(root, "input", table+".csv")) + " (HEADER)"); err != nil {
			t.Fatal(err)
		}
	}
	return root, tot
}
