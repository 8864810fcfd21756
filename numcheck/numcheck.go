// Package numcheck finds the numbers a text states and checks them against
// the numbers a run's outputs hold: every number in an answer should be
// traceable to a cell, a query or a template, within the rounding the text
// shows. It reads English and Chinese (and most European) ways of writing
// numbers: 1,234.5 · 1 234,5 · 1.234,5 · 12.3% · 1.2万 · 3亿 · 4.5k · 2.1 million.
package numcheck

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Number is one number found in a text.
type Number struct {
	// Text is the number as written, with its unit suffix ("12.3%", "1.2万").
	Text string
	// Value is what it stands for: 1.2万 is 12000, 12.3% is 12.3 (Percent set).
	Value float64
	// Unit is one step of its last written digit, in Value's scale: 0.1 for
	// "12.3%", 1000 for "1.2万", 1 for "150".
	Unit float64
	// Percent marks a percentage (Value is in percent, not a fraction).
	Percent bool
	// Start and End are its byte offsets in the text.
	Start, End int
}

// numberRE matches a number with its separators, exponent and unit suffix.
// The thousands groups accept comma, dot, apostrophe and (narrow) spaces;
// which separator is the decimal point is decided in parse.
var numberRE = regexp.MustCompile(`[-−+]?\d+(?:(?:,|\.|'|’| |\x{00A0}|\x{202F})\d+)*(?:[eE][-+]?\d+)?` +
	`(?:\s?(?:%|％|‰|万亿|千万|百万|万|亿|千|percent\b|per cent\b|thousand\b|million\b|billion\b|trillion\b|bn\b|mn\b|[kKMB]\b))?`)

// skipRE matches spans whose digits are not quantities: dates, times,
// markdown link targets, inline code, URLs, tool timings, step citations,
// list markers.
var skipRE = regexp.MustCompile(`(?m)` +
	`\b\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?\b` + // 2024-01-05, 2024/1, not 1234567.0
	`|\d{1,2}/\d{1,2}/\d{2,4}` + // 1/5/2024
	`|\d{1,2}:\d{2}(?::\d{2})?` + // 12:30
	`|\d{2,4}\s?年(?:\s?\d{1,2}\s?月)?(?:\s?\d{1,2}\s?[日号])?|\d{1,2}\s?月(?:\s?\d{1,2}\s?[日号])?` + // 2024年1月5日
	`|\]\([^)]*\)` + // ](out/x.png)
	"|`[^`\n]*`" + // inline code
	`|https?://\S+` +
	`|\(ran [^)\n]*\)` + // the python tool's "(ran 190ms)" timing
	`|\[(?:step|steps|步骤)\s*[\d, –-]+\]` + // [step 2]
	`|^\s*(?:[-*+]\s+)?\d+[.)]\s` + // "1. " list markers
	`|\b[A-Za-z]+\d+[A-Za-z\d]*\b`) // Q1, H2, A4, x86

// Claims returns the numbers a text states as quantities: dates, times,
// file names, citations, list markers and bare integers up to 10 ("top 3",
// "2 regions") are left out.
func Claims(text string) []Number {
	var out []Number
	for _, n := range Quantities(text) {
		if n.Unit == 1 && !n.Percent && math.Abs(n.Value) <= 10 {
			continue
		}
		out = append(out, n)
	}
	return out
}

// Quantities returns every number of a text that is a quantity, small
// integers included: dates, times, file names, citations and list markers
// are left out. A refresh needs the small ones too ("4 rows" becomes "16
// rows"); Claims leaves them out of the check.
func Quantities(text string) []Number {
	skip := skipRE.FindAllStringIndex(text, -1)
	var out []Number
	for _, n := range scan(text) {
		if !inAny(n.Start, n.End, skip) {
			out = append(out, n)
		}
	}
	return out
}

// Matches reports whether the number claim is the output number out,
// rounded or cut to the claim's last written digit, as Set.Supports
// decides it for one output number.
func Matches(claim, out Number) bool { return matches(claim, out) }

