package templates

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/sift-agent/sift/tools/sqldb"
)

// The DuckDB engine computes, out of core, what a template's cell would
// compute from the whole table in pandas (per-period aggregates, group
// totals, column statistics, histograms), and passes it to the cell as
// P["pre"]; the cell then draws the same tables and charts from it. The
// column choices the cell would make (time, measure, category) are made
// here by the same rules, from DuckDB's column types.

// duckCell names the engine in a CellError.
const duckCell = "duckdb"

// duckStatementTimeout bounds one of the engine's queries: a scan of a file
// of several GB takes minutes.
const duckStatementTimeout = 2 * time.Hour

// duckColumn is one column of the file as DuckDB reads it.
type duckColumn struct {
	name, typ string
	nonNull   int64
	unique    int64 // -1 when not counted
	// layouts are the strptime layouts of a text time column's dates that
	// DuckDB's cast does not read (textDateLayouts); nil for the others.
	layouts []string
}

func (c duckColumn) ident() string { return sqldb.QuoteIdent(c.name) }

func (c duckColumn) numeric() bool {
	switch {
	case strings.Contains(c.typ, "INT"), c.typ == "DOUBLE", c.typ == "FLOAT", c.typ == "REAL", strings.HasPrefix(c.typ, "DECIMAL"):
		return true
	}
	return false
}

// floatLike: pandas reads the column as floats (fractions, or a whole
// number column with missing values).
func (c duckColumn) floatLike(rows int64) bool {
	return c.numeric() && (!strings.Contains(c.typ, "INT") || c.nonNull < rows)
}

// wholeNumbers: the column's type holds whole numbers of at most 64 bits,
// signed (a BIGINT's, an INTEGER's), whose doubles have no fraction.
func (c duckColumn) wholeNumbers() bool {
	switch c.typ {
	case "BIGINT", "INTEGER", "SMALLINT", "TINYINT", "UINTEGER", "USMALLINT", "UTINYINT":
		return true
	}
	return false
}

func (c duckColumn) temporal() bool {
	return c.typ == "DATE" || strings.HasPrefix(c.typ, "TIMESTAMP")
}

// duckTable is an open file: its view and columns.
type duckTable struct {
	src  *sqldb.Source
	view string
	rows int64
	cols []duckColumn
	pre  map[string]any
	// picked and notes are what the engine chose and what a reader should
	// know, as the cell's pick() and note() would say them, in lang.
	picked, notes []string
	lang          string
	// temp are files the engine wrote for the cell (workspace-relative,
	// under root), removed once it ran.
	root string
	temp []string
	// lazyUniques: describe leaves text columns' distinct counts to
	// textUniques.
	lazyUniques bool
	// sql are the queries that computed the numbers, in order: the
	// built-in's provenance (Result.SQL).
	sql []string
	// input is the file DuckDB reads: the input, or a UTF-8 copy of it
	// on the host (prepareInput), removed when the table closes.
	input duckInput
}

// removeTemp removes the files the engine wrote for the cell.
func (d *duckTable) removeTemp() {
	removeWorkFiles(d.root, d.temp)
	d.temp = nil
}

// close removes the engine's files and closes its DuckDB.
func (d *duckTable) close() {
	d.removeTemp()
	if d.src != nil {
		d.src.Close()
		d.src = nil
	}
	if d.input.cleanup != nil {
		d.input.cleanup()
		d.input.cleanup = nil
	}
}

// materializeBytes bounds the files the engine reads into a table of its
// own first: a query over the file's view parses the whole file again,
// and a template asks several (the column counts, distinct values, the
// aggregates, the reading's table); over a table held by DuckDB (spilled
// to its temp directory past its memory limit) each is a scan of parsed
// columns. The bound keeps the table within DuckDB's default memory
// (1 GiB, SIFT_FILES_SQL_MEMORY) rather than in its spill files; a larger
// file is queried through its view, out of core.
const materializeBytes = 512 << 20

