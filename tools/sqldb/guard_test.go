package sqldb

import (
	"errors"
	"strings"
	"testing"
)

// refusalCase is a statement the guard must refuse, with a word its
// reason must contain.
type refusalCase struct {
	name, sql, reason string
}

// commonRefusals hold on every dialect.
var commonRefusals = []refusalCase{
	{"insert", "INSERT INTO customers VALUES (999, 'x', 'y')", "INSERT"},
	{"update", "UPDATE customers SET country = 'x'", "UPDATE"},
	{"delete", "DELETE FROM customers", "DELETE"},
	{"drop", "DROP TABLE customers", "DROP"},
	{"create", "CREATE TABLE x (a int)", "CREATE"},
	{"alter", "ALTER TABLE customers ADD COLUMN x int", "ALTER"},
	{"grant", "GRANT SELECT ON customers TO public", "GRANT"},
	{"multi statement", "SELECT 1; SELECT 2", "more than one statement"},
	{"multi after comment trick", "SELECT 1; -- \n DROP TABLE customers", "more than one statement"},
	{"semicolon in block comment then drop", "SELECT 1 /* ; */; DROP TABLE customers", "more than one statement"},
	{"string with semicolon then drop", "SELECT ';' ; DROP TABLE customers", "more than one statement"},
	{"drop hidden after comment", "/* harmless */ DROP TABLE customers", "DROP"},
	{"comment then delete on next line", "-- SELECT\nDELETE FROM customers", "DELETE"},
	{"select into", "SELECT * INTO copy FROM customers", "INTO"},
	{"locking read", "SELECT * FROM customers FOR UPDATE", "lock"},
	{"cte then delete", "WITH x AS (SELECT 1) DELETE FROM customers", "DELETE"},
	{"nested delete in cte", "WITH gone AS (DELETE FROM customers RETURNING *) SELECT * FROM gone", "DELETE"},
	{"explain analyze delete", "EXPLAIN ANALYZE DELETE FROM customers", "DELETE"},
	{"set", "SET x = 1", "SET"},
	{"call", "CALL do_things()", "CALL"},
	{"empty", "  ;  ", "empty"},
	{"only comment", "-- nothing", "empty"},
	{"unterminated string", "SELECT 'abc", "not closed"},
	{"load_extension", "SELECT load_extension('evil.so')", "load_extension"},
	{"truncate", "TRUNCATE customers", "TRUNCATE"},
	{"begin", "BEGIN", "BEGIN"},
}

