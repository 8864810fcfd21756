package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// A CSV or TSV file is sniffed once: DuckDB's sniff_csv finds its dialect
// (delimiter, quoting, header, skipped lines, comments) and its columns'
// types from the same sample read_csv's own detection reads (20,480
// rows), and every later read of the file (the view, each query over it,
// ReadAsText's retyped view) is a read_csv with those options and
// auto_detect = false. A view over an auto-detecting read_csv detects
// again each time a query binds it.

// csvSampleRows is the sample DuckDB types a CSV's columns from.
const csvSampleRows = 20480

// csvDialect is what sniff_csv found in one CSV or TSV file.
type csvDialect struct {
	// options are read_csv's options but the columns, e.g.
	// "auto_detect = false, delim = ',', quote = '"', ...".
	options string
	// names and types are the columns, in the file's order.
	names, types []string
}

// reader is the read_csv call that reads the file at lit (a SQL string)
// with the dialect's options, the columns in text as VARCHAR.
func (c *csvDialect) reader(lit string, text []string) string {
	cols := make([]string, len(c.names))
	for i, n := range c.names {
		typ := c.types[i]
		for _, t := range text {
			if t == n {
				typ = "VARCHAR"
			}
		}
		cols[i] = sqlString(n) + ": " + sqlString(typ)
	}
	return "read_csv(" + lit + ", " + c.options + ", columns = {" + strings.Join(cols, ", ") + "})"
}

// csvDelim is the delimiter read_csv is told for a file of this kind
// ("" to detect it), or ok false when the file is not CSV or TSV.
func csvDelim(abs string) (delim string, ok bool) {
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".csv":
		return "", true
	case ".tsv", ".tab":
		return "\t", true
	}
	return "", false
}

// sniffQuery is the sniff_csv call for the file at abs, given the options
// fileReader gives read_csv.
func sniffQuery(abs, delim string) string {
	opts := fmt.Sprintf("sample_size = %d", csvSampleRows)
	if delim != "" {
		opts = "delim = " + sqlString(delim) + ", " + opts
	}
	return "SELECT Delimiter, Quote, Escape, NewLineDelimiter, Comment, SkipRows, HasHeader, Columns, DateFormat, TimestampFormat FROM sniff_csv(" + sqlString(abs) + ", " + opts + ")"
}

// sniffNone is sniff_csv's word for a quote, escape or comment character
// the file has none of.
const sniffNone = "(empty)"

// sniffCSVWith runs sniff_csv on the file at abs in db; tests count its
// calls.
var sniffCSVWith = func(ctx context.Context, db *sql.DB, abs, delim string) (*csvDialect, error) {
	row := db.QueryRowContext(ctx, sniffQuery(abs, delim))
	var dl, quote, escape, newLine, comment string
	var skip int64
	var header bool
	var columns []any
	var dateFormat, tsFormat sql.NullString
	if err := row.Scan(&dl, &quote, &escape, &newLine, &comment, &skip, &header, &columns, &dateFormat, &tsFormat); err != nil {
		return nil, err
	}
	char := func(s string) string {
		if s == sniffNone {
			s = ""
		}
		return sqlString(s)
	}
	opts := []string{"auto_detect = false", "delim = " + char(dl), "quote = " + char(quote), "escape = " + char(escape)}
	if newLine != "" {
		// (empty when the file mixes line endings: read_csv takes either)
		opts = append(opts, "new_line = "+sqlString(newLine))
	}
	opts = append(opts, fmt.Sprintf("skip = %d", skip), "comment = "+char(comment), fmt.Sprintf("header = %t", header))
	// sniff_csv says %Y-%m-%d also when it found ISO dates, which read_csv
	// reads with its own ISO parser (more lenient than the format): a
	// date format is given only when the sniffer found another.
	if dateFormat.Valid && dateFormat.String != "" && dateFormat.String != "%Y-%m-%d" {
		opts = append(opts, "dateformat = "+sqlString(dateFormat.String))
	}
	if tsFormat.Valid && tsFormat.String != "" {
		opts = append(opts, "timestampformat = "+sqlString(tsFormat.String))
	}
	d := &csvDialect{options: strings.Join(opts, ", ")}
	for _, c := range columns {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("sniff_csv: a column of %T", c)
		}
		d.names, d.types = append(d.names, fmt.Sprint(m["name"])), append(d.types, fmt.Sprint(m["type"]))
	}
	if len(d.names) == 0 {
		return nil, fmt.Errorf("sniff_csv found no columns")
	}
	return d, nil
}