// materialize reads the file behind d.view once into a DuckDB table and
// queries that from then on: only the columns named in cols, or every
// column when cols is nil.
func (d *duckTable) materialize(ctx context.Context, cols []string) error {
	table := sqldb.QuoteIdent("sift_table")
	sel := "*"
	if cols != nil {
		var q []string
		for _, c := range cols {
			q = append(q, sqldb.QuoteIdent(c))
		}
		sel = strings.Join(q, ", ")
	}
	if _, err := d.query(ctx, "CREATE OR REPLACE TABLE "+table+" AS SELECT "+sel+" FROM "+d.view); err != nil {
		return err
	}
	d.view = table
	return nil
}

// runDuckDB computes template t's aggregates for the input at rel with
// DuckDB and returns them for the cell, with the parameters it settled;
// what it picked and noted is in lang (RunOptions.Lang). The caller closes
// the table, whose DuckDB stays open for the reading's table (reading,
// when not nil, is what that table is computed from).
func runDuckDB(ctx context.Context, root, rel string, t Template, p Params, lang string, reading *Reading) (*duckTable, Params, error) {
	fail := func(msg string) error { return &CellError{Template: t.Name, Cell: duckCell, Message: msg} }
	b := builtinNamed(t.Name)
	if b == nil || b.duck == nil {
		return nil, p, fail(fmt.Sprintf("template %s has no DuckDB engine", t.Name))
	}
	eng := b.duck
	fo, err := sqldb.FilesOptionsFromEnv(os.Getenv)
	if err != nil {
		return nil, p, fail(err.Error())
	}
	// An engine that numbers rows, or orders what it finds by where it
	// first occurs, reads them in the file's order; the others only
	// aggregate, in any order, which saves memory.
	fo.StatementTimeout, fo.AnyOrder = duckStatementTimeout, !eng.inOrder && !eng.fileOrder
	in, err := prepareInput(ctx, root, rel, p, fo)
	if err != nil {
		var te templateError
		if errors.As(err, &te) {
			return nil, p, fail(string(te))
		}
		return nil, p, fail(err.Error())
	}
	src, err := sqldb.OpenFiles(ctx, in.dir, []string{in.rel}, fo)
	if err != nil && strings.Contains(err.Error(), duckUnreadFile) && isDelimited(rel) {
		// DuckDB's sniffer refuses a CSV whose lines end in CRLF but
		// for some; read a copy whose lines all end in LF.
		in.cleanup()
		if in, err = prepareCopy(ctx, root, rel, p, fo, true); err != nil {
			return nil, p, fail(err.Error())
		}
		src, err = sqldb.OpenFiles(ctx, in.dir, []string{in.rel}, fo)
	}
	if err != nil {
		in.cleanup()
		return nil, p, fail(err.Error())
	}
	d := &duckTable{src: src, view: sqldb.QuoteIdent(src.Views()[0].View), pre: map[string]any{}, lang: lang, root: root, input: in}
	ok := false
	defer func() {
		if !ok {
			d.close()
		}
	}()
	d.lazyUniques = eng.lazyUniques
	if isWorkbook(rel) {
		d.pick("sheet: %s", in.sheet)
	}
	if err := d.load(ctx, in.abs(), t, p, reading); err != nil {
		var te templateError
		if errors.As(err, &te) {
			return nil, p, fail(string(te))
		}
		return nil, p, fail(err.Error())
	}
	if d.rows == 0 {
		return nil, p, fail("the table has no data rows")
	}
	if err := eng.run(d, ctx, root, in.abs(), &p); err != nil {
		var te templateError
		if errors.As(err, &te) {
			return nil, p, fail(string(te))
		}
		return nil, p, fail(err.Error())
	}
	ok = true
	return d, p, nil
}

// duckUnreadFile is in the error of a file DuckDB cannot read at all
// (sqldb.OpenFiles).
const duckUnreadFile = "no input file could be read"

