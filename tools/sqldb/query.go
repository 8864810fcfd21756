package sqldb

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/internal/formula"
	"github.com/sift-agent/sift/operator"
)

// Result is what one read query returned.
type Result struct {
	// Source is the source's name.
	Source string
	// SQL is the statement as run.
	SQL string
	// Columns are the result's column names.
	Columns []string
	// Rows are the first rows (at most Options.MaxRows) as text; NULL is
	// "NULL".
	Rows [][]string
	// Total is how many rows the query returned, when TotalKnown; else the
	// number read before the export bound stopped reading.
	Total int
	// TotalKnown is false when reading stopped at Options.MaxExportRows.
	TotalKnown bool
	// SavedTo is the workspace-relative path of the CSV holding the full
	// result, or "" when it was not saved.
	SavedTo string
	// Neutralised counts the cells of the saved CSV that were written with
	// a leading ' because a spreadsheet would read them as formulas (see
	// package formula); Rows keeps them as they are.
	Neutralised int
	// Elapsed is how long the query took.
	Elapsed time.Duration
	// Cached reports that the result came from the result cache, stored
	// at CachedAt.
	Cached   bool
	CachedAt time.Time
}

// Truncated reports whether Rows holds fewer rows than the result had.
func (r *Result) Truncated() bool { return len(r.Rows) < r.Total || !r.TotalKnown }

// QueryOptions shape one Query call.
type QueryOptions struct {
	// Op is the session's operator, through which results are saved
	// under out/. Optional; nil saves nothing.
	Op operator.Operator
	// SaveAs names the CSV file: out/<SaveAs>.csv. Optional; when empty
	// only a result cut by the row cap is saved, under an automatic name.
	SaveAs string
	// NoCache skips the result cache.
	NoCache bool
}

// maxCountOnly is how many rows a query without an export reads to count
// its result.
const maxCountOnly = 100_000

// spillBytes is how much CSV a query keeps in memory before it streams the
// rest straight to the file.
const spillBytes = 8 << 20

// Query runs one read-only statement: the guard checks it, then it runs
// under the statement timeout in a read-only transaction. The first
// MaxRows rows come back as text; a cut result (or any result, with
// SaveAs) is saved in full as CSV through qo.Op. A refused statement
// returns a *RefusedError; a failed one a *QueryError carrying its kind and
// a fix hint; a cancelled ctx returns ctx's error.
func (s *Source) Query(ctx context.Context, sqlText string, qo QueryOptions) (*Result, error) {
	toks, err := checkStatement(s.dialect, sqlText)
	if err != nil {
		return nil, err
	}
	saveAs := ""
	if qo.SaveAs != "" {
		if saveAs, err = csvPath(qo.SaveAs); err != nil {
			return nil, err
		}
	}
	key := s.name + "\x00" + normalize(s.dialect, toks)
	if !qo.NoCache {
		if r := s.cache.get(key); r != nil && (saveAs == "" || saveAs == r.SavedTo) {
			return r, nil
		}
	}
	start := time.Now()
	res := &Result{Source: s.name, SQL: strings.TrimSpace(sqlText)}
	var exp *csvExport
	if qo.Op != nil {
		exp = &csvExport{ctx: ctx, op: qo.Op, path: saveAs, pick: s.autoCSVPath, limit: spillBytes}
		defer exp.abort()
	}
	err = s.run(ctx, sqlText, func(rows *sql.Rows) error { return s.collect(ctx, rows, res, exp) })
	if err != nil {
		return nil, s.queryError(ctx, sqlText, err)
	}
	if exp != nil && (saveAs != "" || res.Truncated() || exp.spilled()) {
		if res.SavedTo, err = exp.commit(); err != nil {
			return nil, fmt.Errorf("save the result as CSV: %w", err)
		}
		res.Neutralised = exp.neutralised
	}
	res.Elapsed = time.Since(start)
	if !qo.NoCache {
		s.cache.put(key, res)
	}
	return res, nil
}

