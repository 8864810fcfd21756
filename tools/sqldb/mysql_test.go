package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
)

// mariadbServer is a throwaway MariaDB server: its unix socket (for the
// administrator, root) and its TCP port on 127.0.0.1.
type mariadbServer struct {
	socket string
	port   int
}

// startMariaDB starts a private MariaDB server on a temporary data
// directory, listening on a free 127.0.0.1 port and a private socket. It
// skips the test where MariaDB is not installed.
func startMariaDB(t *testing.T) mariadbServer {
	t.Helper()
	server, err := exec.LookPath("mariadbd")
	if err != nil {
		if server, err = exec.LookPath("/usr/sbin/mariadbd"); err != nil {
			t.Skip("skipping the MySQL tests: mariadbd not found (install the mariadb-server package; CI does)")
		}
	}
	install, err := exec.LookPath("mariadb-install-db")
	if err != nil {
		t.Skip("skipping the MySQL tests: mariadb-install-db not found (install the mariadb-server package; CI does)")
	}
	dir, err := os.MkdirTemp("", "sqldb-maria-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	// The server runs as whoever runs the tests; as root it must be told so.
	user := []string{}
	if os.Geteuid() == 0 {
		user = []string{"--user=root"}
	}
	args := append([]string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"}, user...)
	if out, err := exec.Command(install, args...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	sock := filepath.Join(dir, "mysqld.sock")
	logFile := filepath.Join(dir, "server.log")
	cmd := exec.Command(server, append([]string{"--no-defaults", "--datadir=" + data, "--socket=" + sock, "--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1", "--skip-name-resolve", "--log-error=" + logFile, "--pid-file=" + filepath.Join(dir, "mysqld.pid"),
		"--innodb-buffer-pool-size=16M", "--innodb-log-file-size=8M", "--skip-log-bin", "--performance-schema=OFF"}, user...)...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start mariadbd: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	// Wait until the socket answers: a ping through the driver, retried
	// while the server starts (it says it is ready by accepting).
	admin := mariadbServer{socket: sock, port: port}
	deadline := time.Now().Add(60 * time.Second)
	for {
		db, err := sql.Open("mysql", admin.rootDSN(""))
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err == nil {
			return admin
		}
		select {
		case werr := <-exited:
			logText, _ := os.ReadFile(logFile)
			t.Fatalf("mariadbd exited: %v\n%s", werr, logText)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			logText, _ := os.ReadFile(logFile)
			t.Fatalf("mariadbd did not start in time: %v\n%s", err, logText)
		}
	}
}

// rootDSN is the driver DSN of root over the socket, on database db.
func (m mariadbServer) rootDSN(db string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr, cfg.DBName = "root", "unix", m.socket, db
	return cfg.FormatDSN()
}

// TestMySQL runs the read-only contract, the queries, the schema and the
// error hints against a real MariaDB server, over TCP as a user who may
// write: only Sift's read-only session keeps the data safe.
func TestMySQL(t *testing.T) {
	m := startMariaDB(t)
	ctx := context.Background()
	admin, err := sql.Open("mysql", m.rootDSN(""))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	const password = "s3cret-pw"
	for _, q := range []string{
		"CREATE DATABASE shop",
		"CREATE USER 'analyst'@'127.0.0.1' IDENTIFIED BY '" + password + "'",
		"GRANT ALL ON shop.* TO 'analyst'@'127.0.0.1'",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	w, err := sql.Open("mysql", m.rootDSN("shop"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tot := fillShop(t, func(q string, args ...any) error {
		q = strings.ReplaceAll(q, " TEXT NOT NULL", " VARCHAR(100) NOT NULL")
		q = strings.ReplaceAll(q, " REAL", " DOUBLE")
		_, err := w.Exec(q, args...)
		return err
	}, func(int) string { return "?" })
	for _, q := range []string{
		"ALTER TABLE orders COMMENT = 'one row per order'",
		"CREATE VIEW paid_orders AS SELECT * FROM orders WHERE status = 'paid'",
	} {
		if _, err := w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	url := fmt.Sprintf("mysql://analyst:%s@127.0.0.1:%d/shop", password, m.port)
	s, err := Open(ctx, url, Options{StatementTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Name() != "shop" || s.Dialect() != MySQL || strings.Contains(s.String(), password) || strings.Contains(s.Spec(), password) {
		t.Errorf("source = %s (spec %s), want shop (mysql) without the password", s, s.Spec())
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
		res, err = s.Query(ctx, "SELECT c.country, sum(i.quantity * p.price) FROM orders o JOIN customers c ON c.id = o.customer_id\nJOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE o.status = 'paid' GROUP BY c.country ORDER BY c.country", QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(byCountry, res.Rows); diff != "" {
			t.Errorf("revenue by country (-want +got):\n%s", diff)
		}
	})

	t.Run("session is read-only with a statement timeout", func(t *testing.T) {
		res, err := s.Query(ctx, "SELECT @@session.tx_read_only, @@session.max_statement_time", QueryOptions{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]string{{"1", "2"}}, res.Rows); diff != "" {
			t.Errorf("read-only flag and timeout (-want +got):\n%s", diff)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		cases := append(append([]refusalCase(nil), commonRefusals...), dialectRefusals[MySQL]...)
		for _, c := range cases {
			_, err := s.Query(ctx, c.sql, QueryOptions{})
			if !errors.Is(err, ErrRefused) {
				t.Errorf("%s: Query(%q) = %v, want a refusal", c.name, c.sql, err)
			}
		}
		var n int
		if err := w.QueryRow("SELECT count(*) FROM customers").Scan(&n); err != nil || n != tot.Customers {
			t.Errorf("customers after the refusals = %d, %v; want %d", n, err, tot.Customers)
		}
	})

	t.Run("read-only behind the guard", func(t *testing.T) {
		for _, q := range []string{
			"INSERT INTO customers VALUES (999, 'x', 'y')",
			"DELETE FROM orders",
			"UPDATE products SET price = 0",
		} {
			err := s.run(ctx, q, func(*sql.Rows) error { return nil })
			if err == nil {
				t.Errorf("unguarded %q succeeded", q)
				continue
			}
			if kind, _ := classify(MySQL, err); kind != KindReadOnly {
				t.Errorf("unguarded %q failed as %q (%v), want %q", q, kind, err, KindReadOnly)
			}
		}
		var n int
		if err := w.QueryRow("SELECT count(*) FROM orders").Scan(&n); err != nil || n != tot.Orders {
			t.Errorf("orders after the writes = %d, %v; want %d", n, err, tot.Orders)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		short, err := Open(ctx, url, Options{StatementTimeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer short.Close()
		_, err = short.Query(ctx, "SELECT SLEEP(10) FROM customers", QueryOptions{})
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
		if diff := cmp.Diff([]string{"customers", "order_items", "orders", "paid_orders", "products"}, tableNames(sc)); diff != "" {
			t.Fatalf("tables (-want +got):\n%s", diff)
		}
		orders := sc.Table("orders")
		if orders.Rows != int64(tot.Orders) || orders.Comment != "one row per order" {
			t.Errorf("orders = %d rows, comment %q; want %d and the comment", orders.Rows, orders.Comment, tot.Orders)
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
			{"SELECT strftime('%Y', order_date) FROM orders", KindUnknownFunction, "DATE_FORMAT"},
			{"SELECT FROM WHERE", KindSyntax, "DATE_FORMAT"},
		}
		for _, c := range cases {
			_, err := s.Query(ctx, c.sql, QueryOptions{})
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Kind != c.kind || !strings.Contains(qe.Hint, c.hint) {
				t.Errorf("Query(%q) = %v (hint %q), want %s with a hint naming %q", c.sql, err, hintOf(qe), c.kind, c.hint)
			}
		}
	})

	t.Run("wrong password is scrubbed", func(t *testing.T) {
		bad := fmt.Sprintf("mysql://analyst:wrong-%s@127.0.0.1:%d/shop", password, m.port)
		_, err := Open(ctx, bad, Options{})
		if err == nil || strings.Contains(err.Error(), password) || !strings.Contains(err.Error(), "password") {
			t.Errorf("Open with a wrong password = %v; want an error that hides it and says to check it", err)
		}
	})

	t.Run("explain", func(t *testing.T) {
		out, err := s.Explain(ctx, "SELECT * FROM orders WHERE id = 3")
		if err != nil || !strings.Contains(out, "orders") {
			t.Errorf("Explain = %v:\n%s", err, out)
		}
	})
}