// templateError is a problem the person can fix, worded as the cell's
// TemplateError would be.
type templateError string

func (e templateError) Error() string { return string(e) }

// query runs q and returns its rows.
func (d *duckTable) query(ctx context.Context, q string) ([][]any, error) {
	d.sql = append(d.sql, q)
	return d.src.Rows(ctx, q)
}

// describe reads the columns, their types, the row count and each
// column's non-missing count; with uniques, every column's distinct count
// too (else only text columns').
func (d *duckTable) describe(ctx context.Context, uniques bool) error {
	rows, err := d.query(ctx, "DESCRIBE SELECT * FROM "+d.view)
	if err != nil {
		return err
	}
	for _, r := range rows {
		d.cols = append(d.cols, duckColumn{name: strings.TrimSpace(fmt.Sprint(r[0])), typ: strings.ToUpper(fmt.Sprint(r[1])), unique: -1})
	}
	// One pass counts the rows and each column's values; the distinct
	// counts take a pass per column, each a grouping that spills to disk
	// (all of them in one query held every column's hash table at once).
	exprs := []string{"count(*)"}
	for _, c := range d.cols {
		exprs = append(exprs, "count("+c.ident()+")")
	}
	res, err := d.query(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+d.view)
	if err != nil {
		return err
	}
	d.rows = toInt(res[0][0])
	for k := range d.cols {
		c := &d.cols[k]
		c.nonNull = toInt(res[0][k+1])
		if uniques || (!d.lazyUniques && (c.typ == "VARCHAR" || c.typ == "BOOLEAN")) {
			if c.unique, err = d.distinct(ctx, *c); err != nil {
				return err
			}
		}
	}
	return nil
}

// textUniques counts the distinct values of the text and true/false
// columns not counted yet, as describe does without lazyUniques.
func (d *duckTable) textUniques(ctx context.Context) error {
	for k := range d.cols {
		c := &d.cols[k]
		if c.unique < 0 && (c.typ == "VARCHAR" || c.typ == "BOOLEAN") {
			var err error
			if c.unique, err = d.distinct(ctx, *c); err != nil {
				return err
			}
		}
	}
	return nil
}

// distinct counts c's distinct values, missing ones aside, as a grouping
// rather than count(DISTINCT), whose hash table must fit in memory. Text
// is grouped by its 128-bit MD5 digest: DuckDB spills fixed-size keys to
// disk, but not text keys (it ran out of memory at 1 GiB on 64 million
// distinct notes). Two different texts share a digest with a chance of
// about n²/2¹²⁹, below 10⁻²⁰ for a billion values.
func (d *duckTable) distinct(ctx context.Context, c duckColumn) (int64, error) {
	res, err := d.query(ctx, "SELECT count(v) FROM (SELECT DISTINCT "+groupKey(c)+" AS v FROM "+d.view+")")
	if err != nil {
		return 0, err
	}
	return toInt(res[0][0]), nil
}

// groupKey is the expression to group c's values by: the value, or a
// text's digest.
func groupKey(c duckColumn) string {
	if c.typ == "VARCHAR" {
		return "md5_number(" + c.ident() + ")"
	}
	return c.ident()
}

// fewGroups is how many distinct values a column may have for the
// profile to group by the values themselves.
var fewGroups int64 = 1 << 20

// maxTieRows bounds the rows topValues reads in order to break ties at
// the cut: they are held in memory.
const maxTieRows = 1 << 22

