package preview

import (
	"strconv"
	"strings"
	"time"
)

// The column types a preview infers from sampled values.
const (
	ColumnInt      = "int"
	ColumnFloat    = "float"
	ColumnBool     = "bool"
	ColumnDate     = "date"
	ColumnDatetime = "datetime"
	ColumnText     = "text"
	// ColumnEmpty is a column whose sampled values are all blank or missing.
	ColumnEmpty = "empty"
)

// missingValues are cell texts that mean "no value" and do not vote on a
// column's type (compared case-insensitively).
var missingValues = map[string]bool{"": true, "na": true, "n/a": true, "null": true, "none": true, "nan": true, "#n/a": true}

// dateLayouts are the date formats a column may use: ISO, slashed year
// first, day first and month first (both are dates, so the ambiguity of
// 01/02/2024 does not matter here), dotted, and the short forms spreadsheet
// programs print.
var dateLayouts = []string{
	"2006-01-02", "2006/01/02", "2006.01.02", "2006-1-2", "2006/1/2",
	"02/01/2006", "01/02/2006", "2/1/2006", "02-01-2006", "02.01.2006",
	"01-02-06", "1/2/06", "02-Jan-2006", "2-Jan-2006", "2 Jan 2006", "Jan 2, 2006", "January 2, 2006",
	"2006年1月2日",
}

// datetimeLayouts are timestamp formats: ISO 8601 / RFC 3339 with or without
// zone and fractional seconds, and the space-separated forms databases and
// spreadsheets print.
var datetimeLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04",
	"2006/01/02 15:04:05", "2006/01/02 15:04", "02/01/2006 15:04:05", "01/02/2006 15:04:05", "02/01/2006 15:04",
	"1/2/06 15:04", "01-02-06 15:04", time.RFC1123, time.RFC1123Z,
}

// InferColumnType returns the type that fits every non-missing value:
// ColumnInt, ColumnFloat (ints mixed with decimals, or percentages),
// ColumnBool (true/false, yes/no), ColumnDate, ColumnDatetime (dates mixed
// with timestamps too), ColumnText for anything else, and ColumnEmpty when
// no value is present. Blank cells and markers such as NA, null and NaN are
// treated as missing.
func InferColumnType(values []string) string {
	typ := ColumnEmpty
	for _, v := range values {
		v = strings.TrimSpace(v)
		if missingValues[strings.ToLower(v)] {
			continue
		}
		typ = mergeTypes(typ, valueType(v))
		if typ == ColumnText {
			return ColumnText
		}
	}
	return typ
}

// mergeTypes is the narrowest type holding values of both types.
func mergeTypes(a, b string) string {
	switch {
	case a == ColumnEmpty:
		return b
	case a == b:
		return a
	case (a == ColumnInt && b == ColumnFloat) || (a == ColumnFloat && b == ColumnInt):
		return ColumnFloat
	case (a == ColumnDate && b == ColumnDatetime) || (a == ColumnDatetime && b == ColumnDate):
		return ColumnDatetime
	}
	return ColumnText
}

// valueType is the type of one non-missing value.
func valueType(v string) string {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no":
		return ColumnBool
	}
	if isInt(v) {
		return ColumnInt
	}
	if isFloat(v) {
		return ColumnFloat
	}
	if len(v) >= 6 && len(v) <= 40 {
		for _, layout := range dateLayouts {
			if _, err := time.Parse(layout, v); err == nil {
				return ColumnDate
			}
		}
		for _, layout := range datetimeLayouts {
			if _, err := time.Parse(layout, v); err == nil {
				return ColumnDatetime
			}
		}
	}
	return ColumnText
}

// isInt accepts an optional sign, digits, and thousands separators in their
// proper places ("1,234,567").
func isInt(v string) bool {
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return true
	}
	return isGroupedInt(v)
}

func isGroupedInt(v string) bool {
	v = strings.TrimLeft(v, "+-")
	groups := strings.Split(v, ",")
	if len(groups) < 2 || len(groups[0]) == 0 || len(groups[0]) > 3 {
		return false
	}
	for i, g := range groups {
		if i > 0 && len(g) != 3 {
			return false
		}
		for _, c := range g {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// isFloat accepts decimals, exponents, grouped decimals ("1,234.5") and
// percentages ("12.5%"), but not the words Go also parses (Inf, NaN).
func isFloat(v string) bool {
	v = strings.TrimSuffix(v, "%")
	if v == "" || !strings.ContainsAny(v, "0123456789") || strings.ContainsAny(v, "iInNxX") {
		return false
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true
	}
	whole, frac, ok := strings.Cut(v, ".")
	if !ok || !isGroupedInt(whole) {
		return false
	}
	_, err := strconv.ParseUint(frac, 10, 64)
	return err == nil
}
