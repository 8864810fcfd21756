package templates

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/xuri/excelize/v2"
)

// DuckDB reads CSV/TSV, JSON and Parquet in UTF-8. A workbook's sheet, or
// a text file in another encoding, is first written as a UTF-8 file DuckDB
// reads, in a directory of the host's own (never under the workspace,
// whose work/ the sandbox can swap for a link), from the input opened
// through the confined opener; the copy may grow to the bound of DuckDB's
// spill directory (FilesOptions.TempBytes), no more, and is removed when
// the engine closes.

// duckInput is the file DuckDB reads for the input at rel: the input
// itself, or a copy written for it under dir (removed by cleanup).
type duckInput struct {
	dir, rel string
	// sheet is the workbook's sheet the copy holds; datetimes the names
	// of its columns pandas reads as dates and times (writeSheetCSV).
	sheet     string
	datetimes map[string]bool
	// mixed are its text columns holding numbers (sheetTable.mixed).
	mixed   map[string]bool
	cleanup func()
}

// isDelimited reports whether the file at p is delimited text: CSV, TSV.
func isDelimited(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".csv", ".tsv", ".tab":
		return true
	}
	return false
}

// abs is the path DuckDB reads.
func (in duckInput) abs() string { return filepath.Join(in.dir, filepath.FromSlash(in.rel)) }

// prepareInput makes the input at rel (in the workspace at root) readable
// by DuckDB: sheet of a workbook as CSV, text in encoding as UTF-8.
func prepareInput(ctx context.Context, root, rel string, p Params, fo sqldb.FilesOptions) (duckInput, error) {
	return prepareCopy(ctx, root, rel, p, fo, false)
}

// prepareCopy is prepareInput; with lineEnds, a text file is copied with
// its lines ending in LF alone (lineEndWriter), for DuckDB's sniffer,
// which refuses a file whose lines end in CRLF but for some.
func prepareCopy(ctx context.Context, root, rel string, p Params, fo sqldb.FilesOptions, lineEnds bool) (duckInput, error) {
	workbook := isWorkbook(rel)
	if !workbook && utf8Codec(p.Encoding) && !lineEnds {
		real, err := filepath.EvalSymlinks(root)
		if err != nil {
			return duckInput{}, err
		}
		return duckInput{dir: real, rel: rel, cleanup: func() {}}, nil
	}
	parent := fo.TempDir
	if parent == "" {
		parent = os.TempDir()
	}
	dir, err := os.MkdirTemp(parent, "sift-duckdb-input-")
	if err != nil {
		return duckInput{}, fmt.Errorf("make the directory for DuckDB's copy of %s under %s: %w; set TMPDIR to a writable directory", rel, parent, err)
	}
	in := duckInput{dir: dir, cleanup: func() { os.RemoveAll(dir) }}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		in.dir = real
	}
	ok := false
	defer func() {
		if !ok {
			in.cleanup()
		}
	}()
	if err := os.Mkdir(filepath.Join(dir, "input"), 0o700); err != nil {
		return duckInput{}, err
	}
	r, err := confined.OpenRoot(root)
	if err != nil {
		return duckInput{}, err
	}
	defer r.Close()
	src, err := r.Open(rel)
	if err != nil {
		return duckInput{}, err
	}
	defer src.Close()
	base := path.Base(rel)
	if workbook {
		base = strings.TrimSuffix(base, path.Ext(base)) + ".csv"
	}
	in.rel = "input/" + base
	out, err := os.OpenFile(in.abs(), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return duckInput{}, err
	}
	limit := fo.TempBytes
	if limit <= 0 {
		limit = sqldb.DefaultFilesTempBytes
	}
	w := &boundedWriter{w: bufio.NewWriterSize(out, 1<<16), left: limit}
	switch {
	case workbook:
		in.sheet, in.datetimes, in.mixed, err = copySheet(ctx, src, p.Sheet, w)
	case lineEnds:
		le := &lineEndWriter{w: w}
		if utf8Codec(p.Encoding) {
			err = copyText(ctx, src, le)
		} else {
			err = transcode(ctx, src, p.Encoding, le)
		}
		if err == nil {
			err = le.close()
		}
	default:
		err = transcode(ctx, src, p.Encoding, w)
	}
	if err == nil {
		err = w.w.Flush()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, errCopyTooLarge) {
		return duckInput{}, templateError(fmt.Sprintf("the UTF-8 copy of %s that DuckDB reads would pass %d MiB (the bound of DuckDB's scratch, %s); raise it or convert the file to UTF-8 CSV", rel, limit>>20, sqldb.FilesTempEnv))
	}
	if err != nil {
		return duckInput{}, err
	}
	ok = true
	return in, nil
}