// topValues returns c's n most frequent values with their counts, ties
// in the values' order, as jsonRows. A column with many distinct values
// is grouped by digest (see distinct); the values come from the few
// digests that make the top, and ties at the cut from the smallest values
// that have the count at the cut.
// With missing, missing values count as the value "(missing)".
func (d *duckTable) topValues(ctx context.Context, c duckColumn, n int, missing bool) ([][]any, error) {
	v := "CAST(" + c.ident() + " AS VARCHAR)"
	notNull := " WHERE " + c.ident() + " IS NOT NULL"
	key := groupKey(c)
	if missing {
		v, notNull, key = category(c), " WHERE true", "md5_number("+category(c)+")"
	}
	if c.unique <= fewGroups {
		res, err := d.query(ctx, fmt.Sprintf("SELECT %s AS v, count(*) AS n FROM %s%s GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %d", v, d.view, notNull, n))
		return jsonRows(res), err
	}
	counts, err := d.query(ctx, fmt.Sprintf("SELECT count(*) AS n FROM %s%s GROUP BY %s ORDER BY n DESC LIMIT %d", d.view, notNull, key, n))
	if err != nil || len(counts) == 0 {
		return nil, err
	}
	cut := toInt(counts[len(counts)-1][0])
	// The values above the cut are fewer than n.
	var out [][]any
	if toInt(counts[0][0]) > cut {
		above, err := d.query(ctx, fmt.Sprintf("SELECT %[1]s AS v, count(*) AS n FROM %[2]s%[3]s AND %[4]s IN (SELECT %[4]s FROM %[2]s%[3]s GROUP BY %[4]s HAVING count(*) > %[5]d) GROUP BY 1 ORDER BY 2 DESC, 1",
			v, d.view, notNull, key, cut))
		if err != nil {
			return nil, err
		}
		out = jsonRows(above)
	}
	// The smallest values with the cut's count: read the smallest rows,
	// more each round, and count their values until enough have it.
	for rows := int64(64); len(out) < n; rows *= 16 {
		if rows > maxTieRows {
			return nil, templateError(fmt.Sprintf("column %s has too many values tied at %d rows each to pick its top %d", pyQuote(c.name), cut, n))
		}
		res, err := d.query(ctx, fmt.Sprintf("SELECT %[1]s AS v, count(*) AS n FROM %[2]s%[3]s AND %[1]s IN (SELECT %[1]s FROM %[2]s%[3]s ORDER BY 1 LIMIT %[4]d) GROUP BY 1 ORDER BY 1", v, d.view, notNull, rows))
		if err != nil {
			return nil, err
		}
		var tied [][]any
		for _, r := range res {
			if toInt(r[1]) == cut {
				tied = append(tied, r)
			}
		}
		if len(tied) >= n-len(out) || int64(len(res)) >= c.unique {
			return append(out, jsonRows(tied[:min(len(tied), n-len(out))])...), nil
		}
	}
	return out, nil
}

func (d *duckTable) pick(format string, args ...any) {
	d.picked = append(d.picked, textIn(d.lang, format, args...))
}

func (d *duckTable) note(format string, args ...any) {
	d.notes = append(d.notes, textIn(d.lang, format, args...))
}

var nonWordRe = regexp.MustCompile(`[\s_]+`)

// col finds the column called name as the cell's col() does: exactly, then
// ignoring case, spaces and underscores.
func (d *duckTable) col(name, role string) (duckColumn, error) {
	for _, c := range d.cols {
		if c.name == name {
			return c, nil
		}
	}
	want := nonWordRe.ReplaceAllString(strings.ToLower(name), "")
	for _, c := range d.cols {
		if nonWordRe.ReplaceAllString(strings.ToLower(c.name), "") == want {
			return c, nil
		}
	}
	return duckColumn{}, templateError(fmt.Sprintf("no column %s for the %s; the columns are: %s", pyQuote(name), role, strings.Join(d.names(60), ", ")))
}

func (d *duckTable) names(limit int) []string {
	var out []string
	for i, c := range d.cols {
		if i == limit {
			break
		}
		out = append(out, c.name)
	}
	return out
}

var (
	// cellTimeHints and cellIDHints are common.py's TIME_HINTS and
	// ID_HINTS, which the cell's column choices use (the matcher's own
	// hints are wider).
	cellTimeHints = []string{"date", "time", "day", "month", "period", "created", "timestamp", "日期", "时间", "月份", "年月", "日"}
	cellIDHints   = []string{"id", "user", "customer", "client", "member", "account", "uid", "用户", "客户", "会员", "账号", "编号"}
	hintSplit     = regexp.MustCompile(`[\s_\-./]+`)
)

