package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// FilesSourceName is the name of the files source.
const FilesSourceName = "files"

// Defaults of FilesOptions, and the environment variables that set them.
const (
	DefaultFilesMemoryBytes = 1 << 30
	DefaultFilesThreads     = 2
	// FilesMemoryEnv bounds DuckDB's memory, e.g. "2GiB"; FilesThreadsEnv
	// its threads.
	FilesMemoryEnv  = "SIFT_FILES_SQL_MEMORY"
	FilesThreadsEnv = "SIFT_FILES_SQL_THREADS"
)

// FilesOptions configure the files source. The zero value is usable.
type FilesOptions struct {
	// Options are the query options shared with the other sources; Name
	// defaults to "files".
	Options
	// MemoryBytes bounds DuckDB's memory; past it, sorts, joins and
	// aggregations spill to a directory of the source's own under
	// TempDir. Optional; default 1 GiB.
	MemoryBytes int64
	// TempDir is where the source makes its spill directory (a fresh one,
	// mode 0700, removed when the source closes). It must be a directory
	// the sandbox cannot reach: never under a workspace. Optional; default
	// the host's temp directory (TMPDIR).
	TempDir string
	// TempBytes bounds what DuckDB may spill there. Optional; default
	// DefaultFilesTempBytes (4 GiB).
	TempBytes int64
	// Threads bounds DuckDB's threads. Optional; default 2.
	Threads int
	// AnyOrder lets a query without ORDER BY return its rows in any order
	// (preserve_insertion_order = false), which saves memory on large
	// files. The built-in analyses set it; agents' queries keep the
	// file's order.
	AnyOrder bool
}

// FilesOptionsFromEnv reads SIFT_FILES_SQL_MEMORY (a size such as 2GiB or
// 512MB), SIFT_FILES_SQL_THREADS and SIFT_FILES_SQL_TEMP (a size); unset
// ones keep their defaults.
func FilesOptionsFromEnv(getenv func(string) string) (FilesOptions, error) {
	var o FilesOptions
	if v := strings.TrimSpace(getenv(FilesMemoryEnv)); v != "" {
		n, err := parseBytes(v)
		if err != nil {
			return o, fmt.Errorf("%s=%q: %w", FilesMemoryEnv, v, err)
		}
		o.MemoryBytes = n
	}
	if v := strings.TrimSpace(getenv(FilesThreadsEnv)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return o, fmt.Errorf("%s=%q: give a whole number of threads, such as 2", FilesThreadsEnv, v)
		}
		o.Threads = n
	}
	n, err := filesTempBytes(getenv)
	if err != nil {
		return o, err
	}
	o.TempBytes = n
	return o, nil
}

var byteSize = regexp.MustCompile(`(?i)^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib|tb|tib)?$`)

// parseBytes reads a size such as 512MB or 2GiB (KB, MB, GB count 1024s
// too: memory sizes are binary).
func parseBytes(s string) (int64, error) {
	m := byteSize.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, errors.New("give a size such as 512MB or 2GiB")
	}
	f, _ := strconv.ParseFloat(m[1], 64)
	mult := map[string]float64{"": 1, "b": 1, "kb": 1 << 10, "kib": 1 << 10, "mb": 1 << 20, "mib": 1 << 20, "gb": 1 << 30, "gib": 1 << 30, "tb": 1 << 40, "tib": 1 << 40}[strings.ToLower(m[2])]
	if f*mult < 64<<20 {
		return 0, errors.New("give at least 64MB")
	}
	return int64(f * mult), nil
}

// FileReader returns the DuckDB table function call that reads the file
// at abs, or "" when DuckDB does not read its kind (xlsx, text).
func FileReader(abs string) string { return fileReader(abs, nil) }