// dialectRefusals hold on one dialect.
var dialectRefusals = map[Dialect][]refusalCase{
	SQLite: {
		{"attach", "ATTACH DATABASE '/tmp/x.db' AS x", "ATTACH"},
		{"detach", "DETACH DATABASE x", "DETACH"},
		{"pragma write", "PRAGMA query_only = OFF", "changes a setting"},
		{"pragma write call form", "PRAGMA journal_mode(WAL)", "changes a setting"},
		{"pragma unknown", "PRAGMA writable_schema", "not one of the read-only"},
		{"vacuum into", "VACUUM INTO '/tmp/copy.db'", "VACUUM"},
		{"replace into", "REPLACE INTO customers VALUES (1, 'a', 'b')", "REPLACE"},
		{"quoted load_extension", `SELECT "load_extension"('evil.so')`, "load_extension"},
		{"unterminated comment", "SELECT 1 /* ;", "not closed"},
	},
	Postgres: {
		{"copy to file", "COPY customers TO '/tmp/customers.csv'", "COPY"},
		{"copy from program", "COPY customers FROM PROGRAM 'rm -rf /'", "COPY"},
		{"copy query to stdout", "COPY (SELECT 1) TO STDOUT", "COPY"},
		{"do block", "DO $$ BEGIN DELETE FROM customers; END $$", "DO"},
		{"lock table", "LOCK TABLE customers", "LOCK"},
		{"nextval", "SELECT nextval('seq')", "nextval"},
		{"set_config", "SELECT set_config('default_transaction_read_only', 'off', false)", "set_config"},
		{"pg_read_file", "SELECT pg_read_file('/etc/passwd')", "pg_read_file"},
		{"lo_export", "SELECT lo_export(1, '/tmp/x')", "lo_export"},
		{"hash is no comment", "SELECT 1 # ; DROP TABLE customers", "more than one statement"},
		{"nested comment hides nothing", "SELECT 1 /* outer /* inner */ ; */ ; DROP TABLE customers", "more than one statement"},
		{"dollar string then drop", "SELECT $x$ ; $x$; DROP TABLE customers", "more than one statement"},
		{"set session read write", "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE", "SET"},
		{"commit", "COMMIT", "COMMIT"},
		{"merge", "MERGE INTO customers USING x ON true WHEN MATCHED THEN DELETE", "MERGE"},
		{"pragma", "PRAGMA table_info(customers)", "SQLite only"},
		{"backslash does not escape in standard strings", `SELECT 'a\'; DROP TABLE customers; --'`, "more than one statement"},
		{"for share", "SELECT * FROM customers FOR SHARE", "lock"},
	},
	MySQL: {
		{"executable comment", "SELECT 1 /*! ; DROP TABLE customers */", "executable comment"},
		{"hash comment ends at newline", "SELECT 1 # note\n; DROP TABLE customers", "more than one statement"},
		{"dash dash needs space", "SELECT 1--1; DROP TABLE customers", "more than one statement"},
		{"backslash ambiguity", `SELECT 'a\'; DROP TABLE customers; -- '`, "ambiguous"},
		{"into outfile", "SELECT * FROM customers INTO OUTFILE '/tmp/x'", "INTO"},
		{"load data", "LOAD DATA INFILE '/tmp/x' INTO TABLE customers", "LOAD"},
		{"lock tables", "LOCK TABLES customers READ", "LOCK"},
		{"handler", "HANDLER customers OPEN", "HANDLER"},
		{"lock in share mode", "SELECT * FROM customers LOCK IN SHARE MODE", "lock"},
		{"variable assignment", "SELECT @a := 1", ":= assigns"},
		{"load_file", "SELECT LOAD_FILE('/etc/passwd')", "load_file"},
		{"replace", "REPLACE INTO customers VALUES (1, 'a', 'b')", "REPLACE"},
		{"explain delete", "EXPLAIN DELETE FROM customers", "DELETE"},
	},
	DuckDB: {
		{"copy to file", "COPY customers TO '/tmp/customers.csv'", "COPY"},
		{"install", "INSTALL httpfs", "INSTALL"},
		{"load", "LOAD httpfs", "LOAD"},
		{"attach", "ATTACH '/tmp/x.duckdb' AS x", "ATTACH"},
		{"export database", "EXPORT DATABASE '/tmp/x'", "EXPORT"},
		{"pragma", "PRAGMA threads = 64", "PRAGMA statements are not allowed"},
		{"pragma read", "PRAGMA table_info('customers')", "DESCRIBE"},
		{"query function", "SELECT * FROM query('SELECT 1')", "query"},
		{"query_table function", "SELECT * FROM query_table('customers')", "query_table"},
		{"getenv", "SELECT getenv('HOME')", "getenv"},
		{"create view", "CREATE OR REPLACE VIEW customers AS SELECT 1", "CREATE"},
		{"reset", "RESET lock_configuration", "RESET"},
	},
}

// guardDialects are the dialects the guard tests run on: every registered
// one.
func guardDialects() []Dialect {
	var out []Dialect
	for _, d := range registered() {
		out = append(out, d.name())
	}
	return out
}

func TestCheckRefuses(t *testing.T) {
	for _, d := range guardDialects() {
		cases := append(append([]refusalCase(nil), commonRefusals...), dialectRefusals[d]...)
		for _, c := range cases {
			t.Run(string(d)+"/"+c.name, func(t *testing.T) {
				err := Check(d, c.sql)
				if err == nil {
					t.Fatalf("Check(%q) = nil, want a refusal", c.sql)
				}
				var re *RefusedError
				if !errors.As(err, &re) || !errors.Is(err, ErrRefused) {
					t.Fatalf("Check(%q) = %T %v, want *RefusedError wrapping ErrRefused", c.sql, err, err)
				}
				if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.reason)) {
					t.Errorf("Check(%q) = %q, want the reason to mention %q", c.sql, err, c.reason)
				}
				if !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "SELECT") {
					t.Errorf("Check(%q) = %q, want it to say the source is read-only and what is allowed", c.sql, err)
				}
			})
		}
	}
}

