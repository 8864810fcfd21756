package templates

import (
	"slices"
	"strings"
)

// The shapes of requests a reviewer found read wrong or refused when they
// could be answered: an aggregation or an order said of a built-in that
// takes none, and the shapes of periods ranked, counted and summed.

// aggregatedColumns refuses an aggregation said of a column a built-in
// reads value by value (builtin.columnsIn): "distribution of max wind"
// was answered with the distribution of every wind value under a first
// line that said "wind", the max dropped. The aggregation is the word
// right before the column ("max wind", "average wind") or right after it
// in Chinese (风速最大值); statistics listed apart ("spread of the daily
// highs: quartiles, min and max") are what a distribution shows, and a
// column whose name holds the word (temp_max) took it already.
func aggregatedColumns(a *asking, b *builtin, aggs []item) {
	items := a.p.items
	for k, it := range items {
		if it.kind != itemColumn || !slices.Contains(a.measures, it.col) {
			continue
		}
		var ag *item
		if k > 0 && isAggItem(items[k-1]) {
			ag = &items[k-1]
		} else if k+1 < len(items) && isAggItem(items[k+1]) && a.p.toks[it.from].han && items[k+1].from == it.to {
			ag = &items[k+1]
		}
		if ag == nil || !slices.ContainsFunc(aggs, func(x item) bool { return x.from == ag.from }) {
			continue
		}
		a.add("it asks for “%[1]s” of %[2]s, and %[3]s reads each value of the column, not an aggregate of them",
			"请求要%[2]s的“%[1]s”，而 %[3]s 读取该列的每个值，不做汇总", ag.text, it.col.name, b.Name)
		return
	}
}

// isAggItem reports whether it is an aggregation word.
func isAggItem(it item) bool {
	return it.kind == itemVocab && it.ent.role == roleAgg
}

// "reading" is a value measured ("unusual wind readings", "peak co2
// reading"), as "value" and "record" are: a word of the request, not a
// typo of "leading", which ranked.
func init() {
	enWords["reading"] = entry{role: roleStop}
}

// compareHead is the first line of a comparison of each period with the
// one before or the same one a year earlier: the measure, the period
// compared, the groups and the comparison. "yoy by quarter" was answered
// with each quarter against the year before's under "Total of
// precipitation year over year", which reads as one total a year; a year
// over year comparison with no grain said compares months (seriesKeys),
// and says so.
func compareHead(r Reading, lang string) string {
	zh := lang == LangChinese
	grain := r.Grain
	if grain == "" && r.Compare == "yoy" {
		grain = "month"
	}
	var b strings.Builder
	b.WriteString(measureText(r, lang))
	if g := grainText(lang, grain); g != "" && compareUnits[r.Compare] != grain {
		if zh {
			b.WriteString("，按" + g)
		} else {
			b.WriteString(" per " + g)
		}
	}
	if len(r.GroupBy) > 0 {
		if zh {
			b.WriteString("，按 " + strings.Join(r.GroupBy, "、") + " 分线")
		} else {
			b.WriteString(", one line per " + strings.Join(r.GroupBy, ", "))
		}
	}
	if zh {
		b.WriteString("，" + wordIn(lang, r.Compare))
	} else {
		b.WriteString(", " + compareText(r.Compare))
	}
	return b.String()
}

// A period counted back and said after a word that compares with it
// (比去年, 与上月相比, 较上季度) is the comparison, as "vs last year"
// is: 去年 was left unplaced, and 比 with it. Alone (去年的平均风速) it
// stays a period counted back from now, which relativePeriods refuses.
func init() {
	periods := map[string]string{"去年": "yoy", "上一年": "yoy", "上年": "yoy", "上月": "mom", "上个月": "mom", "上一个月": "mom",
		"上季度": "qoq", "上个季度": "qoq", "上一季度": "qoq", "上一个季度": "qoq", "上周": "wow", "上一周": "wow", "上个星期": "wow", "昨天": "dod", "前一天": "dod"}
	for _, marker := range []string{"比", "较", "与", "和", "跟", "同", "对比"} {
		for w, cmp := range periods {
			zhWords[marker+w] = entry{role: roleCompare, value: cmp}
		}
	}
}