// scan returns every number in text that is not glued to a word.
func scan(text string) []Number {
	var out []Number
	for _, loc := range numberRE.FindAllStringIndex(text, -1) {
		start, end := loc[0], loc[1]
		if r, _ := utf8.DecodeLastRuneInString(text[:start]); start > 0 && (unicode.IsLetter(r) && r < 0x2E80 || r == '_' || r == '.' && start > 1 && isDigit(text[start-2])) {
			continue // part of a word or an identifier: x2, v1.2, file_3
		}
		out = append(out, parseSpan(text, start, end)...)
	}
	return out
}

// parseSpan reads the number at text[start:end]. A span that is no one
// number ("150 70", a CSV row's "1.5,2.5") is read piece by piece, split
// at commas and spaces.
func parseSpan(text string, start, end int) []Number {
	if n, ok := parse(strings.TrimSpace(text[start:end])); ok {
		n.Start, n.End = start, end
		return []Number{n}
	}
	var out []Number
	pieceStart := start
	for i := start; i <= end; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if i == end || r == ',' || unicode.IsSpace(r) {
			if i > pieceStart && i-pieceStart < end-start {
				out = append(out, parseSpan(text, pieceStart, i)...)
			}
			pieceStart = i + size
			if i == end {
				break
			}
		}
		i += size
	}
	return out
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func inAny(start, end int, spans [][]int) bool {
	for _, s := range spans {
		if start < s[1] && end > s[0] {
			return true
		}
	}
	return false
}

// multipliers are the unit suffixes and what they multiply by.
var multipliers = map[string]float64{
	"万亿": 1e12, "千万": 1e7, "百万": 1e6, "万": 1e4, "亿": 1e8, "千": 1e3,
	"thousand": 1e3, "k": 1e3, "K": 1e3, "million": 1e6, "mn": 1e6, "M": 1e6,
	"billion": 1e9, "bn": 1e9, "B": 1e9, "trillion": 1e12,
}

// parse reads one matched number.
func parse(s string) (Number, bool) {
	n := Number{Text: s, Unit: 1}
	body := s
	mult := 1.0
	for _, suf := range []string{"%", "％", "‰", "percent", "per cent"} {
		if b, ok := strings.CutSuffix(body, suf); ok {
			body, n.Percent = strings.TrimSpace(b), true
			if suf == "‰" {
				mult = 0.1
			}
			break
		}
	}
	if !n.Percent {
		for suf, m := range multipliers {
			if b, ok := strings.CutSuffix(body, suf); ok && b != "" && isDigit(b[len(b)-1]) || ok && strings.HasSuffix(b, " ") {
				body, mult = strings.TrimSpace(b), m
				break
			}
		}
	}
	neg := false
	switch {
	case strings.HasPrefix(body, "-"), strings.HasPrefix(body, "+"):
		neg, body = body[0] == '-', body[1:]
	case strings.HasPrefix(body, "−"):
		neg, body = true, strings.TrimPrefix(body, "−")
	}
	exp := ""
	if i := strings.IndexAny(body, "eE"); i > 0 {
		body, exp = body[:i], body[i:]
	}
	digits, decimals, ok := normalize(body)
	if !ok {
		return Number{}, false
	}
	v, err := strconv.ParseFloat(digits+exp, 64)
	if err != nil {
		return Number{}, false
	}
	unit := math.Pow(10, -float64(decimals))
	if exp != "" {
		if e, err := strconv.Atoi(exp[1:]); err == nil {
			unit *= math.Pow(10, float64(e))
		}
	}
	if neg {
		v = -v
	}
	n.Value, n.Unit = v*mult, unit*mult
	return n, true
}

