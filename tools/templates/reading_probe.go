package templates

import (
	"fmt"
	"slices"
	"strings"
)

// The classes behind the probe set's wrong answers
// (eval/understanding/probe_src.py), each a small rule of its own.

// dataNouns name a table as a whole; a column word before one (人口数据,
// 人数数据概况, "the population data") names the data, not a column.
var dataNouns = map[string]bool{"数据": true, "数据集": true, "表": true, "data": true, "dataset": true, "table": true, "file": true}

// profileOfNamedColumns refuses a profile of the whole table when the
// request names numeric columns to describe ("describe precipitation",
// "summary of wind"): a profile answers what the file holds, not how one
// column is distributed, so it would answer another question. It says
// whether it refused.
func profileOfNamedColumns(a *asking) bool {
	var names []string
	for _, it := range a.p.items {
		if it.kind != itemColumn || !slices.Contains(a.measures, it.col) || slices.Contains(names, it.col.name) {
			continue
		}
		if next := a.p.nextItem(it); next != nil && (next.kind == itemFile || dataNouns[next.text] || strings.HasPrefix(next.text, "数据")) {
			continue // 人口数据概况: the population data's profile
		}
		names = append(names, it.col.name)
	}
	if len(names) == 0 {
		return false
	}
	list := strings.Join(names, ", ")
	a.add("a profile describes the whole table, not %[1]s alone: ask for the distribution of %[1]s", "数据概况描述整张表，而不只是%[1]s：请问%[1]s的分布", list)
	return true
}

// 最高值 and 最低值 are the highest and the lowest value: an aggregation
// (max, min) like 最大值 and 最小值, not 最高 "highest" (an order) and a
// 值 that says nothing ("每年二氧化碳浓度最高值" is the yearly maximum,
// not the yearly mean ranked).
func init() {
	for w, agg := range map[string]string{"最高值": "max", "最低值": "min"} {
		zhWords[w] = entry{role: roleAgg, value: agg}
	}
}

// statOfPeriodByGroup asks which is meant when a median, maximum or
// minimum is said of a period's values as an adjective of the measure,
// per category ("median annual deaths by disaster type", "max yearly
// output per plant"): the statistic over the years for each category, or
// a trend of the statistic per year. The trend alone would list every
// year of every category, another question. (measured asks the same of
// "average annual …".)
func statOfPeriodByGroup(a *asking) {
	if len(a.dims) == 0 || a.grain == "" {
		return
	}
	items := a.p.items
	for k := 1; k+1 < len(items); k++ {
		ag, g, m := items[k-1], items[k], items[k+1]
		if ag.kind != itemVocab || ag.ent.role != roleAgg || g.kind != itemVocab || g.ent.role != roleGrain || g.ent.value != a.grain || m.kind != itemColumn || !m.col.numeric {
			continue
		}
		switch ag.ent.value {
		case "median", "max", "min":
			a.problem(fmt.Sprintf("“%[1]s %[2]s %[3]s by %[4]s” can be the %[1]s over the %[5]ss for each %[4]s, or a trend of the %[1]s per %[5]s: say which", ag.text, g.text, m.col.name, a.dims[0].name, a.grain),
				fmt.Sprintf("“按%[4]s的%[2]s%[3]s%[1]s”可以是每个%[4]s跨各%[5]s的%[1]s，也可以是每%[5]s%[1]s的趋势：请说明是哪一种", aggZh[ag.ent.value], zhGrain(a.grain), m.col.name, a.dims[0].name, zhGrain(a.grain)))
			return
		}
	}
}

// aggZh names an aggregation in Chinese, for statOfPeriodByGroup.
var aggZh = map[string]string{"median": "中位数", "max": "最大值", "min": "最小值"}

