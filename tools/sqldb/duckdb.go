package sqldb

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// The DuckDB dialect, of the files source (OpenFiles): DuckDB runs in
// this process over views of the session's input files, locked down when
// the source opens; no URL opens it.
func init() { register(duckdbDialect{baseDialect{DuckDB}}) }

type duckdbDialect struct{ baseDialect }

func (duckdbDialect) syntax() syntax { return syntax{backtickIdents: true, namedParams: true} }

func (duckdbDialect) allowedReads() string {
	return "send one SELECT (or FROM-first query), WITH … SELECT, VALUES, TABLE t, EXPLAIN SELECT, DESCRIBE, SUMMARIZE or SHOW statement over the file views; files are read only through them"
}

func (duckdbDialect) statement(verb string, _ []token) (error, bool) {
	switch verb {
	case "FROM", "SUMMARIZE", "DESCRIBE", "DESC":
		return nil, true
	case "PRAGMA":
		return refuse(DuckDB, "PRAGMA statements are not allowed (they read or change the engine's settings); for a view's columns use DESCRIBE t or SUMMARIZE t"), true
	}
	return nil, false
}

func (duckdbDialect) notes() string {
	return "DuckDB (the files source): each input file is a view named after it (sales.csv → sales); query the views, never file paths. Use date_trunc('month', col), strftime(col, '%Y-%m'), EXTRACT(year FROM col), col::DATE, ILIKE; concatenate with ||; quote identifiers with \"double quotes\". It works out of core: aggregate large files here and bring only the result into Python."
}

var (
	duckNoColumn   = regexp.MustCompile(`Referenced column "([^"]+)" not found`)
	duckNoTable    = regexp.MustCompile(`Table with name ([^\s!]+) does not exist`)
	duckNoFunction = regexp.MustCompile(`Function with name ([^\s!]+) does not exist`)
	// duckExtension is a function or type of an extension that is not
	// loaded; the files source loads none.
	duckExtension = regexp.MustCompile(`exists in the (\w+) extension`)
)

// classify reads DuckDB's messages; what they do not say is KindOther.
func (duckdbDialect) classify(err error) (ErrorKind, string, bool) {
	msg := err.Error()
	switch {
	case duckNoColumn.MatchString(msg):
		return KindUnknownColumn, matchName(duckNoColumn, err), true
	case duckNoTable.MatchString(msg):
		return KindUnknownTable, matchName(duckNoTable, err), true
	case duckExtension.MatchString(msg):
		return KindPermission, matchName(duckExtension, err), true
	case duckNoFunction.MatchString(msg):
		return KindUnknownFunction, matchName(duckNoFunction, err), true
	case strings.HasPrefix(msg, "Parser Error"):
		return KindSyntax, "", true
	case strings.Contains(msg, "Permission Error"):
		return KindPermission, "", true
	case strings.Contains(msg, "INTERRUPT"), strings.Contains(strings.ToLower(msg), "interrupted"):
		return KindTimeout, "", true
	}
	return KindOther, "", true
}

func (duckdbDialect) permissionHint(extension string) string {
	if extension != "" {
		return fmt.Sprintf("the files source cannot install or load extensions (%s included), whatever the message says: query the views with DuckDB's built-in functions.", extension)
	}
	return "the files source reads only the session's input files, through their views (list_tables shows them), and writes nothing: query the views, and let sql_query save results (save_as, as_dataframe)."
}

// readOnlyTx: the engine is locked down instead (see OpenFiles).
func (duckdbDialect) readOnlyTx() bool { return false }

// fingerprint: the files source's views are made once, when it opens.
func (duckdbDialect) fingerprint(context.Context, *Source) (string, error) { return "views", nil }

// loadDuckDB reads the files source's views and their columns. Row counts
// stay unknown: counting would read whole files.
func (duckdbDialect) loadSchema(ctx context.Context, s *Source) (*Schema, error) {
	sc := &Schema{Dialect: DuckDB}
	byName := map[string]*Table{}
	rows, err := s.fetch(ctx, `SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		t := &Table{Name: str(r[0]), View: false, Rows: -1}
		t.ref = quoteIdent(DuckDB, t.Name)
		byName[t.Name] = t
		sc.Tables = append(sc.Tables, t)
	}
	cols, err := s.fetch(ctx, `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		if t := byName[str(c[0])]; t != nil {
			t.Columns = append(t.Columns, Column{Name: str(c[1]), Type: str(c[2]), Nullable: str(c[3]) == "YES"})
		}
	}
	return sc, nil
}
