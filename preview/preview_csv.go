package preview

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// delimiterCandidates are the field separators detectDelimiter chooses from.
var delimiterCandidates = []byte{',', '\t', ';', '|'}

// tailSampleBytes is how much of a large file's end is read to refine a row
// estimate.
const tailSampleBytes = 256 << 10

// previewDelimited fills p from a csv or tsv file: delimiter, header,
// sampled rows and column types, and the row count.
func previewDelimited(ctx context.Context, p *FilePreview, src *fileSample, opts Options) error {
	head, headRaw, err := src.decodedHead()
	if err != nil {
		return fmt.Errorf("decode the head as %s: %w", src.encoding, err)
	}
	text := string(head)
	delim := detectDelimiter(text, p.Kind)
	p.Delimiter = string(delim)

	headCount := newRecordCounter(delim)
	headCount.write(head)
	// Every record of the head: the first ones are sampled and typed, and
	// all of them counted in the column statistics.
	records, err := parseRecords(text, delim, math.MaxInt)
	if err != nil {
		return fmt.Errorf("parse the head as delimited text: %w", err)
	}
	if !src.whole() && headCount.inQuote && len(records) > 0 {
		// The head ends inside a quoted field: its last record is partial.
		records = records[:len(records)-1]
	}
	sheet, headerRows := buildTable(p.Name, records, opts)
	if !src.whole() && src.size <= opts.StatsMaxBytes {
		if err := streamStats(ctx, &sheet, src, delim, headerRows); err != nil {
			return fmt.Errorf("gather column statistics: %w", err)
		}
	}

	switch {
	case src.whole():
		sheet.RowCount = max(headCount.finish()-headerRows, 0)
		sheet.RowCountExact = true
	case src.size < opts.ExactCountLimit:
		c := newRecordCounter(delim)
		if err := src.streamDecoded(ctx, c.write); err != nil {
			return fmt.Errorf("count rows: %w", err)
		}
		sheet.RowCount = max(c.finish()-headerRows, 0)
		sheet.RowCountExact = true
	default:
		tail, tailRaw, err := src.tail(tailSampleBytes)
		if err != nil {
			return fmt.Errorf("read the tail to estimate rows: %w", err)
		}
		tailCount := newRecordCounter(delim)
		tailCount.write([]byte(tail))
		sheet.RowCount = max(estimateCount(src.size, headRaw+tailRaw, headCount.records+tailCount.finish())-headerRows, 0)
		sheet.Note = "row count estimated from the bytes per row at the head and tail of the file"
	}
	p.Sheets = []SheetPreview{sheet}
	return nil
}

// streamStats gathers sheet's column statistics over every record of the
// file, streamed once more in constant memory.
func streamStats(ctx context.Context, sheet *SheetPreview, src *fileSample, delim byte, headerRows int) error {
	r, err := src.reader()
	if err != nil {
		return err
	}
	cr := csv.NewReader(r)
	cr.Comma = rune(delim)
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	acc := newStatsAccumulator(sheet.Columns)
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var perr *csv.ParseError
			if errors.As(err, &perr) {
				continue // keep what parses, as the head's parse does
			}
			return err
		}
		if n < headerRows {
			continue
		}
		acc.add(rec)
	}
	sheet.Stats, sheet.StatsRows = acc.result(), acc.rows
	return nil
}

// estimateCount scales the records seen in sampled bytes to the file size,
// rounded to three significant digits so it does not look exact.
func estimateCount(size, sampledBytes int64, sampledRecords int) int {
	if sampledBytes <= 0 || sampledRecords <= 0 {
		return 0
	}
	est := float64(size) * float64(sampledRecords) / float64(sampledBytes)
	if est < 1000 {
		return int(math.Round(est))
	}
	scale := math.Pow(10, math.Floor(math.Log10(est))-2)
	return int(math.Round(est/scale) * scale)
}