// fileReader is FileReader with the CSV or TSV columns in text read as
// text (VARCHAR) whatever type the sniffer gives them.
func fileReader(abs string, text []string) string {
	lit := sqlString(abs)
	types := ""
	if len(text) > 0 {
		var kv []string
		for _, c := range text {
			kv = append(kv, sqlString(c)+": 'VARCHAR'")
		}
		types = ", types = {" + strings.Join(kv, ", ") + "}"
	}
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".csv":
		return "read_csv(" + lit + ", sample_size = 20480" + types + ")"
	case ".tsv", ".tab":
		return "read_csv(" + lit + ", delim = '\\t', sample_size = 20480" + types + ")"
	case ".json", ".jsonl", ".ndjson":
		return "read_json_auto(" + lit + ")"
	case ".parquet", ".pq":
		return "read_parquet(" + lit + ")"
	}
	return ""
}

// FileView is the view the files source makes of one input file.
type FileView struct {
	// Input is the file's workspace-relative path, e.g. input/sales.csv.
	Input string
	// View is the view's name in SQL, e.g. sales.
	View string
}

// FileViews names the views OpenFiles makes of inputs (workspace-relative
// paths under input/), in their order: each file DuckDB reads gets a view
// named after it, told apart by a numeric suffix when two names collide.
func FileViews(inputs []string) []FileView {
	var out []FileView
	taken := map[string]bool{}
	for _, in := range inputs {
		rel := path.Clean(filepath.ToSlash(in))
		if !strings.HasPrefix(rel, "input/") || FileReader(rel) == "" {
			continue
		}
		base := strings.ToLower(sourceName(strings.TrimSuffix(path.Base(rel), path.Ext(rel))))
		if base[0] >= '0' && base[0] <= '9' || duckKeywords[base] {
			base = "t_" + base
		}
		name := base
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		taken[name] = true
		out = append(out, FileView{Input: in, View: name})
	}
	return out
}

// duckKeywords are DuckDB's keywords that cannot name a table unquoted
// (SELECT * FROM order fails): a file named so gets a view named t_order.
var duckKeywords = map[string]bool{
	"all": true, "analyse": true, "analyze": true, "and": true, "any": true, "array": true,
	"as": true, "asc": true, "asymmetric": true, "both": true, "case": true, "cast": true,
	"check": true, "collate": true, "column": true, "constraint": true, "create": true,
	"default": true, "deferrable": true, "desc": true, "describe": true, "distinct": true, "do": true,
	"else": true, "end": true, "except": true, "false": true, "fetch": true, "for": true,
	"foreign": true, "from": true, "group": true, "having": true, "in": true, "initially": true,
	"intersect": true, "into": true, "lambda": true, "lateral": true, "leading": true, "limit": true,
	"not": true, "null": true, "offset": true, "on": true, "only": true, "or": true, "order": true,
	"pivot": true, "pivot_longer": true, "pivot_wider": true, "placing": true, "primary": true,
	"qualify": true, "references": true, "returning": true, "select": true, "show": true,
	"some": true, "summarize": true, "symmetric": true, "table": true, "then": true, "to": true,
	"trailing": true, "true": true, "union": true, "unique": true, "unpivot": true, "using": true,
	"variadic": true, "when": true, "where": true, "window": true, "with": true, "anti": true,
	"asof": true, "at": true, "authorization": true, "binary": true, "by": true, "collation": true,
	"concurrently": true, "cross": true, "freeze": true, "full": true, "glob": true, "ilike": true,
	"inner": true, "is": true, "isnull": true, "join": true, "left": true, "like": true,
	"natural": true, "notnull": true, "outer": true, "overlaps": true, "positional": true,
	"right": true, "semi": true, "similar": true, "tablesample": true, "unpack": true,
	"verbose": true,
}

