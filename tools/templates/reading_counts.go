package templates

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Counts of a kind: "how many different species per island", "number of
// unique destinations", 有多少种天气, 多少个不同的目的地 count the distinct
// values of a text column (count_distinct), per group when one is said.
// A bare "number of species" stays a refusal (countedColumn): it may be a
// count of rows of each species or of species, and the request does not
// say which.

// distinctWords say that values are counted once each, after a count
// word ("how many different", 多少个不同的); "distinct" and "unique" are
// the vocabulary's count_distinct by themselves.
var distinctWords = map[string]bool{"different": true, "不同": true, "distinct": true, "unique": true}

// kindCounts are the Chinese words that count kinds of a thing: 多少种,
// 几种 ("how many kinds of").
var kindCounts = map[string]bool{"种": true, "几种": true, "多少种": true, "几类": true, "多少类": true}

// kindColumnWords name the column of the kinds of what a table's rows
// are (Species in penguins.json), counted by 有多少种企鹅.
var kindColumnWords = map[string]bool{"species": true, "type": true, "kind": true, "category": true}

// foldCounts rewrites the items of counts and of loose words with one
// meaning over the data before the build: a synonym of the file's
// subject, "kind of X", a period adjective of the rows, a kind word for
// the one column of kinds, "stats", 多少 as a count, a distinct count.
func (p *parsed) foldCounts() {
	p.foldSubject()
	p.foldKindOf()
	p.foldRowAdjective()
	p.foldKindWord()
	p.foldStats()
	p.foldHowMany()
	p.foldDistinct()
}

// foldHowMany reads 多少 (how much, a filler before a value: 平均价格是
// 多少) as a count when what it asks about is what the rows are:
// 有多少只企鹅 over penguins.json, 多少条记录 — its classifier between —
// or days (有多少天), which the build counts when a row is one day.
func (p *parsed) foldHowMany() {
	for k := 0; k+1 < len(p.items); k++ {
		it := p.items[k]
		if it.kind != itemVocab || it.text != "多少" && it.text != "几" {
			continue
		}
		j := k + 1
		if c := p.items[j].text; j+1 < len(p.items) && utf8.RuneCountInString(c) == 1 && strings.Contains(cjkClassifiers+"辆架次头", c) {
			j++
		}
		if nx := p.items[j]; nx.kind == itemFile || nx.kind == itemRowNoun || j == k+1 && nx.kind == itemVocab && nx.ent.role == roleGrain && nx.text == "天" {
			// 多少只企鹅, 多少条记录; 有多少天 (how many days).
			p.items[k].ent = entry{role: roleAgg, value: "count"}
		}
	}
}

// foldSubject places an English word no column has that is a synonym of
// the file's name ("models" in cars.json, whose synonyms name no column)
// as the file's name: what its rows are, counted by "number of models"
// as "number of cars" is (the build refuses when a row is not one each).
func (p *parsed) foldSubject() {
	for k, it := range p.items {
		if it.kind != itemUnplaced || it.to-it.from != 1 || len(p.t.stem) == 0 {
			continue
		}
		t := p.toks[it.from]
		if t.han || t.num || len(synonymWords[t.w]) == 0 || len(p.withoutStem([]string{t.w})) != 0 {
			continue
		}
		p.items[k].kind = itemFile
	}
}

// foldDistinct rewrites the items of a distinct count before the build:
// the count word, the distinct word and the 的 between them and the
// column become one count_distinct word right before the column, which
// the build then reads as the column counted (distinctCounted). "有多少种企鹅"
// over a file named for penguins with one column of kinds (Species)
// counts that column.
func (p *parsed) foldDistinct() {
	for k := 0; k < len(p.items); k++ {
		it := p.items[k]
		if !(it.kind == itemColumn && it.col.text || it.kind == itemFile) {
			continue
		}
		j := k - 1
		for j >= 0 && p.items[j].kind == itemVocab && p.items[j].text == "的" {
			j--
		}
		if j < 0 {
			continue
		}
		start, kinds := -1, false
		switch w := p.items[j]; {
		case distinctWords[w.text] && (w.kind == itemUnplaced || w.kind == itemVocab):
			switch {
			case j > 0 && isCountItem(p.items[j-1]):
				start = j - 1 // how many different, 多少个不同的
			case j > 0 && p.kindCount(j-1) >= 0:
				start, kinds = p.kindCount(j-1), true // 多少种不同的
			case w.kind == itemVocab && w.ent.role == roleAgg:
				start = j // distinct, unique
			}
		case p.kindCount(j) >= 0:
			start, kinds = p.kindCount(j), true // 有多少种天气, 几种
		}
		if start < 0 || it.kind == itemFile && !kinds {
			// "different origins", 不同产地: a grouping; "how many
			// different penguins": not a count of kinds.
			continue
		}
		if it.kind == itemFile {
			c := p.t.kindColumn()
			if c == nil {
				continue
			}
			p.items[k] = item{kind: itemColumn, col: c, from: it.from, to: it.to, text: it.text}
		}
		from, to := p.items[start].from, p.items[k-1].to
		p.items[start] = item{kind: itemVocab, ent: entry{role: roleAgg, value: "count_distinct"}, from: from, to: to, text: spanText(p.toks[from:to])}
		p.items = slices.Delete(p.items, start+1, k)
		k = start + 1
	}
}