// detectDelimiter picks the candidate that splits the sample's lines into
// the same number of fields most consistently; ties go to the candidate
// splitting into more fields, then to the extension's own delimiter (tab for
// tsv, comma otherwise). A file with one column gets the extension's.
func detectDelimiter(text, kind string) byte {
	preferred := byte(',')
	if kind == KindTSV {
		preferred = '\t'
	}
	lines := logicalLines(text, 50)
	if len(lines) == 0 {
		return preferred
	}
	best, bestScore, bestMode := preferred, 0.0, 0
	for _, d := range delimiterCandidates {
		freq := map[int]int{}
		for _, line := range lines {
			if n := countOutsideQuotes(line, d); n > 0 {
				freq[n]++
			}
		}
		mode, modeFreq := 0, 0
		for n, f := range freq {
			if f > modeFreq || (f == modeFreq && n > mode) {
				mode, modeFreq = n, f
			}
		}
		if mode == 0 {
			continue
		}
		score := float64(modeFreq) / float64(len(lines))
		better := score > bestScore+1e-9 ||
			(math.Abs(score-bestScore) <= 1e-9 && (mode > bestMode || (mode == bestMode && d == preferred)))
		if better {
			best, bestScore, bestMode = d, score, mode
		}
	}
	return best
}

// logicalLines splits text into at most n non-blank records, keeping
// newlines inside double quotes within their record.
func logicalLines(text string, n int) []string {
	var lines []string
	inQuote, start := false, 0
	for i := 0; i < len(text) && len(lines) < n; i++ {
		switch text[i] {
		case '"':
			inQuote = !inQuote
		case '\n':
			if !inQuote {
				if line := strings.TrimRight(text[start:i], "\r"); strings.TrimSpace(line) != "" {
					lines = append(lines, line)
				}
				start = i + 1
			}
		}
	}
	if len(lines) < n && start < len(text) {
		if line := strings.TrimRight(text[start:], "\r"); strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// countOutsideQuotes counts d in line outside double-quoted stretches.
func countOutsideQuotes(line string, d byte) int {
	n, inQuote := 0, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			inQuote = !inQuote
		case d:
			if !inQuote {
				n++
			}
		}
	}
	return n
}

// parseRecords parses up to limit records of delimited text, leniently:
// stray quotes are kept and rows may differ in width.
func parseRecords(text string, delim byte, limit int) ([][]string, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = rune(delim)
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	var records [][]string
	for len(records) < limit {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(records) > 0 {
				// Keep what parsed; the rest of the head is malformed.
				break
			}
			return nil, err
		}
		records = append(records, rec)
	}
	return records, nil
}

// recordCounter counts the records of delimited text fed to it in chunks,
// the way encoding/csv splits them: newlines inside a quoted field do not
// end a record, and blank lines are not records. It keeps no data, so it
// counts a file of any size in constant memory.
type recordCounter struct {
	delim          byte
	records        int
	inQuote        bool
	quoteInQuote   bool // the previous byte was a quote inside a quoted field
	fieldStart     bool
	lineHasContent bool
}

func newRecordCounter(delim byte) *recordCounter {
	return &recordCounter{delim: delim, fieldStart: true}
}

// write feeds the next chunk of text. Runs without quotes are scanned a
// line at a time with bytes.IndexByte, which keeps counting fast.
func (c *recordCounter) write(p []byte) {
	for len(p) > 0 {
		if c.inQuote {
			if c.quoteInQuote {
				c.quoteInQuote = false
				if p[0] == '"' { // an escaped quote ("")
					p = p[1:]
					continue
				}
				c.inQuote = false // the quote closed the field; p[0] is outside it
				continue
			}
			i := bytes.IndexByte(p, '"')
			if i < 0 {
				return
			}
			c.quoteInQuote = true
			p = p[i+1:]
			continue
		}
		i := bytes.IndexByte(p, '"')
		if i < 0 {
			c.unquoted(p)
			return
		}
		c.unquoted(p[:i])
		c.lineHasContent = true
		c.inQuote = c.fieldStart // a quote opens a field only at its start
		c.fieldStart = false
		p = p[i+1:]
	}
}

// unquoted feeds text that holds no quote and is outside quotes.
func (c *recordCounter) unquoted(seg []byte) {
	for len(seg) > 0 {
		j := bytes.IndexByte(seg, '\n')
		line := seg
		if j >= 0 {
			line = seg[:j]
		}
		for k := len(line) - 1; k >= 0; k-- {
			if line[k] != '\r' {
				c.lineHasContent = true
				c.fieldStart = line[k] == c.delim
				break
			}
		}
		if j < 0 {
			return
		}
		if c.lineHasContent {
			c.records++
		}
		c.lineHasContent = false
		c.fieldStart = true
		seg = seg[j+1:]
	}
}

// finish returns the record count, including a last record without a
// trailing newline.
func (c *recordCounter) finish() int {
	if c.lineHasContent || c.inQuote {
		return c.records + 1
	}
	return c.records
}
