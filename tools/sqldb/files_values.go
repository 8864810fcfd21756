package sqldb

import (
	"errors"
	"regexp"
	"strconv"
)

// CSVValueError is DuckDB failing to read a CSV or TSV file because a
// value does not parse as its column's type: DuckDB types each column from
// the file's first 20,480 rows (its sniffer's sample), and a column of
// numbers or dates that holds text further down stops the whole read.
type CSVValueError struct {
	// Line is the file's line that holds the value (the header is line 1).
	Line int64
	// Column is the column's name; Type the type DuckDB read it as
	// (DOUBLE, BIGINT, DATE, ...); Value the text that is not one.
	Column, Type, Value string
	// Err is DuckDB's error.
	Err error
}

// Error says which value of which column on which line does not parse.
func (e *CSVValueError) Error() string {
	return "line " + strconv.FormatInt(e.Line, 10) + " holds " + strconv.Quote(e.Value) + " in column " + strconv.Quote(e.Column) + ", which the rows before read as " + e.Type
}

// Unwrap returns DuckDB's error.
func (e *CSVValueError) Unwrap() error { return e.Err }

// csvValueRe matches DuckDB's conversion error on a CSV line:
//
//	Conversion Error: CSV Error on Line: 25002
//	Original Line: 2023-05-25,P0,n/a
//	Error when converting column "revenue". Could not convert string "n/a" to 'DOUBLE'
var csvValueRe = regexp.MustCompile(`(?s)CSV Error on Line: (\d+).*?Error when converting column "(.*?)"\. Could not convert string "(.*?)" to '([^']+)'`)

// AsCSVValueError reads err as a *CSVValueError: one already, or DuckDB's
// conversion error on a CSV line.
func AsCSVValueError(err error) (*CSVValueError, bool) {
	if err == nil {
		return nil, false
	}
	var ve *CSVValueError
	if errors.As(err, &ve) {
		return ve, true
	}
	m := csvValueRe.FindStringSubmatch(err.Error())
	if m == nil {
		return nil, false
	}
	line, _ := strconv.ParseInt(m[1], 10, 64)
	return &CSVValueError{Line: line, Column: m[2], Value: m[3], Type: m[4], Err: err}, true
}
