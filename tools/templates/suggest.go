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
	one := func(en, cn string) [][2]string { return [][2]string{{en, cn}} }
	// No count of groups: the data may have fewer than any N named.
	add(TopN, cat != "" && measure != "", [][2]string{
		{"Which %s has the highest total %s?", "哪个%s的%s总和最高？"},
		{"Which %s has the highest average %s?", "哪个%s的%s平均值最高？"},
	}, cat, measure)
	add(Trend, timeCol != "" && measure != "", one("What is the monthly trend of %s?", "%s的月度趋势如何？"), measure)
	add(ComparePeriods, timeCol != "" && measure != "", one("How does %s compare month over month?", "%s的环比变化如何？"), measure)
	add(Correlation, measure != "" && measure2 != "", one("What is the correlation between %s and %s?", "%s和%s的相关性如何？"), measure, measure2)
	add(Pivot, cat != "" && cat2 != "" && measure != "", one("Pivot table of %[1]s by %[2]s and %[3]s", "按%[2]s和%[3]s做%[1]s的数据透视表"), measure, cat, cat2)
	add(Outliers, measure != "", one("Are there outliers in %s?", "%s有哪些异常值？"), measure)
	add(Distribution, measure != "", one("What is the distribution of %s?", "%s的分布如何？"), measure)
	add(Profile, true, one("Profile this data: missing values and column types", "对这份数据做数据概况分析"))
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
