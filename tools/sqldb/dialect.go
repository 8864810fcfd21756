package sqldb

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Dialect names the SQL dialect of a source.
type Dialect string

// The dialects Sift speaks; each is defined in its own file (sqlite.go,
// postgres.go, mysql.go, duckdb.go) and registers itself there.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
	// DuckDB is the dialect of the files source: the session's input
	// files queried with DuckDB.
	DuckDB Dialect = "duckdb"
)

// sqlDialect is everything Sift knows about one SQL dialect: how its
// server reads SQL text, which reading statements the guard lets through,
// how its errors read, how a session is made read-only, and how its
// catalog describes the schema. A new dialect is one value implementing
// it, in its own file, registered there with register; the rest of the
// package asks the dialect instead of branching on its name.
//
// Most methods have a default in baseDialect, which every dialect embeds.
type sqlDialect interface {
	// name is the dialect's name.
	name() Dialect
	// syntax says how the dialect's server reads SQL text.
	syntax() syntax
	// allowedReads says which statements the guard lets through, for a
	// refusal's message.
	allowedReads() string
	// statement checks a statement that starts with verb (upper case),
	// rest being the tokens after it, when verb is the dialect's own;
	// handled false leaves it to the guard's common rules.
	statement(verb string, rest []token) (err error, handled bool)
	// notes says how the dialect writes what models most often get
	// wrong across dialects (see DialectNotes).
	notes() string
	// classify reads a driver error: its kind and the unknown name it
	// mentions; ok false leaves it to the common text rules.
	classify(err error) (kind ErrorKind, name string, ok bool)
	// permissionHint is the fix hint for a permission failure naming
	// name (maybe ""), or "" for the common one.
	permissionHint(name string) string
	// session are the statements run on every new connection, to make
	// it read-only and bound its statements by timeout.
	session(timeout time.Duration) []sessionStatement
	// prepare, when not nil, runs on every new connection after the
	// session statements (SQLite's write-denying authorizer).
	prepare() func(driver.Conn) error
	// readOnlyTx reports whether each query runs in a read-only
	// transaction that is rolled back.
	readOnlyTx() bool
	// explain turns a statement into the one that shows its plan.
	explain(stmt string) string
	// quoteIdent quotes an identifier.
	quoteIdent(name string) string
	// fingerprint returns a value that changes whenever the schema does.
	fingerprint(ctx context.Context, s *Source) (string, error)
	// loadSchema reads the tables and views, their columns, keys and
	// row counts (samples are the common code's).
	loadSchema(ctx context.Context, s *Source) (*Schema, error)
	// urls are the URL forms Open takes for the dialect: prefixes (as
	// "postgres://"), file extensions (as ".db") and an example for
	// messages; a dialect Open cannot reach has none.
	urls() urlForms
	// parseURL turns one of its URLs into a driver connector.
	parseURL(raw string) (*target, error)
}

// syntax is how a dialect's server reads SQL text: the lexer and the
// guard read a statement the same way, so a semicolon or keyword inside a
// string or comment is never taken for one outside it.
type syntax struct {
	// hashComments: "#" starts a comment to the end of the line.
	hashComments bool
	// dashNeedsSpace: "--" starts a comment only when followed by white
	// space or the end.
	dashNeedsSpace bool
	// nestedComments: /* … */ comments nest.
	nestedComments bool
	// executableComments: the server runs the text of /*! … */ and
	// /*M! … */ comments; the guard refuses them.
	executableComments bool
	// backslashStrings: a backslash escapes the next character in '…'
	// strings (and in "…" when those are strings) unless the server runs
	// with NO_BACKSLASH_ESCAPES; the guard reads a statement both ways.
	backslashStrings bool
	// doubleQuotedStrings: "…" is a string, not an identifier.
	doubleQuotedStrings bool
	// backtickIdents: `…` quotes an identifier.
	backtickIdents bool
	// bracketIdents: […] quotes an identifier.
	bracketIdents bool
	// dollarQuotes: $tag$…$tag$ strings and $1 parameters.
	dollarQuotes bool
	// escapeStrings: E'…' strings with backslash escapes.
	escapeStrings bool
	// namedParams: :name and @var are parameters.
	namedParams bool
	// explainTable: EXPLAIN t [column] describes table t.
	explainTable bool
	// assignments: := assigns a variable, which the guard refuses.
	assignments bool
	// caseSensitiveNames: table names may be case-sensitive, so cache
	// keys fold only keywords to upper case.
	caseSensitiveNames bool
}

// urlForms are the URLs that open a dialect's sources.
type urlForms struct {
	// prefixes a URL may start with, lower case.
	prefixes []string
	// exts are file extensions that open a plain path, lower case.
	exts []string
	// example is one URL, for messages.
	example string
}

// baseDialect holds the defaults of sqlDialect's methods; every dialect
// embeds it. Alone (for a name no dialect registered), it is a dialect
// with the common rules only that Open cannot reach.
type baseDialect struct{ n Dialect }

func (b baseDialect) name() Dialect  { return b.n }
func (baseDialect) syntax() syntax   { return syntax{} }
func (baseDialect) notes() string    { return "" }
func (baseDialect) readOnlyTx() bool { return true }
func (baseDialect) urls() urlForms   { return urlForms{} }
func (baseDialect) allowedReads() string {
	return "send one SELECT, WITH … SELECT, VALUES, TABLE t, EXPLAIN SELECT or SHOW statement"
}
func (baseDialect) statement(string, []token) (error, bool)  { return nil, false }
func (baseDialect) classify(error) (ErrorKind, string, bool) { return "", "", false }
func (baseDialect) permissionHint(string) string             { return "" }
func (baseDialect) session(time.Duration) []sessionStatement { return nil }
func (baseDialect) prepare() func(driver.Conn) error         { return nil }
func (baseDialect) explain(stmt string) string               { return "EXPLAIN " + stmt }
func (baseDialect) quoteIdent(name string) string            { return doubleQuote(name) }
func (b baseDialect) fingerprint(context.Context, *Source) (string, error) {
	return "", errUnknownDialect(b.n)
}
func (b baseDialect) loadSchema(context.Context, *Source) (*Schema, error) {
	return nil, errUnknownDialect(b.n)
}
func (b baseDialect) parseURL(raw string) (*target, error) { return nil, errUnknownDialect(b.n) }

// errUnknownDialect is the error of a dialect no file registered.
func errUnknownDialect(d Dialect) error { return fmt.Errorf("unknown dialect %q", d) }

// doubleQuote quotes an identifier the standard way, "…".
func doubleQuote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// The registry of dialects, filled by each dialect file's init, as
// database/sql drivers register themselves.
var (
	dialectsMu sync.RWMutex
	dialects   = map[Dialect]sqlDialect{}
)

// register adds a dialect; registering a name twice is a programming
// error.
func register(d sqlDialect) {
	dialectsMu.Lock()
	defer dialectsMu.Unlock()
	if _, dup := dialects[d.name()]; dup {
		panic("sqldb: dialect " + string(d.name()) + " registered twice")
	}
	dialects[d.name()] = d
}

// spec returns the dialect registered as d, or the common rules alone
// when none is.
func (d Dialect) spec() sqlDialect {
	dialectsMu.RLock()
	defer dialectsMu.RUnlock()
	if impl, ok := dialects[d]; ok {
		return impl
	}
	return baseDialect{n: d}
}

// registered returns the registered dialects, by name.
func registered() []sqlDialect {
	dialectsMu.RLock()
	defer dialectsMu.RUnlock()
	out := make([]sqlDialect, 0, len(dialects))
	for _, d := range dialects {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name() < out[j].name() })
	return out
}
