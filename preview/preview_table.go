package preview

import (
	"fmt"
	"strconv"
	"strings"
)

// maxTableColumns bounds the columns a preview keeps of a very wide table;
// the rest are only counted.
const maxTableColumns = 1000

// maxNameChars bounds a stored column name (Compact truncates further).
const maxNameChars = 200

// buildTable turns the leading records of a table (header first, when there
// is one) into a SheetPreview: column names and inferred types, the first
// data rows with cells truncated, and column statistics over all records. It returns how many header rows it
// used (0 or 1) so callers can count data rows. Names follow pandas: a blank
// header cell at position j is "Unnamed: j", a repeated name gets ".1",
// ".2", and a headerless table's columns are numbered from 0.
func buildTable(name string, records [][]string, opts Options) (SheetPreview, int) {
	if len(records) == 0 {
		return SheetPreview{Name: name}, 0
	}
	return tableFrom(name, records, opts, looksLikeHeader(records[0]))
}

// buildTableWithHeader is buildTable for records whose first row is known
// to be the header (the keys of JSON Lines records).
func buildTableWithHeader(name string, records [][]string, opts Options) (SheetPreview, int) {
	if len(records) == 0 {
		return SheetPreview{Name: name}, 0
	}
	return tableFrom(name, records, opts, true)
}

func tableFrom(name string, records [][]string, opts Options, header bool) (SheetPreview, int) {
	sheet := SheetPreview{Name: name}
	width := 0
	for _, r := range records {
		width = max(width, len(r))
	}
	kept := min(width, maxTableColumns)
	headerRows := 1
	if !header {
		headerRows = 0
		sheet.Note = "no header row detected: the first row holds data (pandas: header=None)"
	}
	data := records[headerRows:]
	typeSample := data[:min(len(data), opts.TypeSampleRows)]
	seen := map[string]int{}
	values := make([]string, 0, len(typeSample))
	sheet.Columns = make([]Column, kept)
	for j := range kept {
		n := strconv.Itoa(j)
		if headerRows == 1 {
			n = strings.TrimSpace(cellAt(records[0], j))
			if n == "" {
				n = fmt.Sprintf("Unnamed: %d", j)
			}
			if k := seen[n]; k > 0 {
				seen[n]++
				n = fmt.Sprintf("%s.%d", n, k)
			} else {
				seen[n] = 1
			}
		}
		values = values[:0]
		for _, r := range typeSample {
			values = append(values, cellAt(r, j))
		}
		sheet.Columns[j] = Column{Name: truncateRunes(n, maxNameChars), Type: InferColumnType(values)}
	}
	for _, r := range data[:min(len(data), opts.MaxRows)] {
		row := make([]string, min(len(r), kept))
		for j := range row {
			row[j] = truncateRunes(r[j], opts.MaxCellChars)
		}
		sheet.Rows = append(sheet.Rows, row)
	}
	acc := newStatsAccumulator(sheet.Columns)
	for _, r := range data {
		acc.add(r)
	}
	sheet.Stats, sheet.StatsRows = acc.result(), acc.rows
	if width > kept {
		sheet.Note = joinNotes(sheet.Note, fmt.Sprintf("%d columns; only the first %d were read", width, kept))
	}
	return sheet, headerRows
}

// looksLikeHeader reports whether a first row names columns: it does unless
// every one of its non-blank cells is a number, date or boolean, which a
// header row almost never is.
func looksLikeHeader(first []string) bool {
	nonBlank := 0
	for _, c := range first {
		c = strings.TrimSpace(c)
		if missingValues[strings.ToLower(c)] {
			continue
		}
		nonBlank++
		if valueType(c) == ColumnText {
			return true
		}
	}
	return nonBlank == 0
}

// cellAt is row[j], or "" past the row's end.
func cellAt(row []string, j int) string {
	if j < len(row) {
		return row[j]
	}
	return ""
}

// joinNotes joins non-empty notes with "; ".
func joinNotes(notes ...string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}
