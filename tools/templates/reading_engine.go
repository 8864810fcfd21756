package templates

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/sqldb"
)

// The reading engine computes a Reading's main table with DuckDB, in
// Sift's process, from the reading's slots alone: what was asked, grouped
// and filtered as the reading says. It backs Result.Table on both engines,
// and answers on its own the readings the pandas cells cannot
// (Reading.duckOnly): filters, calendar parts, integer years as time,
// sheets stacked, named periods compared.

// readingSource opens the table a reading is about: the file, or for a
// workbook the sheet (or every same-schema sheet, stacked with a "sheet"
// column), or for a text file in another encoding its UTF-8 text, copied
// by prepareInput: through the confined opener, bounded, removed after.
func readingSource(ctx context.Context, root, rel string, r Reading) (*sqldb.Source, string, func(), error) {
	fo, err := sqldb.FilesOptionsFromEnv(os.Getenv)
	if err != nil {
		return nil, "", nil, err
	}
	fo.StatementTimeout = duckStatementTimeout
	p := Params{Sheet: r.Sheet}
	if !isWorkbook(rel) {
		if sqldb.FileReader(rel) == "" {
			return nil, "", nil, fmt.Errorf("the reading engine does not read %s: give a csv, tsv, json, parquet or xlsx file", rel)
		}
		if !strings.EqualFold(path.Ext(rel), ".parquet") {
			if p.Encoding, err = textEncoding(root, rel); err != nil {
				return nil, "", nil, err
			}
		}
	}
	in, err := prepareInput(ctx, root, rel, p, fo)
	if err != nil {
		return nil, "", nil, err
	}
	src, err := sqldb.OpenFiles(ctx, in.dir, []string{in.rel}, fo)
	if err != nil {
		in.cleanup()
		return nil, "", nil, err
	}
	views, err := src.Rows(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")
	if err != nil || len(views) != 1 {
		src.Close()
		in.cleanup()
		return nil, "", nil, fmt.Errorf("read %s: %v", rel, err)
	}
	return src, sqldb.QuoteIdent(fmt.Sprint(views[0][0])), func() { src.Close(); in.cleanup() }, nil
}

// textEncoding is the Python codec of the text file at rel, as the
// preview detects it from its leading bytes, read through the confined
// opener.
func textEncoding(root, rel string) (string, error) {
	cr, err := confined.OpenRoot(root)
	if err != nil {
		return "", err
	}
	defer cr.Close()
	f, err := cr.Open(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, preview.EncodingSampleSize)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", err
	}
	bom := bytes.HasPrefix(buf[:n], []byte{0xFF, 0xFE}) || bytes.HasPrefix(buf[:n], []byte{0xFE, 0xFF})
	return pythonCodec(preview.DetectEncoding(buf[:n]), bom), nil
}

// timeValue is the SQL of time column t's value as a timestamp: typed
// dates cast; dates written as text ("Jan 1 2000", "01/31/2015") are
// parsed by the common layouts.
func timeValue(t string) string {
	return "COALESCE(TRY_CAST(" + t + " AS TIMESTAMP), try_strptime(CAST(" + t + " AS VARCHAR), ['%b %d %Y', '%B %d %Y', '%m/%d/%Y', '%Y/%m/%d', '%d.%m.%Y', '%Y%m%d', '%Y-%m']))"
}

// grainKey is the SQL of a row's time key at grain g, and its column name.
func grainKey(t string, yearTime bool, g string) (string, string) {
	if yearTime {
		return "CAST(CAST(" + t + " AS BIGINT) AS VARCHAR)", "year"
	}
	ts := timeValue(t)
	switch g {
	case "year":
		return "strftime(" + ts + ", '%Y')", "year"
	case "quarter":
		return "strftime(" + ts + ", '%Y') || '-Q' || CAST(quarter(" + ts + ") AS VARCHAR)", "quarter"
	case "month":
		return "strftime(" + ts + ", '%Y-%m')", "month"
	case "week":
		return "strftime(date_trunc('week', " + ts + "), '%Y-%m-%d')", "week"
	case "month_of_year":
		return "CAST(month(" + ts + ") AS VARCHAR)", "month_of_year"
	case "weekday":
		return "dayname(" + ts + ")", "weekday"
	case "quarter_of_year":
		return "CAST(quarter(" + ts + ") AS VARCHAR)", "quarter_of_year"
	case "hour_of_day":
		return "CAST(hour(" + ts + ") AS VARCHAR)", "hour_of_day"
	}
	return "strftime(" + ts + ", '%Y-%m-%d')", "day"
}