// sniffKey is a file as it was when sniffed: a file changed since is
// sniffed again.
type sniffKey struct {
	path, delim string
	size        int64
	mod         time.Time
}

// sniffEntry is one file's sniff, done or under way (done closes).
type sniffEntry struct {
	done    chan struct{}
	dialect *csvDialect
	err     error
}

// maxSniffed bounds the files whose dialects the process keeps.
const maxSniffed = 256

// sniffed is the process's sniffs, by file: a run that sniffs its inputs
// ahead (SniffFiles, while the inputs are previewed) has them ready when
// it opens the files source.
var sniffed = struct {
	sync.Mutex
	m map[sniffKey]*sniffEntry
}{m: map[sniffKey]*sniffEntry{}}

// csvDialectOf is the dialect of the CSV or TSV file at abs: sniffed
// before (or being sniffed: it waits), else sniffed now in db. A sniff
// that failed is not kept.
func csvDialectOf(ctx context.Context, db *sql.DB, abs, delim string) (*csvDialect, error) {
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	key := sniffKey{path: abs, delim: delim, size: st.Size(), mod: st.ModTime()}
	sniffed.Lock()
	e, ok := sniffed.m[key]
	if !ok {
		if len(sniffed.m) >= maxSniffed {
			clear(sniffed.m)
		}
		e = &sniffEntry{done: make(chan struct{})}
		sniffed.m[key] = e
	}
	sniffed.Unlock()
	if ok {
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err == nil {
			return e.dialect, nil
		}
		// The sniff ahead failed (it may have been cancelled): try here.
		return csvDialectOf(ctx, db, abs, delim)
	}
	e.dialect, e.err = sniffCSVWith(ctx, db, abs, delim)
	if e.err != nil {
		sniffed.Lock()
		if sniffed.m[key] == e {
			delete(sniffed.m, key)
		}
		sniffed.Unlock()
	}
	close(e.done)
	return e.dialect, e.err
}

// SniffFiles finds the dialects and column types of the CSV and TSV files
// among the inputs it is sent (once: workspace-relative paths under
// input/ of the workspace at root) ahead of OpenFiles, which then reads
// them without detecting again: a run calls it before it copies its
// inputs in, and sends them once copied, while it previews them. It opens
// a DuckDB of its own meanwhile, locked down as OpenFiles' is, and gives
// up quietly (a file it cannot sniff is sniffed, or refused, by
// OpenFiles); a channel closed with nothing sent ends it.
func SniffFiles(ctx context.Context, root string, inputs <-chan []string) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return
	}
	inputDir := filepath.Join(real, "input")
	conn, err := duckdb.NewConnector("", nil)
	if err != nil {
		return
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	for _, q := range []string{
		fmt.Sprintf("SET threads = %d", DefaultFilesThreads),
		"SET autoinstall_known_extensions = false",
		"SET autoload_known_extensions = false",
		"SET allowed_directories = [" + sqlString(inputDir+"/") + "]",
		"SET enable_external_access = false",
		"SET lock_configuration = true",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return
		}
	}
	var in []string
	select {
	case in = <-inputs:
	case <-ctx.Done():
		return
	}
	for _, v := range FileViews(in) {
		abs := filepath.Join(real, filepath.FromSlash(v.Input))
		if delim, ok := csvDelim(abs); ok && strings.HasPrefix(abs, inputDir+string(filepath.Separator)) {
			_, _ = csvDialectOf(ctx, db, abs, delim)
		}
	}
}
