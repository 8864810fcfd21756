package templates

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
)

// compareModes are compare_periods.py's MODES: each comparison's period,
// lag and name; yoy's period and lag come from Params.Period.
var compareModes = map[string]struct {
	code  string
	lag   int
	title string
}{
	"mom": {"M", 1, "month over month"},
	"qoq": {"Q", 1, "quarter over quarter"},
	"wow": {"W", 1, "week over week"},
	"dod": {"D", 1, "day over day"},
	"yoy": {"", 0, "year over year"},
}

// compareModesZH and yearLags are compare_periods.py's MODES_ZH and
// YEAR_LAGS.
var (
	compareModesZH = map[string]string{"mom": "月环比", "qoq": "季度环比", "wow": "周环比", "dod": "日环比", "yoy": "同比"}
	yearLags       = map[string]int{"D": 365, "W": 52, "M": 12, "Q": 4, "Y": 1}
)

// periodsBefore is the start of the period lag periods before the one
// starting at s (pandas' Period - lag).
func periodsBefore(s time.Time, code string, lag int) time.Time {
	switch code {
	case "W":
		return s.AddDate(0, 0, -7*lag)
	case "M":
		return s.AddDate(0, -lag, 0)
	case "Q":
		return s.AddDate(0, -3*lag, 0)
	case "Y":
		return s.AddDate(-lag, 0, 0)
	}
	return s.AddDate(0, 0, -lag)
}

// pyCapitalize is Python's str.capitalize: the first letter upper case,
// the rest lower case.
func pyCapitalize(s string) string {
	r := []rune(s)
	for i := range r {
		if i == 0 {
			r[i] = unicode.ToTitle(r[i])
		} else {
			r[i] = unicode.ToLower(r[i])
		}
	}
	return string(r)
}

