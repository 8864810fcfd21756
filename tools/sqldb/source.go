// Package sqldb connects Sift to SQL data sources — SQLite files, Postgres
// and MySQL/MariaDB servers, and the session's input files through DuckDB
// (the files source) — strictly read-only, and gives the agents tools over
// them: list_tables, describe_table, sql_query and explain_sql.
//
// Each dialect is one file (sqlite.go, postgres.go, mysql.go, duckdb.go)
// holding everything that differs between them — URL, lexical rules, the
// statements its guard allows, its error codes and notes, its read-only
// session, its catalog queries — and registering itself (dialect.go); the
// rest of the package asks the dialect instead of branching on its name.
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
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
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
	// files are the files source's views' files, by view name.
	files map[string]string
	// dialects are the sniffed dialects of the views' CSV and TSV files,
	// by view name (none for a file read_csv detects itself).
	dialects map[string]*csvDialect
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
	conn := &sessionConnector{inner: t.connector, init: sessionStatements(t.dialect, opts.StatementTimeout), after: t.dialect.spec().prepare()}
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

// parseURL turns a connection URL into a driver connector, through the
// dialect whose URL prefix it has or, for a plain path, whose file
// extension it ends in.
func parseURL(raw string) (*target, error) {
	raw = strings.TrimSpace(raw)
	lower := strings.ToLower(raw)
	var examples []string
	for _, d := range registered() {
		for _, p := range d.urls().prefixes {
			if strings.HasPrefix(lower, p) {
				return d.parseURL(raw)
			}
		}
		if ex := d.urls().example; ex != "" {
			examples = append(examples, ex)
		}
	}
	ext := strings.ToLower(filepath.Ext(raw))
	for _, d := range registered() {
		if slices.Contains(d.urls().exts, ext) {
			return d.parseURL(raw)
		}
	}
	use := strings.Join(examples, ", ")
	if n := len(examples); n > 1 {
		use = strings.Join(examples[:n-1], ", ") + " or " + examples[n-1]
	}
	return nil, fmt.Errorf("%w %q: use %s", ErrBadURL, redactURL(raw), use)
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
	return d.spec().session(timeout)
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
