package sqldb

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/sift-agent/sift/tools"
)

// ErrorKind classifies why a query failed.
type ErrorKind string

// The kinds of query failure, each with its own fix hint.
const (
	KindUnknownColumn   ErrorKind = "unknown column"
	KindUnknownTable    ErrorKind = "unknown table"
	KindUnknownFunction ErrorKind = "unknown function"
	KindSyntax          ErrorKind = "syntax error"
	KindTimeout         ErrorKind = "timeout"
	KindReadOnly        ErrorKind = "read-only refusal"
	KindPermission      ErrorKind = "permission denied"
	KindOther           ErrorKind = "query failed"
)

// Sentinels a *QueryError matches with errors.Is, one per kind.
var (
	ErrUnknownColumn   = errors.New("unknown column")
	ErrUnknownTable    = errors.New("unknown table")
	ErrUnknownFunction = errors.New("unknown function")
	ErrSyntax          = errors.New("SQL syntax error")
	ErrTimeout         = errors.New("statement timed out")
	ErrPermission      = errors.New("permission denied")
)

// kindSentinels maps kinds to their sentinels; the read-only kind matches
// ErrRefused.
var kindSentinels = map[ErrorKind]error{
	KindUnknownColumn:   ErrUnknownColumn,
	KindUnknownTable:    ErrUnknownTable,
	KindUnknownFunction: ErrUnknownFunction,
	KindSyntax:          ErrSyntax,
	KindTimeout:         ErrTimeout,
	KindReadOnly:        ErrRefused,
	KindPermission:      ErrPermission,
}

// QueryError is a query the database refused or could not finish, with
// what kind of failure it was and what to do about it.
type QueryError struct {
	// Kind classifies the failure.
	Kind ErrorKind
	// Source is the source's name.
	Source string
	// Name is the unknown column, table or function, when Kind names one.
	Name string
	// Hint says how to fix the query.
	Hint string
	// Err is the database's error.
	Err error
}

// Error says what failed, on which source, and the database's message.
func (e *QueryError) Error() string {
	return fmt.Sprintf("%s on %s: %v", e.Kind, e.Source, e.Err)
}

// Unwrap returns the database's error and the kind's sentinel.
func (e *QueryError) Unwrap() []error {
	if s := kindSentinels[e.Kind]; s != nil {
		return []error{e.Err, s}
	}
	return []error{e.Err}
}

// queryError turns a failed query's error into a *QueryError with a hint
// drawn from the real schema. A cancelled ctx is returned as it is: that
// is the caller stopping, not the query failing.
func (s *Source) queryError(ctx context.Context, sqlText string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("query %s: %w", s.name, ctx.Err())
	}
	kind, name := classify(s.dialect, err)
	qe := &QueryError{Kind: kind, Source: s.name, Name: name, Err: s.scrub(err)}
	qe.Hint = s.hint(ctx, kind, name, sqlText)
	return qe
}

// classify tells what kind of failure err is, and the unknown name it
// mentions.
func classify(d Dialect, err error) (ErrorKind, string) {
	if errors.Is(err, ErrRefused) {
		return KindReadOnly, ""
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout, ""
	}
	if kind, name, ok := d.spec().classify(err); ok {
		return kind, name
	}
	lower := strings.ToLower(err.Error())
	switch {
	case strings.Contains(lower, "interrupted"):
		return KindTimeout, ""
	case strings.Contains(lower, "syntax error"), strings.Contains(lower, "incomplete input"), strings.Contains(lower, "unrecognized token"):
		return KindSyntax, ""
	case strings.Contains(lower, "readonly database"), strings.Contains(lower, "read-only"), strings.Contains(lower, "not authorized"), strings.Contains(lower, "query_only"):
		return KindReadOnly, ""
	case strings.Contains(lower, "permission denied"), strings.Contains(lower, "access denied"):
		return KindPermission, ""
	}
	return KindOther, ""
}

// matchName returns the first group of re in err's message, unquoted, or
// "": the unknown name a driver's message mentions.
func matchName(re *regexp.Regexp, err error) string {
	if m := re.FindStringSubmatch(err.Error()); m != nil {
		return strings.Trim(m[1], `"'`+"`")
	}
	return ""
}

// DialectNotes says how the dialect writes the things models most often
// get wrong across dialects: dates, quoting, text matching.
func DialectNotes(d Dialect) string { return d.spec().notes() }

// hint builds the fix hint for a failure of kind, using the schema for
// the nearest real names.
func (s *Source) hint(ctx context.Context, kind ErrorKind, name, sqlText string) string {
	switch kind {
	case KindReadOnly:
		return "the source is read-only: " + allowedReads(s.dialect) + "."
	case KindTimeout:
		return fmt.Sprintf("the query ran past the %s statement timeout: add filters (WHERE on indexed columns) or LIMIT, aggregate in SQL rather than returning raw rows, and check the plan with explain_sql.", s.opts.StatementTimeout)
	case KindSyntax, KindUnknownFunction:
		return "check the SQL for this dialect. " + DialectNotes(s.dialect)
	case KindPermission:
		if h := s.dialect.spec().permissionHint(name); h != "" {
			return h
		}
		return "the database user may not read this object; use other tables (list_tables) or ask the person for access."
	}
	sc, err := s.Schema(ctx)
	if err != nil {
		return "call list_tables and describe_table to see the real table and column names."
	}
	switch kind {
	case KindUnknownColumn:
		return columnHint(sc, name, sqlText)
	case KindUnknownTable:
		return tableHint(sc, name)
	}
	return "check the table and column names with describe_table, and the SQL for this dialect. " + DialectNotes(s.dialect)
}

