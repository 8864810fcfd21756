// Package preview looks at data files cheaply: kind, encoding, sheets,
// typed columns, row counts and first rows of CSV/TSV, Excel, JSON, Parquet
// and text files, streamed so that time and memory stay bounded whatever a
// file's size, and the compact text of it that the agents read.
package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// The kinds of file a preview recognises.
const (
	KindCSV   = "csv"
	KindTSV   = "tsv"
	KindXLSX  = "xlsx"
	KindText  = "text"
	KindJSON  = "json"
	KindJSONL = "jsonl"
	// KindParquet is a Parquet file: its one table's columns and types
	// from the file's schema, its row count from the footer.
	KindParquet = "parquet"
	KindEmpty   = "empty"
	KindBinary  = "binary"
)

// ErrWorkbookUnreadable is wrapped by File when a workbook cannot be
// opened: the file is corrupt, password-protected, not really a workbook, or
// too large when unzipped.
var ErrWorkbookUnreadable = errors.New("the workbook could not be opened; it may be corrupt or password-protected (re-save it unprotected as .xlsx)")

// ErrNotRegularFile is wrapped by File when the path is a directory or
// another non-regular file.
var ErrNotRegularFile = errors.New("not a regular file (pass a file, not a directory)")

// Options bounds what a preview reads and how much text it gives a
// model. The zero value means every default; see withDefaults.
type Options struct {
	// MaxRows is how many data rows of each sheet are kept and shown.
	// Default 20.
	MaxRows int
	// MaxColumns is how many columns show sample values; the remaining
	// columns are listed by name and type only. Default 20.
	MaxColumns int
	// MaxCellChars truncates each cell value and column name. Default 40.
	MaxCellChars int
	// MaxLineChars truncates each line of a text preview. Default 200.
	MaxLineChars int
	// MaxLines is how many leading lines a text preview keeps. Default 20.
	MaxLines int
	// MaxChars bounds one file's compact preview, in characters (runes).
	// Default 4000.
	MaxChars int
	// MaxTotalChars bounds All's whole output. Default 16000.
	MaxTotalChars int
	// TypeSampleRows is how many leading data rows column types are
	// inferred from (at least MaxRows). Default 200.
	TypeSampleRows int
	// ExactCountLimit is the file size below which rows and lines are
	// counted exactly by streaming the file; larger files get an estimate
	// from the bytes per row of samples at the head and tail. Default 64 MiB.
	ExactCountLimit int64
	// CountWithStatsOnly counts a delimited file's rows exactly only when
	// its statistics are gathered from every row (StatsMaxBytes): a
	// larger one gets the estimate, without a pass over the whole file
	// just to count. For a caller whose previews no model reads and no
	// one is shown (a run with no model, answered by a built-in, which
	// counts the rows itself).
	CountWithStatsOnly bool
	// MaxSheets is how many sheets of a workbook are previewed with rows;
	// the rest are listed with their size only. Default 20.
	MaxSheets int
	// MaxScanRows bounds how many rows are stepped over to count a sheet
	// that does not declare its used range. Default 100000.
	MaxScanRows int
	// JSONScanBytes bounds how many bytes of a JSON document are read to
	// describe its shape (encoding/json walks about 20 MB/s); past it, the
	// top-level array's length is estimated. Default 2 MiB.
	JSONScanBytes int64
	// StatsMaxBytes is the largest delimited file whose every row column
	// statistics are gathered from (one more streaming pass); larger files
	// get them from the rows of the first MiB. Default 16 MiB.
	StatsMaxBytes int64
	// MaxUnzipBytes refuses workbooks whose parts unzip to more than this,
	// a guard against zip bombs. Default 2 GiB.
	MaxUnzipBytes int64
	// BaseDir, when set, names each file by its path relative to BaseDir
	// (e.g. "input/sales.csv", which code can open as it is) instead of its
	// base name. Optional.
	BaseDir string
}

