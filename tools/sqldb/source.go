// Package sqldb connects Sift to SQL data sources — SQLite files, Postgres
// and MySQL servers — strictly read-only, and gives the agents tools over
// them: list_tables, describe_table, sql_query and explain_sql.
//
// Read-only holds in layers. A statement guard tokenizes every statement
// (quotes, identifiers and comments as the dialect reads them) and lets
// through exactly one SELECT, WITH … SELECT, VALUES, EXPLAIN, SHOW/DESCRIBE
// (MySQL) or read-only PRAGMA (SQLite). Behind it the connection itself is
// read-only: SQLite is opened with mode=ro, PRAGMA query_only=ON and an
// authorizer that denies writes; Postgres and MySQL sessions are set to
// read-only transactions and every query runs in one (BEGIN READ ONLY /
// START TRANSACTION READ ONLY) that is rolled back.
//
// Every query is bounded by a statement timeout (the context deadline plus
// the server's own: statement_timeout, MAX_EXECUTION_TIME, SQLite's
// interrupt) and a row cap; a cut result is saved in full to out/<name>.csv
// through the session's operator.Operator, ready for pandas.
package sqldb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// Dialect names the SQL dialect of a source.
type Dialect string

// The dialects Sift speaks.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
)

// Errors callers branch on.
var (
	// ErrBadURL: the connection URL is not one Sift can open.
	ErrBadURL = errors.New("unsupported database URL")
	// ErrUnknownSource: a tool named a source that is not configured.
	ErrUnknownSource = errors.New("unknown data source")
)

// Defaults of Options.
const (
	DefaultStatementTimeout = 30 * time.Second
	DefaultMaxRows          = 200
	DefaultMaxExportRows    = 1_000_000
	DefaultCacheTTL         = 5 * time.Minute
	DefaultSampleValues     = 3
	DefaultMaxListedValues  = 12
)

// Options configure a source. The zero value is usable: every field has a
// default, filled in by Open.
type Options struct {
	// Name is how tools and prompts call the source. Optional; defaults to
	// the file name without extension (SQLite) or the database name.
	Name string
	// StatementTimeout bounds each statement, on the client (context
	// deadline) and on the server. Optional; defaults to 30s.
	StatementTimeout time.Duration
	// MaxRows is how many rows of a result the model sees. Optional;
	// defaults to 200.
	MaxRows int
	// MaxExportRows bounds how many rows a cut result saves to CSV.
	// Optional; defaults to 1,000,000.
	MaxExportRows int
	// CacheTTL is how long an identical query's result is reused.
	// Optional; defaults to 5 minutes; negative turns the cache off.
	CacheTTL time.Duration
	// SampleValues is how many sample values the schema shows per column.
	// Optional; defaults to 3.
	SampleValues int
	// MaxListedValues is the most distinct values a text column may have
	// for the schema to list them all. Optional; defaults to 12.
	MaxListedValues int
	// Now is the clock (for the result cache). Optional; defaults to
	// time.Now.
	Now func() time.Time
}