// kindCount is where the Chinese count of kinds ending at item j starts
// (多少种, 几种; 种 after 多少), -1 when item j is none.
func (p *parsed) kindCount(j int) int {
	w := p.items[j]
	if w.kind != itemUnplaced || !kindCounts[w.text] {
		return -1
	}
	if w.text != "种" {
		return j
	}
	if j > 0 && p.items[j-1].kind == itemVocab && p.items[j-1].text == "多少" {
		return j - 1
	}
	return -1
}

// distinctCounted reports whether the text column item it is counted
// once a value (a count_distinct word right before it).
func (p *parsed) distinctCounted(it item) bool {
	prev := p.prevItem(it)
	return prev != nil && prev.kind == itemVocab && prev.ent.role == roleAgg && prev.ent.value == "count_distinct"
}

// isCountItem reports whether it is a count word: how many, number of,
// 多少个.
func isCountItem(it item) bool {
	return it.kind == itemVocab && it.ent.role == roleAgg && it.ent.value == "count"
}

// kindColumn is the table's one text column named for kinds (Species,
// type, category), nil when it has none or several.
func (t *gtable) kindColumn() *gcol {
	var hit *gcol
	for _, c := range t.cols {
		if !c.text || !slices.ContainsFunc(c.words, func(w string) bool { return kindColumnWords[w] }) {
			continue
		}
		if hit != nil {
			return nil
		}
		hit = c
	}
	return hit
}

// splitCountWords splits the Chinese words of a count that the segmenter
// kept whole: 鸟击数 (bird strikes + 数, their number) and 数最多 (数 +
// 最多) when the other part is a word of the vocabulary or of the table,
// and 几天, 多少天 (how many + days), so that each part is placed; and
// 均价 (average price: 均 + 价) when a column of t is a price.
func splitCountWords(toks []word, tb *gtable) []word {
	lexicon := tb.lexicon()
	known := func(s string) bool {
		_, ok := zhWords[s]
		return ok || lexicon[s]
	}
	mk := func(t word, a, b int) word {
		s := t.raw[a:b]
		w := word{raw: s, w: s, han: true, start: t.start + a, end: t.start + b}
		if e, ok := zhWords[s]; ok {
			w.ent = &e
		}
		return w
	}
	hasPrice := slices.ContainsFunc(tb.cols, func(c *gcol) bool { return c.numeric && slices.Contains(c.words, "price") })
	var out []word
	for _, t := range toks {
		if !t.han || t.ent != nil || t.num || known(t.raw) || utf8.RuneCountInString(t.raw) < 2 {
			out = append(out, t)
			continue
		}
		switch {
		case strings.HasSuffix(t.raw, "天") && (strings.TrimSuffix(t.raw, "天") == "几" || strings.TrimSuffix(t.raw, "天") == "多少"):
			n := len(t.raw) - len("天")
			count := mk(t, 0, n)
			count.ent = &entry{role: roleAgg, value: "count"}
			out = append(out, count, mk(t, n, len(t.raw)))
		case t.raw == "均价" && hasPrice:
			mean := mk(t, 0, len("均"))
			mean.ent = &entry{role: roleAgg, value: "mean"}
			out = append(out, mean, mk(t, len("均"), len(t.raw)))
		case strings.HasSuffix(t.raw, "数") && known(strings.TrimSuffix(t.raw, "数")) && !rowNouns[t.raw] && zhWords[strings.TrimSuffix(t.raw, "数")].role != roleGrain:
			// Not 天数 (a row noun: the days counted) nor 年数.
			n := len(t.raw) - len("数")
			out = append(out, mk(t, 0, n), mk(t, n, len(t.raw)))
		case strings.HasPrefix(t.raw, "数") && known(strings.TrimPrefix(t.raw, "数")):
			n := len("数")
			out = append(out, mk(t, 0, n), mk(t, n, len(t.raw)))
		default:
			out = append(out, t)
		}
	}
	return out
}

// statWords ask for summary statistics: a describe of the columns named
// (distribution), of the whole table when none is (profile).
var statWords = map[string]bool{"stats": true, "stat": true, "statistics": true, "statistic": true, "统计量": true, "统计信息": true}

