package sqldb

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
)

func TestParseURL(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sales data.db")
	if err := os.WriteFile(db, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, db)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url                      string
		dialect                  Dialect
		name, redacted, password string
	}{
		{"sqlite:" + rel, SQLite, "sales_data", "sqlite:" + rel, ""},
		{"sqlite://" + db, SQLite, "sales_data", "sqlite:" + db, ""},
		{"file:" + db + "?mode=rw&_pragma=query_only(0)", SQLite, "sales_data", "sqlite:" + db, ""},
		{db, SQLite, "sales_data", "sqlite:" + db, ""},
		{"postgres://ana:s3cr%40t@db.example:5432/shop?sslmode=disable", Postgres, "shop", "postgres://ana:xxxxx@db.example:5432/shop?sslmode=disable", "s3cr@t"},
		{"postgresql://ana@localhost/warehouse", Postgres, "warehouse", "postgresql://ana@localhost/warehouse", ""},
		{"mysql://root:hunter2@127.0.0.1:3307/crm", MySQL, "crm", "mysql://root:xxxxx@127.0.0.1:3307/crm", "hunter2"},
	}
	for _, c := range cases {
		tg, err := parseURL(c.url)
		if err != nil {
			t.Errorf("parseURL(%q): %v", c.url, err)
			continue
		}
		got := []string{string(tg.dialect), tg.name, tg.redacted, tg.password}
		want := []string{string(c.dialect), c.name, c.redacted, c.password}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("parseURL(%q) (-want +got):\n%s", c.url, diff)
		}
		if tg.dialect == SQLite && !strings.HasSuffix(tg.dsn, "?mode=ro") {
			t.Errorf("parseURL(%q) dsn = %q, want it opened with mode=ro only", c.url, tg.dsn)
		}
	}

	for _, bad := range []string{"oracle://x/y", "sqlite:" + filepath.Join(dir, "missing.db"), "mysql://u:p@host/", "mysql://u:p@host/db?multiStatements=true", "just-words"} {
		if _, err := parseURL(bad); err == nil {
			t.Errorf("parseURL(%q) = nil error, want a refusal", bad)
		}
	}
}

func TestMySQLDSN(t *testing.T) {
	tg, err := parseURL("mysql://analyst:p%3Ass@db.internal/crm?tls=skip-verify&charset=utf8mb4&loc=UTC")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := mysql.ParseDSN(tg.dsn)
	if err != nil {
		t.Fatalf("the DSN %q does not parse: %v", tg.dsn, err)
	}
	got := map[string]any{
		"user": cfg.User, "pass": cfg.Passwd, "net": cfg.Net, "addr": cfg.Addr, "db": cfg.DBName,
		"multi": cfg.MultiStatements, "allFiles": cfg.AllowAllFiles, "tls": cfg.TLSConfig, "parseTime": cfg.ParseTime,
		"charset": strings.Contains(tg.dsn, "charset=utf8mb4"), "loc": cfg.Loc.String(),
	}
	want := map[string]any{
		"user": "analyst", "pass": "p:ss", "net": "tcp", "addr": "db.internal:3306", "db": "crm",
		"multi": false, "allFiles": false, "tls": "skip-verify", "parseTime": true,
		"charset": true, "loc": "UTC",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MySQL config (-want +got):\n%s", diff)
	}
	sock, err := parseURL("mysql://u@/crm?socket=/run/mysqld/mysqld.sock")
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := mysql.ParseDSN(sock.dsn); cfg.Net != "unix" || cfg.Addr != "/run/mysqld/mysqld.sock" {
		t.Errorf("socket DSN = %q, want a unix socket", sock.dsn)
	}
}

// TestOpenErrorsHideThePassword connects to a closed local port: the
// failure must not show the password.
func TestOpenErrorsHideThePassword(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, u := range []string{
		"postgres://ana:Sup3rS3cret@" + addr + "/shop?sslmode=disable&connect_timeout=2",
		"mysql://ana:Sup3rS3cret@" + addr + "/shop?timeout=2s",
		"postgres://ana@" + addr + "/shop?password=Sup3rS3cret&sslmode=disable&connect_timeout=2",
	} {
		_, err := Open(context.Background(), u, Options{StatementTimeout: 5 * time.Second})
		if err == nil {
			t.Fatalf("Open(%s) succeeded against a closed port", redactURL(u))
		}
		if strings.Contains(err.Error(), "Sup3rS3cret") {
			t.Errorf("error shows the password: %v", err)
		}
		if !strings.Contains(err.Error(), "xxxxx") && !strings.Contains(err.Error(), addr) {
			t.Errorf("error does not name the (redacted) source: %v", err)
		}
	}
}

