// Package formula neutralises spreadsheet formulas in the cells of the
// CSV and XLSX files Sift writes, as OWASP recommends against CSV
// injection: a cell from a hostile data file that starts with =, +, -, @,
// a tab or a carriage return (=HYPERLINK(…), +cmd|…, @SUM(…)) would run
// as a formula when a person opens the export in a spreadsheet program.
// Such a cell is written with a leading single quote, which spreadsheet
// programs show as text; a real number (-12.5, +3, -1e5) stays a number.
package formula

import (
	"regexp"
	"strings"
)

// Note is what a report says when an export had cells neutralised.
const Note = "cells that began with =, +, -, @, a tab or a carriage return were written with a leading ' so that spreadsheet programs show them as text instead of running them as formulas"

// Neutralise returns cell as it is safe to write to a CSV or XLSX file,
// and whether it changed it.
func Neutralise(cell string) (string, bool) {
	if !Risky(cell) {
		return cell, false
	}
	return "'" + cell, true
}

// Risky says whether cell would be read as a formula: it starts with =,
// +, -, @, a tab or a carriage return and is not a plain number.
func Risky(cell string) bool {
	if cell == "" || !strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return false
	}
	return !plainNumber.MatchString(cell)
}

// plainNumber is a decimal number, signed, with an optional exponent: the
// cells that start with + or - and stay numbers (the templates' Python
// uses the same pattern).
var plainNumber = regexp.MustCompile(`^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)

// Record neutralises every cell of rec in place and returns how many it
// changed.
func Record(rec []string) int {
	n := 0
	for i, c := range rec {
		if s, changed := Neutralise(c); changed {
			rec[i] = s
			n++
		}
	}
	return n
}