// run opens a connection, starts a read-only transaction where the
// dialect has one, runs the statement and hands its rows to fn, all under
// the statement timeout. The transaction is always rolled back.
func (s *Source) run(ctx context.Context, sqlText string, fn func(*sql.Rows) error) error {
	return s.runArgs(ctx, sqlText, nil, fn)
}

// runArgs is run with query arguments.
func (s *Source) runArgs(ctx context.Context, sqlText string, args []any, fn func(*sql.Rows) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.StatementTimeout)
	defer cancel()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return s.scrub(err)
	}
	defer conn.Close()
	var q interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	} = conn
	if s.dialect.spec().readOnlyTx() {
		tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return s.scrub(err)
		}
		defer tx.Rollback()
		q = tx
	}
	rows, err := q.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return s.scrub(err)
	}
	defer rows.Close()
	if err := fn(rows); err != nil {
		return s.scrub(err)
	}
	if err := rows.Err(); err != nil {
		return s.scrub(err)
	}
	// SQLite reports an interrupt as the end of the rows on some paths.
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// collect reads the rows into res (the first MaxRows) and exp (all of them,
// up to MaxExportRows).
func (s *Source) collect(ctx context.Context, rows *sql.Rows, res *Result, exp *csvExport) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	res.Columns = cols
	if exp != nil {
		if err := exp.write(cols); err != nil {
			return err
		}
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	res.TotalKnown = true
	// Without an export, rows past the cap are only counted, and only as
	// far as counting stays cheap.
	limit := s.opts.MaxExportRows
	if exp == nil {
		limit = min(limit, maxCountOnly)
	}
	for rows.Next() {
		if res.Total >= limit {
			res.TotalKnown = false
			break
		}
		if res.Total%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		res.Total++
		keep := len(res.Rows) < s.opts.MaxRows
		if !keep && exp == nil {
			continue
		}
		text := make([]string, len(vals))
		for i, v := range vals {
			text[i] = formatValue(v)
		}
		if exp != nil {
			rec := make([]string, len(vals))
			for i, v := range vals {
				if v != nil {
					rec[i] = text[i]
				}
			}
			if err := exp.write(rec); err != nil {
				return err
			}
		}
		if keep {
			res.Rows = append(res.Rows, text)
		}
	}
	return nil
}

// formatValue renders one scanned value as text; NULL is "NULL".
func formatValue(v any) string {
	if val, ok := v.(driver.Valuer); ok {
		if inner, err := val.Value(); err == nil {
			v = inner
		}
	}
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return fmt.Sprintf("x'%x'", x)
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == float64(int64(x)) && x < 1e15 && x > -1e15 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		switch {
		case x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0:
			return x.Format("2006-01-02")
		case x.Nanosecond() == 0:
			return x.Format("2006-01-02 15:04:05")
		}
		return x.Format("2006-01-02 15:04:05.999999")
	}
	return fmt.Sprint(v)
}

// csvPath turns a save_as name into out/<name>.csv.
func csvPath(name string) (string, error) {
	base := path.Base(filepath.ToSlash(strings.TrimSpace(name)))
	base = strings.TrimSuffix(base, path.Ext(base))
	if base == "" || base == "." || base == "/" {
		return "", fmt.Errorf("save_as %q: give a file name such as sales_by_month", name)
	}
	return operator.OutDir + "/" + sourceName(base) + ".csv", nil
}

// autoCSVPath picks the next free out/<source>_query_<n>.csv.
func (s *Source) autoCSVPath(op operator.Operator) (string, error) {
	s.exportMu.Lock()
	defer s.exportMu.Unlock()
	for {
		s.exports++
		p := fmt.Sprintf("%s/%s_query_%d.csv", operator.OutDir, s.name, s.exports)
		_, err := op.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
	}
}

