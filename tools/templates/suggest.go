package templates

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/sift-agent/sift/preview"
)

// maxSuggestions is how many next questions Suggest returns at most.
const maxSuggestions = 3

// Suggest proposes up to three next questions about the data, each one a
// built-in analysis can answer, grounded in the columns of the first table
// among files (a time column, a measure, categories). done is the template
// just run (or "" after an agent's analysis); p its parameters, whose
// measure and category the suggestions reuse. question's first line is
// what was asked (the rest may be the answer's text). Each suggestion is
// one the built-ins understand completely (Understand) as the analysis it
// was written for, and none reads as what was asked. The questions are in
// Chinese when question is, else in English. None when no table has
// columns.
func Suggest(question, done string, p Params, files []*preview.FilePreview) []string {
	_, sheet := pickFile(normalize(question), files)
	cols := columnsOf(sheet)
	if len(cols) == 0 {
		return nil
	}
	var timeCol, measure, measure2, cat, cat2 string
	text := normalize(question)
	for _, c := range cols {
		switch {
		case isTime(c) && timeCol == "":
			timeCol = c.name
		case isMeasure(c) && (measure == "" || betterMeasure(c, cols, measure, text)):
			if measure != "" {
				measure2 = measure
			}
			measure = c.name
		case isMeasure(c) && measure2 == "":
			measure2 = c.name
		case isCategory(c) && !c.idish && (cat == "" || c.catHint && !hasCatHint(cols, cat)):
			if cat != "" {
				cat2 = cat
			}
			cat = c.name
		case isCategory(c) && !c.idish && cat2 == "":
			cat2 = c.name
		}
	}
	// Keep to what was just looked at.
	if p.Measure != "" && p.Measure != measure {
		measure, measure2 = p.Measure, measure
	}
	if p.Category != "" && p.Category != cat {
		cat, cat2 = p.Category, cat
	}
	zh := hasHan(question)
	// What was just asked, as the built-ins read it: a suggestion that
	// reads the same is no next question.
	asked, _, _ := strings.Cut(question, "\n")
	answered, askedOK, _ := Understand(asked, files)
	var out []string
	// add offers the first of the phrasings (each an English and a Chinese
	// format) that the built-ins themselves understand as template, over
	// the same data: a sum that means nothing ("highest total temp_max")
	// is not understood, so its next phrasing (an average) is offered.
	add := func(template string, ok bool, phrasings [][2]string, args ...any) {
		if !ok || template == done || len(out) >= maxSuggestions {
			return
		}
		for _, ph := range phrasings {
			q := fmt.Sprintf(ph[0], args...)
			if zh {
				q = fmt.Sprintf(ph[1], args...)
			}
			r, ok, _ := Understand(q, files)
			if !ok || r.Analysis != template {
				continue
			}
			if askedOK && sameReading(r, answered) {
				return
			}
			out = append(out, q)
			return
		}
	}
	c := suggestColumns{time: timeCol, measure: measure, measure2: measure2, cat: cat, cat2: cat2}
	for _, b := range suggestionOrder() {
		phrasings, args := b.suggestion.ask(c)
		add(b.Name, len(phrasings) > 0, phrasings, args...)
	}
	return out
}

// suggestionOrder lists the built-ins that are offered as next questions,
// in the order they are offered (suggestion.order).
func suggestionOrder() []*builtin {
	var out []*builtin
	for _, b := range builtins {
		if b.suggestion != nil {
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, func(a, b *builtin) int { return a.suggestion.order - b.suggestion.order })
	return out
}

// sameReading reports whether two readings ask for the same analysis of
// the same columns: the same question, however it is worded.
func sameReading(a, b Reading) bool {
	return a.Analysis == b.Analysis && a.File == b.File && a.Sheet == b.Sheet && a.Time == b.Time && a.Grain == b.Grain &&
		a.Compare == b.Compare && slices.Equal(a.Measures, b.Measures) && slices.Equal(a.GroupBy, b.GroupBy) &&
		slices.Equal(a.Columns, b.Columns) && slices.EqualFunc(a.Filters, b.Filters, func(x, y Filter) bool {
		return x.Column == y.Column && x.Op == y.Op && slices.Equal(x.Values, y.Values)
	})
}

// betterMeasure reports whether c makes a better headline measure than
// the one picked so far: one the text names, else money, else not a unit
// price or rate (which are rarely summed).
func betterMeasure(c *column, cols []*column, picked, text string) bool {
	var old *column
	for _, o := range cols {
		if o.name == picked {
			old = o
		}
	}
	if old == nil {
		return true
	}
	rank := func(x *column) int {
		r := 0
		if i, _ := findWord(text, normalize(x.name)); i >= 0 {
			r += 4
		}
		if x.money {
			r += 2
		}
		if !hasHint(x.name, rateHints) {
			r++
		}
		return r
	}
	return rank(c) > rank(old)
}

// rateHints name per-unit measures: prices and rates.
var rateHints = []string{"price", "rate", "ratio", "单价", "价格", "比率"}

func hasCatHint(cols []*column, name string) bool {
	for _, c := range cols {
		if c.name == name {
			return c.catHint
		}
	}
	return false
}

func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}
