package templates

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// A workbook's sheet reaches DuckDB as a CSV file written on the host
// (duckInput), holding what pandas' read_excel (openpyxl, header=0) makes
// of the sheet: the header's names ("Unnamed: 2" for an empty cell, "a.1"
// for a second "a"), each column's values as pandas types them — numbers
// stored as text read as numbers when the whole column does, "NA" and
// "null" missing, dates as date and time, formulas' cached values,
// true/false missing in places as 1/0 — so that DuckDB types the columns
// as it types a CSV file of the same table, and the engine makes the
// choices it makes on that file.

// xlKind is what one cell holds, as pandas' openpyxl reader gives it.
type xlKind uint8

const (
	xlMissing xlKind = iota // empty, an error, or a missing-value word
	xlInt
	xlFloat
	xlBool
	xlTime  // a date and time
	xlText  // a string; num says whether it reads as a number
	xlOther // a time of day: text to pandas, never a number
)

type xlValue struct {
	kind xlKind
	f    float64 // xlInt, xlFloat, a numeric xlText's number
	b    bool
	t    time.Time
	s    string // xlText, xlOther
	num  bool   // xlText that reads as a number
	int  bool   // ... as a whole number (no point or exponent)
}

// pandasNA are the strings pandas reads as missing (STR_NA_VALUES).
var pandasNA = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "None": true, "n/a": true, "nan": true, "null": true,
}

var (
	pyNumberRe = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)
	pyIntRe    = regexp.MustCompile(`^[+-]?\d+$`)
	// dateFormatStrip drops a format's [colour]/[$-locale] sections and
	// quoted text, as openpyxl's is_date_format does before it looks for
	// date letters.
	dateFormatStrip = regexp.MustCompile(`\[[^\]]*\]|"[^"]*"`)
	dateLetters     = regexp.MustCompile(`(^|[^_\\])[dmhysDMHYS]`)
)

// sheetReader reads one sheet's cells as openpyxl does.
type sheetReader struct {
	wb       *excelize.File
	sheet    string
	date1904 bool
	dates    map[int]bool // style index → its number format is a date's
}

// cell is the value of the cell at (col, row), 0-based, whose raw text is raw.
func (r *sheetReader) cell(col, row int, raw string) (xlValue, error) {
	if raw == "" {
		return xlValue{}, nil
	}
	axis, err := excelize.CoordinatesToCellName(col+1, row+1)
	if err != nil {
		return xlValue{}, err
	}
	typ, err := r.wb.GetCellType(r.sheet, axis)
	if err != nil {
		return xlValue{}, err
	}
	switch typ {
	case excelize.CellTypeError:
		return xlValue{}, nil
	case excelize.CellTypeBool:
		return xlValue{kind: xlBool, b: raw == "1" || strings.EqualFold(raw, "true")}, nil
	case excelize.CellTypeSharedString, excelize.CellTypeInlineString, excelize.CellTypeFormula:
		return textValue(raw), nil
	case excelize.CellTypeDate:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err := time.Parse(layout, raw); err == nil {
				return xlValue{kind: xlTime, t: t}, nil
			}
		}
		return textValue(raw), nil
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return textValue(raw), nil
	}
	date, err := r.dateStyled(axis)
	if err != nil {
		return xlValue{}, err
	}
	if date {
		return excelTime(f, r.date1904), nil
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return xlValue{kind: xlInt, f: f}, nil
	}
	return xlValue{kind: xlFloat, f: f}, nil
}

// dateStyled reports whether the cell's number format shows a date or a
// time, as openpyxl decides it (is_date_format).
func (r *sheetReader) dateStyled(axis string) (bool, error) {
	idx, err := r.wb.GetCellStyle(r.sheet, axis)
	if err != nil {
		return false, err
	}
	if d, ok := r.dates[idx]; ok {
		return d, nil
	}
	st, err := r.wb.GetStyle(idx)
	if err != nil {
		return false, err
	}
	d := false
	if st.CustomNumFmt != nil {
		f, _, _ := strings.Cut(*st.CustomNumFmt, ";")
		d = dateLetters.MatchString(dateFormatStrip.ReplaceAllString(f, ""))
	} else {
		d = (st.NumFmt >= 14 && st.NumFmt <= 22) || (st.NumFmt >= 45 && st.NumFmt <= 47)
	}
	r.dates[idx] = d
	return d, nil
}

// excelTime is openpyxl's from_excel: a serial date and time, rounded to
// the millisecond; below one day, a time of day.
func excelTime(serial float64, date1904 bool) xlValue {
	day, frac := math.Floor(serial), serial-math.Floor(serial)
	diff := time.Duration(math.Round(frac*86400*1000)) * time.Millisecond
	if serial >= 0 && serial < 1 && diff < 24*time.Hour {
		return xlValue{kind: xlOther, s: pyTimeOfDay(diff)}
	}
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	} else if serial > 0 && serial < 60 {
		day++ // the 1900 leap-year bug
	}
	return xlValue{kind: xlTime, t: epoch.AddDate(0, 0, int(day)).Add(diff)}
}

