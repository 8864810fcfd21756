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
	// found is what sniff_csv said, which the dialect was made of.
	found sniffFound
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
	var f sniffFound
	var columns []any
	var dateFormat, tsFormat sql.NullString
	if err := row.Scan(&f.Delim, &f.Quote, &f.Escape, &f.NewLine, &f.Comment, &f.Skip, &f.Header, &columns, &dateFormat, &tsFormat); err != nil {
		return nil, err
	}
	f.DateFormat, f.TimestampFormat = dateFormat.String, tsFormat.String
	for _, c := range columns {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("sniff_csv: a column of %T", c)
		}
		f.Names, f.Types = append(f.Names, fmt.Sprint(m["name"])), append(f.Types, fmt.Sprint(m["type"]))
	}
	return f.dialect()
}

// sniffFound is what sniff_csv found in a file, as it said it: what a
// dialect is made from (dialect), and what the sniff cache keeps
// (files_sniffcache.go).
type sniffFound struct {
	Delim, Quote, Escape, NewLine, Comment string
	Skip                                   int64
	Header                                 bool
	DateFormat, TimestampFormat            string
	Names, Types                           []string
}

// dialect is the read_csv options and columns of what sniff_csv found;
// every value is quoted as a SQL string here, whatever it holds.
func (f sniffFound) dialect() (*csvDialect, error) {
	char := func(s string) string {
		if s == sniffNone {
			s = ""
		}
		return sqlString(s)
	}
	opts := []string{"auto_detect = false", "delim = " + char(f.Delim), "quote = " + char(f.Quote), "escape = " + char(f.Escape)}
	if f.NewLine != "" {
		// (empty when the file mixes line endings: read_csv takes either)
		opts = append(opts, "new_line = "+sqlString(f.NewLine))
	}
	opts = append(opts, fmt.Sprintf("skip = %d", f.Skip), "comment = "+char(f.Comment), fmt.Sprintf("header = %t", f.Header))
	// sniff_csv says %Y-%m-%d also when it found ISO dates, which read_csv
	// reads with its own ISO parser (more lenient than the format): a
	// date format is given only when the sniffer found another.
	if f.DateFormat != "" && f.DateFormat != "%Y-%m-%d" {
		opts = append(opts, "dateformat = "+sqlString(f.DateFormat))
	}
	if f.TimestampFormat != "" {
		opts = append(opts, "timestampformat = "+sqlString(f.TimestampFormat))
	}
	if len(f.Names) == 0 || len(f.Names) != len(f.Types) {
		return nil, fmt.Errorf("sniff_csv found no columns")
	}
	return &csvDialect{options: strings.Join(opts, ", "), names: f.Names, types: f.Types, found: f}, nil
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

// SniffInput is one input SniffFiles is sent: its workspace-relative
// path (under input/), and the SHA-256 of its content (hex) when known,
// the key of the sniff cache (files_sniffcache.go).
type SniffInput struct {
	Path, SHA256 string
}

// SniffFiles finds the dialects and column types of the CSV and TSV files
// among the inputs it is sent (once) ahead of OpenFiles, which then reads
// them without detecting again: a run calls it before it copies its
// inputs in, and sends them once copied, while it previews them. A file
// whose content an earlier sniff kept in the sniff cache is not sniffed
// again; one sniffed here is kept there. It opens a DuckDB of its own
// meanwhile, locked down as OpenFiles' is, and gives up quietly (a file
// it cannot sniff is sniffed, or refused, by OpenFiles); a channel closed
// with nothing sent ends it.
func SniffFiles(ctx context.Context, root string, inputs <-chan []SniffInput) {
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
	var version string
	if err := db.QueryRowContext(ctx, "SELECT library_version FROM pragma_version()").Scan(&version); err != nil {
		version = ""
	}
	var in []SniffInput
	select {
	case in = <-inputs:
	case <-ctx.Done():
		return
	}
	sums := map[string]string{}
	var paths []string
	for _, i := range in {
		paths, sums[i.Path] = append(paths, i.Path), i.SHA256
	}
	for _, v := range FileViews(paths) {
		abs := filepath.Join(real, filepath.FromSlash(v.Input))
		delim, ok := csvDelim(abs)
		if !ok || !strings.HasPrefix(abs, inputDir+string(filepath.Separator)) {
			continue
		}
		file := sniffCacheFile(version, sums[v.Input], delim)
		if f, ok := cachedSniff(file); ok && rememberDialect(abs, delim, f) {
			continue
		}
		if d, err := csvDialectOf(ctx, db, abs, delim); err == nil {
			keepSniff(file, d.found)
		}
	}
}

// rememberDialect keeps the dialect of what f says as the process's sniff
// of the file at abs as it is now, for csvDialectOf, unless the process
// has one already; false when it has none (f makes no dialect, or the
// file cannot be looked at).
func rememberDialect(abs, delim string, f sniffFound) bool {
	d, err := f.dialect()
	if err != nil {
		return false
	}
	st, err := os.Stat(abs)
	if err != nil {
		return false
	}
	key := sniffKey{path: abs, delim: delim, size: st.Size(), mod: st.ModTime()}
	e := &sniffEntry{done: make(chan struct{}), dialect: d}
	close(e.done)
	sniffed.Lock()
	defer sniffed.Unlock()
	if _, ok := sniffed.m[key]; ok {
		return true
	}
	if len(sniffed.m) >= maxSniffed {
		clear(sniffed.m)
	}
	sniffed.m[key] = e
	return true
}
