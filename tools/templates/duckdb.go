package templates

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
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
	// know, as the cell's pick() and note() would say them.
	picked, notes []string
	// temp are files the engine wrote for the cell, removed once it ran.
	temp []string
}

// removeTemp removes the files the engine wrote for the cell.
func (d *duckTable) removeTemp() {
	for _, f := range d.temp {
		os.Remove(f)
	}
	d.temp = nil
}

// runDuckDB computes template t's aggregates for the input at rel with
// DuckDB and returns them for the cell, with the parameters it settled.
func runDuckDB(ctx context.Context, root, rel string, t Template, p Params) (*duckTable, Params, error) {
	fail := func(msg string) error { return &CellError{Template: t.Name, Cell: duckCell, Message: msg} }
	fo, err := sqldb.FilesOptionsFromEnv(os.Getenv)
	if err != nil {
		return nil, p, fail(err.Error())
	}
	// Outliers numbers rows in the file's order; the other templates only
	// aggregate, in any order, which saves memory.
	fo.StatementTimeout, fo.AnyOrder = duckStatementTimeout, t.Name != Outliers
	src, err := sqldb.OpenFiles(ctx, root, []string{rel}, fo)
	if err != nil {
		return nil, p, fail(err.Error())
	}
	defer src.Close()
	views, err := src.Rows(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")
	if err != nil || len(views) != 1 {
		return nil, p, fail(fmt.Sprintf("read %s: %v", rel, err))
	}
	d := &duckTable{src: src, view: sqldb.QuoteIdent(fmt.Sprint(views[0][0])), pre: map[string]any{}}
	if err := d.describe(ctx, t.Name == Profile); err != nil {
		return nil, p, fail(err.Error())
	}
	if d.rows == 0 {
		return nil, p, fail("the table has no data rows")
	}
	switch t.Name {
	case Profile:
		err = d.profile(ctx)
	case Trend, ComparePeriods:
		err = d.periodSeries(ctx, t.Name, &p)
	case TopN:
		err = d.topN(ctx, &p)
	case Pivot:
		err = d.pivot(ctx, &p)
	case Distribution:
		err = d.distribution(ctx, p)
	case Outliers:
		err = d.outliers(ctx, root, rel, p)
	default:
		err = fmt.Errorf("template %s has no DuckDB engine", t.Name)
	}
	if err != nil {
		d.removeTemp()
		var te templateError
		if errors.As(err, &te) {
			return nil, p, fail(string(te))
		}
		return nil, p, fail(err.Error())
	}
	return d, p, nil
}

// templateError is a problem the person can fix, worded as the cell's
// TemplateError would be.
type templateError string

func (e templateError) Error() string { return string(e) }

// query runs q and returns its rows.
func (d *duckTable) query(ctx context.Context, q string) ([][]any, error) {
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
		if uniques || c.typ == "VARCHAR" || c.typ == "BOOLEAN" {
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
		res, err := d.query(ctx, fmt.Sprintf("SELECT %s AS v, count(*) AS n FROM %s%s GROUP BY v ORDER BY n DESC, v LIMIT %d", v, d.view, notNull, n))
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
		above, err := d.query(ctx, fmt.Sprintf("SELECT %[1]s AS v, count(*) AS n FROM %[2]s%[3]s AND %[4]s IN (SELECT %[4]s FROM %[2]s%[3]s GROUP BY %[4]s HAVING count(*) > %[5]d) GROUP BY v ORDER BY n DESC, v",
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
			return nil, templateError(fmt.Sprintf("column %q has too many values tied at %d rows each to pick its top %d", c.name, cut, n))
		}
		res, err := d.query(ctx, fmt.Sprintf("SELECT %[1]s AS v, count(*) AS n FROM %[2]s%[3]s AND %[1]s IN (SELECT %[1]s FROM %[2]s%[3]s ORDER BY 1 LIMIT %[4]d) GROUP BY v ORDER BY v", v, d.view, notNull, rows))
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
	d.picked = append(d.picked, fmt.Sprintf(format, args...))
}

func (d *duckTable) note(format string, args ...any) {
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
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
	return duckColumn{}, templateError(fmt.Sprintf("no column %q for the %s; the columns are: %s", name, role, strings.Join(d.names(60), ", ")))
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
func (d *duckTable) findTime(p Params) (duckColumn, error) {
	if p.Time != "" {
		return d.col(p.Time, "time column")
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
		return "", templateError(fmt.Sprintf("aggregation %q needs a measure column; name it (measure=...)", agg))
	}
	return agg, nil
}

// aggSQL is the SQL of aggregate(): rows counted without a measure, a sum
// of nothing is 0 as in pandas.
func aggSQL(agg string, measure *duckColumn) string {
	if measure == nil {
		return "CAST(count(*) AS DOUBLE)"
	}
	v := number(*measure)
	switch agg {
	case "sum":
		return "coalesce(sum(" + v + "), 0)"
	case "mean":
		return "avg(" + v + ")"
	case "count":
		return "CAST(count(" + v + ") AS DOUBLE)"
	case "median":
		return "quantile_cont(" + v + ", 0.5)"
	case "nunique":
		return "CAST(count(DISTINCT " + v + ") AS DOUBLE)"
	}
	return "CAST(" + agg + "(" + v + ") AS DOUBLE)"
}

// periodUnits are DuckDB's date_trunc units for the cell's period codes;
// a week starts on Monday in both (pandas' W-SUN weeks end on Sunday).
var periodUnits = map[string]string{"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}

// periodCodes are common.py's PERIODS.
var periodCodes = map[string]string{"day": "D", "week": "W", "month": "M", "quarter": "Q", "year": "Y"}

// periodCode is common.py's period_code: the period asked for, else one
// that suits the data's span.
func (d *duckTable) periodCode(ctx context.Context, t string, period string) (string, error) {
	if period != "" {
		code, ok := periodCodes[period]
		if !ok {
			return "", templateError(fmt.Sprintf("unknown period %q; use one of day, week, month, quarter, year", period))
		}
		return code, nil
	}
	res, err := d.query(ctx, "SELECT epoch(max("+t+")) - epoch(min("+t+")) FROM "+d.view+" WHERE "+t+" IS NOT NULL")
	if err != nil {
		return "", err
	}
	days := int64(math.Floor(toFloat(res[0][0]) / 86400))
	code := "Y"
	switch {
	case days <= 45:
		code = "D"
	case days <= 200:
		code = "W"
	case days <= 4*366:
		code = "M"
	case days <= 10*366:
		code = "Q"
	}
	nouns := map[string]string{"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}
	d.pick("period: %s (the data spans %d days)", nouns[code], days)
	return code, nil
}

// periodStart is the SQL of a row's period, as the start date of it.
func periodStart(t, code string) string {
	return "strftime(date_trunc('" + periodUnits[code] + "', " + t + "), '%Y-%m-%d')"
}

// periodSeries computes trend's and compare_periods' aggregates: the
// measure per period, and for trend with a category, per category.
func (d *duckTable) periodSeries(ctx context.Context, template string, p *Params) error {
	tc, err := d.findTime(*p)
	if err != nil {
		return err
	}
	t := timestamp(tc)
	res, err := d.query(ctx, fmt.Sprintf("SELECT count(%s), count(%s), CAST(max(%s) AS VARCHAR) FROM %s", tc.ident(), t, t, d.view))
	if err != nil {
		return err
	}
	parsed := toInt(res[0][1])
	if parsed == 0 {
		return templateError(fmt.Sprintf("column %q holds no dates; name the time column explicitly (time=...)", tc.name))
	}
	measure, err := d.findMeasure(ctx, *p, false)
	if err != nil {
		return err
	}
	agg, err := aggregation(*p, measure)
	if err != nil {
		return err
	}
	period := p.Period
	if template == ComparePeriods {
		period = map[string]string{"mom": "month", "qoq": "quarter", "wow": "week", "dod": "day", "": "month"}[p.Compare]
		if p.Compare == "yoy" {
			period = p.Period
			if period == "" {
				period = "month"
			}
		}
	}
	code, err := d.periodCode(ctx, t, period)
	if err != nil {
		return err
	}
	p.Time = tc.name
	if measure != nil {
		p.Measure = measure.name
	}
	p.Aggregation = agg
	d.pre["bad"] = toInt(res[0][0]) - parsed
	d.pre["last_t"] = fmt.Sprint(res[0][2])
	d.pre["code"] = code
	ps := periodStart(t, code)
	where := " WHERE " + t + " IS NOT NULL"
	series, err := d.query(ctx, "SELECT "+ps+" AS p, "+aggSQL(agg, measure)+" FROM "+d.view+where+" GROUP BY p ORDER BY p")
	if err != nil {
		return err
	}
	d.pre["series"] = jsonRows(series)
	// The days with data, so the cell finds partial first and last periods
	// as it does from the whole column.
	days, err := d.query(ctx, "SELECT DISTINCT strftime(CAST("+t+" AS DATE), '%Y-%m-%d') AS d FROM "+d.view+where+" ORDER BY d")
	if err != nil {
		return err
	}
	d.pre["days"] = jsonRows(days)
	if template != Trend || p.Category == "" {
		return nil
	}
	cc, err := d.col(p.Category, "category column")
	if err != nil {
		return err
	}
	p.Category = cc.name
	total := "CAST(count(*) AS DOUBLE)"
	if measure != nil {
		total = "coalesce(sum(" + number(*measure) + "), 0)"
	}
	totals, err := d.query(ctx, "SELECT "+category(cc)+" AS c, "+total+" AS v FROM "+d.view+where+" GROUP BY c ORDER BY v DESC, c")
	if err != nil {
		return err
	}
	d.pre["totals"] = jsonRows(totals)
	var top []string
	for i, r := range totals {
		if i == 6 { // trend.py's MAX_LINES
			break
		}
		top = append(top, sqldb.SQLString(fmt.Sprint(r[0])))
	}
	byCat, err := d.query(ctx, "SELECT "+ps+" AS p, "+category(cc)+" AS c, "+aggSQL(agg, measure)+" FROM "+d.view+where+
		" AND "+category(cc)+" IN ("+strings.Join(top, ", ")+") GROUP BY p, c ORDER BY p, c")
	if err != nil {
		return err
	}
	d.pre["by_cat"] = jsonRows(byCat)
	return nil
}

// topN computes topn's aggregate per group.
func (d *duckTable) topN(ctx context.Context, p *Params) error {
	var measure *duckColumn
	var err error
	if p.Measure != "" || (p.Aggregation != "" && p.Aggregation != "count") {
		if measure, err = d.findMeasure(ctx, *p, true); err != nil {
			return err
		}
	}
	exclude := ""
	if measure != nil {
		exclude = measure.name
	}
	cc, err := d.findCategory(p.Category, "category", exclude)
	if err != nil {
		return err
	}
	agg, err := aggregation(*p, measure)
	if err != nil {
		return err
	}
	p.Category, p.Aggregation = cc.name, agg
	if measure != nil {
		p.Measure = measure.name
	}
	groups, err := d.query(ctx, "SELECT "+category(cc)+" AS c, "+aggSQL(agg, measure)+" FROM "+d.view+" GROUP BY c ORDER BY c")
	if err != nil {
		return err
	}
	d.pre["groups"] = jsonRows(groups)
	return nil
}

// pivot computes pivot's cells and, for aggregations that do not add up,
// its row, column and grand totals.
func (d *duckTable) pivot(ctx context.Context, p *Params) error {
	var measure *duckColumn
	var err error
	if p.Measure != "" {
		if measure, err = d.findMeasure(ctx, *p, false); err != nil {
			return err
		}
	}
	agg, err := aggregation(*p, measure)
	if err != nil {
		return err
	}
	exclude := []string{""}
	if measure != nil {
		exclude[0] = measure.name
	}
	rc, err := d.findCategory(p.Category, "category", exclude...)
	if err != nil {
		return err
	}
	rows := category(rc)
	var cols, where string
	switch {
	case p.Category2 != "":
		c2, err := d.col(p.Category2, "column category")
		if err != nil {
			return err
		}
		cols, p.Category2 = category(c2), c2.name
	case p.Time != "" || p.Period != "":
		tc, err := d.findTime(*p)
		if err != nil {
			return err
		}
		t := timestamp(tc)
		code, err := d.periodCode(ctx, t, p.Period)
		if err != nil {
			return err
		}
		cols, where, p.Time = periodStart(t, code), " WHERE "+t+" IS NOT NULL", tc.name
		d.pre["code"] = code
	default:
		c2, err := d.findCategory("", "category2", append(exclude, rc.name)...)
		if err != nil {
			return err
		}
		cols, p.Category2 = category(c2), c2.name
	}
	p.Category, p.Aggregation = rc.name, agg
	if measure != nil {
		p.Measure = measure.name
	}
	a := aggSQL(agg, measure)
	from := " FROM " + d.view + where
	cells, err := d.query(ctx, "SELECT "+rows+" AS r, "+cols+" AS c, "+a+from+" GROUP BY r, c ORDER BY r, c")
	if err != nil {
		return err
	}
	d.pre["cells"] = jsonRows(cells)
	if agg == "sum" || agg == "count" {
		return nil
	}
	for key, q := range map[string]string{
		"row_totals":    "SELECT " + rows + " AS r, " + a + from + " GROUP BY r ORDER BY r",
		"column_totals": "SELECT " + cols + " AS c, " + a + from + " GROUP BY c ORDER BY c",
		"grand":         "SELECT 'all', " + a + from,
	} {
		res, err := d.query(ctx, q)
		if err != nil {
			return err
		}
		d.pre[key] = jsonRows(res)
	}
	return nil
}

// profile computes the profile's counts, statistics, top values and
// histograms.
func (d *duckTable) profile(ctx context.Context) error {
	const maxStats, maxCats, maxHist, topValues = 50, 8, 12, 5 // profile.py's bounds
	var names, kinds []string
	missing, uniques := map[string]int64{}, map[string]int64{}
	// Text columns: how many values read as numbers, and as dates.
	var shares []string
	for _, c := range d.cols {
		if c.typ == "VARCHAR" {
			shares = append(shares, "count("+number(c)+")", "count(TRY_CAST("+c.ident()+" AS TIMESTAMP))")
		}
	}
	var shareRow []any
	if len(shares) > 0 {
		res, err := d.query(ctx, "SELECT "+strings.Join(shares, ", ")+" FROM "+d.view)
		if err != nil {
			return err
		}
		shareRow = res[0]
	}
	// Whole-number floats count as ints, as in profile.py.
	var fracs []string
	for _, c := range d.cols {
		if c.numeric() && !strings.Contains(c.typ, "INT") {
			fracs = append(fracs, "count(*) FILTER (WHERE "+c.ident()+" <> floor("+c.ident()+"))")
		}
	}
	var fracRow []any
	if len(fracs) > 0 {
		res, err := d.query(ctx, "SELECT "+strings.Join(fracs, ", ")+" FROM "+d.view)
		if err != nil {
			return err
		}
		fracRow = res[0]
	}
	var nums, cats []duckColumn
	si, fi := 0, 0
	for _, c := range d.cols {
		kind := "text"
		switch {
		case c.typ == "VARCHAR":
			numShare := float64(toInt(shareRow[si])) / math.Max(1, float64(c.nonNull))
			dateShare := float64(toInt(shareRow[si+1])) / math.Max(1, float64(c.nonNull))
			si += 2
			switch {
			case c.nonNull == 0:
				kind = "empty"
			case numShare >= 0.9:
				kind = "number as text"
			case dateShare >= 0.8:
				kind = "date"
			}
		case c.nonNull == 0:
			kind = "empty"
			if c.numeric() && !strings.Contains(c.typ, "INT") {
				fi++
			}
		case c.typ == "BOOLEAN":
			kind = "bool"
		case c.temporal():
			kind = "date"
		case strings.Contains(c.typ, "INT"):
			kind = "int"
		case c.numeric():
			kind = "int"
			if toInt(fracRow[fi]) > 0 {
				kind = "float"
			}
			fi++
		}
		names = append(names, c.name)
		kinds = append(kinds, kind)
		missing[c.name] = d.rows - c.nonNull
		uniques[c.name] = c.unique
		switch kind {
		case "int", "float", "number as text":
			nums = append(nums, c)
		case "text", "bool":
			if c.unique >= 1 {
				cats = append(cats, c)
			}
		}
	}
	// Duplicate rows: distinct digests of whole rows, fixed-size keys
	// that spill, where DISTINCT * would group on the text itself.
	var all []string
	for _, c := range d.cols {
		all = append(all, c.ident())
	}
	res, err := d.query(ctx, "SELECT count(*) FROM (SELECT DISTINCT md5_number(CAST(row("+strings.Join(all, ", ")+") AS VARCHAR)) FROM "+d.view+")")
	if err != nil {
		return err
	}
	d.pre["rows"], d.pre["columns"], d.pre["kinds"] = d.rows, names, kinds
	d.pre["missing"], d.pre["uniques"], d.pre["duplicates"] = missing, uniques, d.rows-toInt(res[0][0])
	stats := map[string]map[string]any{}
	var statOrder []string
	for i, c := range nums {
		if i == maxStats {
			break
		}
		v := number(c)
		res, err := d.query(ctx, fmt.Sprintf("SELECT count(%[1]s), avg(%[1]s), stddev_samp(%[1]s), min(%[1]s), max(%[1]s) FROM %[2]s", v, d.view))
		if err != nil {
			return err
		}
		r := res[0]
		q, err := d.quantiles(ctx, v, toInt(r[0]), toFloat(r[3]), toFloat(r[4]), []float64{0.25, 0.5, 0.75})
		if err != nil {
			return err
		}
		unique, err := d.distinctUpTo(ctx, v, 30)
		if err != nil {
			return err
		}
		stats[c.name] = map[string]any{"count": toFloat(r[0]), "mean": jsonFloat(r[1]), "std": jsonFloat(r[2]), "min": jsonFloat(r[3]),
			"25%": jsonFloat(q[0]), "50%": jsonFloat(q[1]), "75%": jsonFloat(q[2]), "max": jsonFloat(r[4])}
		statOrder = append(statOrder, c.name)
		if i < maxHist {
			h, err := d.histogram(ctx, v, toFloat(r[3]), toFloat(r[4]), min(30, max(1, unique)))
			if err != nil {
				return err
			}
			stats[c.name]["hist"] = h
		}
	}
	d.pre["numeric"], d.pre["numeric_order"], d.pre["numeric_count"] = stats, statOrder, len(nums)
	top := map[string]any{}
	var catOrder []string
	for i, c := range cats {
		if i == maxCats {
			break
		}
		res, err := d.topValues(ctx, c, topValues, false)
		if err != nil {
			return err
		}
		top[c.name] = res
		catOrder = append(catOrder, c.name)
	}
	d.pre["top_values"], d.pre["top_order"] = top, catOrder
	return nil
}

// lerp is numpy's linear interpolation from a to b at t, which pandas'
// quantile uses.
func lerp(a, b, t float64) float64 {
	if a == b {
		return a
	}
	diff := b - a
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}

// numberShares is, per column, the share of its values that read as
// numbers (to_number), as numeric_share computes it.
func (d *duckTable) numberShares(ctx context.Context) (map[string]float64, error) {
	shares := map[string]float64{}
	var exprs []string
	var named []duckColumn
	for _, c := range d.cols {
		switch {
		case c.nonNull == 0:
			shares[c.name] = 0
		case c.numeric():
			shares[c.name] = 1
		default:
			exprs, named = append(exprs, "count("+number(c)+")"), append(named, c)
		}
	}
	if len(exprs) == 0 {
		return shares, nil
	}
	res, err := d.query(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+d.view)
	if err != nil {
		return nil, err
	}
	for i, c := range named {
		shares[c.name] = float64(toInt(res[0][i])) / float64(c.nonNull)
	}
	return shares, nil
}

// chosenColumns is the distribution's and the outliers' choice of
// columns: those named, the measure, else numeric_columns (numbers and
// text that reads as numbers, without ids and empty ones), at most limit.
func (d *duckTable) chosenColumns(p Params, shares map[string]float64, role string, limit int, what string) ([]duckColumn, error) {
	var out []duckColumn
	switch {
	case len(p.Columns) > 0:
		for _, name := range p.Columns {
			c, err := d.col(name, role)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	case p.Measure != "":
		c, err := d.col(p.Measure, "measure")
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	default:
		out = d.numericColumns(shares)
		d.pick("columns: the numeric columns")
	}
	if len(out) > limit {
		d.note("the first %d of %d %s", limit, len(out), what)
		out = out[:limit]
	}
	return out, nil
}

// numberStats are a numeric column's statistics as pandas gives them:
// count, mean, sample std, min, quartiles, max and sample skewness.
func (d *duckTable) numberStats(ctx context.Context, c duckColumn) (map[string]any, error) {
	v := number(c)
	res, err := d.query(ctx, fmt.Sprintf("SELECT count(%[1]s), avg(%[1]s), stddev_samp(%[1]s), min(%[1]s), max(%[1]s), skewness(%[1]s) FROM %[2]s", v, d.view))
	if err != nil {
		return nil, err
	}
	r := res[0]
	n := toInt(r[0])
	q, err := d.quantiles(ctx, v, n, toFloat(r[3]), toFloat(r[4]), []float64{0.25, 0.5, 0.75})
	if err != nil {
		return nil, err
	}
	s := map[string]any{"count": n, "mean": jsonFloat(r[1]), "std": jsonFloat(r[2]), "min": jsonFloat(r[3]),
		"q1": jsonFloat(q[0]), "median": jsonFloat(q[1]), "q3": jsonFloat(q[2]), "max": jsonFloat(r[4]), "skew": nil}
	if n > 2 {
		s["skew"] = jsonFloat(r[5])
		if toFloat(r[2]) == 0 { // pandas' skew of constant values
			s["skew"] = 0.0
		}
	}
	return s, nil
}

// distribution computes the distribution's statistics, histograms, box
// plots' whiskers and extreme values, and text columns' value counts.
func (d *duckTable) distribution(ctx context.Context, p Params) error {
	const maxColumns, maxFliers, topCounts = 12, 200, 20 // distribution.py's bounds
	shares, err := d.numberShares(ctx)
	if err != nil {
		return err
	}
	cols, err := d.chosenColumns(p, shares, "column", maxColumns, "columns were drawn")
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		return templateError("no numeric column found; name the columns explicitly (columns=[...])")
	}
	var nums, texts []string
	stats, hists, boxes, counts := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	for _, c := range cols {
		if shares[c.name] < 0.9 || c.nonNull == 0 {
			texts = append(texts, c.name)
			if c.unique < 0 {
				if c.unique, err = d.distinct(ctx, c); err != nil {
					return err
				}
			}
			top, err := d.topValues(ctx, c, topCounts, true)
			if err != nil {
				return err
			}
			counts[c.name] = top
			continue
		}
		nums = append(nums, c.name)
		s, err := d.numberStats(ctx, c)
		if err != nil {
			return err
		}
		stats[c.name] = s
		n := s["count"].(int64)
		if n == 0 {
			continue
		}
		v := number(c)
		lo, hi := toFloat(s["min"]), toFloat(s["max"])
		h, err := d.histogram(ctx, v, lo, hi, min(50, max(1, int64(math.Ceil(math.Sqrt(float64(n)))))))
		if err != nil {
			return err
		}
		hists[c.name] = h
		box, err := d.box(ctx, v, toFloat(s["q1"]), toFloat(s["q3"]), 1.5, maxFliers)
		if err != nil {
			return err
		}
		boxes[c.name] = box
	}
	d.pre["nums"], d.pre["texts"], d.pre["stats"], d.pre["hist"], d.pre["box"], d.pre["counts"] = nums, texts, stats, hists, boxes, counts
	return nil
}

// box is a box plot's whiskers (the furthest values within whis×IQR of
// the quartiles, as matplotlib draws them) and at most limit values past
// each whisker.
func (d *duckTable) box(ctx context.Context, v string, q1, q3, whis float64, limit int) (map[string]any, error) {
	lo, hi := strconv.FormatFloat(q1-whis*(q3-q1), 'g', -1, 64), strconv.FormatFloat(q3+whis*(q3-q1), 'g', -1, 64)
	res, err := d.query(ctx, fmt.Sprintf("SELECT min(%[1]s) FILTER (WHERE %[1]s >= %[2]s), max(%[1]s) FILTER (WHERE %[1]s <= %[3]s) FROM %[4]s", v, lo, hi, d.view))
	if err != nil {
		return nil, err
	}
	fliers := []any{}
	for _, q := range []string{
		fmt.Sprintf("SELECT %[1]s AS v FROM %[2]s WHERE %[1]s < %[3]s ORDER BY v LIMIT %[4]d", v, d.view, lo, limit),
		fmt.Sprintf("SELECT %[1]s AS v FROM %[2]s WHERE %[1]s > %[3]s ORDER BY v DESC LIMIT %[4]d", v, d.view, hi, limit),
	} {
		rows, err := d.query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			fliers = append(fliers, jsonFloat(r[0]))
		}
	}
	return map[string]any{"whislo": jsonFloat(res[0][0]), "whishi": jsonFloat(res[0][1]), "fliers": fliers}, nil
}

// histogram counts v's values in bins equal-width bins from lo to hi, as
// numpy.histogram does, and returns the edges and the counts.
func (d *duckTable) histogram(ctx context.Context, v string, lo, hi float64, bins int64) (map[string]any, error) {
	if hi == lo { // numpy widens an empty range by a half on each side
		lo, hi = lo-0.5, hi+0.5
	}
	width := (hi - lo) / float64(bins)
	res, err := d.query(ctx, fmt.Sprintf("SELECT least(CAST(floor((%[1]s - %[2]v) / %[3]v) AS BIGINT), %[4]d) AS b, count(*) FROM %[5]s WHERE %[1]s IS NOT NULL GROUP BY b ORDER BY b",
		v, strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(width, 'g', -1, 64), bins-1, d.view))
	if err != nil {
		return nil, err
	}
	counts := make([]int64, bins)
	for _, r := range res {
		if b := toInt(r[0]); b >= 0 && b < bins {
			counts[b] += toInt(r[1])
		}
	}
	edges := make([]float64, bins+1)
	for i := range edges {
		edges[i] = lo + float64(i)*width
	}
	edges[bins] = hi
	return map[string]any{"edges": edges, "counts": counts}, nil
}

// jsonRows turns query rows into JSON-ready values: numbers stay numbers,
// times become text.
func jsonRows(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(r))
		for j, v := range r {
			switch x := v.(type) {
			case nil, string, bool, int64, int32, float64, float32:
				out[i][j] = x
			case time.Time:
				out[i][j] = x.Format("2006-01-02T15:04:05")
			default:
				if f, err := strconv.ParseFloat(fmt.Sprint(x), 64); err == nil {
					out[i][j] = f
				} else {
					out[i][j] = fmt.Sprint(x)
				}
			}
		}
	}
	return out
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case nil:
		return math.NaN()
	}
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func toInt(v any) int64 {
	f := toFloat(v)
	if math.IsNaN(f) {
		return 0
	}
	return int64(f)
}

// jsonFloat is v as a number, or nil when it is missing or not finite.
func jsonFloat(v any) any {
	f := toFloat(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}