// pyTimeOfDay is str() of a datetime.time.
func pyTimeOfDay(d time.Duration) string {
	t := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(d)
	if t.Nanosecond() != 0 {
		return t.Format("15:04:05.000000")
	}
	return t.Format("15:04:05")
}

// textValue is a string cell.
func textValue(s string) xlValue {
	if pandasNA[s] {
		return xlValue{}
	}
	v := xlValue{kind: xlText, s: s}
	if t := strings.TrimSpace(s); pyNumberRe.MatchString(t) {
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			v.num, v.int, v.f = true, pyIntRe.MatchString(t), f
		}
	}
	return v
}

// pyStr is str() of the value pandas holds for v in a text column.
func (v xlValue) pyStr() string {
	switch v.kind {
	case xlInt:
		return strconv.FormatFloat(v.f, 'f', -1, 64)
	case xlFloat:
		return pyFloat(v.f)
	case xlBool:
		if v.b {
			return "True"
		}
		return "False"
	case xlTime:
		return pyDatetime(v.t)
	case xlText, xlOther:
		return v.s
	}
	return ""
}

// pyFloat is Python's repr of a float.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= 16 {
		sign := "+"
		if x < 0 {
			sign, x = "-", -x
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, x)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// pyDatetime is str() of a datetime (pandas' Timestamp prints the same).
func pyDatetime(t time.Time) string {
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.000000")
	}
	return t.Format("2006-01-02 15:04:05")
}

// writeSheetCSV writes sheet of wb to w as CSV, as read_excel reads it
// (see the comment at the top of this file), and returns the names of the
// columns pandas reads as dates and times (datetime64), which DuckDB
// types as it types dates written as text.
func writeSheetCSV(ctx context.Context, wb *excelize.File, sheet string, w io.Writer) (map[string]bool, error) {
	st, err := readSheet(ctx, wb, sheet)
	if err != nil {
		return nil, err
	}
	return st.datetimes, st.writeCSV(w)
}

// writeCSV writes the sheet as CSV: its column names, then its rows.
func (st *sheetTable) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(st.names); err != nil {
		return err
	}
	if err := st.write(cw, nil); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// writeSheetsCSV writes every sheet of wb whose column names are the
// first sheet's (empty sheets aside) to w as one CSV table, each row after
// its sheet's name in a leading "sheet" column: the reading's sheets
// stacked (Reading.Sheet "*"). It returns the first sheet's datetimes.
func writeSheetsCSV(ctx context.Context, wb *excelize.File, w io.Writer) (map[string]bool, error) {
	cw := csv.NewWriter(w)
	var first *sheetTable
	for _, sheet := range wb.GetSheetList() {
		st, err := readSheet(ctx, wb, sheet)
		var te templateError
		if errors.As(err, &te) {
			continue // an empty sheet
		}
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = st
			if err := cw.Write(append([]string{"sheet"}, st.names...)); err != nil {
				return nil, err
			}
		} else if !slices.Equal(st.names, first.names) {
			continue
		}
		if err := st.write(cw, []string{sheet}); err != nil {
			return nil, err
		}
	}
	if first == nil {
		return nil, templateError("every sheet of the workbook is empty")
	}
	cw.Flush()
	return first.datetimes, cw.Error()
}

// sheetTable is a sheet read as read_excel reads it: its column names,
// its data rows and how each column's values are written.
type sheetTable struct {
	names     []string
	data      [][]xlValue
	cols      []func(xlValue) string
	datetimes map[string]bool
	// mixed are the text columns holding numbers that md_table shows
	// otherwise than their text (1,234 for 1234, 1.50 for 1.5), as
	// pandas keeps them, as numbers, among the column's strings.
	mixed map[string]bool
}