// OpenFiles opens the files source over the workspace at root: each input
// file DuckDB reads (CSV/TSV, JSON/JSONL, Parquet; inputs are
// workspace-relative paths under input/) becomes a view named after the
// file, queried out of core. It refuses when no input is of such a kind.
//
// DuckDB runs in this process, so the engine is locked down as tightly as
// the kernel's sandbox: external access is off except for reading the
// workspace's input/ (allowed_directories), extensions are neither
// installed nor loaded, and lock_configuration forbids changing any of it.
// The statement guard refuses everything but reads on top (no COPY,
// ATTACH, INSTALL, LOAD, SET or PRAGMA; one statement per call). Results
// leave DuckDB only through sql_query's own CSV export under out/.
func OpenFiles(ctx context.Context, root string, inputs []string, opts FilesOptions) (*Source, error) {
	if opts.Name == "" {
		opts.Name = FilesSourceName
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = DefaultFilesMemoryBytes
	}
	if opts.Threads <= 0 {
		opts.Threads = DefaultFilesThreads
	}
	o := opts.Options.withDefaults()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("open the files source: workspace %s: %w", root, err)
	}
	inputDir := filepath.Join(real, "input")
	var candidates []FileView
	for _, v := range FileViews(inputs) {
		abs := filepath.Join(real, filepath.FromSlash(v.Input))
		if strings.HasPrefix(abs, inputDir+string(filepath.Separator)) {
			candidates = append(candidates, v)
		}
	}
	if len(candidates) == 0 {
		return nil, fmt.Errorf("open the files source: %w: no input is a CSV, TSV, JSON, JSONL or Parquet file", ErrUnknownSource)
	}
	if opts.TempBytes <= 0 {
		opts.TempBytes = DefaultFilesTempBytes
	}
	spill, err := newScratch(opts.TempDir)
	if err != nil {
		return nil, fmt.Errorf("open the files source: %w", err)
	}
	conn, err := duckdb.NewConnector("", nil)
	if err != nil {
		os.RemoveAll(spill)
		return nil, fmt.Errorf("open the files source: %w", err)
	}
	db := sql.OpenDB(conn)
	opened := false
	defer func() {
		if !opened {
			db.Close()
			os.RemoveAll(spill)
		}
	}()
	sctx, cancel := context.WithTimeout(ctx, o.StatementTimeout)
	defer cancel()
	// A file DuckDB cannot read (malformed JSON, an encoding it does not
	// know) costs only its own view.
	var views []FileView
	var unreadable []string
	files := map[string]string{}
	dialects := map[string]*csvDialect{}
	for _, v := range candidates {
		abs := filepath.Join(real, filepath.FromSlash(v.Input))
		reader := FileReader(abs)
		if delim, ok := csvDelim(abs); ok {
			// Sniffed once (or ahead, by SniffFiles); a file the sniffer
			// fails on keeps read_csv's own detection, and its error.
			if d, err := csvDialectOf(sctx, db, abs, delim); err == nil {
				reader, dialects[v.View] = d.reader(sqlString(abs), nil), d
			}
		}
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM %s", quoteIdent(DuckDB, v.View), reader)
		if _, err := db.ExecContext(sctx, q); err != nil {
			unreadable = append(unreadable, v.Input+unreadableSize(abs)+": "+strings.ReplaceAll(duckReason(err), real+"/", ""))
			continue
		}
		views = append(views, v)
		files[v.View] = abs
	}
	if len(views) == 0 {
		return nil, fmt.Errorf("open the files source: no input file could be read (%s); check that the files are readable and well formed", strings.Join(unreadable, "; "))
	}
	setup := append([]string(nil),
		"SET temp_directory = "+sqlString(spill),
		fmt.Sprintf("SET max_temp_directory_size = '%dMiB'", max(opts.TempBytes>>20, 1)),
		fmt.Sprintf("SET memory_limit = '%dMiB'", opts.MemoryBytes>>20),
		fmt.Sprintf("SET threads = %d", opts.Threads),
		"SET autoinstall_known_extensions = false",
		"SET autoload_known_extensions = false",
		"SET allowed_directories = ["+sqlString(inputDir+"/")+"]",
		"SET enable_external_access = false",
	)
	if opts.AnyOrder {
		setup = append(setup, "SET preserve_insertion_order = false")
	}
	setup = append(setup, "SET lock_configuration = true")
	for _, q := range setup {
		if _, err := db.ExecContext(sctx, q); err != nil {
			return nil, fmt.Errorf("open the files source: %s: %w", q, err)
		}
	}
	db.SetMaxOpenConns(4)
	opened = true
	return &Source{
		name: o.Name, dialect: DuckDB, redacted: "duckdb:input/", reopen: "",
		db: db, opts: o, cache: newResultCache(o.CacheTTL, o.Now),
		views: views, files: files, dialects: dialects, unreadable: unreadable, scratch: spill,
	}, nil
}

