package sqldb

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrRefused is what every refused statement wraps: data sources are
// read-only, and the guard let the statement go no further.
var ErrRefused = errors.New("statement refused: the data source is read-only")

// RefusedError is a statement the guard would not send to the database.
// It unwraps to ErrRefused.
type RefusedError struct {
	// Dialect is the source's dialect, which decides what is allowed.
	Dialect Dialect
	// Reason says what in the statement was refused.
	Reason string
}

// Error says what was refused, that the source is read-only, and what is
// allowed instead.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused: %s. The %s source is read-only: %s", e.Reason, e.Dialect, allowedReads(e.Dialect))
}

// Unwrap returns ErrRefused.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// allowedReads says which statements a dialect's guard lets through.
func allowedReads(d Dialect) string { return d.spec().allowedReads() }

// tokenKind classifies a token of SQL text.
type tokenKind int

const (
	tokWord   tokenKind = iota // keyword or bare identifier
	tokIdent                   // quoted identifier: "x", `x`, [x]
	tokString                  // string literal, in any quoting
	tokNumber                  // numeric literal
	tokParam                   // $1, ?, :name, @var
	tokPunct                   // one punctuation or operator character
)

// token is one lexical unit of SQL text; comments and white space are not
// tokens.
type token struct {
	kind tokenKind
	text string // as written; for tokWord and tokIdent, the name
	pos  int    // byte offset in the statement
}

// upper is a word token's text in upper case, or "" for other tokens.
func (t token) upper() string {
	if t.kind != tokWord {
		return ""
	}
	return strings.ToUpper(t.text)
}

// is reports whether t is the punctuation p.
func (t token) is(p string) bool { return t.kind == tokPunct && t.text == p }

// lexer splits SQL text into tokens the way the dialect's server would:
// it knows the dialect's string and identifier quoting and its comments,
// so a semicolon or a keyword inside a string or a comment is never taken
// for one outside it.
type lexer struct {
	dialect Dialect
	syn     syntax
	// backslash makes a backslash escape the next character in '…' and
	// "…" strings (MySQL's default; off under NO_BACKSLASH_ESCAPES).
	backslash bool
	src       string
	pos       int
	toks      []token
}

// tokenize splits sql into tokens for dialect d. A string, quoted
// identifier or block comment left open, and a MySQL executable comment
// (/*! … */), are errors: the server would read them differently.
func tokenize(d Dialect, sql string, backslash bool) ([]token, error) {
	lx := &lexer{dialect: d, syn: d.spec().syntax(), backslash: backslash, src: sql}
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

func (lx *lexer) emit(kind tokenKind, start int, text string) {
	lx.toks = append(lx.toks, token{kind: kind, text: text, pos: start})
}

func (lx *lexer) peek(off int) byte {
	if lx.pos+off < len(lx.src) {
		return lx.src[lx.pos+off]
	}
	return 0
}

func (lx *lexer) run() error {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		start := lx.pos
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.pos++
		case c == '-' && lx.peek(1) == '-' && lx.dashComment():
			lx.skipLine()
		case c == '#' && lx.syn.hashComments:
			lx.skipLine()
		case c == '/' && lx.peek(1) == '*':
			if err := lx.blockComment(); err != nil {
				return err
			}
		case c == '\'':
			if err := lx.quoted('\'', lx.backslash && lx.syn.backslashStrings); err != nil {
				return err
			}
			lx.emit(tokString, start, lx.src[start:lx.pos])
		case c == '"':
			// A string in MySQL (unless ANSI_QUOTES), an identifier
			// elsewhere; opaque either way.
			if lx.syn.doubleQuotedStrings {
				if err := lx.quoted('"', lx.backslash && lx.syn.backslashStrings); err != nil {
					return err
				}
				lx.emit(tokString, start, lx.src[start:lx.pos])
				continue
			}
			if err := lx.quoted('"', false); err != nil {
				return err
			}
			lx.emit(tokIdent, start, unquote(lx.src[start:lx.pos], '"'))
		case c == '`' && lx.syn.backtickIdents:
			if err := lx.quoted('`', false); err != nil {
				return err
			}
			lx.emit(tokIdent, start, unquote(lx.src[start:lx.pos], '`'))
		case c == '[' && lx.syn.bracketIdents:
			end := strings.IndexByte(lx.src[lx.pos:], ']')
			if end < 0 {
				return errors.New("a [quoted identifier] is not closed")
			}
			lx.pos += end + 1
			lx.emit(tokIdent, start, lx.src[start+1:lx.pos-1])
		case c == '$' && lx.syn.dollarQuotes:
			if err := lx.dollar(); err != nil {
				return err
			}
		case c >= '0' && c <= '9' || c == '.' && isDigit(lx.peek(1)):
			lx.number()
			lx.emit(tokNumber, start, lx.src[start:lx.pos])
		case isWordStart(lx.src[lx.pos:]):
			lx.word()
			text := lx.src[start:lx.pos]
			// E'…' is a Postgres string with backslash escapes.
			if lx.syn.escapeStrings && strings.EqualFold(text, "e") && lx.peek(0) == '\'' {
				if err := lx.quoted('\'', true); err != nil {
					return err
				}
				lx.emit(tokString, start, lx.src[start:lx.pos])
				continue
			}
			lx.emit(tokWord, start, text)
		case c == '?' || c == ':' && isWordStart(lx.src[lx.pos+1:]) && lx.syn.namedParams || c == '@' && lx.syn.namedParams:
			lx.pos++
			if c != '?' {
				lx.word()
			}
			lx.emit(tokParam, start, lx.src[start:lx.pos])
		default:
			_, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
			lx.pos += size
			lx.emit(tokPunct, start, lx.src[start:lx.pos])
		}
	}
	return nil
}

