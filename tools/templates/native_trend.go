package templates

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// periodWords, periodNouns and periodNounsZH are common.py's
// PERIOD_WORDS (English and Chinese), PERIOD_NOUNS and PERIOD_NOUNS_ZH.
var (
	periodWordsEN = map[string]string{"D": "daily", "W": "weekly", "M": "monthly", "Q": "quarterly", "Y": "yearly"}
	periodWordsZH = map[string]string{"D": "每日", "W": "每周", "M": "月度", "Q": "季度", "Y": "年度"}
	periodNouns   = map[string]string{"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}
	periodNounsZH = map[string]string{"D": "日", "W": "周", "M": "月", "Q": "季度", "Y": "年"}
)

// periodStartOf is the first day of the period (of code) holding t; a
// week starts on Monday (pandas' W-SUN weeks end on Sunday).
func periodStartOf(t time.Time, code string) time.Time {
	y, m, d := t.Date()
	switch code {
	case "W":
		return time.Date(y, m, d-(int(t.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
	case "M":
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case "Q":
		return time.Date(y, m-(m-1)%3, 1, 0, 0, 0, 0, time.UTC)
	case "Y":
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// nextPeriod is the start of the period after the one starting at s.
func nextPeriod(s time.Time, code string) time.Time {
	switch code {
	case "W":
		return s.AddDate(0, 0, 7)
	case "M":
		return s.AddDate(0, 1, 0)
	case "Q":
		return s.AddDate(0, 3, 0)
	case "Y":
		return s.AddDate(1, 0, 0)
	}
	return s.AddDate(0, 0, 1)
}

// periodLabel is common.py's period_label.
func periodLabel(s time.Time, code string) string {
	switch code {
	case "M":
		return s.Format("2006-01")
	case "Q":
		return fmt.Sprintf("%dQ%d", s.Year(), (int(s.Month())-1)/3+1)
	case "Y":
		return fmt.Sprintf("%d", s.Year())
	}
	return s.Format("2006-01-02")
}

func parseDay(v any) (time.Time, bool) {
	s := fmt.Sprint(v)
	if len(s) > 10 {
		s = s[:10]
	}
	t, err := time.Parse("2006-01-02", s)
	return t, err == nil
}

// median of xs (sorted in place).
func median(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// partialEnds is common.py's partial_ends over the days with data
// (sorted, distinct) and the periods' starts: the day the data starts at
// when the first period is partial, and the day it stops at when the last
// one is (zero times when whole).
func partialEnds(days, periods []time.Time, code string) (first, last time.Time) {
	if len(days) < 2 || len(periods) < 2 {
		return
	}
	var gaps []float64
	for i := 1; i < len(days); i++ {
		gaps = append(gaps, days[i].Sub(days[i-1]).Hours()/24)
	}
	gap := time.Duration(math.Max(median(gaps), 1) * float64(24*time.Hour))
	firstP, lastP := periods[0], periods[len(periods)-1]
	lastEnd := nextPeriod(lastP, code)
	if gap >= lastEnd.Sub(lastP)-time.Nanosecond {
		return // the data is no finer than the period
	}
	per := map[time.Time]int{}
	for _, d := range days {
		per[periodStartOf(d, code)]++
	}
	var inner []float64
	most := 0
	for p, c := range per {
		most = max(most, c)
		if !p.Equal(firstP) && !p.Equal(lastP) {
			inner = append(inner, float64(c))
		}
	}
	usual := float64(most)
	if len(inner) > 0 {
		usual = median(inner)
	}
	thin := func(p time.Time) bool { return float64(per[p]) < 0.6*usual }
	lo, hi := days[0], days[len(days)-1]
	if lo.Sub(firstP) >= gap && thin(firstP) {
		first = lo
	}
	if lastEnd.AddDate(0, 0, -1).Sub(hi) >= gap && thin(lastP) {
		last = hi
	}
	return
}

// trend is py/trend.py's main on the DuckDB path.
func (n *native) trend() error {
	code, _ := n.pre["code"].(string)
	tcol, measure, agg, cat := n.p.Time, n.p.Measure, n.p.Aggregation, n.p.Category
	noun := periodNouns[code]
	nounHere := noun
	words := periodWordsEN[code]
	if n.lang == LangChinese {
		nounHere, words = periodNounsZH[code], periodWordsZH[code]
	}
	capWords := words
	if n.lang != LangChinese {
		capWords = strings.ToUpper(words[:1]) + words[1:]
	}
	byStart := map[time.Time]float64{}
	var periods []time.Time
	for _, r := range n.preRows("series") {
		d, ok := parseDay(r[0])
		if !ok {
			return fmt.Errorf("period %v is not a date", r[0])
		}
		byStart[periodStartOf(d, code)] = toFloat(r[len(r)-1])
	}
	if len(byStart) == 0 {
		return templateError("no rows with a date to chart")
	}
	lo, hi := time.Time{}, time.Time{}
	for p := range byStart {
		if lo.IsZero() || p.Before(lo) {
			lo = p
		}
		if p.After(hi) {
			hi = p
		}
	}
	for p := lo; !p.After(hi); p = nextPeriod(p, code) {
		periods = append(periods, p)
	}
	sums := agg == "sum" || agg == "count"
	reindex := func(m map[time.Time]float64) []float64 {
		out := make([]float64, len(periods))
		for i, p := range periods {
			v, ok := m[p]
			if !ok {
				v = math.NaN()
			}
			if sums && math.IsNaN(v) {
				v = 0
			}
			out[i] = v
		}
		return out
	}
	// The category's lines, as duckdb_series reads them.
	var totals []group
	byCat := map[string]map[time.Time]float64{}
	var leftOut []string
	if cat != "" {
		for _, r := range n.preRows("totals") {
			totals = append(totals, group{name: fmt.Sprint(r[0]), value: toFloat(r[1])})
		}
		for _, r := range n.preRows("by_cat") {
			d, ok := parseDay(r[0])
			if !ok {
				return fmt.Errorf("period %v is not a date", r[0])
			}
			c := fmt.Sprint(r[1])
			if byCat[c] == nil {
				byCat[c] = map[time.Time]float64{}
			}
			byCat[c][periodStartOf(d, code)] = toFloat(r[2])
		}
		var dropped []string
		totals, dropped = dropTotals(n.lang, totals, cat, "the lines", &n.out.Notes)
		for _, c := range dropped {
			delete(byCat, c)
		}
		leftOut = dropped
	}
	if bad := toInt(n.pre["bad"]); bad > 0 {
		n.note(fmt.Sprintf(n.tr("%d rows whose %s is not a date were left out", "%d 行的 %s 不是日期，未计入"), bad, tcol))
	}
	series := reindex(byStart)
	labels := make([]string, len(periods))
	for i, p := range periods {
		labels[i] = periodLabel(p, code)
	}
	what := describeAgg(n.lang, measure, agg)

	var days []time.Time
	for _, r := range n.preRows("days") {
		if d, ok := parseDay(r[0]); ok {
			days = append(days, d)
		}
	}
	firstCut, lastCut := partialEnds(days, periods, code)
	type partialPeriod struct {
		i   int
		why string
	}
	var partial []partialPeriod
	if !firstCut.IsZero() {
		partial = append(partial, partialPeriod{0, fmt.Sprintf(n.tr("the data starts on %s", "数据从 %s 开始"), firstCut.Format("2006-01-02"))})
	}
	if !lastCut.IsZero() {
		partial = append(partial, partialPeriod{len(periods) - 1, fmt.Sprintf(n.tr("the data ends on %s", "数据到 %s 为止"), lastCut.Format("2006-01-02"))})
	}
	isPartial := make([]bool, len(periods))
	var partialIdx []int
	for _, pp := range partial {
		isPartial[pp.i] = true
		partialIdx = append(partialIdx, pp.i)
		if n.lang == LangChinese {
			n.note(fmt.Sprintf("%s %s 数据不完整（%s）：已在表中标出，不与完整的%s比较", nounHere, labels[pp.i], pp.why, nounHere))
		} else {
			n.note(fmt.Sprintf("the %s %s is partial (%s): it is marked in the table and not compared with whole %ss", noun, labels[pp.i], pp.why, noun))
		}
	}
	partialWord := func(i int) string {
		if isPartial[i] {
			return n.tr("partial", "不完整")
		}
		return ""
	}

	// The table: each period, its change and change in percent (pandas'
	// diff and pct_change, which fills a missing value forward first).
	cols := []string{noun, what, "change", "change_pct"}
	if len(partial) > 0 {
		cols = append(cols, "partial")
	}
	rows := make([][]mdCell, len(series))
	prev := math.NaN()
	for i, v := range series {
		change, changePct := math.NaN(), math.NaN()
		if i > 0 {
			change = v - series[i-1]
			cur := v
			if math.IsNaN(cur) {
				cur = prev
			}
			changePct = cur/prev - 1
		}
		if !math.IsNaN(v) {
			prev = v
		}
		if len(partial) > 0 && (isPartial[i] || (i > 0 && isPartial[i-1])) {
			change, changePct = math.NaN(), math.NaN()
		}
		rows[i] = []mdCell{labels[i], v, change, changePct}
		if len(partial) > 0 {
			rows[i] = append(rows[i], partialWord(i))
		}
	}
	csvPath, err := n.saveCSV("table", cols, rows)
	if err != nil {
		return err
	}
	shown := make([][]mdCell, len(rows))
	for i, r := range rows {
		shown[i] = append([]mdCell(nil), r...)
		shown[i][3] = pct(r[3].(float64))
	}
	tail := shown[max(0, len(shown)-36):]
	shownCols := headers(n.lang, cols, noun, "change", "change_pct", "partial")

	// The chart, and with a category its lines' table.
	title := fmt.Sprintf("%s %s", capWords, what)
	if cat != "" {
		title += " by " + cat
	}
	if n.lang == LangChinese {
		title = words + what
		if cat != "" {
			title = "按" + cat + "的" + words + what
		}
	}
	c := &chart{title: title, yLabel: what}
	var lines []lineSeries
	var top []string
	var catMD, catCSV string
	byCatValues := map[string][]float64{}
	for name, m := range byCat {
		byCatValues[name] = reindex(m)
	}
	if cat != "" {
		for i, g := range totals {
			if i == 6 { // trend.py's MAX_LINES
				break
			}
			if _, ok := byCat[g.name]; ok {
				top = append(top, g.name)
			}
		}
		catCols := append([]string{noun}, top...)
		if len(partial) > 0 {
			catCols = append(catCols, "partial")
		}
		catRows := make([][]mdCell, len(periods))
		for i := range periods {
			catRows[i] = []mdCell{labels[i]}
			for _, name := range top {
				catRows[i] = append(catRows[i], byCatValues[name][i])
			}
			if len(partial) > 0 {
				catRows[i] = append(catRows[i], partialWord(i))
			}
		}
		for _, name := range top {
			lines = append(lines, lineSeries{name: name, values: byCatValues[name]})
		}
		if catCSV, err = n.saveCSV("by_category", catCols, catRows); err != nil {
			return err
		}
		catMD = mdTable(n.lang, headers(n.lang, catCols, noun, "partial"), catRows[max(0, len(catRows)-36):], 36, 0)
		if len(top) < len(totals) {
			if n.lang == LangChinese {
				n.note(fmt.Sprintf("只画出了 %d 个%s值中最大的 %d 个", len(totals), cat, len(top)))
			} else {
				n.note(fmt.Sprintf("lines are drawn for the %d largest of %d %s values", len(top), len(totals), cat))
			}
		}
	} else {
		lines = []lineSeries{{values: series}}
	}
	png, err := n.savePNG("chart", c, func() ([]byte, error) { return c.lineChart(labels, lines, partialIdx) })
	if err != nil {
		return err
	}

	// The whole periods: partial ones are not compared.
	var valid, whole []int
	for i, v := range series {
		if !math.IsNaN(v) {
			valid = append(valid, i)
			if !isPartial[i] {
				whole = append(whole, i)
			}
		}
	}
	if len(whole) == 0 {
		whole = valid
	}
	extremes := func(idx []int, vs []float64) (peak, low int) {
		peak, low = idx[0], idx[0]
		for _, i := range idx {
			if vs[i] > vs[peak] {
				peak = i
			}
			if vs[i] < vs[low] {
				low = i
			}
		}
		return
	}
	var peakLabel, lowLabel any
	var peakValue, lowValue, firstValue, lastValue, change any
	peakI, lowI := -1, -1
	if len(whole) > 0 {
		peakI, lowI = extremes(whole, series)
		peakLabel, lowLabel = labels[peakI], labels[lowI]
		peakValue, lowValue = jnum(series[peakI]), jnum(series[lowI])
		firstValue, lastValue = jnum(series[whole[0]]), jnum(series[whole[len(whole)-1]])
	}
	changeF := math.NaN()
	if k := len(whole); k >= 2 && series[whole[k-2]] != 0 && whole[k-1]-whole[k-2] == 1 {
		changeF = series[whole[k-1]]/series[whole[k-2]] - 1
		change = changeF
	}
	md := mdTable(n.lang, shownCols, tail, 36, 0)
	if len(shown) > 36 {
		if n.lang == LangChinese {
			md = fmt.Sprintf("（%d 个%s中的最后 36 个）\n\n", len(shown), nounHere) + md
		} else {
			md = fmt.Sprintf("(the last 36 of %d %ss)\n\n", len(shown), noun) + md
		}
	}
	type lineSummary struct {
		name        string
		first, last float64
		change      float64
		data        map[string]any
	}
	var perCat []lineSummary
	if cat != "" {
		// "by X" answers per X: each line's own series leads.
		for _, name := range top {
			vs := byCatValues[name]
			var sc, scWhole []int
			for i, v := range vs {
				if !math.IsNaN(v) {
					sc = append(sc, i)
					if !isPartial[i] {
						scWhole = append(scWhole, i)
					}
				}
			}
			if len(scWhole) > 0 {
				sc = scWhole
			}
			if len(sc) == 0 {
				continue
			}
			first, last := vs[sc[0]], vs[sc[len(sc)-1]]
			ch := math.NaN()
			if first != 0 && len(sc) >= 2 {
				ch = last/first - 1
			}
			pk, _ := extremes(sc, vs)
			perCat = append(perCat, lineSummary{name: name, first: first, last: last, change: ch, data: map[string]any{
				"first": jnum(first), "first_period": labels[sc[0]], "last": jnum(last), "last_period": labels[sc[len(sc)-1]],
				"change_pct": jnum(ch), "peak_period": labels[pk], "peak": jnum(vs[pk]),
			}})
		}
		if n.lang == LangChinese {
			n.section("按"+cat+"的"+words+what, catMD, png, catCSV)
			n.section(words+"趋势："+what+"，全部"+cat+"合计", md, csvPath)
		} else {
			n.section(fmt.Sprintf("%s %s by %s", capWords, what, cat), catMD, png, catCSV)
			n.section(fmt.Sprintf("%s trend: %s, all %s values together", capWords, what, cat), md, csvPath)
		}
	} else {
		n.section(n.tr(fmt.Sprintf("%s trend: %s", capWords, what), fmt.Sprintf("%s趋势：%s", words, what)), md, png, csvPath)
	}

	values := make([]any, len(series))
	for i, v := range series {
		values[i] = jnum(v)
	}
	partialLabels := []string{}
	for _, pp := range partial {
		partialLabels = append(partialLabels, labels[pp.i])
	}
	n.out.Data = map[string]any{
		"time": tcol, "measure": jstr(measure), "aggregation": agg, "period": noun,
		"labels": labels, "values": values,
		"peak":  map[string]any{"period": peakLabel, "value": peakValue},
		"low":   map[string]any{"period": lowLabel, "value": lowValue},
		"first": firstValue, "last": lastValue, "last_change_pct": change, "category": jstr(cat),
		"partial": partialLabels, "left_out_totals": nonNil(leftOut),
	}
	if cat != "" {
		bc := map[string]any{}
		for name, vs := range byCatValues {
			out := make([]any, len(vs))
			for i, v := range vs {
				out[i] = jnum(v)
			}
			bc[name] = out
		}
		pc := map[string]any{}
		for _, s := range perCat {
			pc[s.name] = s.data
		}
		n.out.Data["by_category"] = bc
		n.out.Data["per_category"] = pc
	}
	if len(valid) == 0 {
		n.out.Answer = n.tr(fmt.Sprintf("No %s values to chart.", what), fmt.Sprintf("没有可绘制的%s数值。", what))
		return nil
	}
	lastI := whole[len(whole)-1]
	changeText := func(v float64, noun string) string {
		if math.IsNaN(v) {
			return ""
		}
		return n.tr(fmt.Sprintf(" (%+.1f%% on the %s before)", 100*v, noun), fmt.Sprintf("（较上一%s %+.1f%%）", noun, 100*v))
	}
	var partialText, lastWord string
	if n.lang == LangChinese {
		lastWord = "最后一"
		if len(partial) > 0 {
			lastWord = "最后一个完整"
		}
		for _, pp := range partial {
			partialText += fmt.Sprintf("%s %s 的数据不完整（%s），不参与比较。", nounHere, labels[pp.i], pp.why)
		}
		if cat != "" && len(perCat) > 0 {
			var parts []string
			for _, s := range perCat {
				p := s.name + " " + fmtFloat(s.first) + " → " + fmtFloat(s.last)
				if !math.IsNaN(s.change) {
					p += fmt.Sprintf("（%+.1f%%）", 100*s.change)
				}
				parts = append(parts, p)
			}
			text := fmt.Sprintf("按%s的%s%s，%s 至 %s：%s。", cat, words, what, labels[whole[0]], labels[lastI], strings.Join(parts, "；"))
			if sums {
				text += fmt.Sprintf("全部%s合计：最高在 %s（%s）；%s%s %s 为 %s%s。", cat, labels[peakI], fmtFloat(series[peakI]), lastWord, nounHere, labels[lastI], fmtFloat(series[lastI]), changeText(changeF, nounHere))
			}
			n.out.Answer = text + partialText
			return nil
		}
		n.out.Answer = fmt.Sprintf("%s%s，%s 至 %s：最高在 %s（%s），最低在 %s（%s）；%s%s %s 为 %s%s。%s", words, what, labels[0], labels[len(labels)-1],
			labels[peakI], fmtFloat(series[peakI]), labels[lowI], fmtFloat(series[lowI]), lastWord, nounHere, labels[lastI], fmtFloat(series[lastI]), changeText(changeF, nounHere), partialText)
		return nil
	}
	lastWord = "last"
	if len(partial) > 0 {
		lastWord = "last whole"
	}
	for _, pp := range partial {
		partialText += fmt.Sprintf(" The %s %s is partial (%s) and is not compared.", noun, labels[pp.i], pp.why)
	}
	if cat != "" && len(perCat) > 0 {
		var parts []string
		for _, s := range perCat {
			p := s.name + " " + fmtFloat(s.first) + " → " + fmtFloat(s.last)
			if !math.IsNaN(s.change) {
				p += fmt.Sprintf(" (%+.1f%%)", 100*s.change)
			}
			parts = append(parts, p)
		}
		answer := fmt.Sprintf("%s %s by %s, %s to %s: %s.", capWords, what, cat, labels[whole[0]], labels[lastI], strings.Join(parts, "; "))
		if sums {
			answer += fmt.Sprintf(" All %s together: highest in %s (%s); the %s %s, %s, was %s%s.", cat, labels[peakI], fmtFloat(series[peakI]), lastWord, noun, labels[lastI], fmtFloat(series[lastI]), changeText(changeF, noun))
		}
		n.out.Answer = answer + partialText
		return nil
	}
	n.out.Answer = fmt.Sprintf("%s %s from %s to %s: highest in %s (%s), lowest in %s (%s); the %s %s, %s, was %s%s.%s", capWords, what, labels[0], labels[len(labels)-1],
		labels[peakI], fmtFloat(series[peakI]), labels[lowI], fmtFloat(series[lowI]), lastWord, noun, labels[lastI], fmtFloat(series[lastI]), changeText(changeF, noun), partialText)
	return nil
}
