package sqldb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"modernc.org/sqlite"
)

// The SQLite dialect: a database file opened read-only (mode=ro), with
// PRAGMA query_only and an authorizer that denies every write behind the
// guard. Its statement timeout is the context deadline: the driver
// interrupts a statement when it passes.
func init() { register(sqliteDialect{baseDialect{SQLite}}) }

type sqliteDialect struct{ baseDialect }

func (sqliteDialect) syntax() syntax {
	return syntax{backtickIdents: true, bracketIdents: true, namedParams: true}
}

func (sqliteDialect) urls() urlForms {
	return urlForms{
		prefixes: []string{"sqlite:", "sqlite3:", "file:"},
		exts:     []string{".db", ".sqlite", ".sqlite3", ".db3"},
		example:  "sqlite:path.db",
	}
}

func (sqliteDialect) allowedReads() string {
	return "send one SELECT, WITH … SELECT, VALUES, EXPLAIN [QUERY PLAN] SELECT, or a read-only PRAGMA such as PRAGMA table_info(t)"
}

func (sqliteDialect) statement(verb string, rest []token) (error, bool) {
	switch verb {
	case "TABLE":
		return refuse(SQLite, "SQLite has no TABLE statement; use SELECT * FROM t"), true
	case "SHOW":
		return refuse(SQLite, "SQLite has no SHOW; use SELECT name FROM sqlite_schema or PRAGMA table_info(t)"), true
	case "PRAGMA":
		return checkPragma(SQLite, rest), true
	}
	return nil, false
}

func (sqliteDialect) notes() string {
	return "SQLite: dates are text or numbers — use strftime('%Y-%m', col), date(col), date(col, '+1 month'), julianday(b) - julianday(a); there is no date_trunc, EXTRACT, DATE_FORMAT or ILIKE (LIKE is case-insensitive for ASCII); concatenate with ||; quote identifiers with \"double quotes\" and strings with 'single quotes'."
}

var (
	sqliteNoColumn   = regexp.MustCompile(`no such column: ([^\s(]+)`)
	sqliteNoTable    = regexp.MustCompile(`no such table: ([^\s(]+)`)
	sqliteNoFunction = regexp.MustCompile(`no such function: ([^\s(]+)`)
)

func (sqliteDialect) classify(err error) (ErrorKind, string, bool) {
	msg := err.Error()
	switch {
	case strings.Contains(strings.ToLower(msg), "interrupted"):
		return KindTimeout, "", true
	case sqliteNoColumn.MatchString(msg):
		return KindUnknownColumn, matchName(sqliteNoColumn, err), true
	case sqliteNoTable.MatchString(msg):
		return KindUnknownTable, strings.TrimPrefix(matchName(sqliteNoTable, err), "main."), true
	case sqliteNoFunction.MatchString(msg):
		return KindUnknownFunction, matchName(sqliteNoFunction, err), true
	}
	return "", "", false
}

func (sqliteDialect) session(time.Duration) []sessionStatement {
	// The timeout is the context deadline: the driver interrupts the
	// statement when it passes.
	return []sessionStatement{{SQL: "PRAGMA query_only = ON"}}
}

// readOnlyTx: SQLite's connection is read-only itself (mode=ro,
// query_only, the authorizer).
func (sqliteDialect) readOnlyTx() bool { return false }

func (sqliteDialect) explain(stmt string) string { return "EXPLAIN QUERY PLAN " + stmt }

func (sqliteDialect) fingerprint(ctx context.Context, s *Source) (string, error) {
	return s.fingerprintQuery(ctx, "PRAGMA schema_version")
}

// readPragmas are the SQLite pragmas that only read, also when given an
// argument (a table or index name).
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true, "index_info": true,
	"index_xinfo": true, "foreign_key_list": true, "foreign_key_check": true, "database_list": true,
	"collation_list": true, "function_list": true, "module_list": true, "pragma_list": true,
	"compile_options": true, "integrity_check": true, "quick_check": true,
}

// readOnlyWithoutArg are pragmas that read when given no argument and
// change a setting when given one.
var readOnlyWithoutArg = map[string]bool{
	"schema_version": true, "user_version": true, "application_id": true, "page_count": true,
	"page_size": true, "freelist_count": true, "encoding": true, "journal_mode": true,
	"foreign_keys": true, "data_version": true, "max_page_count": true, "auto_vacuum": true,
	"cache_size": true, "query_only": true, "synchronous": true, "busy_timeout": true,
}

// checkPragma allows PRAGMA [schema.]name and PRAGMA [schema.]name(arg)
// for pragmas that only read.
func checkPragma(d Dialect, rest []token) error {
	refuse := func(format string, args ...any) error {
		return &RefusedError{Dialect: d, Reason: fmt.Sprintf(format, args...)}
	}
	for _, t := range rest {
		if t.is("=") {
			return refuse("PRAGMA … = … changes a setting")
		}
	}
	if len(rest) >= 2 && rest[1].is(".") {
		rest = rest[2:]
	}
	if len(rest) == 0 || rest[0].kind != tokWord && rest[0].kind != tokIdent {
		return refuse("PRAGMA needs a name")
	}
	name := strings.ToLower(rest[0].text)
	args := rest[1:]
	switch {
	case len(args) == 0 && (readPragmas[name] || readOnlyWithoutArg[name]):
		return nil
	case readPragmas[name] && len(args) == 3 && args[0].is("(") && args[2].is(")"):
		return nil
	case readOnlyWithoutArg[name]:
		return refuse("PRAGMA %s(…) changes a setting", name)
	}
	return refuse("PRAGMA %s is not one of the read-only pragmas (table_info, table_xinfo, index_list, index_info, foreign_key_list, table_list, database_list, schema_version, …)", name)
}

