package templates

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/sift-agent/sift/tools/sqldb"
)

// The rows outliers flags are written as pandas shows them after load()
// read the input: each column by the dtype pandas gives it (int64,
// float64, bool, datetime64, or text), into the CSV file to_csv writes
// (floats as their repr, dates without a time when a chunk of to_csv's
// has none, text a spreadsheet would run as a formula with a leading ')
// and the first rows as md_table shows them.

// notAsPandas starts the engine's refusal of a file pandas would read
// otherwise; the default engine then runs pandas (duckCannotRead).
const notAsPandas = "pandas reads this file otherwise than DuckDB"

// jsonDateName is pandas' read_json rule for the columns whose values it
// reads as dates (keep_default_dates).
func jsonDateName(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, "_at") || strings.HasSuffix(l, "_time") || l == "modified" || l == "date" || l == "datetime" || strings.HasPrefix(l, "timestamp")
}

// outlierDtypes are the dtypes pandas gives d's columns, read as load()
// reads the input at abs: a CSV file's (pandasDtype), a sheet's as its
// copy holds them with its dates and times (writeSheetCSV), a JSON
// file's as read_json types them, a Parquet file's as pyarrow does. It
// refuses a column whose values pandas would read otherwise than DuckDB.
func (d *duckTable) outlierDtypes(ctx context.Context, abs string) ([]string, error) {
	out := make([]string, len(d.cols))
	refuse := func(c duckColumn, how string) error {
		return templateError(fmt.Sprintf("%s: column %s, which DuckDB reads as %s, %s; run it on pandas (engine=pandas)", notAsPandas, pyQuote(c.name), c.typ, how))
	}
	ext := strings.ToLower(path.Ext(abs))
	for i, c := range d.cols {
		all := c.nonNull == d.rows
		switch {
		case d.input.mixed[c.name]:
			return nil, refuse(c, "holds numbers among its text, which pandas shows otherwise")
		case d.input.datetimes[c.name]:
			out[i] = "datetime64"
		case duckOutliersReads(abs):
			out[i] = pandasDtype(c, d.rows)
		case ext == ".parquet":
			switch {
			case strings.Contains(c.typ, "INT") && all:
				out[i] = "int64"
			case strings.Contains(c.typ, "INT"), c.typ == "DOUBLE", c.typ == "FLOAT", c.typ == "REAL":
				out[i] = "float64"
			case c.typ == "BOOLEAN":
				out[i] = "bool" // with missing values, objects that print the same
			case c.typ == "TIMESTAMP" || c.typ == "TIMESTAMP_NS" || c.typ == "TIMESTAMP_MS" || c.typ == "TIMESTAMP_S":
				out[i] = "datetime64"
			case c.typ == "VARCHAR", c.typ == "DATE", strings.HasPrefix(c.typ, "DECIMAL"):
				out[i] = "str" // dates and decimals as the objects print
			default:
				return nil, refuse(c, "is not one pandas holds as numbers, dates or text")
			}
		default: // JSON, as read_json (dtype=True, convert_dates=True) types it
			switch {
			case jsonDateName(c.name) && (c.typ == "DATE" || c.typ == "TIMESTAMP"):
				out[i] = "datetime64"
			case jsonDateName(c.name) && c.typ == "VARCHAR" && c.nonNull > 0:
				// read_json reads dates from it (convert_dates): read
				// with the layouts they have (jsonTextView).
				layouts, ok, err := d.textDates(ctx, c)
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, refuse(c, "has a name pandas reads dates from, in values DuckDB does not read as dates")
				}
				d.cols[i].layouts, out[i] = layouts, "datetime64"
			case jsonDateName(c.name) && c.nonNull > 0:
				return nil, refuse(c, "has a name pandas reads dates from")
			case c.typ == "DATE" || strings.HasPrefix(c.typ, "TIMESTAMP"):
				out[i] = "str" // text to pandas, shown as the file has it (jsonTextView)
			case c.typ == "BOOLEAN" && all:
				out[i] = "bool"
			case c.typ == "VARCHAR" || c.numeric() || c.typ == "BOOLEAN":
				v := number(c)
				if c.typ == "VARCHAR" {
					v = "TRY_CAST(trim(" + c.ident() + ") AS DOUBLE)"
				}
				res, err := d.query(ctx, fmt.Sprintf("SELECT count(%[1]s), count(*) FILTER (WHERE %[1]s <> trunc(%[1]s)) FROM %[2]s", v, d.view))
				if err != nil {
					return nil, err
				}
				switch nums, fracs := toInt(res[0][0]), toInt(res[0][1]); {
				case c.typ == "VARCHAR" && (nums < c.nonNull || c.nonNull == 0):
					out[i] = "str"
				case all && fracs == 0 && c.typ != "BOOLEAN":
					out[i] = "int64" // whole numbers without gaps
				default:
					out[i] = "float64" // true/false with gaps too
				}
			default:
				return nil, refuse(c, "is not one pandas holds as numbers, dates or text")
			}
		}
	}
	return out, nil
}