// hinted is common.py's _hinted.
func hinted(name string, hints []string) bool {
	low := strings.ToLower(name)
	words := hintSplit.Split(low, -1)
	for _, h := range hints {
		if isASCII(h) {
			for _, w := range words {
				if w == h {
					return true
				}
			}
			if strings.HasPrefix(low, h) || strings.HasSuffix(low, h) {
				return true
			}
		} else if strings.Contains(name, h) {
			return true
		}
	}
	return false
}

// findTime is find_time: the named column, else the best date column.
func (d *duckTable) findTime(ctx context.Context, p Params) (duckColumn, error) {
	if p.Time != "" {
		c, err := d.col(p.Time, "time column")
		if err != nil || c.temporal() {
			return c, err
		}
		// A text column of dates DuckDB does not cast ("Jan 1 2000"):
		// read with the layouts they are written in (textDates), or, when
		// some are in none, refused (cast, each would be missing and the
		// answer empty), and the built-in runs on pandas (duckCannotRead).
		res, err := d.query(ctx, "SELECT count(TRY_CAST("+c.ident()+" AS TIMESTAMP)), count("+c.ident()+") FROM "+d.view)
		if err != nil {
			return c, err
		}
		if len(res) == 1 && len(res[0]) == 2 {
			if parsed, total := toInt(res[0][0]), toInt(res[0][1]); total > 0 && parsed*10 < total*9 {
				layouts, ok, err := d.textDates(ctx, c)
				if err != nil {
					return c, err
				}
				if !ok {
					return duckColumn{}, templateError(fmt.Sprintf("%s: %s reads as dates in %d of its %d values", duckUnreadDates, c.name, parsed, total))
				}
				c.layouts = layouts
			}
		}
		return c, nil
	}
	best, score := -1, -1
	for i, c := range d.cols {
		if !c.temporal() || c.nonNull == 0 {
			continue
		}
		s := 1
		if hinted(c.name, cellTimeHints) {
			s = 2
		}
		if s > score {
			best, score = i, s
		}
	}
	if best < 0 {
		return duckColumn{}, templateError("no date or time column found (no column parses as dates); name the time column explicitly (time=...). The columns are: " + strings.Join(d.names(60), ", "))
	}
	d.pick("time column: %s (detected: its values parse as dates)", d.cols[best].name)
	return d.cols[best], nil
}

// duckUnreadDates begins the error of a time column whose text DuckDB
// does not read as dates.
const duckUnreadDates = "the time column's values are not dates DuckDB reads"

// numericColumns is numeric_columns: numbers and text whose values read
// as numbers (at least 90% of them, as to_number reads them), without ids,
// true/false, dates and empty columns.
func (d *duckTable) numericColumns(shares map[string]float64) []duckColumn {
	var out []duckColumn
	for _, c := range d.cols {
		if c.typ == "BOOLEAN" || c.temporal() || c.nonNull == 0 || shares[c.name] < 0.9 {
			continue
		}
		if hinted(c.name, cellIDHints) && strings.ToLower(c.name) != "paid" && strings.ToLower(c.name) != "valid" {
			continue
		}
		out = append(out, c)
	}
	return out
}

// findMeasure is find_measure.
func (d *duckTable) findMeasure(ctx context.Context, p Params, required bool) (*duckColumn, error) {
	if p.Measure != "" {
		c, err := d.col(p.Measure, "measure")
		return &c, err
	}
	shares, err := d.numberShares(ctx)
	if err != nil {
		return nil, err
	}
	nums := d.numericColumns(shares)
	if len(nums) == 0 {
		if required {
			return nil, templateError("no numeric column found; name the measure column explicitly (measure=...)")
		}
		return nil, nil
	}
	c := nums[0]
	for _, n := range nums {
		if n.floatLike(d.rows) {
			c = n
			break
		}
	}
	d.pick("measure: %s (the first numeric column)", c.name)
	return &c, nil
}

