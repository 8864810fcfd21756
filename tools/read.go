package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// Bounds of one read_file call.
const (
	// DefaultReadLines is how many lines read_file shows when no end_line
	// is given.
	DefaultReadLines = 200
	// MaxReadLines is the most lines one read_file call shows.
	MaxReadLines = 1000
	// DefaultReadRows is how many workbook rows read_file shows when no
	// end_row is given.
	DefaultReadRows = 100
	// MaxReadRows is the most workbook rows one read_file call shows.
	MaxReadRows = 500
	// maxLineBytes cuts very long lines (minified JSON, one-line dumps).
	maxLineBytes = 4000
)

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	Path      string `json:"path" jsonschema_description:"e.g. out/result.csv"`
	StartLine int    `json:"start_line,omitempty" jsonschema_description:"text/CSV, 1-based"`
	EndLine   int    `json:"end_line,omitempty" jsonschema_description:"text/CSV; at most 1000 lines a call"`
	Sheet     string `json:"sheet,omitempty" jsonschema_description:"xlsx; default the first"`
	StartRow  int    `json:"start_row,omitempty" jsonschema_description:"xlsx, 1-based"`
	EndRow    int    `json:"end_row,omitempty" jsonschema_description:"xlsx; at most 500 rows a call"`
}

const readFileDesc = "Read part of a workspace file as numbered lines (any text encoding; xlsx rows as CSV; a CSV header is always shown). " +
	"The reply says how to read more."

// readFile implements read_file.
func readFile(ctx context.Context, op operator.Operator, args ReadFileArgs) (string, error) {
	if args.Path == "" {
		return "", errors.New("read_file: path is required, e.g. input/sales.csv")
	}
	// Opened beneath the workspace by descriptor, and read from that
	// descriptor only: a link or FIFO code planted is refused, and a
	// directory swapped for a link meanwhile changes nothing.
	f, err := op.Open(args.Path)
	if err != nil {
		return "", fmt.Errorf("read_file %s: %w", args.Path, relErr(op, err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("read_file %s: %w", args.Path, relErr(op, err))
	}
	if fi.IsDir() {
		return "", fmt.Errorf("read_file %s: it is a directory; call list_files with dir=%q to see its files", args.Path, args.Path)
	}
	if isWorkbook(args.Path) {
		return readSheet(ctx, f, args)
	}
	return readLines(ctx, f, fi.Size(), args)
}

// isWorkbook reports whether path names an Excel workbook excelize reads.
func isWorkbook(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm":
		return true
	}
	return false
}

// isDelimited reports whether path names a CSV or TSV file, whose first
// line is a header.
func isDelimited(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv", ".tab":
		return true
	}
	return false
}

// lineRange applies read_file's defaults and bounds to a 1-based range; the
// note says when the range was shortened.
func lineRange(start, end, def, most int, unit string) (int, int, string, error) {
	if start <= 0 {
		start = 1
	}
	if end <= 0 {
		end = start + def - 1
	}
	if end < start {
		return 0, 0, "", fmt.Errorf("end_%s %d is before start_%s %d", unit, end, unit, start)
	}
	note := ""
	if end-start+1 > most {
		end = start + most - 1
		note = fmt.Sprintf(" (at most %d %ss per call)", most, unit)
	}
	return start, end, note, nil
}

// readLines shows a line range of a text file, streaming it once: lines
// before the range are skipped, lines after it only counted.
func readLines(ctx context.Context, f *os.File, size int64, args ReadFileArgs) (string, error) {
	start, end, note, err := lineRange(args.StartLine, args.EndLine, DefaultReadLines, MaxReadLines, "line")
	if err != nil {
		return "", fmt.Errorf("read_file %s: %w", args.Path, err)
	}
	if size == 0 {
		return args.Path + " is empty (0 bytes).", nil
	}
	text, enc, err := preview.DecodeReader(f)
	if err != nil {
		return "", fmt.Errorf("read_file %s: %w", args.Path, err)
	}
	br := bufio.NewReaderSize(text, 64<<10)
	header := isDelimited(args.Path)

	if head, _ := br.Peek(512); bytes.IndexByte(head, 0) >= 0 {
		return "", fmt.Errorf("read_file %s: it looks like a binary file, not text; call preview on it, or open it in python", args.Path)
	}

	var body strings.Builder
	total := 0
	for {
		if total%4096 == 0 {
			if cerr := ctx.Err(); cerr != nil {
				return "", fmt.Errorf("read_file %s: %w", args.Path, cerr)
			}
		}
		n := total + 1
		if n > end && !(header && n == 1) {
			rest, err := countRest(ctx, br)
			if err != nil {
				return "", fmt.Errorf("read_file %s: %w", args.Path, err)
			}
			total += rest
			break
		}
		if n < start && !(header && n == 1) {
			more, err := skipLine(br)
			if err != nil {
				return "", fmt.Errorf("read_file %s: line %d: %w", args.Path, n, err)
			}
			if !more {
				break
			}
			total = n
			continue
		}
		line, cut, err := readLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read_file %s: line %d: %w", args.Path, n, err)
		}
		if line == nil {
			break
		}
		total = n
		fmt.Fprintf(&body, "%6d\t%s", n, line)
		if cut > 0 {
			fmt.Fprintf(&body, " [... %d more bytes on this line]", cut)
		}
		body.WriteByte('\n')
		if header && n == 1 && start > 2 {
			body.WriteString("   ...\n")
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}

	var b strings.Builder
	desc := args.Path
	if enc != preview.EncodingUTF8 {
		desc += fmt.Sprintf(" (decoded from %s)", enc)
	}
	if start > total {
		return "", fmt.Errorf("read_file %s: start_line %d is past the end: the file has %d lines", args.Path, start, total)
	}
	last := min(end, total)
	fmt.Fprintf(&b, "%s: lines %d-%d of %d%s\n", desc, start, last, total, note)
	b.WriteString(body.String())
	if last < total {
		next := last + 1
		fmt.Fprintf(&b, "[%d more lines: call read_file with start_line=%d end_line=%d to read on]\n",
			total-last, next, min(total, next+DefaultReadLines-1))
	}
	return b.String(), nil
}

