package templates

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Requests of two measures or more: "avg hp and avg weight per origin",
// "min and max price per symbol", 平均最高气温和平均最低气温，按年. The
// measures are a list only when nothing but "and", a comma, 和, 与, 及,
// 以及, 、 (and their aggregations) stands between them: "horsepower /
// weight", "horsepower vs weight", "horsepower per weight" or "ratio of
// horsepower and weight" ask for one figure made of the two, which no
// built-in computes.

// listWords join the items of a list of measures.
var listWords = map[string]bool{"and": true, "the": true, "of": true, "as": true, "和": true, "与": true, "及": true, "以及": true,
	"、": true, "的": true, "还有": true, "以及其": true}

// listPunct is the punctuation a list of measures may be written with.
const listPunct = ",，、&"

// joinsList reports whether item it only joins the items of a list.
func (p *parsed) joinsList(it item) bool {
	switch it.kind {
	case itemVocab:
		return (it.ent.role == roleStop || it.ent.role == roleIn) && listWords[it.text]
	case itemUnplaced:
		return it.text == "well" // as well as
	}
	return false
}

// plainGap reports whether the request's text between word a's end and
// word b's start holds only spaces and list punctuation.
func (p *parsed) plainGap(a, b int) bool {
	if a < 0 || b >= len(p.toks) || a >= b {
		return true
	}
	for _, r := range p.text[p.toks[a].end:p.toks[b].start] {
		if !unicode.IsSpace(r) && !strings.ContainsRune(listPunct, r) {
			return false
		}
	}
	return true
}

// listSpan checks that the items at indexes ks (in the order of the
// request) are a list: only aggregations and the words and punctuation
// of a list between them, and a conjunction or a comma at least once.
// It returns "" when they are, else what stands between them.
func (p *parsed) listSpan(ks []int, aggs []item) string {
	slices.Sort(ks)
	joined := false
	isAgg := func(it item) bool {
		return slices.ContainsFunc(aggs, func(a item) bool { return a.from == it.from })
	}
	for x := 0; x+1 < len(ks); x++ {
		for j := ks[x] + 1; j < ks[x+1]; j++ {
			it := p.items[j]
			switch {
			case slices.Contains(ks, j) || isAgg(it):
			case p.joinsList(it):
				if conjunctions[it.text] || it.text == "as" && j+1 < len(p.items) && p.items[j+1].text == "well" {
					joined = true
				}
			default:
				return it.text
			}
		}
		for j := ks[x]; j < ks[x+1]; j++ {
			a, b := p.items[j], p.items[j+1]
			if !p.plainGap(a.to-1, b.from) {
				return strings.TrimSpace(p.text[p.toks[a.to-1].end:p.toks[b.from].start])
			}
			if g := p.text[p.toks[a.to-1].end:p.toks[b.from].start]; strings.ContainsAny(g, listPunct) {
				joined = true
			}
		}
	}
	if !joined {
		return "(nothing)"
	}
	return ""
}

// itemOf is the index of the first item naming column c, or -1.
func (p *parsed) itemOf(c *gcol) int {
	return slices.IndexFunc(p.items, func(it item) bool { return it.kind == itemColumn && it.col == c })
}

// measureList checks that several measures are asked as a list, and
// drops from unplaced the "both" before it and the "well" of "as well
// as" in it. It returns a problem when they are not a list.
func (p *parsed) measureList(measures []*gcol, aggs []item, unplaced *[]string) *problem {
	var ks []int
	for _, c := range measures {
		k := p.itemOf(c)
		if k < 0 {
			return &problem{"it names several measures, and one of them by a word of its own: name each column", "请求提到了几个度量，其中一个没有直接说出列名：请逐一说出列名"}
		}
		ks = append(ks, k)
	}
	return p.listOf(ks, aggs, unplaced, measures)
}

