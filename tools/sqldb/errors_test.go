package sqldb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestQueryErrorsOnSQLite(t *testing.T) {
	s, _, _ := openShop(t, Options{})
	cases := []struct {
		name     string
		sql      string
		kind     ErrorKind
		sentinel error
		errName  string
		hint     []string
	}{
		{"misspelt column", "SELECT statsu FROM orders", KindUnknownColumn, ErrUnknownColumn, "statsu",
			[]string{"status (in orders)", "Columns of orders: id, customer_id, order_date, status"}},
		{"qualified column", "SELECT o.totl FROM orders o", KindUnknownColumn, ErrUnknownColumn, "o.totl",
			[]string{`no column "totl"`}},
		{"column of another table", "SELECT country FROM orders", KindUnknownColumn, ErrUnknownColumn, "country",
			[]string{"country is a column of customers: join that table"}},
		{"misspelt table", "SELECT * FROM customer", KindUnknownTable, ErrUnknownTable, "customer",
			[]string{"customers", "The tables are: customers, order_items, orders, products."}},
		{"syntax", "SELECT FROM WHERE", KindSyntax, ErrSyntax, "", []string{"strftime"}},
		{"postgres date function", "SELECT date_trunc('month', order_date) FROM orders", KindUnknownFunction, ErrUnknownFunction, "date_trunc",
			[]string{"strftime('%Y-%m', col)", "there is no date_trunc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Query(context.Background(), c.sql, QueryOptions{})
			var qe *QueryError
			if !errors.As(err, &qe) {
				t.Fatalf("Query = %v, want a *QueryError", err)
			}
			if qe.Kind != c.kind || qe.Name != c.errName || !errors.Is(err, c.sentinel) {
				t.Errorf("kind=%q name=%q (is %v: %v), want %q %q", qe.Kind, qe.Name, c.sentinel, errors.Is(err, c.sentinel), c.kind, c.errName)
			}
			for _, h := range c.hint {
				if !strings.Contains(qe.Hint, h) {
					t.Errorf("hint lacks %q:\n%s", h, qe.Hint)
				}
			}
		})
	}
}

func TestClassifyServerErrors(t *testing.T) {
	cases := []struct {
		d        Dialect
		err      error
		kind     ErrorKind
		wantName string
	}{
		{Postgres, &pgconn.PgError{Code: "42703", Message: `column "totl" does not exist`}, KindUnknownColumn, "totl"},
		{Postgres, &pgconn.PgError{Code: "42703", Message: `column o.totl does not exist`}, KindUnknownColumn, "o.totl"},
		{Postgres, &pgconn.PgError{Code: "42P01", Message: `relation "customer" does not exist`}, KindUnknownTable, "customer"},
		{Postgres, &pgconn.PgError{Code: "42883", Message: `function strftime(unknown, text) does not exist`}, KindUnknownFunction, "strftime"},
		{Postgres, &pgconn.PgError{Code: "42601", Message: `syntax error at or near "FROM"`}, KindSyntax, ""},
		{Postgres, &pgconn.PgError{Code: "57014", Message: `canceling statement due to statement timeout`}, KindTimeout, ""},
		{Postgres, &pgconn.PgError{Code: "25006", Message: `cannot execute INSERT in a read-only transaction`}, KindReadOnly, ""},
		{Postgres, &pgconn.PgError{Code: "42501", Message: `permission denied for table salaries`}, KindPermission, ""},
		{MySQL, &mysql.MySQLError{Number: 1054, Message: "Unknown column 'totl' in 'field list'"}, KindUnknownColumn, "totl"},
		{MySQL, &mysql.MySQLError{Number: 1146, Message: "Table 'crm.customer' doesn't exist"}, KindUnknownTable, "customer"},
		{MySQL, &mysql.MySQLError{Number: 1305, Message: "FUNCTION crm.date_trunc does not exist"}, KindUnknownFunction, "crm.date_trunc"},
		{MySQL, &mysql.MySQLError{Number: 1064, Message: "You have an error in your SQL syntax"}, KindSyntax, ""},
		{MySQL, &mysql.MySQLError{Number: 3024, Message: "Query execution was interrupted, maximum statement execution time exceeded"}, KindTimeout, ""},
		{MySQL, &mysql.MySQLError{Number: 1792, Message: "Cannot execute statement in a READ ONLY transaction."}, KindReadOnly, ""},
		{MySQL, &mysql.MySQLError{Number: 1142, Message: "SELECT command denied to user"}, KindPermission, ""},
		{SQLite, fmt.Errorf("wrapped: %w", context.DeadlineExceeded), KindTimeout, ""},
		{SQLite, &RefusedError{Dialect: SQLite, Reason: "x"}, KindReadOnly, ""},
		{SQLite, errors.New("something else"), KindOther, ""},
	}
	for _, c := range cases {
		kind, name := classify(c.d, c.err)
		if kind != c.kind || name != c.wantName {
			t.Errorf("classify(%s, %v) = %q %q, want %q %q", c.d, c.err, kind, name, c.kind, c.wantName)
		}
	}
}

func TestNearest(t *testing.T) {
	cands := []string{"customer_id", "customers", "order_date", "status", "country"}
	cases := []struct {
		name string
		want []string
	}{
		{"statsu", []string{"status"}},
		{"customer", []string{"customers", "customer_id"}},
		{"OrderDate", []string{"order_date"}},
		{"order-date", []string{"order_date"}},
		{"zzz", nil},
	}
	for _, c := range cases {
		got := nearest(c.name, cands, 3)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("nearest(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