// displayName is how a preview names the file at path.
func (o Options) displayName(path string) string {
	if o.BaseDir != "" {
		if rel, err := filepath.Rel(o.BaseDir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// withDefaults fills every unset field; it is the one place defaults live.
func (o Options) withDefaults() Options {
	setInt := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setInt64 := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	setInt(&o.MaxRows, 20)
	setInt(&o.MaxColumns, 20)
	setInt(&o.MaxCellChars, 40)
	setInt(&o.MaxLineChars, 200)
	setInt(&o.MaxLines, 20)
	setInt(&o.MaxChars, 4000)
	setInt(&o.MaxTotalChars, 16000)
	setInt(&o.TypeSampleRows, 200)
	if o.TypeSampleRows < o.MaxRows {
		o.TypeSampleRows = o.MaxRows
	}
	setInt64(&o.ExactCountLimit, 64<<20)
	setInt(&o.MaxSheets, 20)
	setInt(&o.MaxScanRows, 100000)
	setInt64(&o.JSONScanBytes, 2<<20)
	setInt64(&o.StatsMaxBytes, 16<<20)
	setInt64(&o.MaxUnzipBytes, 2<<30)
	if o.CountWithStatsOnly {
		o.ExactCountLimit = min(o.ExactCountLimit, o.StatsMaxBytes+1)
	}
	return o
}

// SameTables reports whether previews made with options a and b find the
// same tables: the same sheets, with the same columns named and typed
// alike. Such options differ only in how much a preview shows (rows,
// columns with samples, cell and line widths, budgets), how it counts
// rows and gathers statistics, and what it calls the file (BaseDir, which
// also names a file's one table), so one preview can serve both: a run's
// data context and its data's fingerprint.
func SameTables(a, b Options) bool {
	tables := func(o Options) Options {
		// withDefaults raises TypeSampleRows to MaxRows first: that part
		// of MaxRows stays.
		o = o.withDefaults()
		o.MaxRows, o.MaxColumns, o.MaxCellChars, o.MaxLineChars, o.MaxLines, o.MaxChars, o.MaxTotalChars = 0, 0, 0, 0, 0, 0, 0
		o.ExactCountLimit, o.StatsMaxBytes, o.CountWithStatsOnly, o.BaseDir = 0, 0, false, ""
		return o
	}
	return tables(a) == tables(b)
}

// FilePreview is what a cheap look at one input file found: enough for a
// model to plan with, never the whole file.
type FilePreview struct {
	// Path is the file as given; Name its base name.
	Path string `json:"path"`
	Name string `json:"name"`
	// Kind is one of the Kind* constants.
	Kind string `json:"kind"`
	// Size is the file size in bytes.
	Size int64 `json:"size"`
	// Encoding is the detected text encoding (an Encoding* name) of text
	// kinds; empty for workbooks, binary and empty files.
	Encoding string `json:"encoding,omitempty"`
	// BOM reports that the text starts with a byte order mark.
	BOM bool `json:"bom,omitempty"`
	// Delimiter is the field separator of csv and tsv files.
	Delimiter string `json:"delimiter,omitempty"`
	// Sheets are the tables: every sheet of a workbook, the one table of a
	// csv/tsv file, the records of a jsonl file.
	Sheets []SheetPreview `json:"sheets,omitempty"`
	// Lines are the first lines of a text file (or of a json file that does
	// not parse), each truncated.
	Lines []string `json:"lines,omitempty"`
	// LineCount is the number of lines of text kinds, exact when
	// LineCountExact, else estimated.
	LineCount      int  `json:"line_count,omitempty"`
	LineCountExact bool `json:"line_count_exact,omitempty"`
	// JSONShape describes a json document's structure, or the keys of a
	// jsonl file's first records.
	JSONShape string `json:"json_shape,omitempty"`
	// Note says anything else a reader should know, in plain words.
	Note string `json:"note,omitempty"`
}

// SheetPreview is one table: a sheet, or the single table of a csv file.
type SheetPreview struct {
	Name    string   `json:"name"`
	Columns []Column `json:"columns"`
	// Rows are the first data rows (header excluded), cells truncated.
	Rows [][]string `json:"rows,omitempty"`
	// RowCount is the number of data rows, header excluded: exact when
	// RowCountExact, else estimated (see Note for how).
	RowCount      int  `json:"row_count"`
	RowCountExact bool `json:"row_count_exact"`
	// Merged are the merged cell ranges of a sheet, such as "A1:D1".
	Merged []string `json:"merged,omitempty"`
	// Note says how the row count was found, or why the sheet was not read.
	Note string `json:"note,omitempty"`
	// Stats summarise each column (in the order of Columns) over the
	// first StatsRows data rows: every row when StatsRows is RowCount.
	Stats     []ColumnStats `json:"stats,omitempty"`
	StatsRows int           `json:"stats_rows,omitempty"`
}

// Column is one column's name and inferred type (a Column* constant).
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// previewHeadBytes is how much of a text file's head is read to sample it.
const previewHeadBytes = 1 << 20

// File looks at the file at path cheaply and returns what it found. It
// reads a text file's first MiB and, for a large one, 256 KiB of its tail;
// files under ExactCountLimit are streamed once more, in constant memory, to
// count rows exactly; JSON is walked for at most JSONScanBytes; workbooks
// are streamed row by row; a Parquet file's footer is read and, column by
// column, the pages of its first rows. So its time and memory stay bounded
// whatever the file's size. The kind comes from the extension (.csv .tsv
// .txt .md .json .jsonl .xlsx .xlsm .parquet .pq), then from the content:
// an empty file is KindEmpty and a file with binary content is KindBinary,
// neither an error. A missing or unreadable file, a workbook that will not
// open (ErrWorkbookUnreadable) or a Parquet file that will not read
// (ErrParquetUnreadable) is an error naming the path.
func File(ctx context.Context, path string, opts Options) (*FilePreview, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("preview %s: %w", path, err)
	}
	// Stat first: a FIFO or device is refused before an open that could
	// block on it.
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("preview %s: cannot read the file (check the path and its permissions): %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("preview %s: %w", path, ErrNotRegularFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("preview %s: cannot read the file (check its permissions): %w", path, err)
	}
	defer f.Close()
	return Opened(ctx, f, path, opts)
}

// Opened is File for a file the caller has opened (a session's
// file, opened beneath its workspace without following links): it reads
// only from f, never by name; path names the file in the preview and its
// extension chooses the kind.
func Opened(ctx context.Context, f *os.File, path string, opts Options) (*FilePreview, error) {
	opts = opts.withDefaults()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("preview %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("preview %s: cannot read the file (check the path and its permissions): %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("preview %s: %w", path, ErrNotRegularFile)
	}
	p := &FilePreview{Path: path, Name: opts.displayName(path), Size: info.Size()}
	if p.Size == 0 {
		p.Kind = KindEmpty
		p.Note = "the file is empty (0 bytes)"
		return p, nil
	}
	kind := kindByExtension(path)
	if kind == KindParquet {
		p.Kind = KindParquet
		if err := previewParquet(ctx, p, f, opts); err != nil {
			return nil, fmt.Errorf("preview %s: %w", path, err)
		}
		return p, nil
	}
	if kind == KindXLSX {
		p.Kind = KindXLSX
		if err := previewWorkbook(ctx, p, f, opts); err != nil {
			return nil, err
		}
		return p, nil
	}
	head, err := readHead(f, previewHeadBytes)
	if err != nil {
		return nil, fmt.Errorf("preview %s: read the head of the file: %w", path, err)
	}
	enc := DetectEncoding(head)
	if looksBinary(head, enc) {
		p.Kind = KindBinary
		p.Note = binaryNote(path, kind, head)
		return p, nil
	}
	p.Encoding = enc
	p.BOM = hasBOM(head)
	if kind == "" {
		kind = KindText
	}
	p.Kind = kind
	src := &fileSample{f: f, head: head, size: p.Size, encoding: enc}
	switch kind {
	case KindCSV, KindTSV:
		err = previewDelimited(ctx, p, src, opts)
	case KindJSON:
		err = previewJSON(ctx, p, src, opts)
	case KindJSONL:
		err = previewJSONL(ctx, p, src, opts)
	default:
		err = previewText(ctx, p, src, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("preview %s: %w", path, err)
	}
	return p, nil
}

// kindByExtension maps a file extension to a kind, or "" when the content
// must decide.
func kindByExtension(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return KindCSV
	case ".tsv", ".tab":
		return KindTSV
	case ".xlsx", ".xlsm":
		return KindXLSX
	case ".txt", ".md", ".markdown", ".log", ".text":
		return KindText
	case ".json":
		return KindJSON
	case ".jsonl", ".ndjson":
		return KindJSONL
	case ".parquet", ".pq":
		return KindParquet
	}
	return ""
}

// binaryNote says plainly why a file was not previewed, with a hint for the
// common cases of a misnamed or legacy file.
func binaryNote(path, kindByExt string, head []byte) string {
	note := "binary content: it cannot be previewed as text"
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case looksParquet(head):
		note += "; it looks like a Parquet file: name it .parquet"
	case ext == ".xls":
		note += "; it looks like a legacy .xls workbook: convert it to .xlsx or read it with pandas (xlrd)"
	case kindByExt != "":
		note += fmt.Sprintf("; its %s extension does not match its content", ext)
	}
	return note
}

// readHead reads up to n bytes from the start of f.
func readHead(f *os.File, n int) ([]byte, error) {
	buf := make([]byte, n)
	got, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:got], nil
}