// trendOrderUnused refuses a trend when the request also says highest or
// lowest and nothing used it ("co2 highest each year", "历年通胀率最低"):
// a trend lists every period's value in time order, so the order word
// would be dropped. Said before a measure with each or per it is already
// the measure's maximum or minimum per period ("每年最高的通胀率"); a
// question of which period ("which year…", 哪一年…, 星期几) is answered by the
// trend's every period, as is a part of the calendar (its few months or
// weekdays all shown), and a maximum or minimum asked ("peak co2 reading
// each year") uses the order.
func trendOrderUnused(a *asking, r *Reading) {
	which := slices.ContainsFunc(a.p.toks, func(w word) bool { return strings.Contains(w.raw, "哪") || strings.HasSuffix(w.raw, "几") })
	if r.Order == "" || r.N > 0 || a.p.asksWhich() || which || slices.Contains(calendarParts, r.Grain) {
		return // which period: 哪一年, 一年中哪个月, "which month", 星期几; every month of the calendar
	}
	for _, m := range r.Measures {
		if m.Agg == "max" || m.Agg == "min" {
			return // "peak co2 reading each year": the maximum per year is asked
		}
	}
	for _, it := range a.p.items {
		if it.kind == itemVocab && (it.ent.role == roleOrder || it.ent.role == roleSuper) && !judgedOrder[it.text] {
			a.add("“%[1]s” asks for a ranking, and a trend lists every %[2]s in time order: say the maximum or minimum per %[2]s, or the top %[2]ss", "“%[1]s”要的是排名，而趋势分析按时间顺序列出每一%[3]s：请说明是每%[3]s的最大值或最小值，还是排名靠前的%[3]s", it.text, orDefaultGrain(r.Grain), zhGrain(orDefaultGrain(r.Grain)))
			return
		}
	}
}

func orDefaultGrain(g string) string {
	if g == "" {
		return "period"
	}
	return g
}

// aggregatedDimension is the category a request aggregates and the
// reading groups by instead ("人口平均年龄": the average age, read as the
// average headcount per age group): an aggregation word right before a
// column the reading groups by, with no by, per or 按 before it. "" when
// there is none.
func (p *parsed) aggregatedDimension(r Reading) string {
	for k := 0; k+1 < len(p.items); k++ {
		ag, c := p.items[k], p.items[k+1]
		if ag.kind != itemVocab || ag.ent.role != roleAgg || ag.ent.value == "count" || ag.ent.value == "count_distinct" {
			continue
		}
		if c.kind != itemColumn || !slices.Contains(r.GroupBy, c.col.name) {
			continue
		}
		if prev := p.prevItem(ag); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBy {
			continue
		}
		return c.col.name
	}
	return ""
}

// versusDimension is the category whose values the request sets against
// each other and groups by nothing else ("drought vs epidemic: total
// deaths", "dawn vs dusk strike count", 2000年男女人数对比): one result
// for each value compared, which is a ranking of the filtered values by
// that column. nil when an analysis is named, the request already groups
// or asks per period, or the values are of a time column. A filter that
// keeps every value of the column (男女 of 性别 with no other value nor a
// blank) is then dropped: it keeps every row.
func (p *parsed) versusDimension(r *Reading, named []string, dims []*gcol, grain, part string) *gcol {
	if len(named) > 0 || len(dims) > 0 || grain != "" || part != "" {
		return nil
	}
	col := p.versusColumn(*r)
	if col == "" {
		return nil
	}
	c := p.t.column(col)
	if c == nil || c.date || c.yearInt || c.numeric && !c.coded && c.counts == nil {
		return nil
	}
	r.Filters = slices.DeleteFunc(r.Filters, func(f Filter) bool {
		return f.Column == col && f.Op == "=" && p.t.keepsEveryRow(col, f.Values)
	})
	return c
}

// keepsEveryRow reports whether values are every value of column col,
// which no row leaves blank, by statistics over every row.
func (t *gtable) keepsEveryRow(col string, values []string) bool {
	s := t.sheet
	if !s.RowCountExact || s.StatsRows != s.RowCount {
		return false
	}
	for k, c := range s.Columns {
		if c.Name != col || k >= len(s.Stats) {
			continue
		}
		st := s.Stats[k]
		if st.DistinctCapped || st.Missing > 0 || st.Distinct != len(values) {
			return false
		}
		for _, v := range values {
			if !slices.Contains(st.Values, v) {
				return false
			}
		}
		return true
	}
	return false
}

// Sort orders said as a direction: 从高到低 (high to low), 从低到高,
// "lowest first", "highest first" order a ranking as highest or lowest
// do; 排 and 排序 (sort) rank.
func init() {
	for _, w := range []string{"从高到低", "由高到低", "从大到小", "由大到小", "从多到少"} {
		zhWords[w] = entry{role: roleOrder, value: "desc"}
	}
	for _, w := range []string{"从低到高", "由低到高", "从小到大", "由小到大", "从少到多"} {
		zhWords[w] = entry{role: roleOrder, value: "asc"}
	}
	for _, w := range []string{"排", "排序", "排列"} {
		zhWords[w] = entry{role: roleTop}
	}
	for _, w := range []string{"highest first", "largest first", "biggest first", "most first"} {
		enPhrases[w] = entry{role: roleOrder, value: "desc"}
	}
	for _, w := range []string{"lowest first", "smallest first", "least first", "fewest first"} {
		enPhrases[w] = entry{role: roleOrder, value: "asc"}
	}
}