// comparePeriods is py/compare_periods.py's main on the DuckDB path.
func (n *native) comparePeriods() error {
	mode := n.p.Compare
	if mode == "" {
		mode = "mom"
	}
	m, ok := compareModes[mode]
	if !ok {
		return templateError(fmt.Sprintf("unknown comparison %s; use one of mom, qoq, wow, dod, yoy", pyQuote(mode)))
	}
	code, lag, title := m.code, m.lag, m.title
	if mode == "yoy" {
		code = "M"
		if n.p.Period != "" {
			code = periodCodes[n.p.Period]
		}
		lag = yearLags[code]
	}
	tcol, measure, agg := n.p.Time, n.p.Measure, n.p.Aggregation
	noun := periodNouns[code]
	nounHere := noun
	if n.lang == LangChinese {
		nounHere = periodNounsZH[code]
	}

	// The series over every period from the first to the last.
	byStart := map[time.Time]float64{}
	for _, r := range n.preRows("series") {
		d, ok := parseDay(r[0])
		if !ok {
			return fmt.Errorf("period %v is not a date", r[0])
		}
		byStart[periodStartOf(d, code)] = toFloat(r[len(r)-1])
	}
	if len(byStart) == 0 {
		return templateError("no rows with a date to compare")
	}
	var lo, hi time.Time
	for p := range byStart {
		if lo.IsZero() || p.Before(lo) {
			lo = p
		}
		if p.After(hi) {
			hi = p
		}
	}
	var periods []time.Time
	for p := lo; !p.After(hi); p = nextPeriod(p, code) {
		periods = append(periods, p)
	}
	sums := agg == "sum" || agg == "count"
	series := make([]float64, len(periods))
	labels := make([]string, len(periods))
	prevLabels := make([]string, len(periods))
	for i, p := range periods {
		v, ok := byStart[p]
		if !ok {
			v = math.NaN()
		}
		if sums && math.IsNaN(v) {
			v = 0
		}
		series[i] = v
		labels[i] = periodLabel(p, code)
		prevLabels[i] = periodLabel(periodsBefore(p, code, lag), code)
	}
	what := describeAgg(n.lang, measure, agg)
	previous := make([]float64, len(series))
	change := make([]float64, len(series))
	changePct := make([]float64, len(series))
	for i := range series {
		previous[i] = math.NaN()
		if i >= lag {
			previous[i] = series[i-lag]
		}
		change[i] = series[i] - previous[i]
		changePct[i] = math.NaN()
		if !math.IsNaN(previous[i]) && previous[i] != 0 {
			changePct[i] = change[i] / previous[i]
		}
	}

	// Partial first and last periods, from the days with data (or, with
	// none listed, the last time).
	type partialPeriod struct {
		i   int
		why string
	}
	var partial []partialPeriod
	var days []time.Time
	for _, r := range n.preRows("days") {
		if d, ok := parseDay(r[0]); ok {
			days = append(days, d)
		}
	}
	var firstCut, lastCut time.Time
	if len(days) > 0 {
		firstCut, lastCut = partialEnds(days, periods, code)
	} else if last, ok := parseTime(fmt.Sprint(n.pre["last_t"])); ok && last.Before(nextPeriod(periods[len(periods)-1], code).AddDate(0, 0, -1)) {
		lastCut = last
	}
	if !firstCut.IsZero() {
		partial = append(partial, partialPeriod{0, fmt.Sprintf(n.tr("the data starts on %s", "数据从 %s 开始"), firstCut.Format("2006-01-02"))})
	}
	if !lastCut.IsZero() {
		partial = append(partial, partialPeriod{len(periods) - 1, fmt.Sprintf(n.tr("the data ends on %s", "数据到 %s 为止"), lastCut.Format("2006-01-02"))})
	}
	cut := map[string]bool{}
	for _, pp := range partial {
		cut[labels[pp.i]] = true
	}
	if len(partial) > 0 {
		// A partial period is never compared as if it were whole.
		for i := range series {
			if cut[labels[i]] || cut[prevLabels[i]] {
				change[i], changePct[i] = math.NaN(), math.NaN()
			}
		}
		for _, pp := range partial {
			if n.lang == LangChinese {
				n.note(fmt.Sprintf("%s %s 数据不完整（%s）：不与完整的%s比较", nounHere, labels[pp.i], pp.why, nounHere))
			} else {
				n.note(fmt.Sprintf("the %s %s is partial (%s): it is not compared with whole %ss", noun, labels[pp.i], pp.why, noun))
			}
		}
	}
	cols := []string{noun, what, "compared_with", "previous", "change", "change_pct"}
	if len(partial) > 0 {
		cols = append(cols, "partial")
	}
	rows := make([][]mdCell, len(series))
	var comparable, whole []int
	for i := range series {
		rows[i] = []mdCell{labels[i], series[i], prevLabels[i], previous[i], change[i], changePct[i]}
		if len(partial) > 0 {
			word := ""
			if cut[labels[i]] {
				word = "partial"
			}
			rows[i] = append(rows[i], word)
		}
		if !math.IsNaN(previous[i]) {
			comparable = append(comparable, i)
			if !math.IsNaN(change[i]) {
				whole = append(whole, i)
			}
		}
	}
	if len(partial) > 0 && len(whole) > 0 {
		comparable = whole
	}
	if len(comparable) == 0 {
		return templateError(fmt.Sprintf("the data covers %d %s(s) (%s to %s), too short for a %s comparison; use a shorter period or more data",
			len(series), noun, labels[0], labels[len(labels)-1], title))
	}
	csvPath, err := n.saveCSV("table", cols, rows)
	if err != nil {
		return err
	}
	latest := comparable[len(comparable)-1]

	recent := comparable[max(0, len(comparable)-12):]
	barLabels := make([]string, len(recent))
	before, after := make([]float64, len(recent)), make([]float64, len(recent))
	for k, i := range recent {
		barLabels[k], before[k], after[k] = labels[i], previous[i], series[i]
	}
	c := &chart{title: n.tr(what+", "+title, what+"，"+compareModesZH[mode])}
	png, err := n.savePNG("chart", c, func() ([]byte, error) {
		return c.pairedBars(barLabels, []lineSeries{{name: n.tr("compared period", "对比期"), values: before}, {name: nounHere, values: after}})
	})
	if err != nil {
		return err
	}
	var shown [][]mdCell
	for _, i := range comparable[max(0, len(comparable)-24):] {
		r := append([]mdCell(nil), rows[i]...)
		r[5] = pct(changePct[i])
		shown = append(shown, r)
	}
	md := mdTable(n.lang, headers(n.lang, cols, noun, "compared_with", "previous", "change", "change_pct", "partial"), shown, 24, 0)
	n.section(n.tr(pyCapitalize(title)+": "+what, compareModesZH[mode]+"："+what), md, png, csvPath)

	var data []any
	for _, i := range comparable {
		data = append(data, map[string]any{"period": labels[i], "value": jnum(series[i]), "previous_period": prevLabels[i],
			"previous": jnum(previous[i]), "change": jnum(change[i]), "change_pct": jnum(changePct[i])})
	}
	partialLabels := []string{}
	for _, pp := range partial {
		partialLabels = append(partialLabels, labels[pp.i])
	}
	n.out.Data = map[string]any{"time": tcol, "measure": jstr(measure), "aggregation": agg, "compare": mode, "period": noun,
		"rows": data, "latest": data[len(data)-1], "partial": partialLabels}
	delta := fmtFloat(change[latest])
	if change[latest] >= 0 {
		delta = "+" + delta
	}
	pctText := func(sep string) string {
		if math.IsNaN(changePct[latest]) {
			return ""
		}
		return fmt.Sprintf("%s%+.1f%%", sep, 100*changePct[latest])
	}
	if n.lang == LangChinese {
		answer := fmt.Sprintf("%s：%s 为 %s，%s 为 %s（%s%s）。", what, labels[latest], fmtFloat(series[latest]), prevLabels[latest], fmtFloat(previous[latest]), delta, pctText("，"))
		for _, pp := range partial {
			answer += fmt.Sprintf("%s %s 数据不完整（%s），未参与比较。", periodNounsZH[code], labels[pp.i], pp.why)
		}
		n.out.Answer = answer
		return nil
	}
	answer := fmt.Sprintf("%s, %s: %s was %s against %s in %s (%s%s).", pyCapitalize(what), title, labels[latest], fmtFloat(series[latest]),
		fmtFloat(previous[latest]), prevLabels[latest], delta, pctText(", "))
	for _, pp := range partial {
		answer += fmt.Sprintf(" The %s %s is partial (%s) and is not compared.", noun, labels[pp.i], pp.why)
	}
	n.out.Answer = answer
	return nil
}

// parseTime reads a DuckDB timestamp's text ("2024-03-31 12:00:00").
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