// columnHint names the real columns nearest to an unknown one, and the
// columns of the tables the query uses.
func columnHint(sc *Schema, name, sqlText string) string {
	bare := name
	if i := strings.LastIndexByte(bare, '.'); i >= 0 {
		bare = bare[i+1:]
	}
	used := tablesIn(sc, sqlText)
	var cands []string
	owner := map[string][]string{}
	pool := used
	if len(pool) == 0 {
		pool = sc.Tables
	}
	for _, t := range pool {
		for _, c := range t.Columns {
			if owner[c.Name] == nil {
				cands = append(cands, c.Name)
			}
			owner[c.Name] = append(owner[c.Name], t.Name)
		}
	}
	var b strings.Builder
	if near := nearest(bare, cands, 3); len(near) > 0 {
		var parts []string
		for _, n := range near {
			parts = append(parts, fmt.Sprintf("%s (in %s)", n, strings.Join(owner[n], ", ")))
		}
		fmt.Fprintf(&b, "there is no column %q; the nearest real columns are %s. ", bare, strings.Join(parts, ", "))
	} else {
		fmt.Fprintf(&b, "there is no column %q in the tables the query uses. ", bare)
	}
	// The column may live in another table: say which, to join.
	var elsewhere []string
	for _, t := range sc.Tables {
		if t.Column(bare) != nil && !containsTable(used, t) {
			elsewhere = append(elsewhere, t.Name)
		}
	}
	if len(elsewhere) > 0 {
		fmt.Fprintf(&b, "%s is a column of %s: join that table. ", bare, strings.Join(firstN(elsewhere, 5), ", "))
	}
	for _, t := range firstTables(used, 3) {
		fmt.Fprintf(&b, "Columns of %s: %s. ", t.Name, strings.Join(firstN(columnNames(t), 40), ", "))
	}
	return strings.TrimSpace(b.String())
}

// tableHint names the real tables nearest to an unknown one.
func tableHint(sc *Schema, name string) string {
	bare := name
	if i := strings.LastIndexByte(bare, '.'); i >= 0 && sc.Table(bare) == nil {
		bare = bare[i+1:]
	}
	names := make([]string, len(sc.Tables))
	for i, t := range sc.Tables {
		names[i] = t.Name
	}
	var b strings.Builder
	if near := nearest(bare, names, 3); len(near) > 0 {
		fmt.Fprintf(&b, "there is no table %q; the nearest real tables are %s. ", name, strings.Join(near, ", "))
	} else {
		fmt.Fprintf(&b, "there is no table %q. ", name)
	}
	if len(names) <= 30 {
		fmt.Fprintf(&b, "The tables are: %s.", strings.Join(names, ", "))
	} else {
		b.WriteString("Call list_tables to see all tables.")
	}
	return strings.TrimSpace(b.String())
}

// tablesIn returns the schema's tables the SQL text names.
func tablesIn(sc *Schema, sqlText string) []*Table {
	toks, err := tokenize(sc.Dialect, sqlText, true)
	if err != nil {
		return nil
	}
	var out []*Table
	for i, t := range toks {
		if t.kind != tokWord && t.kind != tokIdent {
			continue
		}
		name := t.text
		// schema.table in Postgres
		if i+2 < len(toks) && toks[i+1].is(".") && (toks[i+2].kind == tokWord || toks[i+2].kind == tokIdent) {
			if tb := sc.Table(name + "." + toks[i+2].text); tb != nil && !containsTable(out, tb) {
				out = append(out, tb)
				continue
			}
		}
		if tb := sc.Table(name); tb != nil && !containsTable(out, tb) {
			out = append(out, tb)
		}
	}
	return out
}

func containsTable(ts []*Table, t *Table) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func firstTables(ts []*Table, n int) []*Table {
	if len(ts) > n {
		return ts[:n]
	}
	return ts
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("… (%d more)", len(s)-n))
	}
	return s
}

func columnNames(t *Table) []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// nearest returns up to n candidates closest to name by edit distance
// (ignoring case; - and space count as _), closest first. A candidate is
// close when it is within a third of the longer name's length (at least 2
// edits), or when one name contains the other.
func nearest(name string, cands []string, n int) []string {
	norm := func(s string) string {
		return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
	}
	target := []rune(norm(name))
	type scored struct {
		name string
		d    int
	}
	var found []scored
	for _, c := range cands {
		cand := []rune(norm(c))
		d := tools.EditDistance(target, cand)
		limit := max(2, max(len(target), len(cand))/3)
		contained := min(len(target), len(cand)) >= 3 &&
			(strings.Contains(string(cand), string(target)) || strings.Contains(string(target), string(cand)))
		if d > limit && !contained {
			continue
		}
		found = append(found, scored{c, d})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].d < found[j].d })
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].name)
	}
	return out
}