// readSheet reads sheet of wb (see writeSheetCSV).
func readSheet(ctx context.Context, wb *excelize.File, sheet string) (*sheetTable, error) {
	props, err := wb.GetWorkbookProps()
	if err != nil {
		return nil, err
	}
	r := &sheetReader{wb: wb, sheet: sheet, dates: map[int]bool{}, date1904: props.Date1904 != nil && *props.Date1904}
	raw, err := wb.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, fmt.Errorf("read sheet %q: %w", sheet, err)
	}
	var rows [][]xlValue
	width, last := 0, -1
	for i, cells := range raw {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := make([]xlValue, len(cells))
		for j, c := range cells {
			if row[j], err = r.cell(j, i, c); err != nil {
				return nil, fmt.Errorf("read sheet %q: %w", sheet, err)
			}
		}
		// openpyxl's reader drops a row's trailing empty cells, and the
		// sheet's trailing empty rows.
		n := len(cells)
		for n > 0 && cells[n-1] == "" {
			n--
		}
		if n > 0 {
			last = i
		}
		width = max(width, n)
		rows = append(rows, row[:n])
	}
	rows = rows[:last+1]
	if len(rows) == 0 {
		return nil, templateError(fmt.Sprintf("sheet %q is empty", sheet))
	}
	// Blank rows within the table stay, as missing values in every column.
	st := &sheetTable{names: headerNames(rows[0], width), data: rows[1:], cols: make([]func(xlValue) string, width), datetimes: map[string]bool{}, mixed: map[string]bool{}}
	for j := range width {
		var datetime bool
		st.cols[j], datetime = columnWriter(st.data, j)
		st.datetimes[st.names[j]] = datetime
		st.mixed[st.names[j]] = mixedColumn(st.data, j)
	}
	return st, nil
}

// mixedColumn reports whether column j is text (columnWriter's last case)
// holding a number md_table would show otherwise than its text.
func mixedColumn(data [][]xlValue, j int) bool {
	kinds := map[xlKind]int{}
	shownOtherwise := false
	for _, row := range data {
		if j >= len(row) || row[j].kind == xlMissing {
			continue
		}
		v := row[j]
		k := v.kind
		if k == xlText && v.num {
			k = xlFloat // a number as text: numbers to columnWriter
		}
		kinds[k]++
		shownOtherwise = shownOtherwise || v.kind == xlFloat || v.kind == xlInt && math.Abs(v.f) >= 1000
	}
	numbers := kinds[xlInt] + kinds[xlFloat]
	return shownOtherwise && len(kinds) > 1 && !(numbers > 0 && len(kinds) == 2 && kinds[xlInt] > 0 && kinds[xlFloat] > 0)
}

// write writes the sheet's data rows, each after prefix.
func (st *sheetTable) write(cw *csv.Writer, prefix []string) error {
	out := make([]string, len(prefix)+len(st.cols))
	copy(out, prefix)
	for _, row := range st.data {
		for j, col := range st.cols {
			v := xlValue{}
			if j < len(row) {
				v = row[j]
			}
			out[len(prefix)+j] = col(v)
		}
		if err := cw.Write(out); err != nil {
			return err
		}
	}
	return nil
}

// headerNames are the column names pandas gives the header row: an
// empty cell is "Unnamed: i", a repeated name gets ".1", ".2" (pandas'
// mangling), each stripped as load() strips it.
func headerNames(header []xlValue, width int) []string {
	names := make([]string, width)
	counts := map[string]int{}
	for j := range width {
		name := ""
		if j < len(header) {
			if header[j].kind == xlText {
				name = header[j].s
			} else {
				name = header[j].pyStr()
			}
		}
		if name == "" {
			name = fmt.Sprintf("Unnamed: %d", j)
		}
		for n := counts[name]; n > 0; n = counts[name] {
			counts[name] = n + 1
			name = fmt.Sprintf("%s.%d", name, n)
		}
		counts[name]++
		names[j] = strings.TrimSpace(name)
	}
	return names
}

// columnWriter returns how column j's values are written, from the type
// pandas gives the column: numbers (whole when every value is whole and
// none is missing), dates and times, true/false (1/0 when some are
// missing, as pandas makes them floats), or text (str() of each value).
// It reports whether pandas reads the column as dates and times.
func columnWriter(data [][]xlValue, j int) (func(xlValue) string, bool) {
	var missing, nums, ints, bools, times, other int
	for _, row := range data {
		v := xlValue{}
		if j < len(row) {
			v = row[j]
		}
		switch {
		case v.kind == xlMissing:
			missing++
		case v.kind == xlInt || (v.kind == xlText && v.num && v.int):
			nums++
			ints++
		case v.kind == xlFloat || (v.kind == xlText && v.num):
			nums++
		case v.kind == xlBool:
			bools++
		case v.kind == xlTime:
			times++
		default:
			other++
		}
	}
	present := len(data) - missing
	switch {
	case present > 0 && nums == present:
		whole := ints == nums && missing == 0
		return func(v xlValue) string {
			if v.kind == xlMissing {
				return ""
			}
			if whole {
				return strconv.FormatFloat(v.f, 'f', -1, 64)
			}
			return pyFloat(v.f)
		}, false
	case present > 0 && bools == present:
		return func(v xlValue) string {
			switch {
			case v.kind == xlMissing:
				return ""
			case missing == 0:
				return v.pyStr()
			case v.b:
				return "1.0"
			}
			return "0.0"
		}, false
	case present > 0 && times == present:
		return func(v xlValue) string {
			if v.kind == xlMissing {
				return ""
			}
			return pyDatetime(v.t)
		}, true
	}
	return xlValue.pyStr, false
}