// withDefaults fills the unset fields.
func (o Options) withDefaults() Options {
	if o.StatementTimeout <= 0 {
		o.StatementTimeout = DefaultStatementTimeout
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxExportRows <= 0 {
		o.MaxExportRows = DefaultMaxExportRows
	}
	if o.CacheTTL == 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.SampleValues <= 0 {
		o.SampleValues = DefaultSampleValues
	}
	if o.MaxListedValues <= 0 {
		o.MaxListedValues = DefaultMaxListedValues
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Source is one open, read-only SQL data source. It is safe for concurrent
// use. Close it when done.
type Source struct {
	name     string
	dialect  Dialect
	redacted string
	// reopen is the URL that opens the source again from anywhere: an
	// absolute path for SQLite, the password replaced by xxxxx.
	reopen string
	secret string // the password, scrubbed from every error
	db     *sql.DB
	opts   Options
	cache  *resultCache

	schemaMu sync.Mutex
	schema   *Schema

	exportMu sync.Mutex
	exports  int

	// views are the files source's views; unreadable says, for each
	// input it could make no view of, why (see OpenFiles).
	views      []FileView
	unreadable []string
	// scratch is the files source's spill directory, removed on Close.
	scratch string
}

// Open connects to the data source at rawURL, read-only:
//
//	sqlite:path.db, sqlite:///abs/path.db, file:path.db, or a path ending
//	  in .db, .sqlite or .sqlite3
//	postgres://user:pass@host:5432/db?sslmode=disable (or postgresql://)
//	mysql://user:pass@host:3306/db
//
// It checks the connection before returning. Errors never show the
// password.
func Open(ctx context.Context, rawURL string, opts Options) (*Source, error) {
	t, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	return openTarget(ctx, t, opts)
}

// openTarget opens a parsed URL.
func openTarget(ctx context.Context, t *target, opts Options) (*Source, error) {
	opts = opts.withDefaults()
	name := opts.Name
	if name == "" {
		name = t.name
	}
	s := &Source{
		name:     name,
		dialect:  t.dialect,
		redacted: t.redacted,
		reopen:   t.reopen,
		secret:   t.password,
		opts:     opts,
		cache:    newResultCache(opts.CacheTTL, opts.Now),
	}
	conn := &sessionConnector{inner: t.connector, init: sessionStatements(t.dialect, opts.StatementTimeout)}
	if t.dialect == SQLite {
		conn.after = denySQLiteWrites
	}
	s.db = sql.OpenDB(conn)
	s.db.SetMaxOpenConns(4)
	s.db.SetConnMaxIdleTime(5 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, opts.StatementTimeout)
	defer cancel()
	if err := s.db.PingContext(pctx); err != nil {
		s.db.Close()
		return nil, s.scrub(fmt.Errorf("open %s: %w; check that the server is running and the URL, user and password are right", s.redacted, err))
	}
	return s, nil
}

// Name is the source's name, as tools and prompts use it.
func (s *Source) Name() string { return s.name }

// Dialect is the source's SQL dialect.
func (s *Source) Dialect() Dialect { return s.dialect }

// URL is the source's connection URL with the password replaced by xxxxx.
func (s *Source) URL() string { return s.redacted }

// Spec is "name=url": what opens the source again under the same name
// (OpenSources takes it), with an absolute path for a SQLite file and the
// password, if any, replaced by xxxxx: a spec is safe to record in a
// workspace. NeedsPassword reports that it lost one.
func (s *Source) Spec() string { return s.name + "=" + s.reopen }

// NeedsPassword reports whether the source was opened with a password,
// which its Spec does not keep.
func (s *Source) NeedsPassword() bool { return s.secret != "" }

// Close closes the source's connections.
func (s *Source) Close() error {
	err := s.db.Close()
	if s.scratch != "" {
		err = errors.Join(err, os.RemoveAll(s.scratch))
	}
	return err
}

// String describes the source without secrets.
func (s *Source) String() string { return fmt.Sprintf("%s (%s, %s)", s.name, s.dialect, s.redacted) }

// target is a parsed connection URL.
type target struct {
	dialect   Dialect
	name      string
	redacted  string
	reopen    string
	password  string
	connector driver.Connector
	// dsn is what the driver is given (for SQLite and MySQL), kept for
	// tests; it holds the password.
	dsn string
}

// parseURL turns a connection URL into a driver connector.
func parseURL(raw string) (*target, error) {
	raw = strings.TrimSpace(raw)
	lower := strings.ToLower(raw)
	switch {
	case strings.HasPrefix(lower, "postgres://"), strings.HasPrefix(lower, "postgresql://"):
		return parsePostgres(raw)
	case strings.HasPrefix(lower, "mysql://"):
		return parseMySQL(raw)
	case strings.HasPrefix(lower, "sqlite:"), strings.HasPrefix(lower, "sqlite3:"), strings.HasPrefix(lower, "file:"):
		return parseSQLite(raw)
	}
	switch strings.ToLower(filepath.Ext(raw)) {
	case ".db", ".sqlite", ".sqlite3", ".db3":
		return parseSQLite(raw)
	}
	return nil, fmt.Errorf("%w %q: use sqlite:path.db, postgres://user:pass@host:5432/db or mysql://user:pass@host:3306/db", ErrBadURL, redactURL(raw))
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

func parseSQLite(raw string) (*target, error) {
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

func parsePostgres(raw string) (*target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBadURL, redactURL(raw), scrubText(err.Error(), urlPassword(raw)))
	}
	password := urlPassword(raw)
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %s", ErrBadURL, redactURL(raw), scrubText(err.Error(), password))
	}
	if password == "" {
		password = cfg.Password
	}
	// The server must read strings as the guard does, and sessions start
	// read-only even before the first SET.
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	cfg.RuntimeParams["standard_conforming_strings"] = "on"
	db := cfg.Database
	if db == "" {
		db = strings.TrimPrefix(u.Path, "/")
	}
	if db == "" {
		db = "postgres"
	}
	return &target{dialect: Postgres, name: sourceName(db), redacted: redactURL(raw), reopen: redactURL(raw), password: password, connector: stdlib.GetConnector(*cfg)}, nil
}

// parseMySQL converts mysql://user:pass@host:port/db?param=v into the
// driver's DSN, with multi-statements, LOAD DATA LOCAL and the like off.
func parseMySQL(raw string) (*target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBadURL, redactURL(raw), scrubText(err.Error(), urlPassword(raw)))
	}
	cfg := mysql.NewConfig()
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	q := u.Query()
	if sock := q.Get("socket"); sock != "" {
		cfg.Net, cfg.Addr = "unix", sock
		q.Del("socket")
	} else {
		cfg.Net = "tcp"
		host, port := u.Hostname(), u.Port()
		if host == "" {
			host = "127.0.0.1"
		}
		if port == "" {
			port = "3306"
		}
		cfg.Addr = net.JoinHostPort(host, port)
	}
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	if cfg.DBName == "" {
		return nil, fmt.Errorf("%w %s: name the database, as in mysql://user:pass@host:3306/shop", ErrBadURL, redactURL(raw))
	}
	charset := ""
	for k, vs := range q {
		v := vs[len(vs)-1]
		switch strings.ToLower(k) {
		case "tls":
			cfg.TLSConfig = v
		case "charset":
			charset = v
		case "collation":
			cfg.Collation = v
		case "loc":
			loc, err := time.LoadLocation(v)
			if err != nil {
				return nil, fmt.Errorf("%w %s: loc=%s: %v", ErrBadURL, redactURL(raw), v, err)
			}
			cfg.Loc = loc
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, fmt.Errorf("%w %s: timeout=%s: %v", ErrBadURL, redactURL(raw), v, err)
			}
			cfg.Timeout = d
		default:
			return nil, fmt.Errorf("%w %s: parameter %q is not supported (supported: tls, charset, collation, loc, timeout, socket)", ErrBadURL, redactURL(raw), k)
		}
	}
	if charset != "" {
		if err := cfg.Apply(mysql.Charset(charset, cfg.Collation)); err != nil {
			return nil, fmt.Errorf("%w %s: charset=%s: %v", ErrBadURL, redactURL(raw), charset, err)
		}
	}
	cfg.ParseTime = true
	cfg.MultiStatements = false
	cfg.AllowAllFiles = false
	cfg.InterpolateParams = false
	dsn := cfg.FormatDSN()
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %s", ErrBadURL, redactURL(raw), scrubText(err.Error(), cfg.Passwd))
	}
	return &target{dialect: MySQL, name: sourceName(cfg.DBName), redacted: redactURL(raw), reopen: redactURL(raw), password: cfg.Passwd, connector: c, dsn: dsn}, nil
}