// dashComment reports whether the "--" at pos starts a comment. MySQL
// wants white space (or the end) after it; elsewhere it always does.
func (lx *lexer) dashComment() bool {
	if !lx.syn.dashNeedsSpace {
		return true
	}
	next := lx.peek(2)
	return next == 0 || next == ' ' || next == '\t' || next == '\n' || next == '\r' || next == '\f' || next == '\v'
}

func (lx *lexer) skipLine() {
	end := strings.IndexByte(lx.src[lx.pos:], '\n')
	if end < 0 {
		lx.pos = len(lx.src)
		return
	}
	lx.pos += end + 1
}

// blockComment skips a /* … */ comment. Postgres nests them; SQLite and
// MySQL do not. MySQL runs the text of /*! … */ and /*M! … */ comments, so
// those are refused.
func (lx *lexer) blockComment() error {
	if lx.syn.executableComments && (lx.peek(2) == '!' || (lx.peek(2) == 'M' && lx.peek(3) == '!')) {
		return &RefusedError{Dialect: lx.dialect, Reason: "MySQL executable comments (/*! … */) run the SQL inside them"}
	}
	depth := 0
	for lx.pos < len(lx.src) {
		switch {
		case lx.src[lx.pos] == '/' && lx.peek(1) == '*':
			if depth == 0 || lx.syn.nestedComments {
				depth++
			}
			lx.pos += 2
		case lx.src[lx.pos] == '*' && lx.peek(1) == '/':
			depth--
			lx.pos += 2
			if depth == 0 {
				return nil
			}
		default:
			lx.pos++
		}
	}
	return errors.New("a /* comment */ is not closed")
}

// quoted skips a literal quoted with q, where a doubled q stands for
// itself and, with backslash, a backslash escapes the next character.
func (lx *lexer) quoted(q byte, backslash bool) error {
	lx.pos++ // opening quote
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case backslash && c == '\\':
			lx.pos += 2
		case c == q && lx.peek(1) == q:
			lx.pos += 2
		case c == q:
			lx.pos++
			return nil
		default:
			lx.pos++
		}
	}
	return fmt.Errorf("a %c-quoted literal is not closed", q)
}