// looksBinary reports whether the head of a file is binary rather than text
// in enc: it holds NUL bytes (UTF-16 aside), or more than a tenth of its
// characters are control characters other than whitespace.
func looksBinary(head []byte, enc string) bool {
	sample := head
	if len(sample) > 8192 {
		sample = sample[:8192]
	}
	if enc == EncodingUTF16LE || enc == EncodingUTF16BE {
		decoded, err := decodeBytes(sample, enc)
		if err != nil {
			return true
		}
		sample = decoded
	} else if bytes.IndexByte(sample, 0) >= 0 {
		return true
	}
	var controls, chars int
	for _, c := range sample {
		if c >= 0x80 {
			continue
		}
		chars++
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b || c == 0x7f {
			controls++
		}
	}
	return chars > 0 && controls*10 > chars
}

// fileSample is an open text file with its head already read.
type fileSample struct {
	f        *os.File
	head     []byte
	size     int64
	encoding string
}

// whole reports whether the head is the whole file.
func (s *fileSample) whole() bool { return int64(len(s.head)) >= s.size }

// decodedHead is the head as UTF-8 text, with the number of file bytes
// that text stands for. When the head is not the whole file, the text is cut
// after its last newline so no partial line or character remains.
func (s *fileSample) decodedHead() ([]byte, int64, error) {
	b, err := decodeBytes(s.head, s.encoding)
	if err != nil {
		return nil, 0, err
	}
	raw := int64(len(s.head))
	if !s.whole() {
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			raw = raw * int64(i+1) / int64(len(b))
			b = b[:i+1]
		}
	}
	return bytes.TrimPrefix(b, []byte("\uFEFF")), raw, nil
}