func TestCheckAllows(t *testing.T) {
	common := []string{
		"SELECT 1",
		"select count(*) from customers;",
		"SELECT 1;   -- trailing comment",
		"SELECT ';' AS semi, '--' AS dashes, '/*' AS open",
		"SELECT 'it''s; fine' FROM customers WHERE name LIKE '%;%'",
		"SELECT 1 /* ; DROP TABLE x */",
		"-- leading comment; with semicolon\nSELECT 2",
		"WITH t AS (SELECT 1 AS x) SELECT x FROM t",
		"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT n FROM c",
		"(SELECT 1) UNION (SELECT 2)",
		"VALUES (1, 2)",
		"SELECT replace(name, 'a', 'b') FROM customers",
		"SELECT \"update\" FROM t",
		"EXPLAIN SELECT * FROM customers",
		"SELECT * FROM orders WHERE status IN ('paid', 'open') ORDER BY id LIMIT 10",
	}
	perDialect := map[Dialect][]string{
		SQLite: {
			"EXPLAIN QUERY PLAN SELECT * FROM customers",
			"PRAGMA table_info(customers)",
			"PRAGMA main.table_info('customers')",
			"PRAGMA foreign_key_list(orders)",
			"PRAGMA schema_version",
			"SELECT * FROM pragma_table_info('customers')",
			"SELECT [weird name] FROM `t`",
			"SELECT 1--1; DROP TABLE x",
			"SELECT strftime('%Y-%m', order_date) AS month FROM orders",
		},
		Postgres: {
			"SHOW statement_timeout",
			"TABLE customers",
			"SELECT $x$ ; DROP TABLE y $x$",
			"SELECT $$;$$",
			"SELECT 1 /* outer /* inner ; */ still comment ; */",
			"EXPLAIN (ANALYZE, FORMAT JSON) SELECT 1",
			"SELECT E'it\\'s; fine'",
			"SELECT date_trunc('month', now())::date",
			"SELECT a->>'k' FROM t WHERE b ? 'x'",
		},
		MySQL: {
			"SHOW TABLES",
			"DESCRIBE customers",
			"DESC customers",
			"EXPLAIN customers",
			"EXPLAIN FORMAT=JSON SELECT 1",
			"SELECT 1 # ; DROP TABLE customers",
			"SELECT 'it''s; fine', \"double; quoted\"",
			"SELECT `order` FROM `orders`",
			"SELECT /*+ MAX_EXECUTION_TIME(1000) */ 1",
			"SELECT DATE_FORMAT(order_date, '%Y-%m') FROM orders",
			"SELECT insert(name, 1, 2, 'x') FROM customers",
		},
		DuckDB: {
			"FROM customers SELECT name",
			"FROM customers",
			"SUMMARIZE customers",
			"DESCRIBE customers",
			"SHOW TABLES",
			"TABLE customers",
			"SELECT strftime(order_date, '%Y-%m') FROM orders",
			"SELECT date_trunc('month', order_date)::DATE, count(*) FROM orders GROUP BY ALL",
		},
	}
	for _, d := range guardDialects() {
		for _, q := range append(append([]string(nil), common...), perDialect[d]...) {
			if err := Check(d, q); err != nil {
				t.Errorf("%s: Check(%q) = %v, want nil", d, q, err)
			}
		}
	}
}

func TestNormalizeIgnoresLayoutAndComments(t *testing.T) {
	a, err := checkStatement(SQLite, "select  id,\n name -- the name\nFROM customers;")
	if err != nil {
		t.Fatal(err)
	}
	b, err := checkStatement(SQLite, "SELECT id, /* c */ name FROM customers")
	if err != nil {
		t.Fatal(err)
	}
	if normalize(SQLite, a) != normalize(SQLite, b) {
		t.Errorf("normalize differs:\n%s\n%s", normalize(SQLite, a), normalize(SQLite, b))
	}
	// MySQL table names can be case-sensitive: only keywords fold.
	m1, _ := checkStatement(MySQL, "select * from Orders")
	m2, _ := checkStatement(MySQL, "SELECT * FROM orders")
	m3, _ := checkStatement(MySQL, "SELECT  *  FROM Orders")
	if normalize(MySQL, m1) == normalize(MySQL, m2) || normalize(MySQL, m1) != normalize(MySQL, m3) {
		t.Errorf("MySQL normalize: %q %q %q", normalize(MySQL, m1), normalize(MySQL, m2), normalize(MySQL, m3))
	}
	c, _ := checkStatement(SQLite, "SELECT id, name FROM customers WHERE name = 'a  b'")
	d, _ := checkStatement(SQLite, "SELECT id, name FROM customers WHERE name = 'a b'")
	if normalize(SQLite, c) == normalize(SQLite, d) {
		t.Error("normalize merged different string literals")
	}
}

func BenchmarkCheck(b *testing.B) {
	q := `WITH paid AS (SELECT * FROM orders WHERE status = 'paid' /* only paid; */)
SELECT c.country, sum(i.quantity * p.price) AS revenue -- per country
FROM paid o JOIN customers c ON c.id = o.customer_id JOIN order_items i ON i.order_id = o.id
JOIN products p ON p.id = i.product_id WHERE c.name <> 'x;y' GROUP BY c.country ORDER BY 2 DESC LIMIT 10`
	for b.Loop() {
		if err := Check(MySQL, q); err != nil {
			b.Fatal(err)
		}
	}
}