// foldStats reads "stats", "statistics", 统计信息 (统计 then 信息) as the
// summary statistics of the numeric columns the request names — their
// distribution, whose table is count, mean, std, quartiles — or, when it
// names none, the profile of the table. A "summary" before it says the
// same.
func (p *parsed) foldStats() {
	for k := 0; k < len(p.items); k++ {
		it := p.items[k]
		from := k
		switch {
		case it.kind == itemUnplaced && statWords[p.toks[it.from].w] && it.to-it.from == 1:
		case it.kind == itemUnplaced && statWords[it.text]:
		case it.kind == itemUnplaced && it.text == "信息" && k > 0 && p.items[k-1].text == "统计":
			from = k - 1
		default:
			continue
		}
		columns := slices.ContainsFunc(p.items, func(o item) bool {
			return o.kind == itemColumn && o.col.numeric && !o.col.yearInt && !o.col.date && !o.col.idish && !o.col.coded
		})
		target := describer(columns)
		if target == "" {
			continue
		}
		if prev := p.items[max(from-1, 0)]; from > 0 && prev.kind == itemVocab && prev.ent.role == roleCue && summaryWords[prev.text] && builtinHas(prev.ent.value, func(b *builtin) bool { return b.describes }) {
			from-- // summary statistics
		}
		span := item{kind: itemVocab, ent: entry{role: roleCue, value: target}, from: p.items[from].from, to: it.to}
		span.text = spanText(p.toks[span.from:span.to])
		p.items[from] = span
		p.items = slices.Delete(p.items, from+1, k+1)
		k = from
	}
}

// describer is the built-in that describes the columns named (columns)
// or the whole table (builtin.describes), "" when none does.
func describer(columns bool) string {
	for _, b := range builtins {
		if b.describes && (columns && b.columnsIn || !columns && b.wholeTable) {
			return b.Name
		}
	}
	return ""
}

// summaryWords are the profile's words that say "summary" before
// statistics.
var summaryWords = map[string]bool{"summary": true, "descriptive": true, "basic": true, "描述": true}

// foldKindOf drops "kind of", "type of", "sort of" before a text column
// ("avg precipitation for each kind of weather"): the column's values are
// the kinds, so the words say what the column is, as "weather type" does.
func (p *parsed) foldKindOf() {
	for k := 0; k+2 < len(p.items); k++ {
		it, of, col := p.items[k], p.items[k+1], p.items[k+2]
		if it.kind != itemUnplaced || it.to-it.from != 1 || !kindWords[p.toks[it.from].w] || p.toks[it.from].han {
			continue
		}
		if of.kind != itemVocab || of.text != "of" || col.kind != itemColumn || !col.col.text {
			continue
		}
		p.items[k] = item{kind: itemVocab, ent: entry{role: roleStop}, from: it.from, to: it.to, text: it.text}
	}
}

// kindSynonyms are the words of a category's kind, one for another: a
// request's "kind" or 种类 names a column called type or category.
var kindSynonyms = map[string]bool{"type": true, "kind": true, "category": true, "sort": true, "class": true}

// foldKindWord places a kind word that names no column ("kind", "type",
// 种类, 类别) on the table's one text column named by a kind word
// (category, type): "avg sales per kind" over a column category. With
// no such column, or several, it stays unplaced.
func (p *parsed) foldKindWord() {
	var hit *gcol
	for _, c := range p.t.cols {
		if c.text && slices.ContainsFunc(c.words, func(w string) bool { return kindSynonyms[w] }) {
			if hit != nil {
				return
			}
			hit = c
		}
	}
	if hit == nil {
		return
	}
	for k, it := range p.items {
		if it.to-it.from != 1 {
			continue
		}
		t := p.toks[it.from]
		if it.kind == itemUnplaced && !t.han && kindSynonyms[t.w] || it.kind == itemVocab && it.ent.role == roleWord && kindSynonyms[it.ent.value] {
			p.items[k] = item{kind: itemColumn, col: hit, from: it.from, to: it.to, text: it.text}
		}
	}
}

// periodAdjectives are the grain words that describe a thing as of a
// period ("monthly observations").
var periodAdjectives = map[string]bool{"daily": true, "monthly": true, "yearly": true, "annual": true}

// foldRowAdjective drops a period adjective right before a row noun
// ("how many monthly observations does each symbol have") when the
// table's one time column holds values of that period: it says what a
// row is, not a grain or periods counted.
func (p *parsed) foldRowAdjective() {
	tc := p.t.timeColumns()
	if len(tc) != 1 || !tc[0].date {
		return
	}
	for k := 0; k+1 < len(p.items); k++ {
		it, nx := p.items[k], p.items[k+1]
		if it.kind != itemVocab || it.ent.role != roleGrain || !periodAdjectives[it.text] || nx.kind != itemRowNoun || nx.from != it.to || isPeriodNoun(nx.text) {
			continue
		}
		if need := grainNeeds[it.ent.value]; need == 0 || p.t.resolution(tc[0].name) != need {
			continue
		}
		p.items[k].ent = entry{role: roleStop}
	}
}