// dollar reads a Postgres $n parameter or a $tag$…$tag$ string.
func (lx *lexer) dollar() error {
	start := lx.pos
	if isDigit(lx.peek(1)) {
		lx.pos++
		for lx.pos < len(lx.src) && isDigit(lx.src[lx.pos]) {
			lx.pos++
		}
		lx.emit(tokParam, start, lx.src[start:lx.pos])
		return nil
	}
	end := lx.pos + 1
	for end < len(lx.src) && (isWordByte(lx.src[end]) && lx.src[end] != '$') {
		end++
	}
	if end >= len(lx.src) || lx.src[end] != '$' {
		lx.pos++
		lx.emit(tokPunct, start, "$")
		return nil
	}
	tag := lx.src[start : end+1]
	closing := strings.Index(lx.src[end+1:], tag)
	if closing < 0 {
		return fmt.Errorf("a %s-quoted string is not closed", tag)
	}
	lx.pos = end + 1 + closing + len(tag)
	lx.emit(tokString, start, lx.src[start:lx.pos])
	return nil
}

func (lx *lexer) number() {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if isDigit(c) || c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			// Exponents (1e-5) carry a sign.
			if (c == 'e' || c == 'E') && (lx.peek(1) == '-' || lx.peek(1) == '+') {
				lx.pos++
			}
			lx.pos++
			continue
		}
		return
	}
}

func (lx *lexer) word() {
	for lx.pos < len(lx.src) {
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		if r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			lx.pos += size
			continue
		}
		return
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

// unquote strips the quotes of a quoted identifier and undoes doubling.
func unquote(s string, q byte) string {
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	return strings.ReplaceAll(s, string([]byte{q, q}), string(q))
}

// Check is the statement guard: it returns nil when sql is exactly one
// read-only statement for dialect d, and otherwise a *RefusedError saying
// why (unwrapping to ErrRefused). It works on tokens, so semicolons,
// keywords and comment markers inside strings, quoted identifiers and
// comments are read as the server would read them.
func Check(d Dialect, sql string) error {
	_, err := checkStatement(d, sql)
	return err
}

// checkStatement runs the guard and returns the statement's tokens.
func checkStatement(d Dialect, sql string) ([]token, error) {
	toks, err := tokenize(d, sql, true)
	if err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return nil, err
		}
		return nil, &RefusedError{Dialect: d, Reason: "the statement could not be read: " + err.Error()}
	}
	if err := checkTokens(d, toks); err != nil {
		return nil, err
	}
	if d.spec().syntax().backslashStrings {
		// NO_BACKSLASH_ESCAPES changes where MySQL strings end; the
		// statement must be safe read both ways.
		plain, err := tokenize(d, sql, false)
		if err == nil {
			err = checkTokens(d, plain)
		}
		if err != nil {
			return nil, &RefusedError{Dialect: d, Reason: "a backslash in a string makes the statement ambiguous: without backslash escapes it reads differently (" + strings.TrimPrefix(reasonOf(err), "refused: ") + "); write a quote inside a string as '' instead of \\'"}
		}
	}
	return stripSemicolon(toks), nil
}

// reasonOf is a refusal's reason, or the error's text.
func reasonOf(err error) string {
	var re *RefusedError
	if errors.As(err, &re) {
		return re.Reason
	}
	return err.Error()
}