// jsonTextView reads the JSON file at abs as its typed view does, but
// for the columns DuckDB reads as dates and pandas as text (outlierDtypes
// gives them "str"): those as the text the file holds ("2024-02-10T10:15:00Z",
// where the typed column would show 2024-02-10 10:15:00); and the text
// columns pandas reads dates from as those dates (timestamp). The view
// itself when there are none.
func (d *duckTable) jsonTextView(abs string, dtypes []string) string {
	view := d.view
	var kv, dates []string
	text := false
	for i, c := range d.cols {
		typ := c.typ
		switch {
		case c.temporal() && dtypes[i] == "str":
			typ, text = "VARCHAR", true
		case c.typ == "VARCHAR" && dtypes[i] == "datetime64":
			dates = append(dates, timestamp(c)+" AS "+c.ident())
		}
		kv = append(kv, sqldb.SQLString(c.name)+": "+sqldb.SQLString(typ))
	}
	if text {
		view = "(SELECT * FROM " + strings.TrimSuffix(sqldb.FileReader(abs), ")") + ", columns = {" + strings.Join(kv, ", ") + "}))"
	}
	if dates != nil {
		view = "(SELECT * REPLACE (" + strings.Join(dates, ", ") + ") FROM " + view + ")"
	}
	return view
}

// rowsWriter writes the flagged rows as pandas does, in to_csv's chunks.
type rowsWriter struct {
	buf    *bufio.Writer
	w      *csv.Writer
	dtypes []string // per column after "row"
	chunk  [][]any  // the chunk's rows: the row number, then the values
	per    int      // rows per chunk
	// head are the first mdRows rows as md_table shows them.
	head    [][]mdCell
	neutral bool // a cell or a name was written with a leading '
}

// mdRows is common.py's MD_ROWS.
const mdRows = 20

func newRowsWriter(f io.Writer, header, dtypes []string) *rowsWriter {
	buf := bufio.NewWriterSize(f, 1<<16)
	buf.WriteString("\ufeff")
	rw := &rowsWriter{buf: buf, w: csv.NewWriter(buf), dtypes: dtypes, per: max(1, 100000/len(header)), head: [][]mdCell{}}
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = rw.text(h)
	}
	rw.w.Write(names)
	return rw
}

func (rw *rowsWriter) text(s string) string {
	if formulaLike(s) {
		rw.neutral = true
		return "'" + s
	}
	return s
}

// add takes one flagged row.
func (rw *rowsWriter) add(row int64, vals []any) error {
	r := append([]any{row}, vals...)
	if len(rw.head) < mdRows {
		md := []mdCell{row}
		for i, v := range vals {
			md = append(md, mdValue(v, rw.dtypes[i]))
		}
		rw.head = append(rw.head, md)
	}
	rw.chunk = append(rw.chunk, r)
	if len(rw.chunk) == rw.per {
		return rw.flush()
	}
	return nil
}