// placeOfFileAt places one word of the file's name that is neither a
// column's word nor a vocabulary word, said after in, for or of, or
// before 's ("… in seattle", "Seattle's …" on seattle-weather.csv): the
// place or subject the file is named for, which the table as a whole is
// about.
func (p *parsed) placeOfFileAt(i int) (item, bool) {
	toks := p.toks
	w := toks[i]
	if w.han || w.num || len(w.w) < 4 || !slices.Contains(p.t.stem, w.w) || p.colWord(w.w) || isFunction(w) {
		return item{}, false
	}
	if _, ok := synonymWords[w.w]; ok {
		return item{}, false
	}
	after := i > 0 && (toks[i-1].w == "in" || toks[i-1].w == "for" || toks[i-1].w == "of")
	possessive := i+1 < len(toks) && toks[i+1].w == "s"
	if !after && !possessive {
		return item{}, false
	}
	return item{kind: itemFile, from: i, to: i + 1}, true
}

// 合起来, 合在一起 and 放在一起 (put together) say the sheets or values
// before them are taken together, which 所有工作表 or the filter already
// says: nothing of their own.
func init() {
	for _, w := range []string{"合起来", "合在一起", "放在一起"} {
		zhWords[w] = entry{role: roleStop}
	}
}

// Words of the probe set's refusals (有关, related, is correlation's in
// builtin_correlation.go): 损伤 and 损坏 are damage;
// "most populous" is the highest population; "mfg" is manufacturing.
func init() {
	for _, w := range []string{"损伤", "损坏", "损伤程度", "损坏程度"} {
		zhWords[w] = entry{role: roleWord, value: "damage"}
	}
	enWords["populous"] = entry{role: roleSuper, value: "population", order: "desc"}
	abbreviations["mfg"] = "manufacturing"
}

// valueDaysAreRows reads "days" right after a value ("rainy days only",
// "on snow days") as the rows the value keeps, not a grain: "total precip
// by yr, rainy days only" is yearly totals of the rainy days, and "avg
// wind on rainy days" one average over them (which no built-in gives),
// not a daily trend of them; "daily wind on rainy days" says per day with
// a word of its own. Days counted ("number of cloudy days per month") are
// what the count counts.
func (p *parsed) valueDaysAreRows() {
	for k := 1; k < len(p.items); k++ {
		it := &p.items[k]
		if k >= 2 && p.items[k-2].kind == itemVocab && p.items[k-2].ent.role == roleAgg && p.items[k-2].ent.value == "count" {
			continue // "number of cloudy days per month": the days are counted
		}
		if it.kind == itemVocab && it.ent.role == roleGrain && it.ent.value == "day" && p.items[k-1].kind == itemValue && !p.toks[it.from].han && (it.text == "days" || it.text == "day") {
			it.ent = entry{role: roleStop}
		}
	}
}

// synonymsInNames replaces a request word that names no column by the one
// synonym of it that a column's name has, when a word of the same column
// follows it ("bill length" on Beak Length (mm): beak length), so the
// words read as that column's name. A word that is a value of a column,
// or whose synonyms are in several columns' names, is left as written.
func (p *parsed) synonymsInNames() {
	for i := 0; i+1 < len(p.toks); i++ {
		t := &p.toks[i]
		if t.han || t.num || p.colWord(t.w) || p.valueWord(t.w) {
			continue
		}
		if s := p.synonymBefore(t.w, p.toks[i+1].w); s != "" {
			t.w = s
		}
	}
}

// synonymBefore is the synonym of w that one column's name has beside
// the word next, or "" when none or several columns have one.
func (p *parsed) synonymBefore(w, next string) string {
	var hit *gcol
	with := ""
	for _, c := range p.t.cols {
		if !slices.Contains(c.words, next) {
			continue
		}
		for _, s := range synonymWords[w] {
			if s == next || !slices.Contains(c.words, s) {
				continue
			}
			if hit != nil && hit != c {
				return ""
			}
			hit, with = c, s
		}
	}
	return with
}

// valueWord reports whether w is a value of one of the table's columns.
func (p *parsed) valueWord(w string) bool {
	for _, c := range p.t.cols {
		if _, ok := c.values[w]; ok {
			return true
		}
	}
	return false
}