// sqlitePath extracts the file path from a sqlite:/file: URL or a plain
// path; query parameters are dropped (Sift sets its own).
func sqlitePath(raw string) string {
	p := raw
	if i := strings.IndexByte(p, ':'); i > 0 && !filepath.IsAbs(p) {
		switch strings.ToLower(p[:i]) {
		case "sqlite", "sqlite3", "file":
			p = p[i+1:]
		}
	}
	if q := strings.IndexByte(p, '?'); q >= 0 {
		p = p[:q]
	}
	// sqlite:///abs → /abs; sqlite://rel.db → rel.db; file://localhost/abs → /abs.
	if strings.HasPrefix(p, "//") {
		p = p[2:]
		if strings.HasPrefix(p, "localhost/") {
			p = p[len("localhost"):]
		}
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return p
}

func (sqliteDialect) parseURL(raw string) (*target, error) {
	p := sqlitePath(raw)
	if p == "" {
		return nil, fmt.Errorf("%w %q: no file path; use sqlite:path/to/file.db", ErrBadURL, raw)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", p, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w; check the path (Sift opens databases read-only and never creates them)", p, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("open sqlite %s: it is a directory, not a database file", p)
	}
	dsn := (&url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}).String()
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", p, err)
	}
	name := strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	return &target{dialect: SQLite, name: sourceName(name), redacted: "sqlite:" + p, reopen: "sqlite:" + abs, connector: c, dsn: dsn}, nil
}

// prepare installs an authorizer on every connection: see denyWrites.
func (sqliteDialect) prepare() func(driver.Conn) error { return denySQLiteWrites }

// denySQLiteWrites installs an authorizer that denies every write, schema
// change, ATTACH/DETACH, pragma that sets something, and load_extension —
// the last line behind the guard and mode=ro.
func denySQLiteWrites(conn driver.Conn) error {
	reg, ok := conn.(sqlite.AuthorizerRegisterer)
	if !ok {
		return errors.New("start read-only session: the SQLite driver has no authorizer")
	}
	return reg.RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
		switch action {
		case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive, sqlite.AuthTransaction, sqlite.AuthSavepoint:
			return sqlite.AuthorizerOK
		case sqlite.AuthFunction:
			if deniedFunctions[strings.ToLower(arg2)] {
				return sqlite.AuthorizerDeny
			}
			return sqlite.AuthorizerOK
		case sqlite.AuthPragma:
			name := strings.ToLower(arg1)
			if readPragmas[name] || (arg2 == "" && readOnlyWithoutArg[name]) {
				return sqlite.AuthorizerOK
			}
			return sqlite.AuthorizerDeny
		}
		return sqlite.AuthorizerDeny
	})
}

func (sqliteDialect) loadSchema(ctx context.Context, s *Source) (*Schema, error) {
	sc := &Schema{Dialect: SQLite}
	rows, err := s.fetch(ctx, `SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		t := &Table{Name: str(r[0]), View: str(r[1]) == "view", Rows: -1}
		t.ref = quoteIdent(SQLite, t.Name)
		cols, err := s.fetch(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, t.Name)
		if err != nil {
			return nil, err
		}
		type pkCol struct {
			name string
			n    int64
		}
		var pk []pkCol
		for _, c := range cols {
			t.Columns = append(t.Columns, Column{Name: str(c[0]), Type: str(c[1]), Nullable: num(c[2]) == 0})
			if n := num(c[3]); n > 0 {
				pk = append(pk, pkCol{str(c[0]), n})
			}
		}
		sort.Slice(pk, func(i, j int) bool { return pk[i].n < pk[j].n })
		for _, p := range pk {
			t.PrimaryKey = append(t.PrimaryKey, p.name)
		}
		fks, err := s.fetch(ctx, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, t.Name)
		if err != nil {
			return nil, err
		}
		byID := map[int64]*ForeignKey{}
		var ids []int64
		for _, f := range fks {
			id := num(f[0])
			fk, ok := byID[id]
			if !ok {
				fk = &ForeignKey{Table: str(f[1])}
				byID[id] = fk
				ids = append(ids, id)
			}
			fk.Columns = append(fk.Columns, str(f[2]))
			fk.RefColumns = append(fk.RefColumns, str(f[3]))
		}
		for _, id := range ids {
			t.ForeignKeys = append(t.ForeignKeys, *byID[id])
		}
		if !t.View {
			countSQLite(ctx, s, t)
		}
		sc.Tables = append(sc.Tables, t)
	}
	// A foreign key to "the primary key" leaves "to" empty.
	for _, t := range sc.Tables {
		for i, fk := range t.ForeignKeys {
			ref := sc.Table(fk.Table)
			for j, c := range fk.RefColumns {
				if c == "" && ref != nil && j < len(ref.PrimaryKey) {
					t.ForeignKeys[i].RefColumns[j] = ref.PrimaryKey[j]
				}
			}
		}
	}
	return sc, nil
}

// countSQLite counts a table's rows exactly when it is small, and
// estimates from the largest rowid when it is not.
func countSQLite(ctx context.Context, s *Source, t *Table) {
	r, err := s.fetch(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT %d)", t.ref, smallTableRows+1))
	if err != nil || len(r) == 0 {
		return
	}
	t.Rows = num(r[0][0])
	if t.Rows <= smallTableRows {
		return
	}
	if r, err := s.fetch(ctx, fmt.Sprintf("SELECT max(rowid) FROM %s", t.ref)); err == nil && len(r) > 0 && num(r[0][0]) > t.Rows {
		t.Rows = num(r[0][0])
	}
	t.RowsEstimated = true
}