// skipLine consumes the next line without keeping it; more is false when
// there was no line left.
func skipLine(br *bufio.Reader) (more bool, err error) {
	for {
		part, err := br.ReadSlice('\n')
		if len(part) > 0 {
			more = true
		}
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return more, nil
		default:
			return false, err
		}
	}
}

// countRest counts the lines left in r (a last line without newline
// included) without keeping them.
func countRest(ctx context.Context, r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n := 0
	last := byte('\n') // nothing left counts as no line
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
		if cerr := ctx.Err(); cerr != nil {
			return 0, cerr
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

// readLine returns the next line without its line ending, keeping at most
// maxLineBytes (cut at a rune boundary) and reporting how many bytes were
// dropped. At the end of input it returns io.EOF, with the last line when
// it had no newline.
func readLine(br *bufio.Reader) (line []byte, cut int, err error) {
	for {
		part, isPrefix, rerr := br.ReadLine()
		if rerr != nil {
			if errors.Is(rerr, io.EOF) && line != nil {
				return trimLine(line), cut, io.EOF
			}
			return nil, 0, rerr
		}
		if line == nil {
			line = []byte{}
		}
		if room := maxLineBytes - len(line); room > 0 {
			k := min(room, len(part))
			line = append(line, part[:k]...)
			cut += len(part) - k
		} else {
			cut += len(part)
		}
		if !isPrefix {
			return trimLine(line), cut, nil
		}
	}
}

// trimLine drops a partial rune that a cut at maxLineBytes left at the end.
func trimLine(line []byte) []byte {
	for i := 0; i < utf8.UTFMax-1 && len(line) > 0; i++ {
		r, size := utf8.DecodeLastRune(line)
		if r != utf8.RuneError || size != 1 {
			break
		}
		line = line[:len(line)-1]
	}
	return line
}

// readSheet shows a row range of one workbook sheet, streaming its rows with
// excelize's Rows iterator rather than loading every cell.
func readSheet(ctx context.Context, f *os.File, args ReadFileArgs) (string, error) {
	if args.StartLine != 0 || args.EndLine != 0 {
		if args.StartRow == 0 && args.EndRow == 0 {
			args.StartRow, args.EndRow = args.StartLine, args.EndLine
		}
	}
	start, end, note, err := lineRange(args.StartRow, args.EndRow, DefaultReadRows, MaxReadRows, "row")
	if err != nil {
		return "", fmt.Errorf("read_file %s: %w", args.Path, err)
	}
	wb, err := excelize.OpenReader(f)
	if err != nil {
		return "", fmt.Errorf("read_file %s: cannot open the workbook: %w; check it is a real .xlsx file (preview shows what it is)", args.Path, err)
	}
	defer wb.Close()
	sheets := wb.GetSheetList()
	if len(sheets) == 0 {
		return "", fmt.Errorf("read_file %s: the workbook has no sheets", args.Path)
	}
	sheet := args.Sheet
	if sheet == "" {
		sheet = sheets[0]
	} else if idx, _ := wb.GetSheetIndex(sheet); idx < 0 {
		return "", fmt.Errorf("read_file %s: there is no sheet %q; the sheets are: %s", args.Path, sheet, quoteList(sheets))
	}
	rows, err := wb.Rows(sheet)
	if err != nil {
		return "", fmt.Errorf("read_file %s: sheet %q: %w", args.Path, sheet, err)
	}
	defer rows.Close()

	var body strings.Builder
	cw := csv.NewWriter(&body)
	total := 0
	for rows.Next() {
		total++
		if total%1024 == 0 {
			if cerr := ctx.Err(); cerr != nil {
				return "", fmt.Errorf("read_file %s: %w", args.Path, cerr)
			}
		}
		if total == 1 || (total >= start && total <= end) {
			cells, err := rows.Columns()
			if err != nil {
				return "", fmt.Errorf("read_file %s: sheet %q row %d: %w", args.Path, sheet, total, err)
			}
			fmt.Fprintf(&body, "%6d\t", total)
			_ = cw.Write(cells)
			cw.Flush()
			if total == 1 && start > 2 {
				body.WriteString("   ...\n")
			}
		}
	}
	if err := rows.Error(); err != nil {
		return "", fmt.Errorf("read_file %s: sheet %q: %w", args.Path, sheet, err)
	}
	var b strings.Builder
	if total == 0 {
		fmt.Fprintf(&b, "%s, sheet %q: the sheet is empty. Sheets: %s\n", args.Path, sheet, quoteList(sheets))
		return b.String(), nil
	}
	if start > total {
		return "", fmt.Errorf("read_file %s: start_row %d is past the end: sheet %q has %d rows", args.Path, start, sheet, total)
	}
	last := min(end, total)
	fmt.Fprintf(&b, "%s, sheet %q: rows %d-%d of %d%s (sheets: %s)\n", args.Path, sheet, start, last, total, note, quoteList(sheets))
	b.WriteString(body.String())
	if last < total {
		next := last + 1
		fmt.Fprintf(&b, "[%d more rows: call read_file with sheet=%q start_row=%d end_row=%d to read on]\n",
			total-last, sheet, next, min(total, next+DefaultReadRows-1))
	}
	return b.String(), nil
}

// quoteList renders names as a comma-separated list of quoted strings.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
