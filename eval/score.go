package eval

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// FailureKind says why a question was not answered correctly.
type FailureKind string

// The kinds of failure; "" is a correct answer.
const (
	// FailNoAnswer: the run ended without an answer.
	FailNoAnswer FailureKind = "no_answer"
	// FailFormat: the answer lacks a requested @name[value].
	FailFormat FailureKind = "wrong_format"
	// FailValue: a value is wrong (or a required file is missing).
	FailValue FailureKind = "wrong_value"
	// FailError: the run failed.
	FailError FailureKind = "error"
	// FailBudget: the per-question budget stopped the run.
	FailBudget FailureKind = "budget"
)

// SubAnswer is the scoring of one expected @name[value].
type SubAnswer struct {
	Name     string `json:"name"`
	Expected string `json:"expected"`
	// Got is the answer's value, or "" when it has none.
	Got   string `json:"got"`
	Found bool   `json:"found"`
	OK    bool   `json:"ok"`
}

var answerRE = regexp.MustCompile(`@([A-Za-z_][A-Za-z0-9_\-]*)\[([^\[\]]*)\]`)

// ParseAnswers returns the @name[value] pairs of text; a name given twice
// keeps its last value (answers often restate the format first).
func ParseAnswers(text string) map[string]string {
	out := map[string]string{}
	for _, m := range answerRE.FindAllStringSubmatch(text, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// Score scores an answer text against the expected answers: each one is
// found (by name) and matched (see Match). kind is "" when all are right.
func Score(answer string, expected []Expected) (subs []SubAnswer, kind FailureKind) {
	if strings.TrimSpace(answer) == "" {
		for _, e := range expected {
			subs = append(subs, SubAnswer{Name: e.Name, Expected: e.Value})
		}
		return subs, FailNoAnswer
	}
	got := ParseAnswers(answer)
	missing, wrong := false, false
	for _, e := range expected {
		v, ok := got[e.Name]
		s := SubAnswer{Name: e.Name, Expected: e.Value, Got: v, Found: ok, OK: ok && Match(e, v)}
		missing = missing || !ok
		wrong = wrong || (ok && !s.OK)
		subs = append(subs, s)
	}
	switch {
	case missing:
		return subs, FailFormat
	case wrong:
		return subs, FailValue
	}
	return subs, ""
}

// Match reports whether got matches e: numbers within e.Tolerance (or to
// the expected value's decimals), text ignoring case and runs of white
// space (or exactly, with e.Exact), both after trimming quotes.
func Match(e Expected, got string) bool {
	want, have := clean(e.Value), clean(got)
	if e.Exact {
		return want == have
	}
	if w, ok := parseNumber(want); ok {
		h, ok := parseNumber(have)
		if !ok {
			return false
		}
		if e.Tolerance != nil {
			return math.Abs(w-h) <= *e.Tolerance+1e-12
		}
		if math.Abs(w-h) <= 1e-6*math.Max(1, math.Abs(w)) {
			return true
		}
		d := decimals(want)
		return roundTo(h, d) == roundTo(w, d)
	}
	return strings.EqualFold(collapse(want), collapse(have))
}

func clean(s string) string {
	s = strings.TrimSpace(s)
	for len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// decimals counts the digits after the decimal point of a written number.
func decimals(s string) int {
	s = strings.TrimSuffix(strings.TrimSpace(s), "%")
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func roundTo(f float64, d int) string { return strconv.FormatFloat(f, 'f', d, 64) }