// copySheet writes the named sheet (the first with data when none is
// named, as load() picks it) of the workbook read from src as CSV; "*"
// writes every sheet of the first one's columns, stacked
// (writeSheetsCSV).
func copySheet(ctx context.Context, src *os.File, sheet string, w io.Writer) (string, map[string]bool, map[string]bool, error) {
	wb, err := excelize.OpenReader(src)
	if err != nil {
		return "", nil, nil, templateError(fmt.Sprintf("cannot open the workbook: %v; check it is a real .xlsx file", err))
	}
	defer wb.Close()
	if sheet == "*" {
		datetimes, err := writeSheetsCSV(ctx, wb, w)
		return sheet, datetimes, nil, err
	}
	sheets := wb.GetSheetList()
	if sheet == "" {
		sheet = firstSheetWithData(wb, sheets)
	} else if idx, _ := wb.GetSheetIndex(sheet); idx < 0 {
		return "", nil, nil, templateError(fmt.Sprintf("there is no sheet %s; the sheets are: %s", pyQuote(sheet), strings.Join(sheets, ", ")))
	}
	st, err := readSheet(ctx, wb, sheet)
	if err != nil {
		return "", nil, nil, err
	}
	return sheet, st.datetimes, st.mixed, st.writeCSV(w)
}

// firstSheetWithData is common.py's _first_sheet_with_data: the first
// sheet with a non-blank cell in its first 50 rows.
func firstSheetWithData(wb *excelize.File, sheets []string) string {
	for _, s := range sheets {
		rows, err := wb.Rows(s)
		if err != nil {
			continue
		}
		for n := 0; n < 50 && rows.Next(); n++ {
			cells, _ := rows.Columns()
			for _, c := range cells {
				if strings.TrimSpace(c) != "" {
					rows.Close()
					return s
				}
			}
		}
		rows.Close()
	}
	if len(sheets) == 0 {
		return ""
	}
	return sheets[0]
}

// transcode writes the text read from src in the Python codec enc as
// UTF-8, streaming. A byte sequence that is not enc's fails, as pandas
// fails on it.
func transcode(ctx context.Context, src io.Reader, enc string, w io.Writer) error {
	e, ok := duckCodec(enc)
	if !ok {
		return fmt.Errorf("the DuckDB engine does not decode %s", enc)
	}
	r := e.NewDecoder().Reader(src)
	buf := make([]byte, 1<<16)
	var at int64
	var carry []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		chunk := append(carry, buf[:n]...)
		// A rune may straddle two reads: check the whole ones only.
		cut := len(chunk)
		for k := 0; k < utf8.UTFMax-1 && cut > 0 && !utf8.FullRune(chunk[lastRuneStart(chunk[:cut]):cut]); k++ {
			cut = lastRuneStart(chunk[:cut])
		}
		if i := strings.IndexRune(string(chunk[:cut]), utf8.RuneError); i >= 0 {
			return templateError(fmt.Sprintf("the file does not read as %s (at about byte %d of its text); give its encoding (encoding=...)", enc, at+int64(i)))
		}
		if _, werr := w.Write(chunk[:cut]); werr != nil {
			return werr
		}
		at += int64(cut)
		carry = append([]byte(nil), chunk[cut:]...)
		if err == io.EOF {
			if len(carry) > 0 {
				return templateError(fmt.Sprintf("the file does not read as %s (it ends inside a character); give its encoding (encoding=...)", enc))
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read the file as %s: %w", enc, err)
		}
	}
}

// copyText copies src to w as it is.
func copyText(ctx context.Context, src io.Reader, w io.Writer) error {
	buf := make([]byte, 1<<16)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := src.Read(buf)
		if _, werr := w.Write(buf[:n]); werr != nil {
			return werr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lineEndWriter writes UTF-8 CSV text with each line ending outside a
// quoted field (CRLF, or CR alone) as LF, as pandas reads every one of
// them; a quoted field keeps its line breaks as they are, as pandas
// keeps them.
type lineEndWriter struct {
	w          io.Writer
	quoted, cr bool
	out        []byte
}

func (l *lineEndWriter) Write(p []byte) (int, error) {
	l.out = l.out[:0]
	for _, b := range p {
		if l.cr {
			l.cr = false
			l.out = append(l.out, '\n')
			if b == '\n' {
				continue
			}
		}
		switch {
		case b == '"':
			l.quoted = !l.quoted
		case b == '\r' && !l.quoted:
			l.cr = true
			continue
		}
		l.out = append(l.out, b)
	}
	if _, err := l.w.Write(l.out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// close ends a last line that ended in CR.
func (l *lineEndWriter) close() error {
	if l.cr {
		l.cr = false
		_, err := l.w.Write([]byte{'\n'})
		return err
	}
	return nil
}

// lastRuneStart is the index where the last rune of b starts.
func lastRuneStart(b []byte) int {
	i := len(b) - 1
	for i > 0 && !utf8.RuneStart(b[i]) && len(b)-i < utf8.UTFMax {
		i--
	}
	return max(i, 0)
}

// errCopyTooLarge: the copy passed its bound.
var errCopyTooLarge = errors.New("copy too large")

// boundedWriter fails past left bytes.
type boundedWriter struct {
	w    *bufio.Writer
	left int64
}

func (b *boundedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > b.left {
		return 0, errCopyTooLarge
	}
	b.left -= int64(len(p))
	return b.w.Write(p)
}
