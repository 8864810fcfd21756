package templates

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/sift-agent/sift/tools/sqldb"
)

// Loading the file is most of a built-in's time on a large CSV: DuckDB
// parses every value of every column it reads, and keeps in its table
// every column it is given. A template whose column choices the request
// has all settled (trend of a named measure over a named time column,
// top-N of a named category) reads only those columns and the reading's;
// a template that chooses a column itself looks at every column, as the
// cell would, and reads them all.

// maxTextRetries bounds how many columns load reads again as text after
// DuckDB's sniffer typed them from the file's first rows.
const maxTextRetries = 8

// load reads the file at abs (the file behind d.view) for template t:
// into a table of its own when the file is small enough (materialize),
// with only the columns loadColumns names when it names them, and
// describes the columns. A column DuckDB typed as numbers from its
// sample whose values further down are text is read as text instead, as
// pandas reads it, with a note; another value that does not parse (a
// date column's) is a templateError that names the column, the line and
// the value.
func (d *duckTable) load(ctx context.Context, abs string, t Template, p Params, reading *Reading) error {
	view := d.src.Views()[0].View
	fileView := d.view
	var text []string
	var found []*sqldb.CSVValueError
	for {
		queries := len(d.sql)
		err := d.loadOnce(ctx, abs, t, p, reading)
		ve, ok := sqldb.AsCSVValueError(err)
		if !ok {
			if err == nil {
				for _, f := range found {
					d.note("column %s holds text further down than DuckDB looked to type it (line %d of the file: %q): it was read as text, as pandas reads it, and its values that do not read as numbers are left out of its numbers", f.Column, f.Line, f.Value)
				}
			}
			return err
		}
		if !numericType(ve.Type) || slices.Contains(text, ve.Column) || len(text) == maxTextRetries {
			return templateError(fmt.Sprintf("column %s does not read as a %s on line %d of the file: it holds %q there, where the lines before hold a %s; correct or remove that value (or leave it empty), then run again", pyQuote(ve.Column), typeWord(ve.Type), ve.Line, ve.Value, typeWord(ve.Type)))
		}
		text, found = append(text, ve.Column), append(found, ve)
		if err := d.src.ReadAsText(ctx, view, text); err != nil {
			return err
		}
		// Start again on the view that reads the column as text; the
		// failed queries computed nothing.
		d.view, d.cols, d.rows, d.sql = fileView, nil, 0, d.sql[:queries]
	}
}

// loadOnce is one try of load.
func (d *duckTable) loadOnce(ctx context.Context, abs string, t Template, p Params, reading *Reading) error {
	eng := builtinNamed(t.Name).duck
	st, err := os.Stat(abs)
	if err == nil && st.Size() <= materializeBytes && !eng.inOrder {
		// (An engine that numbers the file's own rows reads them through
		// a view.)
		names, err := d.fileColumns(ctx)
		if err != nil {
			return err
		}
		cols := loadColumns(t.Name, p, reading, names)
		fileView := d.view
		if err := d.materialize(ctx, cols); err != nil {
			return err
		}
		if cols != nil && reading != nil {
			// The reading's table must find its columns in the table; a
			// query that does not (a column the reading names in a way
			// loadColumns does not know) reads every column instead.
			if q, _ := readingQuery(*reading, d.view); q != "" {
				if _, err := d.src.Rows(ctx, "DESCRIBE "+q); err != nil {
					d.view, d.sql = fileView, d.sql[:len(d.sql)-1]
					if err := d.materialize(ctx, nil); err != nil {
						return err
					}
				}
			}
		}
	}
	return d.describe(ctx, eng.allUniques)
}

// fileColumns are the names of the columns of the file's view, as DuckDB
// read them when it made the view (no second look at the file).
func (d *duckTable) fileColumns(ctx context.Context) ([]string, error) {
	rows, err := d.src.Rows(ctx, "SELECT column_name FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = "+sqldb.SQLString(d.src.Views()[0].View)+" ORDER BY column_index")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprint(r[0]))
	}
	return out, nil
}

// loadColumns are the columns of the file (names, in the file's order)
// that template t reads with p, and that the reading's table reads: nil,
// every column, unless t's every column choice is settled by p (its
// duckEngine.columns: trend's with a named time column and measure, and
// its named category; top-N's with a named category, and a named measure
// or a row count).
//
// Named columns are found as the cell's col() finds them. The reading's
// are the columns its query names (readingQuery), checked once the table
// is made (loadOnce).
func loadColumns(template string, p Params, reading *Reading, names []string) []string {
	b := builtinNamed(template)
	if b == nil || b.duck == nil || b.duck.columns == nil {
		return nil
	}
	want := b.duck.columns(p)
	if want == nil {
		return nil
	}
	keep := map[string]bool{}
	for _, w := range want {
		n, ok := findName(names, w)
		if !ok {
			return nil // the template says which column is missing
		}
		keep[n] = true
	}
	if reading != nil {
		if !groupedTable(*reading) {
			return nil
		}
		q, _ := readingQuery(*reading, "t")
		for _, n := range names {
			if strings.Contains(q, sqldb.QuoteIdent(n)) {
				keep[n] = true
			}
		}
	}
	var out []string
	for _, n := range names {
		if keep[n] {
			out = append(out, n)
		}
	}
	return out
}

// findName finds the column called name among names as duckTable.col
// does: exactly, then ignoring case, spaces and underscores.
func findName(names []string, name string) (string, bool) {
	if slices.Contains(names, name) {
		return name, true
	}
	want := nonWordRe.ReplaceAllString(strings.ToLower(name), "")
	for _, n := range names {
		if nonWordRe.ReplaceAllString(strings.ToLower(n), "") == want {
			return n, true
		}
	}
	return "", false
}

// numericType reports whether DuckDB's type is a number's.
func numericType(typ string) bool {
	return duckColumn{typ: strings.ToUpper(typ)}.numeric()
}

// typeWord says a DuckDB type as a reader would.
func typeWord(typ string) string {
	t := strings.ToUpper(typ)
	switch {
	case numericType(t):
		return "number"
	case t == "DATE":
		return "date"
	case strings.HasPrefix(t, "TIMESTAMP"):
		return "date and time"
	case t == "TIME":
		return "time of day"
	case t == "BOOLEAN":
		return "true/false"
	}
	return strings.ToLower(t)
}
