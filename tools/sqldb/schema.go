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

func (s *Source) fingerprint(ctx context.Context) (string, error) {
	var q string
	switch s.dialect {
	case SQLite:
		q = "PRAGMA schema_version"
	case Postgres:
		q = `SELECT md5(COALESCE(string_agg(n.nspname || '.' || c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod), ',' ORDER BY n.nspname, c.relname, a.attnum), ''))
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r','v','m','p','f')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`
	case MySQL:
		q = `SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('.', TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, ORDINAL_POSITION))), 0))
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()`
	case DuckDB:
		// The files source's views are made once, when it opens.
		return "views", nil
	}
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
	var sc *Schema
	var err error
	switch s.dialect {
	case SQLite:
		sc, err = s.loadSQLite(ctx)
	case Postgres:
		sc, err = s.loadPostgres(ctx)
	case MySQL:
		sc, err = s.loadMySQL(ctx)
	case DuckDB:
		sc, err = s.loadDuckDB(ctx)
	default:
		err = fmt.Errorf("unknown dialect %q", s.dialect)
	}
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
func quoteIdent(d Dialect, name string) string {
	if d == MySQL {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// smallTableRows is the row count up to which tables are counted exactly
// and low-cardinality columns listed.
const smallTableRows = 100_000

func (s *Source) loadSQLite(ctx context.Context) (*Schema, error) {
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
			s.countSQLite(ctx, t)
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
func (s *Source) countSQLite(ctx context.Context, t *Table) {
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

const pgUserSchemas = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`

func (s *Source) loadPostgres(ctx context.Context) (*Schema, error) {
	sc := &Schema{Dialect: Postgres}
	byKey := map[string]*Table{}
	name := func(nsp, rel string) string {
		if nsp == "public" {
			return rel
		}
		return nsp + "." + rel
	}
	rows, err := s.fetch(ctx, `SELECT n.nspname, c.relname, c.relkind, c.reltuples::bigint, c.relpages, COALESCE(obj_description(c.oid, 'pg_class'), '')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r','v','m','p','f') AND NOT c.relispartition AND `+pgUserSchemas+`
ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		nsp, rel := str(r[0]), str(r[1])
		t := &Table{Name: name(nsp, rel), View: str(r[2]) == "v" || str(r[2]) == "m", Comment: str(r[5]), Rows: -1}
		t.ref = quoteIdent(Postgres, nsp) + "." + quoteIdent(Postgres, rel)
		tuples, pages := num(r[3]), num(r[4])
		switch {
		case t.View:
		case pages < 1000:
			if c, err := s.fetch(ctx, "SELECT count(*) FROM "+t.ref); err == nil && len(c) > 0 {
				t.Rows = num(c[0][0])
			}
		case tuples >= 0:
			t.Rows, t.RowsEstimated = tuples, true
		}
		byKey[t.Name] = t
		sc.Tables = append(sc.Tables, t)
	}
	cols, err := s.fetch(ctx, `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull, COALESCE(col_description(c.oid, a.attnum), '')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r','v','m','p','f') AND `+pgUserSchemas+`
ORDER BY 1, 2, a.attnum`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		if t := byKey[name(str(c[0]), str(c[1]))]; t != nil {
			t.Columns = append(t.Columns, Column{Name: str(c[2]), Type: str(c[3]), Nullable: str(c[4]) == "true", Comment: str(c[5])})
		}
	}
	keys, err := s.fetch(ctx, `SELECT n.nspname, c.relname, k.contype,
  array_to_string(ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(n, o) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o), chr(31)),
  COALESCE(fn.nspname, ''), COALESCE(fc.relname, ''),
  array_to_string(ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(n, o) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o), chr(31))
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class fc ON fc.oid = k.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
WHERE k.contype IN ('p', 'f') AND `+pgUserSchemas+`
ORDER BY 1, 2, k.conname`)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		t := byKey[name(str(k[0]), str(k[1]))]
		if t == nil {
			continue
		}
		own := strings.Split(str(k[3]), "\x1f")
		if str(k[2]) == "p" {
			t.PrimaryKey = own
			continue
		}
		t.ForeignKeys = append(t.ForeignKeys, ForeignKey{Columns: own, Table: name(str(k[4]), str(k[5])), RefColumns: strings.Split(str(k[6]), "\x1f")})
	}
	return sc, nil
}

func (s *Source) loadMySQL(ctx context.Context) (*Schema, error) {
	sc := &Schema{Dialect: MySQL}
	byName := map[string]*Table{}
	rows, err := s.fetch(ctx, `SELECT TABLE_NAME, TABLE_TYPE, COALESCE(TABLE_ROWS, -1), COALESCE(TABLE_COMMENT, '')
FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		t := &Table{Name: str(r[0]), View: strings.Contains(str(r[1]), "VIEW"), Comment: str(r[3]), Rows: -1}
		t.ref = quoteIdent(MySQL, t.Name)
		if n := num(r[2]); n >= 0 && !t.View {
			t.Rows, t.RowsEstimated = n, true
			if n < 10_000 {
				if c, err := s.fetch(ctx, "SELECT COUNT(*) FROM "+t.ref); err == nil && len(c) > 0 {
					t.Rows, t.RowsEstimated = num(c[0][0]), false
				}
			}
		}
		byName[t.Name] = t
		sc.Tables = append(sc.Tables, t)
	}
	cols, err := s.fetch(ctx, `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COALESCE(COLUMN_COMMENT, '')
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		if t := byName[str(c[0])]; t != nil {
			t.Columns = append(t.Columns, Column{Name: str(c[1]), Type: str(c[2]), Nullable: str(c[3]) == "YES", Comment: str(c[4])})
		}
	}
	keys, err := s.fetch(ctx, `SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, COALESCE(REFERENCED_TABLE_NAME, ''), COALESCE(REFERENCED_COLUMN_NAME, '')
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = DATABASE() AND (CONSTRAINT_NAME = 'PRIMARY' OR REFERENCED_TABLE_NAME IS NOT NULL)
ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`)
	if err != nil {
		return nil, err
	}
	fkIndex := map[string]int{}
	for _, k := range keys {
		t := byName[str(k[0])]
		if t == nil {
			continue
		}
		if str(k[1]) == "PRIMARY" {
			t.PrimaryKey = append(t.PrimaryKey, str(k[2]))
			continue
		}
		id := t.Name + "\x00" + str(k[1])
		i, ok := fkIndex[id]
		if !ok {
			i = len(t.ForeignKeys)
			fkIndex[id] = i
			t.ForeignKeys = append(t.ForeignKeys, ForeignKey{Table: str(k[3])})
		}
		t.ForeignKeys[i].Columns = append(t.ForeignKeys[i].Columns, str(k[2]))
		t.ForeignKeys[i].RefColumns = append(t.ForeignKeys[i].RefColumns, str(k[4]))
	}
	return sc, nil
}

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