// normalize turns a number written with any thousands and decimal
// separators into Go syntax, and counts its decimals. When a number has
// both a comma and a dot, the last one is the decimal point; when it has
// only one kind, groups of exactly three digits make it a thousands
// separator (1,234 and 1.234.567), anything else a decimal point (1,5).
func normalize(s string) (string, int, bool) {
	seps := strings.FieldsFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if len(seps) == 0 {
		return s, 0, true
	}
	groups := strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	last := seps[len(seps)-1]
	decimalSep := ""
	mixed := false
	for _, sp := range seps {
		if sp != last {
			mixed = true
		}
	}
	switch {
	case mixed && (last == "." || last == ","):
		decimalSep = last
	case last == "." && len(seps) == 1:
		decimalSep = "."
	case last == "," && len(seps) == 1 && len(groups[len(groups)-1]) != 3:
		decimalSep = ","
	}
	// Every thousands group but the first has exactly three digits.
	end := len(groups)
	if decimalSep != "" {
		end--
	}
	if len(groups[0]) > 3 && end > 1 {
		return "", 0, false
	}
	for _, g := range groups[1:end] {
		if len(g) != 3 {
			return "", 0, false
		}
	}
	if decimalSep == "" {
		return strings.Join(groups, ""), 0, true
	}
	frac := groups[len(groups)-1]
	return strings.Join(groups[:len(groups)-1], "") + "." + frac, len(frac), true
}

// Set is the numbers of a run's outputs, for checking claims against.
type Set struct {
	values []Number
}

// NewSet gathers every number in texts, dates and identifiers included
// (a year stated in an answer is supported by a date in the data).
func NewSet(texts ...string) *Set {
	s := &Set{}
	for _, t := range texts {
		s.Add(t)
	}
	return s
}

// rawDigits finds every digit run, for numbers inside dates and names.
var rawDigits = regexp.MustCompile(`\d+`)

// Add gathers the numbers of one more text.
func (s *Set) Add(text string) {
	s.values = append(s.values, scan(text)...)
	for _, d := range rawDigits.FindAllString(text, -1) {
		if v, err := strconv.ParseFloat(d, 64); err == nil {
			s.values = append(s.values, Number{Text: d, Value: v, Unit: 1})
		}
	}
}

// Len is how many numbers the set holds.
func (s *Set) Len() int { return len(s.values) }

// Supports reports whether some output number, rounded (or cut) to the
// claim's last written digit, gives the claim. Signs are ignored ("fell 5%"
// for -5.0), and a percentage matches a fraction (12.3% for 0.1234).
func (s *Set) Supports(c Number) bool {
	for _, e := range s.values {
		if matches(c, e) {
			return true
		}
	}
	return false
}

func matches(c, e Number) bool {
	cv, ev := math.Abs(c.Value), math.Abs(e.Value)
	switch {
	case c.Percent && !e.Percent && e.Unit < 1 && ev <= 10:
		// 12.3% for a fraction 0.123.
		ev, e.Unit = ev*100, e.Unit*100
	case e.Percent && !c.Percent && c.Unit < 1 && cv <= 10:
		// 0.12 for a printed 12.3%.
		cv, c.Unit = cv*100, c.Unit*100
	}
	return near(cv, ev, c.Unit, e.Unit)
}

// near reports whether claim c is the output e rounded or cut to the
// claim's last digit, or (when the output is the less precise) within the
// output's own rounding.
func near(c, e, cUnit, eUnit float64) bool {
	const slack = 1e-9
	d := e - c
	eps := slack * math.Max(1, math.Max(c, e))
	switch {
	case math.Abs(d) <= cUnit/2+eps: // rounded
		return true
	case d >= -eps && d < cUnit+eps: // cut
		return true
	case eUnit > cUnit && math.Abs(d) <= eUnit/2+eps: // the output was rounded
		return true
	}
	return false
}

// Unsupported returns the claims of text that no number of s supports.
func (s *Set) Unsupported(text string) []Number {
	var out []Number
	for _, c := range Claims(text) {
		if !s.Supports(c) {
			out = append(out, c)
		}
	}
	return out
}

// Mark puts marker right after each of the numbers in text (as returned
// by Unsupported on the same text).
func Mark(text string, nums []Number, marker string) string {
	var b strings.Builder
	last := 0
	for _, n := range nums {
		if n.Start < last || n.End > len(text) {
			continue
		}
		b.WriteString(text[last:n.End])
		b.WriteString(marker)
		last = n.End
	}
	b.WriteString(text[last:])
	return b.String()
}