// sourceName makes a name safe for tool arguments and file names.
func sourceName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "db"
	}
	return b.String()
}

// urlPassword is the password in a URL's user info or password= query
// parameter, or "".
func urlPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Unparseable: take what sits between the first ':' after "//"
		// and the last '@'.
		rest := raw
		if i := strings.Index(rest, "//"); i >= 0 {
			rest = rest[i+2:]
		}
		at := strings.LastIndexByte(rest, '@')
		if at < 0 {
			return ""
		}
		if c := strings.IndexByte(rest[:at], ':'); c >= 0 {
			return rest[c+1 : at]
		}
		return ""
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			return p
		}
	}
	return u.Query().Get("password")
}

// redactURL returns raw with any password replaced by xxxxx.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if p := urlPassword(raw); p != "" {
			return strings.ReplaceAll(raw, p, "xxxxx")
		}
		return raw
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// scrubText replaces secret in s.
func scrubText(s, secret string) string {
	if secret == "" {
		return s
	}
	s = strings.ReplaceAll(s, secret, "xxxxx")
	if esc := url.QueryEscape(secret); esc != secret {
		s = strings.ReplaceAll(s, esc, "xxxxx")
	}
	if esc := url.PathEscape(secret); esc != secret {
		s = strings.ReplaceAll(s, esc, "xxxxx")
	}
	return s
}