// measureSQL is the SQL of measure m.
func measureSQL(m Measure) string {
	v := "TRY_CAST(" + sqldb.QuoteIdent(m.Column) + " AS DOUBLE)"
	switch m.Agg {
	case "mean":
		return "avg(" + v + ")"
	case "median":
		return "median(" + v + ")"
	case "min", "max", "sum":
		return m.Agg + "(" + v + ")"
	case "count":
		return "count(" + v + ")"
	case "count_distinct":
		return "count(DISTINCT " + sqldb.QuoteIdent(m.Column) + ")"
	}
	return "sum(" + v + ")"
}

// whereSQL is the reading's filters as a WHERE clause.
func whereSQL(r Reading) string {
	var conds []string
	for _, f := range r.Filters {
		var vals []string
		for _, v := range f.Values {
			vals = append(vals, sqldb.SQLString(v))
		}
		col := sqldb.QuoteIdent(f.Column)
		switch f.Op {
		case "year":
			if r.YearTime {
				conds = append(conds, "CAST(CAST("+col+" AS BIGINT) AS VARCHAR) IN ("+strings.Join(vals, ", ")+")")
			} else {
				key, _ := grainKey(col, false, "year")
				conds = append(conds, key+" IN ("+strings.Join(vals, ", ")+")")
			}
		case ">=", "<=":
			if f.Column == r.Time && !r.YearTime {
				// A bound on a date: the day's key compared as text
				// ("2005-01-01" <= day <= "2009-12-31").
				key, _ := grainKey(col, false, "day")
				conds = append(conds, key+" "+f.Op+" "+sqldb.SQLString(f.Values[0]))
				continue
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(f.Values[0]), 64)
			if err != nil {
				conds = append(conds, "FALSE")
				continue
			}
			conds = append(conds, "TRY_CAST("+col+" AS DOUBLE) "+f.Op+" "+strconv.FormatFloat(x, 'g', -1, 64))
		case "!=":
			// Excluded values: the rows with none of them, a row with no
			// value kept (pandas' !=).
			conds = append(conds, "("+col+" IS NULL OR CAST("+col+" AS VARCHAR) NOT IN ("+strings.Join(vals, ", ")+"))")
		default:
			conds = append(conds, "CAST("+col+" AS VARCHAR) IN ("+strings.Join(vals, ", ")+")")
		}
	}
	if len(r.Periods) > 0 && r.Time != "" {
		key, _ := grainKey(sqldb.QuoteIdent(r.Time), r.YearTime, "year")
		var vals []string
		for _, v := range r.Periods {
			vals = append(vals, sqldb.SQLString(v))
		}
		conds = append(conds, key+" IN ("+strings.Join(vals, ", ")+")")
	}
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// readingTable is how the main table of a built-in's reading is
// computed with DuckDB (ReadingTable): by the built-in itself (compute),
// or as one grouped query of the measures over its keys (readingQuery).
type readingTable struct {
	// compute computes the table; nil when it is the grouped query.
	compute func(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error)
	// keys are the grouped query's keys; none when the reading has no
	// table of this shape.
	keys func(r Reading) []tableKey
	// order is the grouped query's ORDER BY, over the keys' aliases
	// (group: k0, k1, …) and the first value's (v0); nil orders by the
	// keys.
	order func(r Reading, group []string) []string
	// limit is how many rows the grouped query keeps (0: all); nil keeps
	// all.
	limit func(r Reading) int
	// finish completes the grouped query's table (compare_periods adds
	// each period's change); nil when it is complete.
	finish func(t *Table, r Reading)
	// answer is the table's headline; nil for its highest and lowest rows
	// by its last column (highLowAnswer).
	answer func(lang string, r Reading, t *Table) string
}

// tableOf is how the reading's table is computed, or nil when its
// analysis has none (cohort, funnel).
func tableOf(r Reading) *readingTable {
	if b := builtinNamed(r.Analysis); b != nil {
		return b.table
	}
	return nil
}

// groupedTable reports whether the reading's table is a grouped query
// (readingQuery).
func groupedTable(r Reading) bool {
	rt := tableOf(r)
	return rt != nil && rt.keys != nil
}

// tableKey is one key of a grouped query (readingQuery).
type tableKey struct {
	// row is the key's SQL for one row, name its column's name.
	row, name string
	// group is what rows are grouped by, and text how a group's value is
	// written ("$g" stands for it), when split: a time key grouped by its
	// period and written once per group (grainGroup).
	group, text string
	split       bool
}

// textKey is the category column col, as text, as a key.
func textKey(col string) tableKey {
	k := "CAST(" + sqldb.QuoteIdent(col) + " AS VARCHAR)"
	return tableKey{row: k, name: col, group: k, text: "$g"}
}

// timeKey is the reading's time column at grain g, as a key.
func timeKey(r Reading, g string) tableKey {
	k, n := grainKey(sqldb.QuoteIdent(r.Time), r.YearTime, g)
	grp, text, ok := grainGroup(sqldb.QuoteIdent(r.Time), r.YearTime, g)
	return tableKey{row: k, name: n, group: grp, text: text, split: ok}
}

// groupKeys are the reading's categories, as text, as keys of its
// grouped query.
func groupKeys(r Reading) []tableKey {
	var keys []tableKey
	for _, gcol := range r.GroupBy {
		keys = append(keys, textKey(gcol))
	}
	return keys
}

// seriesKeys are the keys of a series over time: the period at grain
// (a month when none), then the categories; none without a time column.
func seriesKeys(r Reading, grain string) []tableKey {
	if r.Time == "" {
		return nil
	}
	if grain == "" {
		grain = "month"
	}
	return append([]tableKey{timeKey(r, grain)}, groupKeys(r)...)
}

// seriesOrder orders a series over time: by its periods, a weekday or a
// calendar part by its number.
func seriesOrder(r Reading, group []string) []string {
	switch {
	case r.Grain == "weekday":
		k, _ := grainKey(sqldb.QuoteIdent(r.Time), false, "day")
		return append([]string{"min(isodow(CAST(" + k + " AS TIMESTAMP)))"}, group[1:]...)
	case slicesContains(calendarParts, r.Grain):
		return append([]string{"TRY_CAST(k0 AS INTEGER)"}, group[1:]...)
	}
	return group
}

// readingQuery is the SQL of a reading's main table over view, and its
// column names; "" when the analysis has no table of this shape.
//
// A time key is grouped by its period (grainGroup) and written as text
// once per group, not once per row: the per-row text was most of a
// trend's table on a large file. The groups and their texts are the
// per-row keys' (grainKey), one to one.
func readingQuery(r Reading, view string) (string, []string) {
	rt := tableOf(r)
	if rt == nil || rt.keys == nil {
		return "", nil
	}
	keys := rt.keys(r)
	if len(keys) == 0 {
		return "", nil
	}
	split := false // a time key grouped by its period
	for _, k := range keys {
		split = split || k.split
	}
	// Rows are grouped as g0, g1...; the outer query writes them as the
	// keys k0, k1... that the order below sorts by. Without a time key
	// grouped by its period, the keys are grouped as they are, in one
	// query.
	alias := "g"
	if !split {
		alias = "k"
	}
	var sel, outer, group, names, notNull []string
	for i, k := range keys {
		g := k.row
		if split {
			g = k.group
		}
		sel = append(sel, fmt.Sprintf("%s AS %s%d", g, alias, i))
		outer = append(outer, strings.ReplaceAll(k.text, "$g", fmt.Sprintf("g%d", i))+fmt.Sprintf(" AS k%d", i))
		group = append(group, fmt.Sprintf("%s%d", alias, i))
		names = append(names, k.name)
		notNull = append(notNull, g+" IS NOT NULL")
	}
	measures := r.Measures
	if len(measures) == 0 {
		sel = append(sel, "count(*) AS v0")
		outer = append(outer, "v0")
		names = append(names, "count")
	}
	for i, m := range measures {
		sel = append(sel, measureSQL(m)+fmt.Sprintf(" AS v%d", i))
		outer = append(outer, fmt.Sprintf("v%d", i))
		names = append(names, measureName(measures, m))
	}
	where := whereSQL(r)
	if where == "" {
		where = " WHERE " + strings.Join(notNull, " AND ")
	} else {
		where += " AND " + strings.Join(notNull, " AND ")
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + view + where + " GROUP BY " + strings.Join(group, ", ")
	if split {
		q = "SELECT " + strings.Join(outer, ", ") + " FROM (" + q + ")"
	}
	group = make([]string, len(keys))
	for i := range keys {
		group[i] = fmt.Sprintf("k%d", i)
	}
	order := group
	if rt.order != nil {
		order = rt.order(r, group)
	}
	q += " ORDER BY " + strings.Join(order, ", ")
	if rt.limit != nil {
		if n := rt.limit(r); n > 0 {
			q += fmt.Sprintf(" LIMIT %d", n)
		}
	}
	return q, names
}

// grainGroup is grainKey in two parts: what rows are grouped by (a
// period's first instant, a year's number, a calendar part's number) and
// the SQL that writes a group's value ("$g") as grainKey's text. The two
// are one to one, so the groups are grainKey's. ok is false for a grain
// whose order needs the rows (weekday): that key stays per row.
func grainGroup(t string, yearTime bool, g string) (group, text string, ok bool) {
	if yearTime {
		return "CAST(" + t + " AS BIGINT)", "CAST($g AS VARCHAR)", true
	}
	ts := timeValue(t)
	switch g {
	case "year":
		return "date_trunc('year', " + ts + ")", "strftime($g, '%Y')", true
	case "quarter":
		return "date_trunc('quarter', " + ts + ")", "strftime($g, '%Y') || '-Q' || CAST(quarter($g) AS VARCHAR)", true
	case "month":
		return "date_trunc('month', " + ts + ")", "strftime($g, '%Y-%m')", true
	case "week":
		return "date_trunc('week', " + ts + ")", "strftime($g, '%Y-%m-%d')", true
	case "month_of_year":
		return "month(" + ts + ")", "CAST($g AS VARCHAR)", true
	case "weekday":
		return "", "", false
	case "quarter_of_year":
		return "quarter(" + ts + ")", "CAST($g AS VARCHAR)", true
	case "hour_of_day":
		return "hour(" + ts + ")", "CAST($g AS VARCHAR)", true
	}
	return "date_trunc('day', " + ts + ")", "strftime($g, '%Y-%m-%d')", true
}

// ReadingTable computes the main table of reading r over the input at rel
// (workspace-relative, under root) with DuckDB; nil, nil when the
// analysis has no such table (cohort, funnel).
func ReadingTable(ctx context.Context, root, rel string, r Reading) (*Table, error) {
	if tableOf(r) == nil {
		return nil, nil
	}
	src, view, done, err := readingSource(ctx, root, rel, r)
	if err != nil {
		return nil, err
	}
	defer done()
	return readingTableOn(ctx, src, view, r)
}

// readingTableOn is ReadingTable over a table DuckDB has open.
func readingTableOn(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error) {
	rt := tableOf(r)
	if rt != nil && rt.compute != nil {
		return rt.compute(ctx, src, view, r)
	}
	q, names := readingQuery(r, view)
	if q == "" {
		return nil, nil
	}
	q = typedTime(ctx, src, view, r, q)
	rows, err := src.Rows(ctx, q)
	if err != nil {
		return nil, err
	}
	nk := len(names) - max(1, len(r.Measures))
	t := &Table{Columns: names}
	for _, row := range rows {
		out := make([]any, len(row))
		for i, v := range row {
			if i < nk {
				out[i] = fmt.Sprint(v)
			} else if v == nil {
				out[i] = nil
			} else {
				out[i] = toFloat(v)
			}
		}
		t.Rows = append(t.Rows, out)
	}
	if rt.finish != nil {
		rt.finish(t, r)
	}
	return t, nil
}

// typedTime is the reading's query q over view with its time column's
// value the cast alone when DuckDB typed that column as dates (DATE or
// TIMESTAMP): timeValue's TRY_CAST never fails on such a value, so its
// COALESCE is that cast, and the text layouts it would try next are
// never needed, only evaluated. On a large file the parse was half the
// query.
func typedTime(ctx context.Context, src *sqldb.Source, view string, r Reading, q string) string {
	if r.Time == "" || r.YearTime {
		return q
	}
	rows, err := src.Rows(ctx, "SELECT column_type FROM (DESCRIBE SELECT * FROM "+view+") WHERE column_name = "+sqldb.SQLString(r.Time))
	if err != nil || len(rows) != 1 {
		return q
	}
	if typ := fmt.Sprint(rows[0][0]); typ != "DATE" && typ != "TIMESTAMP" {
		return q
	}
	t := sqldb.QuoteIdent(r.Time)
	return strings.ReplaceAll(q, timeValue(t), "CAST("+t+" AS TIMESTAMP)")
}

// addChanges adds, to a per-period series, each period's previous value
// (the period before, or a year earlier for yoy) and the change.
func addChanges(t *Table, r Reading) {
	idx := map[string]int{}
	for i, row := range t.Rows {
		idx[row[0].(string)] = i
	}
	t.Columns = append(t.Columns, "previous", "change", "change_pct")
	for i, row := range t.Rows {
		prev := -1
		if r.Compare == "yoy" {
			k := row[0].(string)
			if len(k) >= 4 {
				var y int
				fmt.Sscanf(k[:4], "%d", &y)
				if j, ok := idx[fmt.Sprintf("%04d", y-1)+k[4:]]; ok {
					prev = j
				}
			}
		} else if i > 0 {
			prev = i - 1
		}
		if prev < 0 || row[len(row)-1] == nil || t.Rows[prev][len(row)-1] == nil {
			t.Rows[i] = append(row, nil, nil, nil)
			continue
		}
		cur, p := row[len(row)-1].(float64), t.Rows[prev][len(row)-1].(float64)
		var pct any
		if p != 0 {
			pct = (cur - p) / p * 100
		}
		t.Rows[i] = append(row, p, cur-p, pct)
	}
}

// correlationTable is every pair of the reading's numeric columns with
// their correlation (the reading's method, Pearson's by default),
// strongest first.
func correlationTable(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error) {
	cols := r.Columns
	if len(cols) < 2 {
		return nil, nil
	}
	t := &Table{Columns: []string{"column_a", "column_b", "r"}}
	for i := 0; i < len(cols); i++ {
		for j := i + 1; j < len(cols); j++ {
			v, err := pairCorrelation(ctx, src, view, r, cols[i], cols[j])
			if err != nil {
				return nil, err
			}
			t.Rows = append(t.Rows, []any{cols[i], cols[j], v})
		}
	}
	sort.SliceStable(t.Rows, func(a, b int) bool {
		x, _ := t.Rows[a][2].(float64)
		y, _ := t.Rows[b][2].(float64)
		return absf(x) > absf(y)
	})
	return t, nil
}

func absf(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// distributionTable is each named numeric column's count, mean, standard
// deviation, minimum, quartiles and maximum, as pandas' describe gives them.
func distributionTable(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error) {
	if len(r.Columns) == 0 {
		return nil, nil
	}
	t := &Table{Columns: []string{"column", "count", "mean", "std", "min", "25%", "50%", "75%", "max"}}
	for _, c := range r.Columns {
		v := "TRY_CAST(" + sqldb.QuoteIdent(c) + " AS DOUBLE)"
		q := fmt.Sprintf("SELECT count(%[1]s), avg(%[1]s), stddev_samp(%[1]s), min(%[1]s), quantile_cont(%[1]s, 0.25), quantile_cont(%[1]s, 0.5), quantile_cont(%[1]s, 0.75), max(%[1]s) FROM %[2]s%[3]s", v, view, whereSQL(r))
		rows, err := src.Rows(ctx, q)
		if err != nil {
			return nil, err
		}
		row := []any{c}
		for _, x := range rows[0] {
			if x == nil {
				row = append(row, nil)
			} else {
				row = append(row, toFloat(x))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// runReading answers a reading with the reading engine alone: its table,
// an answer from its first rows, and the table as a section and a CSV file.
func runReading(ctx context.Context, op operator.Operator, t Template, rel string, m Match, lang string) (*Result, error) {
	start := time.Now()
	r := m.Reading
	tab, err := ReadingTable(ctx, op.Root(), rel, r)
	if err != nil {
		return nil, &CellError{Template: t.Name, Cell: duckCell, Message: err.Error()}
	}
	if tab == nil {
		return nil, &CellError{Template: t.Name, Cell: duckCell, Message: "the reading engine has no table for " + t.Name}
	}
	if len(tab.Rows) == 0 {
		return nil, &CellError{Template: t.Name, Cell: duckCell, Message: textIn(lang, "no rows match the reading")}
	}
	stem, err := outputStem(ctx, op, t.Name)
	if err != nil {
		return nil, fmt.Errorf("run template %s: %w", t.Name, err)
	}
	csvPath := operator.OutDir + "/" + stem + "_table.csv"
	var b strings.Builder
	cw := csv.NewWriter(&b)
	_ = cw.Write(tab.Columns)
	for _, row := range tab.Rows {
		rec := make([]string, len(row))
		for i, v := range row {
			rec[i] = cellText(v)
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	if err := op.WriteFile(ctx, csvPath, []byte(b.String())); err != nil {
		return nil, fmt.Errorf("run template %s: write %s: %w", t.Name, csvPath, err)
	}
	res := &Result{Template: t.Name, File: rel, Params: m.Params, Lang: lang, Engine: EngineDuckDB, Table: tab,
		Answer: tableAnswer(lang, r, tab), Duration: time.Since(start), Files: []string{csvPath}}
	res.Sections = []Section{{Title: t.TitleIn(lang), Markdown: tableMarkdown(tab, 60), Files: []string{csvPath}}}
	return res, nil
}

func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return fmt.Sprintf("%.10g", x)
	}
	return fmt.Sprint(v)
}

// tableMarkdown renders at most limit rows of t.
func tableMarkdown(t *Table, limit int) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.Columns, " | ") + " |\n|")
	for range t.Columns {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	for i, row := range t.Rows {
		if i == limit {
			fmt.Fprintf(&b, "\n(%d more rows in the CSV file)\n", len(t.Rows)-limit)
			break
		}
		cells := make([]string, len(row))
		for k, v := range row {
			if f, ok := v.(float64); ok {
				cells[k] = fmt.Sprintf("%.4g", f)
				if absf(f) >= 1e4 {
					cells[k] = fmt.Sprintf("%.0f", f)
				}
			} else {
				cells[k] = cellText(v)
			}
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

// tableAnswer is the headline of a reading's table: the built-in's own
// (readingTable.answer), else its highest and lowest rows by the (first)
// measure.
func tableAnswer(lang string, r Reading, t *Table) string {
	if len(r.Measures) > 1 && groupedTable(r) && len(t.Columns) >= len(r.Measures) {
		return measuresAnswer(lang, r, t)
	}
	if rt := tableOf(r); rt != nil && rt.answer != nil {
		return rt.answer(lang, r, t)
	}
	return highLowAnswer(lang, t, len(t.Columns)-1)
}

// highLowAnswer names the table's highest and lowest rows by its column
// vi, each by the columns before it.
func highLowAnswer(lang string, t *Table, vi int) string {
	return highLowKeyed(lang, t, vi, vi)
}

// measureName is the column name of measure m of a reading's table: the
// column's own, or with its aggregation when the reading aggregates that
// column more than once ("price (min)", "price (max)").
func measureName(ms []Measure, m Measure) string {
	n := 0
	for _, o := range ms {
		if o.Column == m.Column {
			n++
		}
	}
	if n > 1 {
		return m.Column + " (" + m.Agg + ")"
	}
	return m.Column
}

// measuresAnswer is the headline of a table of several measures: each
// measure's highest and lowest rows, by the keys before the measures.
func measuresAnswer(lang string, r Reading, t *Table) string {
	nk := len(t.Columns) - len(r.Measures)
	key := func(row []any) string {
		var parts []string
		for _, v := range row[:nk] {
			parts = append(parts, cellText(v))
		}
		return strings.Join(parts, " / ")
	}
	var parts []string
	for i, m := range r.Measures {
		vi := nk + i
		hi, lo := -1, -1
		for k, row := range t.Rows {
			v, ok := row[vi].(float64)
			if !ok {
				continue
			}
			if hi < 0 || v > t.Rows[hi][vi].(float64) {
				hi = k
			}
			if lo < 0 || v < t.Rows[lo][vi].(float64) {
				lo = k
			}
		}
		if hi < 0 {
			continue
		}
		f := func(k int) string { return fmt.Sprintf("%.4g", t.Rows[k][vi].(float64)) }
		if lang == LangChinese {
			parts = append(parts, fmt.Sprintf("%s最高：%s（%s），最低：%s（%s）", aggText(lang, m.Agg, m.Column), key(t.Rows[hi]), f(hi), key(t.Rows[lo]), f(lo)))
		} else {
			parts = append(parts, fmt.Sprintf("%s: highest %s (%s), lowest %s (%s)", aggText(lang, m.Agg, m.Column), key(t.Rows[hi]), f(hi), key(t.Rows[lo]), f(lo)))
		}
	}
	if lang == LangChinese {
		return strings.Join(append(parts, fmt.Sprintf("共 %d 行", len(t.Rows))), "；") + "。"
	}
	return strings.Join(append(parts, fmt.Sprintf("%d rows", len(t.Rows))), "; ") + "."
}

// highLowKeyed is highLowAnswer with the table's first nk columns as
// the keys of a row.
func highLowKeyed(lang string, t *Table, nk, vi int) string {
	key := func(row []any) string {
		var parts []string
		for _, v := range row[:nk] {
			parts = append(parts, cellText(v))
		}
		return strings.Join(parts, " / ")
	}
	hi, lo := -1, -1
	for i, row := range t.Rows {
		v, ok := row[vi].(float64)
		if !ok {
			continue
		}
		if hi < 0 || v > t.Rows[hi][vi].(float64) {
			hi = i
		}
		if lo < 0 || v < t.Rows[lo][vi].(float64) {
			lo = i
		}
	}
	if hi < 0 {
		return textIn(lang, "%d rows", len(t.Rows))
	}
	f := func(v any) string { return fmt.Sprintf("%.4g", v.(float64)) }
	if lang == LangChinese {
		return fmt.Sprintf("最高：%s（%s）；最低：%s（%s）；共 %d 行。", key(t.Rows[hi]), f(t.Rows[hi][vi]), key(t.Rows[lo]), f(t.Rows[lo][vi]), len(t.Rows))
	}
	return fmt.Sprintf("Highest: %s (%s); lowest: %s (%s); %d rows.", key(t.Rows[hi]), f(t.Rows[hi][vi]), key(t.Rows[lo]), f(t.Rows[lo][vi]), len(t.Rows))
}

// outliersAnswer counts the values beyond the fences, and names the
// groups or columns that have the most.
func outliersAnswer(lang string, t *Table) string {
	nk := len(t.Columns) - 3
	total := 0.0
	var parts []string
	for _, row := range t.Rows {
		n, _ := row[len(row)-1].(float64)
		total += n
		if n > 0 && len(parts) < 5 {
			var key []string
			for _, v := range row[:nk] {
				key = append(key, cellText(v))
			}
			lo, hi := cellText(row[nk]), cellText(row[nk+1])
			if lang == LangChinese {
				parts = append(parts, fmt.Sprintf("%s：%g 个（界限 %s 至 %s）", strings.Join(key, " / "), n, lo, hi))
			} else {
				parts = append(parts, fmt.Sprintf("%s: %g (fences %s to %s)", strings.Join(key, " / "), n, lo, hi))
			}
		}
	}
	if lang == LangChinese {
		s := fmt.Sprintf("超出 1.5×IQR 界限的值共 %g 个", total)
		if len(parts) > 0 {
			s += "：" + strings.Join(parts, "；")
		}
		return s + "。"
	}
	s := fmt.Sprintf("%g values lie beyond the 1.5×IQR fences", total)
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, "; ")
	}
	return s + "."
}