// ReadAsText makes the files source's view read the named columns of its
// CSV or TSV file as text (VARCHAR), whatever type DuckDB's sniffer gave
// them from the file's first 20,480 rows (one sniff serves both): a column of numbers that holds
// text further down (see CSVValueError) is then read in full. The other
// columns keep their types.
func (s *Source) ReadAsText(ctx context.Context, view string, columns []string) error {
	abs, ok := s.files[view]
	if !ok {
		return fmt.Errorf("%s: no view %s", s.name, view)
	}
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".csv", ".tsv", ".tab":
	default:
		return fmt.Errorf("%s: view %s reads no CSV or TSV file", s.name, view)
	}
	reader := fileReader(abs, columns)
	if d := s.dialects[view]; d != nil {
		reader = d.reader(sqlString(abs), columns)
	}
	q := fmt.Sprintf("CREATE OR REPLACE VIEW %s AS SELECT * FROM %s", quoteIdent(DuckDB, view), reader)
	sctx, cancel := context.WithTimeout(ctx, s.opts.StatementTimeout)
	defer cancel()
	if _, err := s.db.ExecContext(sctx, q); err != nil {
		return fmt.Errorf("%s: read %s as text: %w", s.name, strings.Join(columns, ", "), err)
	}
	return nil
}

// Views returns the files source's views, one per input file it reads.
func (s *Source) Views() []FileView { return s.views }

// Unreadable returns, for each input file the files source could make no
// view of, its path and DuckDB's reason: "input/bad.json: Invalid Input
// Error: ...".
func (s *Source) Unreadable() []string { return s.unreadable }

// Rows runs SQL that Sift itself wrote (the built-in analyses' queries),
// without the statement guard but inside the engine's lockdown, and
// returns every row's values as the driver gives them.
func (s *Source) Rows(ctx context.Context, query string) ([][]any, error) {
	rows, err := s.fetch(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return rows, nil
}

// Each is Rows for results too large to hold: it hands fn each row's
// values in turn, and stops at fn's first error.
func (s *Source) Each(ctx context.Context, query string, fn func([]any) error) error {
	if err := s.each(ctx, query, nil, fn); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	return nil
}

// QuoteIdent quotes name as a DuckDB identifier.
func QuoteIdent(name string) string { return quoteIdent(DuckDB, name) }

// SQLString quotes s as a SQL string literal.
func SQLString(s string) string { return sqlString(s) }

// sqlString quotes s as a SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// duckReason is a DuckDB error as one line: its first paragraph (what
// failed and why, as "CSV Error on Line: 2 … This file is not utf-8
// encoded"), at most three lines of it, without the offending line's
// text and without the options DuckDB tried.
func duckReason(err error) string {
	var kept []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(kept) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(l, "Original Line:") {
			continue
		}
		if kept = append(kept, l); len(kept) == 3 {
			break
		}
	}
	return strings.Join(kept, " ")
}

// unreadableSize says how big an unreadable file is, when it can: an
// empty file is a different fix from a malformed one.
func unreadableSize(abs string) string {
	fi, err := os.Stat(abs)
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" (%d bytes)", fi.Size())
}
