package templates

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// correlationGroups refuses a correlation per group (correlationBuiltin's
// needs): "correlation between wind and precipitation by weather" was
// answered with one r over all the rows under a first line that said "per
// weather"; neither correlation.py nor the reading engine's
// correlationTable splits the rows by a category.
// Groups of one row each (a state in a table of states) are the rows
// correlated, not groups.
func correlationGroups(a *asking, r *Reading) {
	refuseGroups(a, r, "correlation", "相关性")
}

// comparisonGroups refuses a comparison with the period before (yoy,
// mom...) per group (comparePeriodsBuiltin's needs): "year over year
// change in precipitation by weather" was answered with the change of all
// the rows' total, under a first line that did not say the weather; compare_periods.py compares one series,
// and the reading engine's changes (addChanges) take each row's previous
// row as its previous period, another group's when the rows are per
// group. Two years compared per group (Periods) are computed per group.
func comparisonGroups(a *asking, r *Reading) {
	if r.Compare == "" || len(r.Periods) > 0 || len(r.GroupBy) == 0 {
		return
	}
	by := strings.Join(r.GroupBy, ", ")
	a.problem(fmt.Sprintf("it asks for the %s change per %s, and the comparison follows one series, not one per group", compareNames[r.Compare], by),
		fmt.Sprintf("请求要按 %s 分别看%s变化，而时期对比只比较一个序列，不分组", by, compareNamesZh[r.Compare]))
}

// groupedSubject reports whether the words of the file's name that a span
// would drop as the table's subject (ws less rest) name a text column by
// themselves and a by or each word comes right before the span: in
// "各天气风速的分布" over seattle-weather.csv, 天气风速 was read as wind
// alone (weather being the file's subject), and 各 with it, so the
// distribution of all the wind values was answered where one per weather
// was asked. The span is then not read as the measure alone (and, naming
// no one column, is left unplaced).
func (p *parsed) groupedSubject(toks []word, i int, ws, rest []string) bool {
	if i == 0 {
		return false
	}
	prev := toks[i-1]
	e := prev.ent
	if e == nil && !prev.han {
		if en, ok := enWords[prev.w]; ok {
			e = &en
		}
	}
	if e == nil || e.role != roleBy {
		return false
	}
	var dropped []string
	for _, w := range ws {
		if !slices.Contains(rest, w) {
			dropped = append(dropped, w)
		}
	}
	for _, c := range p.t.cols {
		if c.text && matchTier(dropped, c) >= 2 {
			return true
		}
	}
	return false
}

// countUnused refuses a count asked of a built-in that shows everything it
// finds (builtin.showsAll), and an order asked of one whose rows are in an
// order of their own (builtin.ownOrder): "top 5 outliers in wind" was answered with
// all 34 rows outside the fences, "distribution of the top 3 wind values"
// with the distribution of every value, and "compare 2013 vs 2014 for the
// top 3 weathers" with every weather, each under a first line that did
// not say the count.
func countUnused(a *asking, b *builtin, r Reading) {
	if b.ownOrder && r.Order != "" && r.N <= 0 {
		// "pivot of the highest wind by weather and year" was answered
		// with the mean wind of each cell, "最高风速的分布" with the
		// distribution of every wind value.
		word := r.Order
		for _, it := range a.p.items {
			if it.kind == itemVocab && (it.ent.role == roleOrder || it.ent.role == roleSuper) {
				word = it.text
				break
			}
		}
		a.add("it asks for “%[1]s”, and %[2]s shows its rows in an order of its own, not by value", "请求要“%[1]s”，而 %[2]s 按自己的顺序列出，不按数值排序", word, b.Name)
	}
	if !b.showsAll || r.N <= 0 {
		return
	}
	a.add("it asks for %[1]d of them, and %[2]s shows all it finds, not the first %[1]d", "请求要其中 %[1]d 个，而 %[2]s 列出找到的全部，不取前 %[1]d 个", r.N, b.Name)
}

// relativeEnRe and relativeZhRe find a period counted back from now or
// from the data's end: "this year", "last month", "the past 2 years",
// 今年, 上个月, 去年.
var (
	relativeEnRe = regexp.MustCompile(`\b(?:this|current|last|previous|prior|past|next)\s+(?:\d+\s+)?(?:year|month|quarter|week|day)s?\b`)
	relativeZhRe = regexp.MustCompile(`今年|本年|本月|当月|本季度|本季|本周|上个?月|上一个?月|上个?季度|上一个?季度|上个?周|上一周|上一年|去年|前年|明年|今天|昨天`)
	// Said right after one of these, "last year" is what a value is
	// compared with ("vs last year", "up on last month", 比去年, 与上月相比).
	versusEn = map[string]bool{"vs": true, "versus": true, "against": true, "than": true, "from": true, "with": true, "to": true, "on": true, "over": true}
	versusZh = []string{"与", "和", "跟", "比", "较", "对比", "相比", "同比", "环比"}
)