func TestSessionStatements(t *testing.T) {
	got := map[Dialect][]sessionStatement{}
	for _, d := range []Dialect{SQLite, Postgres, MySQL} {
		got[d] = sessionStatements(d, 1500*time.Millisecond)
	}
	want := map[Dialect][]sessionStatement{
		SQLite: {{SQL: "PRAGMA query_only = ON"}},
		Postgres: {
			{SQL: "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"},
			{SQL: "SET statement_timeout = 1500"},
			{SQL: "SET standard_conforming_strings = on"},
		},
		MySQL: {
			{SQL: "SET SESSION TRANSACTION READ ONLY"},
			{SQL: "SET SESSION MAX_EXECUTION_TIME = 1500", Or: "SET SESSION max_statement_time = 1.5"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session statements (-want +got):\n%s", diff)
	}
}

// TestMySQLConnectionHandling runs a MySQL source over a recording fake
// driver: every new connection gets the read-only session statements
// before use, every query runs in a read-only transaction that is rolled
// back, and a "#" comment with a semicolon is not taken for a second
// statement.
func TestMySQLConnectionHandling(t *testing.T) {
	rec := &recorder{}
	s, err := openTarget(context.Background(), &target{dialect: MySQL, name: "crm", redacted: "mysql://u:xxxxx@h:3306/crm", password: "pw", connector: &fakeConnector{rec: rec}}, Options{StatementTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Query(context.Background(), "SELECT 1 # note; not a second statement", QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"1"}}, res.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	want := []string{
		"exec SET SESSION TRANSACTION READ ONLY",
		"exec SET SESSION MAX_EXECUTION_TIME = 2000",
		"begin read-only=true",
		"query SELECT 1 # note; not a second statement",
		"rollback",
	}
	if diff := cmp.Diff(want, rec.log()); diff != "" {
		t.Errorf("statements sent (-want +got):\n%s", diff)
	}
	if _, err := s.Query(context.Background(), "SELECT 1 # note\n; DROP TABLE x", QueryOptions{}); !errors.Is(err, ErrRefused) {
		t.Errorf("multi-statement behind a # comment = %v, want a refusal", err)
	}
	if got := rec.log(); len(got) != len(want) {
		t.Errorf("a refused statement reached the driver: %v", got[len(want):])
	}
}

func TestMariaDBTimeoutFallback(t *testing.T) {
	rec := &recorder{mariadb: true}
	s, err := openTarget(context.Background(), &target{dialect: MySQL, name: "crm", connector: &fakeConnector{rec: rec}}, Options{StatementTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{
		"exec SET SESSION TRANSACTION READ ONLY",
		"exec SET SESSION MAX_EXECUTION_TIME = 2000",
		"exec SET SESSION max_statement_time = 2",
	}
	if diff := cmp.Diff(want, rec.log()); diff != "" {
		t.Errorf("statements sent (-want +got):\n%s", diff)
	}
}

// recorder logs what the fake driver was asked to do.
type recorder struct {
	mariadb bool // refuse MAX_EXECUTION_TIME, as MariaDB does
	mu      sync.Mutex
	lines   []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, s)
}

func (r *recorder) log() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

type fakeConnector struct{ rec *recorder }

func (c *fakeConnector) Connect(context.Context) (driver.Conn, error) {
	return &fakeConn{rec: c.rec}, nil
}
func (c *fakeConnector) Driver() driver.Driver { return fakeDriver{} }

type fakeDriver struct{}

func (fakeDriver) Open(string) (driver.Conn, error) { return nil, errors.New("use the connector") }

type fakeConn struct{ rec *recorder }

func (c *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("no prepare") }
func (c *fakeConn) Close() error                        { return nil }
func (c *fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("use BeginTx") }

func (c *fakeConn) BeginTx(_ context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.rec.add("begin read-only=" + map[bool]string{true: "true", false: "false"}[opts.ReadOnly])
	return fakeTx{rec: c.rec}, nil
}

func (c *fakeConn) ExecContext(_ context.Context, q string, _ []driver.NamedValue) (driver.Result, error) {
	c.rec.add("exec " + q)
	if c.rec.mariadb && strings.Contains(q, "MAX_EXECUTION_TIME") {
		return nil, &mysql.MySQLError{Number: 1193, Message: "Unknown system variable 'MAX_EXECUTION_TIME'"}
	}
	return driver.RowsAffected(0), nil
}

func (c *fakeConn) QueryContext(_ context.Context, q string, _ []driver.NamedValue) (driver.Rows, error) {
	c.rec.add("query " + q)
	return &fakeRows{}, nil
}

type fakeTx struct{ rec *recorder }

func (t fakeTx) Commit() error   { t.rec.add("commit"); return nil }
func (t fakeTx) Rollback() error { t.rec.add("rollback"); return nil }

type fakeRows struct{ done bool }

func (r *fakeRows) Columns() []string { return []string{"1"} }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	r.done = true
	dest[0] = int64(1)
	return nil
}