// listOf is measureList over the items at ks.
func (p *parsed) listOf(ks []int, aggs []item, unplaced *[]string, measures []*gcol) *problem {
	if gap := p.listSpan(ks, aggs); gap != "" {
		names := colNames(measures)
		return &problem{fmt.Sprintf("it names %s joined by “%s”, which is not a list of measures: a figure made of them (a ratio, a difference) is computed by no built-in; ask for “%s”", strings.Join(names, " and "), gap, strings.Join(names, " and ")),
			fmt.Sprintf("请求用“%s”连接 %s，这不是并列的几个度量：由它们算出的数（比值、差值）内置分析不算；请问“%s”", gap, strings.Join(names, "、"), strings.Join(names, "和"))}
	}
	drop := func(w string) {
		if i := slices.Index(*unplaced, w); i >= 0 {
			*unplaced = slices.Delete(*unplaced, i, i+1)
		}
	}
	first, last := slices.Min(ks), slices.Max(ks)
	for j := first; j < last; j++ {
		if p.items[j].kind == itemUnplaced && p.items[j].text == "well" && j > 0 && j+1 < len(p.items) && p.items[j-1].text == "as" && p.items[j+1].text == "as" {
			drop("well")
		}
	}
	// "both avg hp and avg weight": both before the list, aggregations
	// and stop words between.
	for j := first - 1; j >= 0; j-- {
		it := p.items[j]
		if it.kind == itemUnplaced && it.text == "both" {
			drop("both")
			break
		}
		if !(it.kind == itemVocab && (it.ent.role == roleAgg || it.text == "the")) {
			break
		}
	}
	return nil
}

// aggList reads two aggregations or more of one measure said as a list
// ("min and max price", "max and min of price", "price min and max",
// "avg price and max price", 价格的最大值和最小值): the aggregations in
// the order said, or nil when they are not a list of the measure c.
func (p *parsed) aggList(c *gcol, aggs []item) []string {
	if len(aggs) < 2 {
		return nil
	}
	var out []string
	var ks []int
	for k, it := range p.items {
		if it.kind == itemColumn && it.col == c {
			ks = append(ks, k)
		}
		if i := slices.IndexFunc(aggs, func(a item) bool { return a.from == it.from }); i >= 0 {
			// The aggregation said there (an order word before its
			// measure is read as its maximum or minimum).
			v := aggs[i].ent.value
			switch v {
			case "sum", "mean", "median", "min", "max":
			default:
				return nil
			}
			if slices.Contains(out, v) {
				return nil
			}
			out = append(out, v)
			ks = append(ks, k)
		}
	}
	if len(out) != len(aggs) || p.listSpan(slices.Clone(ks), aggs) != "" {
		return nil
	}
	// The aggregations are said together, before or after the column
	// (each mention of the column after its own aggregation).
	return out
}

// ellipsis reads "avg high and avg low temperature", "平均最高和最低气温":
// a maximum (minimum) said before a conjunction and a column named by
// the other ("low temperature" for temp_min) is the column of maxima
// (minima) of the same words: temp_max. The word becomes that column.
func (p *parsed) ellipsis() {
	for k := 0; k < len(p.items); k++ {
		it := p.items[k]
		if it.kind != itemVocab {
			continue
		}
		w := ""
		switch {
		// "max and min temperature" too: "max temperature" alone names
		// temp_max, and read as an aggregation "max" would be the
		// maximum of temp_min.
		case it.ent.role == roleAgg && it.ent.value == "max" && (it.text == "high" || it.text == "max" || it.text == "maximum"):
			w = "maximum"
		case it.ent.role == roleAgg && it.ent.value == "min" && (it.text == "low" || it.text == "min" || it.text == "minimum"):
			w = "minimum"
		case it.ent.role == roleOrder && (it.text == "最高" || it.text == "最低"):
			w = map[string]string{"最高": "maximum", "最低": "minimum"}[it.text]
		default:
			continue
		}
		other := map[string]string{"maximum": "minimum", "minimum": "maximum"}[w]
		j := k + 1
		if j >= len(p.items) || !(p.items[j].kind == itemVocab && conjunctions[p.items[j].text]) || !p.plainGap(it.to-1, p.items[j].from) {
			continue
		}
		j++
		if j < len(p.items) && p.items[j].kind == itemVocab && p.items[j].ent.role == roleAgg {
			j++
		}
		if j >= len(p.items) || p.items[j].kind != itemColumn || !p.items[j].col.numeric || !slices.Contains(p.items[j].col.words, other) {
			continue
		}
		said := p.spanWords(p.toks[p.items[j].from:p.items[j].to])
		if !slices.Contains(said, other) {
			continue
		}
		var want []string
		for _, cw := range p.items[j].col.words {
			if cw == other {
				cw = w
			}
			want = append(want, cw)
		}
		var hits []*gcol
		for _, c := range p.t.cols {
			if c.numeric && c != p.items[j].col && equalSets(setOf(c.words), setOf(want)) {
				hits = append(hits, c)
			}
		}
		if len(hits) != 1 {
			continue
		}
		p.items[k] = item{kind: itemColumn, col: hits[0], from: it.from, to: it.to, text: it.text}
	}
}