// relativePeriods refuses a period counted back from today or from the
// data's end, which the built-ins do not read, unless it is the period a
// value is compared with: "average price this year" was answered with a
// trend of every year's average, "上个月的平均价格" with one of every
// month's, and "average price in the last year" with every year against
// the one before; "sales vs last year" and 与去年相比 still compare.
func relativePeriods(a *asking) {
	text := a.p.text
	var unread []string
	compared := false
	for _, m := range relativeEnRe.FindAllStringIndex(text, -1) {
		phrase := text[m[0]:m[1]]
		before := strings.Fields(text[:m[0]])
		the := len(before) > 0 && before[len(before)-1] == "the"
		if the {
			before = before[:len(before)-1]
		}
		last := ""
		if len(before) > 0 {
			last = before[len(before)-1]
		}
		back := !strings.HasPrefix(phrase, "this") && !strings.HasPrefix(phrase, "current") && !strings.HasPrefix(phrase, "next")
		if back && (versusEn[last] && !(last == "over" && the) || last == "period" && strings.Contains(text, "same period "+phrase)) {
			compared = true
			continue
		}
		unread = append(unread, phrase)
	}
	for _, m := range relativeZhRe.FindAllStringIndex(text, -1) {
		phrase := text[m[0]:m[1]]
		if slices.ContainsFunc(versusZh, func(v string) bool { return strings.HasSuffix(text[:m[0]], v) }) {
			compared = true
			continue
		}
		unread = append(unread, phrase)
	}
	if len(unread) == 0 {
		return
	}
	if compared || a.compare != "" && a.compare != "with" && !relativeCompare(text) {
		// "sales this quarter vs last quarter", 本月销售额环比: the period
		// of a comparison (each against the one before), not a filter.
		return
	}
	a.add("“%s” is a period counted back from now, which the built-ins do not read: name it (a year, a month)",
		"“%s”是从现在往回数的时期，内置分析不读：请写明具体的时期（年份、月份）", strings.Join(unread, "”, “"))
}

// relativeCompare reports whether the request's only comparison word is a
// relative period itself ("last year" is a roleCompare phrase): then it
// compares nothing.
func relativeCompare(text string) bool {
	for _, w := range []string{"year over year", "month over month", "quarter over quarter", "week over week", "day over day", "yoy", "mom", "qoq", "wow", "同比", "环比", "去年同期", "compare", "change", "growth", "versus", "vs"} {
		if strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// allOf reports whether "all" (所有, 全部, 全体) is said right before the
// category of item it ("all the firms"): the rows of every value together,
// summed or averaged over them, not one result each. "total value of all
// firms per year" was answered with one line per firm, and "total invest
// of all firms" with a ranking of the firms; the first is the total of
// the firms each year, the second one number, which no built-in gives.
func (p *parsed) allOf(it item) bool {
	j := it.from - 1
	if j >= 0 && p.toks[j].w == "the" {
		j--
	}
	if j < 0 {
		return false
	}
	switch p.toks[j].w {
	case "all", "所有", "全部", "全体":
		return true
	}
	return false
}

// shareWords call a column's values a share of something.
var shareWords = map[string]bool{"share": true, "proportion": true, "percent": true}

// sharesOfTotal refuses a share word after a measure (ratedColumn) when
// the reading groups its rows, several a group: "precipitation share by
// weather" and 各天气降水量占比 were answered with each weather's mean
// precipitation, taken for a share column, where each weather's part of
// the total was asked, which no built-in computes. Over groups of one row
// each (白人比例最低的3个州: one row a state) the column is the share.
func sharesOfTotal(a *asking, r Reading) {
	p := a.p
	grouped := r.Grain != ""
	for _, g := range r.GroupBy {
		if c := p.t.column(g); c == nil || !p.t.oneRowEach(c) {
			grouped = true
		}
	}
	if !grouped {
		return
	}
	for k, it := range p.items {
		if it.kind == itemColumn || k == 0 || !slices.ContainsFunc(wordsOf(p.toks[it.from:it.to]), func(w string) bool { return shareWords[w] }) {
			continue
		}
		if c := p.ratedColumn(k); c != nil && c.nonSum == "" {
			a.add("“%s” asks for each group's share of the total %s, which no built-in computes", "“%s”要的是各组占 %s 总量的比例，内置分析不算", it.text, c.name)
			return
		}
	}
}