// stripSemicolon drops a final ";".
func stripSemicolon(toks []token) []token {
	for len(toks) > 0 && toks[len(toks)-1].is(";") {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// checkTokens applies the guard's rules to a tokenized statement.
func checkTokens(d Dialect, toks []token) error {
	refuse := func(format string, args ...any) error {
		return &RefusedError{Dialect: d, Reason: fmt.Sprintf(format, args...)}
	}
	stmt := stripSemicolon(toks)
	for i, t := range stmt {
		if t.is(";") && i < len(stmt)-1 {
			return refuse("more than one statement (a ';' is followed by more SQL); send one statement per call")
		}
	}
	if len(stmt) == 0 {
		return refuse("the statement is empty")
	}
	if err := checkVerb(d, stmt); err != nil {
		return err
	}
	return checkBody(d, stmt)
}

// checkVerb checks the statement's leading keyword and, for EXPLAIN and
// PRAGMA, what follows it.
func checkVerb(d Dialect, stmt []token) error {
	refuse := func(format string, args ...any) error {
		return &RefusedError{Dialect: d, Reason: fmt.Sprintf(format, args...)}
	}
	// A query may sit in parentheses: (SELECT 1) UNION (SELECT 2).
	first := 0
	for first < len(stmt) && stmt[first].is("(") {
		first++
	}
	if first == len(stmt) {
		return refuse("the statement has no keyword")
	}
	verb := stmt[first].upper()
	switch verb {
	case "SELECT", "VALUES":
		return nil
	case "WITH":
		main := mainVerb(stmt[first+1:])
		switch main {
		case "SELECT", "VALUES", "TABLE":
			return nil
		case "":
			return refuse("WITH … must end in a SELECT")
		}
		return refuse("WITH … %s changes data", main)
	case "":
		return refuse("the statement does not start with a keyword")
	}
	if err, handled := d.spec().statement(verb, stmt[first+1:]); handled {
		return err
	}
	// What a dialect does not take over: the common rules.
	switch verb {
	case "TABLE", "SHOW":
		return nil
	case "FROM", "SUMMARIZE":
		return refuse("%s-first statements are DuckDB only; start with SELECT", verb)
	case "DESCRIBE", "DESC":
		return refuse("%s is a MySQL statement; in %s use EXPLAIN or query the catalog", verb, d)
	case "EXPLAIN":
		return checkExplain(d, stmt[first+1:])
	case "PRAGMA":
		return refuse("PRAGMA is SQLite only")
	}
	return refuse("%s statements are not allowed", verb)
}

// statementVerbs are keywords that start a statement that may follow WITH
// or EXPLAIN.
var statementVerbs = map[string]bool{
	"SELECT": true, "VALUES": true, "TABLE": true, "INSERT": true, "UPDATE": true, "DELETE": true,
	"MERGE": true, "REPLACE": true, "UPSERT": true,
}

// mainVerb finds the statement keyword at parenthesis depth 0 after a WITH
// clause: CTE bodies sit in parentheses, so the first such keyword outside
// them is the main statement.
func mainVerb(toks []token) string {
	depth := 0
	for _, t := range toks {
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && statementVerbs[t.upper()]:
			return t.upper()
		}
	}
	return ""
}

// explainOptions are words that may sit between EXPLAIN and its statement.
var explainOptions = map[string]bool{
	"ANALYZE": true, "ANALYSE": true, "VERBOSE": true, "QUERY": true, "PLAN": true,
	"EXTENDED": true, "PARTITIONS": true, "FORMAT": true, "TREE": true, "JSON": true, "TRADITIONAL": true,
}

// checkExplain checks what follows EXPLAIN (or DESCRIBE): the statement it
// explains must be allowed itself, since EXPLAIN ANALYZE runs it.
func checkExplain(d Dialect, rest []token) error {
	i := 0
	for i < len(rest) {
		t := rest[i]
		switch {
		case t.is("("): // Postgres: EXPLAIN (ANALYZE, FORMAT JSON) …
			depth := 0
			for ; i < len(rest); i++ {
				if rest[i].is("(") {
					depth++
				} else if rest[i].is(")") {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			i++
		case t.is("="):
			i++
		case explainOptions[t.upper()] && i+1 < len(rest):
			i++
		default:
			goto found
		}
	}
found:
	if i >= len(rest) {
		return &RefusedError{Dialect: d, Reason: "EXPLAIN needs the statement to explain"}
	}
	next := rest[i].upper()
	if next == "WITH" || statementVerbs[next] || rest[i].is("(") {
		return checkVerb(d, rest[i:])
	}
	if d.spec().syntax().explainTable && (rest[i].kind == tokWord || rest[i].kind == tokIdent) && len(rest)-i <= 3 {
		return nil // EXPLAIN t [column] is DESCRIBE t in MySQL
	}
	return &RefusedError{Dialect: d, Reason: fmt.Sprintf("EXPLAIN %s is not allowed", rest[i].text)}
}

// writeWords are keywords that change data or state; one right after "("
// is a data-changing statement nested in a query (a Postgres
// WITH x AS (DELETE …)).
var writeWords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "REPLACE": true, "UPSERT": true,
	"DROP": true, "CREATE": true, "ALTER": true, "TRUNCATE": true, "GRANT": true, "REVOKE": true,
	"COPY": true, "CALL": true, "DO": true, "SET": true, "LOCK": true,
}

// deniedFunctions are functions that write files, load code, change
// settings or sequences, or reach outside the database.
var deniedFunctions = map[string]bool{
	"load_extension": true, "writefile": true, "readfile": true, "edit": true, "fts3_tokenizer": true,
	"lo_import": true, "lo_export": true, "lo_unlink": true, "lo_create": true, "lo_from_bytea": true, "lo_put": true,
	"pg_read_file": true, "pg_read_binary_file": true, "pg_ls_dir": true, "pg_stat_file": true,
	"pg_terminate_backend": true, "pg_cancel_backend": true, "pg_reload_conf": true, "pg_rotate_logfile": true,
	"pg_promote": true, "pg_switch_wal": true, "pg_create_restore_point": true,
	"set_config": true, "nextval": true, "setval": true, "dblink": true, "dblink_exec": true, "dblink_connect": true,
	"pg_advisory_lock": true, "pg_advisory_xact_lock": true, "pg_try_advisory_lock": true,
	"load_file": true, "get_lock": true, "release_lock": true, "sys_exec": true, "sys_eval": true,
	// DuckDB: query() and query_table() run SQL given as a string, past
	// the guard; getenv() reads the process's environment.
	"query": true, "query_table": true, "getenv": true,
}

// checkBody refuses constructs that make an otherwise reading statement
// write: SELECT … INTO, locking reads, nested data-changing statements and
// calls to functions with side effects.
func checkBody(d Dialect, stmt []token) error {
	refuse := func(format string, args ...any) error {
		return &RefusedError{Dialect: d, Reason: fmt.Sprintf(format, args...)}
	}
	for i, t := range stmt {
		up := t.upper()
		var next token
		if i+1 < len(stmt) {
			next = stmt[i+1]
		}
		switch {
		case up == "INTO":
			return refuse("SELECT … INTO writes a table, file or variable; return the rows instead")
		case up == "FOR" && (next.upper() == "UPDATE" || next.upper() == "SHARE" || next.upper() == "NO" || next.upper() == "KEY"):
			return refuse("FOR UPDATE/SHARE takes locks; leave it out")
		case up == "LOCK" && next.upper() == "IN":
			return refuse("LOCK IN SHARE MODE takes locks; leave it out")
		case t.is("(") && writeWords[next.upper()] && !(i+2 < len(stmt) && stmt[i+2].is("(")):
			// replace(…) and MySQL's insert(…) are string functions.
			return refuse("a nested %s statement changes data", next.upper())
		case (t.kind == tokWord || t.kind == tokIdent) && next.is("(") && deniedFunctions[strings.ToLower(t.text)]:
			return refuse("the function %s() has side effects outside the query", strings.ToLower(t.text))
		case t.is(":") && next.is("=") && d.spec().syntax().assignments:
			return refuse(":= assigns a variable")
		}
	}
	return nil
}

// normalize renders tokens as canonical SQL text for cache keys: comments
// dropped, one space between tokens, bare words in upper case. MySQL table
// names can be case-sensitive, so there only keywords are upper-cased.
func normalize(d Dialect, toks []token) string {
	caseSensitive := d.spec().syntax().caseSensitiveNames
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case t.kind == tokIdent:
			b.WriteString(`"` + t.text + `"`)
		case t.kind == tokWord && (!caseSensitive || commonKeywords[t.upper()]):
			b.WriteString(t.upper())
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// commonKeywords are SQL keywords and functions that are never table names.
var commonKeywords = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "GROUP": true, "BY": true, "ORDER": true, "LIMIT": true,
	"OFFSET": true, "AND": true, "OR": true, "NOT": true, "AS": true, "JOIN": true, "ON": true, "LEFT": true,
	"RIGHT": true, "INNER": true, "OUTER": true, "FULL": true, "CROSS": true, "USING": true, "HAVING": true,
	"DISTINCT": true, "UNION": true, "ALL": true, "WITH": true, "CASE": true, "WHEN": true, "THEN": true,
	"ELSE": true, "END": true, "IN": true, "IS": true, "NULL": true, "LIKE": true, "BETWEEN": true,
	"ASC": true, "DESC": true, "COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true,
	"EXPLAIN": true, "SHOW": true, "DESCRIBE": true, "VALUES": true, "EXISTS": true, "OVER": true, "PARTITION": true,
}

// refuse is a refusal of a statement on dialect d.
func refuse(d Dialect, format string, args ...any) error {
	return &RefusedError{Dialect: d, Reason: fmt.Sprintf(format, args...)}
}
