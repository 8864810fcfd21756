package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Schema is what a source holds: its tables and views with columns, keys,
// row counts and sample values.
type Schema struct {
	// Dialect is the source's dialect.
	Dialect Dialect
	// Tables are sorted by name.
	Tables []*Table
	// Fingerprint changes whenever the schema does.
	Fingerprint string
}

// Table describes one table or view.
type Table struct {
	// Name is how SQL names it: bare, or schema.table outside Postgres's
	// public schema.
	Name string
	// View reports a view rather than a table.
	View bool
	// Comment is the table's comment, if any.
	Comment string
	// Columns are in table order.
	Columns []Column
	// PrimaryKey lists the primary key's columns, in key order.
	PrimaryKey []string
	// ForeignKeys are the table's references to other tables.
	ForeignKeys []ForeignKey
	// Rows is the row count: exact, an estimate (RowsEstimated), or -1
	// when unknown.
	Rows          int64
	RowsEstimated bool

	ref string // the quoted reference used in SQL
}

// Column describes one column.
type Column struct {
	// Name is the column's name.
	Name string
	// Type is the declared type, as the catalog spells it.
	Type string
	// Nullable reports whether the column may hold NULL.
	Nullable bool
	// Comment is the column's comment, if any.
	Comment string
	// Samples are a few distinct non-null values.
	Samples []string
	// Values are all the distinct values of a low-cardinality text column
	// (at most Options.MaxListedValues), most frequent first; nil when
	// the column has more or was not listed.
	Values []string
}

// ForeignKey is a reference from Columns to RefColumns of Table.
type ForeignKey struct {
	// Columns are the referencing columns of the owning table.
	Columns []string
	// Table is the referenced table's name.
	Table string
	// RefColumns are the referenced columns, matching Columns in order.
	RefColumns []string
}

// Table returns the table named name (ignoring case), or nil.
func (sc *Schema) Table(name string) *Table {
	name = strings.Trim(strings.TrimSpace(name), "\"`[]")
	for _, t := range sc.Tables {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// Column returns the column named name (ignoring case), or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return &t.Columns[i]
		}
	}
	return nil
}

// Schema returns the source's schema, loaded once and reloaded when the
// schema's fingerprint (SQLite's schema_version, a hash of the catalog's
// columns for Postgres and MySQL) changes.
func (s *Source) Schema(ctx context.Context) (*Schema, error) {
	s.schemaMu.Lock()
	defer s.schemaMu.Unlock()
	fp, err := s.fingerprint(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the schema of %s: %w", s.name, err)
	}
	if s.schema != nil && s.schema.Fingerprint == fp {
		return s.schema, nil
	}
	sc, err := s.loadSchema(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the schema of %s: %w", s.name, err)
	}
	sc.Fingerprint = fp
	s.schema = sc
	return sc, nil
}

// fetch runs a trusted catalog query (no guard) in the read-only session
// and returns its rows.
func (s *Source) fetch(ctx context.Context, query string, args ...any) ([][]any, error) {
	var out [][]any
	err := s.each(ctx, query, args, func(vals []any) error {
		out = append(out, vals)
		return nil
	})
	return out, err
}

// each runs query and hands fn each row's values, one row at a time.
func (s *Source) each(ctx context.Context, query string, args []any, fn func([]any) error) error {
	return s.runArgs(ctx, query, args, func(rows *sql.Rows) error {
		cols, err := rows.Columns()
		if err != nil {
			return err
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			if err := fn(vals); err != nil {
				return err
			}
		}
		return nil
	})
}

// str renders a catalog value as text ("" for NULL).
func str(v any) string {
	if v == nil {
		return ""
	}
	return formatValue(v)
}

// num reads a catalog value as an integer (-1 when it is not one).
func num(v any) int64 {
	n, err := strconv.ParseFloat(str(v), 64)
	if err != nil {
		return -1
	}
	return int64(n)
}

// fingerprint is the dialect's value that changes with the schema.
func (s *Source) fingerprint(ctx context.Context) (string, error) {
	return s.dialect.spec().fingerprint(ctx, s)
}

// fingerprintQuery runs a catalog query whose one value is the schema's
// fingerprint.
func (s *Source) fingerprintQuery(ctx context.Context, q string) (string, error) {
	rows, err := s.fetch(ctx, q)
	if err != nil {
		return "", err
	}
	if len(rows) == 0 || len(rows[0]) == 0 {
		return "", nil
	}
	return str(rows[0][0]), nil
}

// loadSchema reads the structure, then row counts and sample values.
func (s *Source) loadSchema(ctx context.Context) (*Schema, error) {
	sc, err := s.dialect.spec().loadSchema(ctx, s)
	if err != nil {
		return nil, err
	}
	sort.Slice(sc.Tables, func(i, j int) bool { return sc.Tables[i].Name < sc.Tables[j].Name })
	for _, t := range sc.Tables {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.sampleTable(ctx, t); err != nil {
			// A table that cannot be sampled (permissions, a broken
			// view) is still described.
			continue
		}
	}
	return sc, nil
}

// quoteIdent quotes an identifier for dialect d.
func quoteIdent(d Dialect, name string) string { return d.spec().quoteIdent(name) }

// smallTableRows is the row count up to which tables are counted exactly
// and low-cardinality columns listed.
const smallTableRows = 100_000

// sampleRows is how many rows sampleTable reads from each table.
const sampleRows = 50

// maxSampleChars cuts long sample values.
const maxSampleChars = 40

// sampleTable fills each column's sample values from the table's first
// rows and, for text columns that repeat few values, the full value list.
func (s *Source) sampleTable(ctx context.Context, t *Table) error {
	rows, err := s.fetch(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", t.ref, sampleRows))
	if err != nil {
		return err
	}
	for ci := range t.Columns {
		col := &t.Columns[ci]
		seen := map[string]bool{}
		nonNull := 0
		text := isTextType(col.Type)
		for _, r := range rows {
			if ci >= len(r) || r[ci] == nil {
				continue
			}
			nonNull++
			if _, ok := r[ci].(string); ok && col.Type == "" {
				text = true // SQLite column without a declared type
			}
			v := cutText(formatValue(r[ci]), maxSampleChars)
			if !seen[v] {
				seen[v] = true
				if len(col.Samples) < s.opts.SampleValues {
					col.Samples = append(col.Samples, v)
				}
			}
		}
		repeats := len(seen) < nonNull
		if !text || !repeats || len(seen) > s.opts.MaxListedValues || t.Rows < 0 || t.Rows > smallTableRows {
			continue
		}
		q := fmt.Sprintf("SELECT %[1]s, COUNT(*) FROM %[2]s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY COUNT(*) DESC, %[1]s LIMIT %[3]d",
			quoteIdent(s.dialect, col.Name), t.ref, s.opts.MaxListedValues+1)
		vals, err := s.fetch(ctx, q)
		if err != nil || len(vals) > s.opts.MaxListedValues {
			continue
		}
		for _, v := range vals {
			col.Values = append(col.Values, cutText(str(v[0]), maxSampleChars))
		}
	}
	return nil
}

// isTextType reports whether a declared column type holds text.
func isTextType(typ string) bool {
	t := strings.ToLower(typ)
	for _, w := range []string{"char", "text", "string", "enum", "clob", "citext", "varchar"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// cutText shortens s to at most n characters, marking the cut.
func cutText(s string, n int) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "\r", " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