// findCategory is find_category: the named column, else the text column
// with the fewest distinct values (at least two, not nearly one per row).
func (d *duckTable) findCategory(name, key string, exclude ...string) (duckColumn, error) {
	if name != "" {
		return d.col(name, "category column")
	}
	best := -1
	for i, c := range d.cols {
		if c.numeric() || c.temporal() || c.unique < 0 || containsString(exclude, c.name) {
			continue
		}
		if c.unique < 2 || (d.rows > 20 && float64(c.unique) > 0.9*float64(d.rows)) {
			continue
		}
		if best < 0 || c.unique < d.cols[best].unique {
			best = i
		}
	}
	if best < 0 {
		return duckColumn{}, templateError(fmt.Sprintf("no text column to group by; name the category column explicitly (%s=...)", key))
	}
	d.pick("category: %s (a text column with few distinct values)", d.cols[best].name)
	return d.cols[best], nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// number is to_number in SQL: numbers, or text such as "1,234", "12.5%"
// and amounts with currency signs.
func number(c duckColumn) string {
	if c.numeric() {
		return "CAST(" + c.ident() + " AS DOUBLE)"
	}
	if c.typ == "BOOLEAN" { // typed, or its text (outliers' rows)
		return "CAST(CAST(CAST(" + c.ident() + " AS BOOLEAN) AS INTEGER) AS DOUBLE)"
	}
	return "TRY_CAST(replace(regexp_replace(trim(CAST(" + c.ident() + " AS VARCHAR)), '[,\\s¥$€£￥]', '', 'g'), '%', '') AS DOUBLE)"
}

// timestamp is to_dates in SQL.
func timestamp(c duckColumn) string {
	if c.temporal() {
		return "CAST(" + c.ident() + " AS TIMESTAMP)"
	}
	if len(c.layouts) > 0 {
		return "COALESCE(TRY_CAST(" + c.ident() + " AS TIMESTAMP), " + textDateValue(c.ident(), c.layouts) + ")"
	}
	return "TRY_CAST(" + c.ident() + " AS TIMESTAMP)"
}

// category is a category column as text, "(missing)" for missing values.
func category(c duckColumn) string {
	return "coalesce(CAST(" + c.ident() + " AS VARCHAR), '(missing)')"
}

// aggregation is common.py's aggregation(): the aggregation asked for, or
// the default, checked against the measure.
func aggregation(p Params, measure *duckColumn) (string, error) {
	agg := p.Aggregation
	if agg == "" {
		agg = "count"
		if measure != nil {
			agg = "sum"
		}
	}
	if measure == nil && agg != "count" {
		return "", templateError(fmt.Sprintf("aggregation %s needs a measure column; name it (measure=...)", pyQuote(agg)))
	}
	return agg, nil
}

// aggSQL is the SQL of aggregate(): rows counted without a measure, a sum
// of nothing is 0 as in pandas. Sums and means add exactly (exactSum), so
// that they are the same in every run, as pandas' are.
func aggSQL(agg string, measure *duckColumn) string {
	if measure == nil {
		return "CAST(count(*) AS DOUBLE)"
	}
	v := number(*measure)
	sum := exactSum
	if measure.wholeNumbers() {
		sum = wholeSum
	}
	switch agg {
	case "sum":
		return "coalesce(" + sum(v) + ", 0)"
	case "mean":
		return "(" + sum(v) + " / count(" + v + "))"
	case "count":
		return "CAST(count(" + v + ") AS DOUBLE)"
	case "median":
		return "quantile_cont(" + v + ", 0.5)"
	case "nunique":
		return "CAST(count(DISTINCT " + v + ") AS DOUBLE)"
	}
	return "CAST(" + agg + "(" + v + ") AS DOUBLE)"
}