// scrubbedError has the source's password removed from its message; it
// unwraps to the original.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrub removes the source's password from err's message.
func (s *Source) scrub(err error) error {
	if err == nil || s.secret == "" {
		return err
	}
	msg := scrubText(err.Error(), s.secret)
	if msg == err.Error() {
		return err
	}
	return &scrubbedError{msg: msg, err: err}
}

// sessionStatement is one statement run on a new connection; when it
// fails, Or (if set) is tried instead — for servers that spell a setting
// differently (MariaDB's max_statement_time for MySQL's
// MAX_EXECUTION_TIME).
type sessionStatement struct {
	SQL string
	Or  string
}

// sessionStatements are run on every new connection, before it is used:
// they make the session read-only and set the server-side statement
// timeout.
func sessionStatements(d Dialect, timeout time.Duration) []sessionStatement {
	ms := strconv.FormatInt(timeout.Milliseconds(), 10)
	switch d {
	case SQLite:
		// The timeout is the context deadline: the driver interrupts
		// the statement when it passes.
		return []sessionStatement{{SQL: "PRAGMA query_only = ON"}}
	case Postgres:
		return []sessionStatement{
			{SQL: "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"},
			{SQL: "SET statement_timeout = " + ms},
			{SQL: "SET standard_conforming_strings = on"},
		}
	case MySQL:
		return []sessionStatement{
			{SQL: "SET SESSION TRANSACTION READ ONLY"},
			{SQL: "SET SESSION MAX_EXECUTION_TIME = " + ms,
				Or: "SET SESSION max_statement_time = " + strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)},
		}
	}
	return nil
}

// sessionConnector opens driver connections and prepares each one's
// session before database/sql hands it out.
type sessionConnector struct {
	inner driver.Connector
	init  []sessionStatement
	after func(driver.Conn) error
}

// Connect opens a connection and runs the session statements on it.
func (c *sessionConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	ex, ok := conn.(driver.ExecerContext)
	if !ok && len(c.init) > 0 {
		conn.Close()
		return nil, errors.New("start read-only session: the driver cannot run statements directly")
	}
	for _, st := range c.init {
		_, err := ex.ExecContext(ctx, st.SQL, nil)
		if err != nil && st.Or != "" {
			_, err = ex.ExecContext(ctx, st.Or, nil)
		}
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("start read-only session (%s): %w", st.SQL, err)
		}
	}
	if c.after != nil {
		if err := c.after(conn); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

// Driver returns the inner connector's driver.
func (c *sessionConnector) Driver() driver.Driver { return c.inner.Driver() }

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