// tail reads up to n bytes from the end of the file (none when the head
// already covers it), aligned to whole UTF-16 code units, decoded and cut
// before its first newline so it starts at a line boundary.
func (s *fileSample) tail(n int64) (string, int64, error) {
	start := s.size - n
	if start < int64(len(s.head)) {
		return "", 0, nil
	}
	if start%2 == 1 {
		start++
	}
	buf := make([]byte, s.size-start)
	if _, err := s.f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return "", 0, err
	}
	enc := s.encoding
	if enc == EncodingUTF8BOM {
		enc = EncodingUTF8
	}
	b, err := decodeBytes(buf, enc)
	if err != nil {
		return "", 0, err
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return "", 0, nil
	}
	// Bytes of the file the kept text stands for, in proportion.
	raw := int64(len(buf)) * int64(len(b)-i-1) / int64(max(len(b), 1))
	return string(b[i+1:]), raw, nil
}

// reader reads the whole file from its start as UTF-8 text.
func (s *fileSample) reader() (io.Reader, error) {
	start := int64(0)
	if s.encoding == EncodingUTF8BOM {
		start = int64(len("\uFEFF"))
	}
	if _, err := s.f.Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	if asciiCompatible(s.encoding) {
		return s.f, nil
	}
	return NewDecodingReader(s.f, s.encoding)
}

// streamDecoded calls fn with successive chunks of the whole file as UTF-8
// (raw bytes for UTF-8, which needs no decoding), checking ctx between
// chunks.
func (s *fileSample) streamDecoded(ctx context.Context, fn func([]byte)) error {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	var r io.Reader = s.f
	if !asciiCompatible(s.encoding) {
		dr, err := NewDecodingReader(s.f, s.encoding)
		if err != nil {
			return err
		}
		r = dr
	}
	buf := make([]byte, 256<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		if n > 0 {
			fn(buf[:n])
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// truncateRunes cuts s to at most n runes, marking the cut with "…".
// Newlines and tabs become spaces so a cell stays on its line.
func truncateRunes(s string, n int) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
	}
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}