// csvExport writes a result as CSV: in memory while it is small, then
// streamed to a temporary file beside its final path. Nothing is visible
// under out/ until commit.
type csvExport struct {
	ctx  context.Context
	op   operator.Operator
	path string // final workspace-relative path; "" until chosen
	pick func(operator.Operator) (string, error)
	// limit is how many bytes stay in memory before the file takes over.
	limit int

	buf  bytes.Buffer
	w    *csv.Writer
	file *os.File
	tmp  string         // the file's name beneath root while it streams
	root *confined.Root // the workspace, by descriptor, while file is open
	// neutralised counts the cells written with a leading ' (formula).
	neutralised int
}

// write adds rec to the CSV, its formula-like cells neutralised (rec is
// not changed).
func (e *csvExport) write(rec []string) error {
	if e.w == nil {
		e.w = csv.NewWriter(&spillWriter{e: e})
	}
	for _, c := range rec {
		if formula.Risky(c) {
			safe := append([]string(nil), rec...)
			e.neutralised += formula.Record(safe)
			return e.w.Write(safe)
		}
	}
	return e.w.Write(rec)
}

// spilled reports whether the export outgrew memory.
func (e *csvExport) spilled() bool { return e.file != nil }

// spillWriter sends CSV bytes to memory or, past spillBytes, to the file.
type spillWriter struct{ e *csvExport }

func (w *spillWriter) Write(p []byte) (int, error) {
	e := w.e
	if e.file == nil && e.buf.Len()+len(p) > e.limit {
		if err := e.openFile(); err != nil {
			return 0, err
		}
	}
	if e.file != nil {
		return e.file.Write(p)
	}
	return e.buf.Write(p)
}

// openFile starts streaming to a temporary file beside the final path.
func (e *csvExport) openFile() error {
	if e.path == "" {
		p, err := e.pick(e.op)
		if err != nil {
			return err
		}
		e.path = p
	}
	// ConfineWrite only refuses input/ and escapes by name; the file is
	// made beneath the workspace by descriptor (out/ is the sandbox's).
	if _, err := operator.ConfineWrite(e.op.Root(), e.path); err != nil {
		return err
	}
	r, err := confined.OpenRoot(e.op.Root())
	if err != nil {
		return err
	}
	if err := r.MkdirAll(path.Dir(e.path), 0o755); err != nil {
		r.Close()
		return err
	}
	f, tmp, err := r.CreateTemp(e.path, 0o644)
	if err != nil {
		r.Close()
		return err
	}
	e.root, e.file, e.tmp = r, f, tmp
	if _, err := io.Copy(f, &e.buf); err != nil {
		return err
	}
	e.buf = bytes.Buffer{}
	return nil
}

// commit writes the CSV to its final path and returns that path.
func (e *csvExport) commit() (string, error) {
	if e.w != nil {
		e.w.Flush()
		if err := e.w.Error(); err != nil {
			return "", err
		}
	}
	if e.path == "" {
		p, err := e.pick(e.op)
		if err != nil {
			return "", err
		}
		e.path = p
	}
	if e.file == nil {
		if err := e.op.WriteFile(e.ctx, e.path, e.buf.Bytes()); err != nil {
			return "", err
		}
		return e.path, nil
	}
	if _, err := operator.ConfineWrite(e.op.Root(), e.path); err != nil {
		return "", err
	}
	if err := e.file.Close(); err != nil {
		return "", err
	}
	if err := e.root.Rename(e.tmp, e.path); err != nil {
		return "", err
	}
	e.root.Close()
	e.root, e.file, e.tmp = nil, nil, ""
	return e.path, nil
}

// abort removes a temporary file that was not committed.
func (e *csvExport) abort() {
	if e.file != nil {
		e.file.Close()
		_ = e.root.Remove(e.tmp)
		e.root.Close()
		e.root, e.file = nil, nil
	}
}

// PandasLine is the Python line that loads a saved CSV as a DataFrame.
func PandasLine(csvPath string) string {
	return fmt.Sprintf("df = pd.read_csv(%q)", csvPath)
}