// flush writes the chunk.
func (rw *rowsWriter) flush() error {
	layouts := make([]string, len(rw.dtypes))
	for i, t := range rw.dtypes {
		if t == "datetime64" {
			var ts []time.Time
			for _, r := range rw.chunk {
				if tm, ok := pandasTime(r[1+i]); ok {
					ts = append(ts, tm)
				}
			}
			layouts[i] = datetimeLayout(ts)
		}
	}
	rec := make([]string, 1+len(rw.dtypes))
	for _, r := range rw.chunk {
		rec[0] = strconv.FormatInt(r[0].(int64), 10)
		for i, v := range r[1:] {
			rec[1+i] = rw.csvValue(v, rw.dtypes[i], layouts[i])
		}
		if err := rw.w.Write(rec); err != nil {
			return err
		}
	}
	rw.chunk = rw.chunk[:0]
	return nil
}

func (rw *rowsWriter) close() error {
	if err := rw.flush(); err != nil {
		return err
	}
	rw.w.Flush()
	if err := rw.w.Error(); err != nil {
		return err
	}
	return rw.buf.Flush()
}

// datetimeLayout is the layout to_csv writes a chunk's datetimes in: the
// date alone when none has a time of day, else the date and time with
// as many decimals of a second as the chunk needs.
func datetimeLayout(ts []time.Time) string {
	dates, ns, us, ms := true, false, false, false
	for _, t := range ts {
		dates = dates && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
		n := t.Nanosecond()
		ns, us, ms = ns || n%1000 != 0, us || n/1000%1000 != 0, ms || n/1000000 != 0
	}
	switch {
	case dates:
		return "2006-01-02"
	case ns:
		return "2006-01-02 15:04:05.000000000"
	case us:
		return "2006-01-02 15:04:05.000000"
	case ms:
		return "2006-01-02 15:04:05.000"
	}
	return "2006-01-02 15:04:05"
}

// pandasTime is a datetime value: DuckDB's, or its text in the CSV copy.
func pandasTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), true
	case string:
		for _, l := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err := time.Parse(l, strings.TrimSpace(x)); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// pandasFloat is a float64 value; NaN when missing.
func pandasFloat(v any) float64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return toFloat(v)
}

// pandasInt is an int64 value's digits.
func pandasInt(v any) string {
	switch x := v.(type) {
	case string:
		t := strings.TrimSpace(x)
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return strconv.FormatInt(int64(f), 10)
		}
		return x
	case float64:
		return strconv.FormatInt(int64(x), 10)
	}
	return fmt.Sprint(v)
}

// pandasBool is a bool value as pandas prints it; ok false when the text
// is not one pandas reads as true or false.
func pandasBool(v any) (string, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return "True", true
		}
		return "False", true
	case string:
		switch x {
		case "True", "TRUE", "true":
			return "True", true
		case "False", "FALSE", "false":
			return "False", true
		}
	}
	return fmt.Sprint(v), false
}

// csvValue is v, of the column's dtype, as to_csv writes it.
func (rw *rowsWriter) csvValue(v any, dtype, layout string) string {
	if v == nil {
		return ""
	}
	switch dtype {
	case "int64":
		return pandasInt(v)
	case "float64":
		return pyRepr(pandasFloat(v))
	case "bool":
		s, ok := pandasBool(v)
		if !ok {
			return rw.text(s)
		}
		return s
	case "datetime64":
		if t, ok := pandasTime(v); ok {
			return t.Format(layout)
		}
	}
	return rw.text(fmt.Sprint(v))
}

// mdValue is v as md_table's cell takes it: a number, or a text (a
// datetime as its isoformat); nil when missing.
func mdValue(v any, dtype string) mdCell {
	if v == nil {
		if dtype == "float64" {
			return math.NaN()
		}
		return nil
	}
	switch dtype {
	case "int64":
		n, err := strconv.ParseInt(pandasInt(v), 10, 64)
		if err == nil {
			return n
		}
	case "float64":
		return pandasFloat(v)
	case "bool":
		s, _ := pandasBool(v)
		return s
	case "datetime64":
		if t, ok := pandasTime(v); ok {
			switch n := t.Nanosecond(); {
			case n%1000 != 0:
				return t.Format("2006-01-02T15:04:05.000000000")
			case n != 0:
				return t.Format("2006-01-02T15:04:05.000000")
			}
			return t.Format("2006-01-02T15:04:05")
		}
	}
	return fmt.Sprint(v)
}
