package templates

import (
	"fmt"
	"slices"
	"strings"
)

// Category values the parse reads beyond their spelling: a value named by
// its meaning or in another language ("amazon" for AMZN, 巴西 for Brazil,
// "nuclear" for Nuclear Energy), values excluded ("excluding Japan",
// 除了美国以外) and two values set against each other ("drought vs
// earthquake"). A word is taken for a value only when exactly one value
// of the data fits it; two that fit are asked about, never picked from.

// meantNames are the English names (or codes) that a word may stand for
// as a category value: companies for their tickers, places in Chinese,
// gender words. A name is matched to a value of the data as the value is
// written, by its words, or by the glossary's English for a Chinese value
// (女 → female); nothing here is a value by itself.
var meantNames = map[string][]string{
	// companies and their tickers
	"amazon": {"amzn", "amazon.com", "amazon com"}, "apple": {"aapl", "apple inc"}, "google": {"goog", "googl", "alphabet"},
	"alphabet": {"goog", "googl", "google"}, "microsoft": {"msft"}, "ibm": {"ibm"}, "facebook": {"fb", "meta"}, "meta": {"fb", "meta"},
	"tesla": {"tsla"}, "netflix": {"nflx"}, "nvidia": {"nvda"}, "intel": {"intc"}, "oracle": {"orcl"},
	"亚马逊": {"amazon", "amzn", "amazon.com"}, "苹果": {"apple", "aapl"}, "谷歌": {"google", "goog", "googl"}, "微软": {"microsoft", "msft"},
	// gender words for a column of male/female (or 男/女)
	"men": {"male", "man", "men"}, "man": {"male", "man", "men"}, "women": {"female", "woman", "women"}, "woman": {"female", "woman", "women"},
	"boys": {"male"}, "girls": {"female"},
	// places in Chinese, with the codes of their airports
	"巴西": {"brazil"}, "阿根廷": {"argentina"}, "印度": {"india"}, "英国": {"united kingdom", "uk", "britain"}, "意大利": {"italy"},
	"西班牙": {"spain"}, "加拿大": {"canada"}, "墨西哥": {"mexico"}, "俄罗斯": {"russia"}, "澳大利亚": {"australia"}, "埃及": {"egypt"},
	"南非": {"south africa"}, "尼日利亚": {"nigeria"}, "印度尼西亚": {"indonesia"}, "印尼": {"indonesia"}, "巴基斯坦": {"pakistan"},
	"越南": {"vietnam"}, "泰国": {"thailand"}, "土耳其": {"turkey"}, "伊朗": {"iran"}, "瑞典": {"sweden"}, "瑞士": {"switzerland"},
	"荷兰": {"netherlands"}, "挪威": {"norway"}, "智利": {"chile"}, "秘鲁": {"peru"}, "哥伦比亚": {"colombia"}, "古巴": {"cuba"},
	"洛杉矶": {"los angeles", "lax", "bur", "lgb", "ont", "sna"}, "西雅图": {"seattle", "sea", "bfi"}, "纽约": {"new york", "jfk", "lga", "ewr", "nyc"},
	"旧金山": {"san francisco", "sfo"}, "芝加哥": {"chicago", "ord", "mdw"}, "波士顿": {"boston", "bos"}, "丹佛": {"denver", "den"},
	"达拉斯": {"dallas", "dfw", "dal"}, "休斯顿": {"houston", "iah", "hou"}, "亚特兰大": {"atlanta", "atl"}, "迈阿密": {"miami", "mia"},
	"凤凰城": {"phoenix", "phx"}, "拉斯维加斯": {"las vegas", "las"}, "华盛顿": {"washington", "dca", "iad"}, "费城": {"philadelphia", "phl"},
	"底特律": {"detroit", "dtw"}, "奥克兰": {"oakland", "oak"}, "圣地亚哥": {"san diego", "san"}, "盐湖城": {"salt lake city", "slc"},
	// industries and energy sources in Chinese
	"信息": {"information"}, "信息业": {"information"}, "信息行业": {"information"}, "金融": {"finance"}, "政府": {"government"},
	"采矿": {"mining"}, "运输": {"transportation"}, "批发": {"wholesale"}, "零售": {"retail"}, "教育": {"education"},
	"核": {"nuclear"}, "核能发电": {"nuclear"}, "水电": {"hydroelectric", "hydro"}, "风能": {"wind"}, "太阳能": {"solar"}, "煤炭": {"coal"}, "天然气": {"natural gas"},
}

// exclusionsEn are the English phrases that exclude the values after them.
var exclusionsEn = [][]string{{"excluding"}, {"exclude"}, {"excl"}, {"except", "for"}, {"except"}, {"other", "than"}, {"without"},
	{"not", "counting"}, {"not", "including"}, {"apart", "from"}, {"aside", "from"}, {"leaving", "out"}}

// exclusionsZh are the Chinese words before excluded values (除了美国以外,
// 不含美国) and after them (美国除外, 美国以外的).
var (
	exclusionsZh      = []string{"除了", "除去", "除", "不含", "不包括", "不包含", "不计", "不算", "排除", "剔除", "去掉", "去除"}
	exclusionsZhAfter = []string{"以外", "之外", "除外"}
)

// valueLinks are the words that join the values of one list.
var valueLinks = map[string]bool{"and": true, "or": true, "the": true, "nor": true, "和": true, "与": true, "及": true, "以及": true, "、": true, "或": true, "跟": true}

// placeValues places the words place left: values named by meaning, then
// the words that exclude values.
func (p *parsed) placeValues() {
	for k := range p.items {
		it := p.items[k]
		// 美国 is a word of the lexicon ("usa") and a country the data
		// may write as United States: a word with names of its own is
		// tried as a value too.
		if it.kind == itemUnplaced || it.kind == itemVocab && it.ent.role == roleWord && it.to == it.from+1 && meantNames[p.toks[it.from].raw] != nil && !p.namesColumn(p.toks[it.from].w) {
			p.placeMeant(k)
		}
	}
	p.placeExclusions()
	p.placeTotalRow()
}

// Chinese names of industries, as the data writes them in English (a
// column information, a series Information): the glossary's words.
func init() {
	for en, zhs := range map[string][]string{
		"information": {"信息业", "信息行业", "信息产业"}, "wholesale": {"批发业", "批发"}, "leisure": {"休闲", "休闲业"},
		"hospitality": {"酒店业", "住宿餐饮"}, "education": {"教育", "教育业"}, "health": {"医疗", "卫生", "医疗保健"},
		"landslide": {"山体滑坡", "滑坡"}, "epidemic": {"流行病", "疫病"}, "extreme weather": {"极端天气"},
		"mining": {"采矿业", "矿业"}, "utility": {"公用事业"}, "transportation": {"运输业", "交通运输"},
	} {
		for _, zh := range zhs {
			if _, ok := zhWords[zh]; !ok {
				zhWords[zh] = entry{role: roleWord, value: en}
			}
		}
	}
}

// placeMeant places unplaced item k as the one category value its word
// names by meaning (meantNames) or by the first word of a value of several
// ("nuclear" for Nuclear Energy), or as the file's name (西雅图 for
// seattle-weather.csv). Two values that fit are recorded to be asked about.
func (p *parsed) placeMeant(k int) {
	it := p.items[k]
	if it.to != it.from+1 {
		return
	}
	tok := p.toks[it.from]
	if tok.num || isFunction(tok) {
		return
	}
	names := slices.Clone(meantNames[tok.raw])
	if !tok.han {
		if _, ok := enWords[tok.w]; ok || synonymWords[tok.w] != nil || p.namesColumn(tok.w) || len(tok.w) < 3 {
			return
		}
		names = append(names, tok.w)
	}
	if len(names) == 0 {
		return
	}
	type hit struct {
		col   *gcol
		value string
	}
	var hits []hit
	values := map[string]bool{}
	for _, c := range p.t.cols {
		if !c.text || len(c.values) < c.distinct {
			// Values the preview does not list might fit too.
			continue
		}
		for key, v := range c.values {
			if meantValue(key, names, tok.w) {
				hits = append(hits, hit{c, v})
				values[v] = true
			}
		}
	}
	switch {
	case len(values) == 1:
		p.items[k] = item{kind: itemValue, col: hits[0].col, value: hits[0].value, from: it.from, to: it.to, text: it.text}
		for _, h := range hits {
			p.items[k].cands = append(p.items[k].cands, h.col.name)
		}
		if len(p.items[k].cands) == 1 {
			p.items[k].cands = nil
		}
	case len(values) > 1:
		vs := make([]string, 0, len(values))
		for v := range values {
			vs = append(vs, v)
		}
		slices.Sort(vs)
		if k+1 < len(p.items) && p.items[k+1].kind == itemValue && slices.Contains(vs, p.items[k+1].value) {
			// 洛杉矶（LAX）: the value said beside the word is the one it
			// means.
			p.items[k] = item{kind: itemVocab, ent: entry{role: roleStop}, from: it.from, to: it.to, text: it.text}
			return
		}
		if p.meantAmbig == nil {
			p.meantAmbig = map[string][]string{}
		}
		p.meantAmbig[it.text] = vs
	case tok.han:
		for _, n := range names {
			if slices.Contains(p.t.stem, n) && !p.namesColumn(n) {
				// 西雅图 in a question on seattle-weather.csv: the file's
				// place, as "seattle" is.
				p.items[k] = item{kind: itemFile, from: it.from, to: it.to, text: it.text}
				return
			}
		}
	}
}

// meantValue reports whether value key (normalised) is one of names: as
// written, by its canonical words, by the glossary's English of a Chinese
// value (女 → female), or, for the request's own word w, as the first of
// the value's words when it has several and w is no other of them
// ("nuclear" for Nuclear Energy, not "energy").
func meantValue(key string, names []string, w string) bool {
	ck := canonKey(key)
	for _, n := range names {
		if key == n || ck == canonKey(n) {
			return true
		}
		if e, ok := zhWords[key]; ok && e.role == roleWord && e.value == n {
			return true
		}
	}
	if w == "" {
		return false
	}
	ts := nameTokens(key)
	if len(ts) < 2 || canonOf(ts[0]) != w || commonFirstWords[w] {
		return false
	}
	for _, t := range ts[1:] {
		if canonOf(t) == w {
			return false
		}
	}
	return true
}

// commonFirstWords begin many names and mean something of their own ("new
// cases", "north"): never a value by the first-word rule.
var commonFirstWords = map[string]bool{"new": true, "north": true, "south": true, "east": true, "west": true, "united": true,
	"great": true, "saint": true, "san": true, "los": true, "las": true, "upper": true, "lower": true, "central": true, "other": true,
	"general": true, "national": true, "natural": true, "big": true, "small": true, "large": true, "high": true, "low": true,
	"extreme": true, "mass": true, "total": true, "all": true, "first": true, "second": true, "last": true, "old": true, "young": true}

// placeExclusions places the words that exclude the values next to them
// (excluding Japan, other than AAPL and MSFT, 除了美国以外, 美国除外) and
// marks those values excluded. An exclusion word next to no value stays
// unplaced.
func (p *parsed) placeExclusions() {
	var out []item
	for k := 0; k < len(p.items); {
		n := p.exclusionAt(k)
		if n == 0 {
			out = append(out, p.items[k])
			k++
			continue
		}
		j := k + n
		var vals []int
		for j < len(p.items) {
			it := p.items[j]
			if it.kind == itemValue {
				vals = append(vals, j)
				j++
				continue
			}
			if len(vals) > 0 && it.kind == itemVocab && valueLinks[it.text] && j+1 < len(p.items) && p.items[j+1].kind == itemValue {
				j++
				continue
			}
			if len(vals) == 0 && it.kind == itemVocab && exclusionFillers[it.text] {
				j++
				continue
			}
			break
		}
		if len(vals) == 0 {
			out = append(out, p.items[k])
			k++
			continue
		}
		out = append(out, p.exclusionItem(k, k+n))
		for _, v := range vals {
			p.exclude(p.items[v].from)
		}
		out = append(out, p.items[k+n:j]...)
		if j < len(p.items) && p.items[j].kind == itemUnplaced && slices.Contains(exclusionsZhAfter, p.items[j].text) {
			out = append(out, p.exclusionItem(j, j+1)) // 除了美国以外
			j++
		}
		k = j
	}
	// 美国以外, AAPL除外: the word after the values.
	for k := range out {
		if out[k].kind != itemUnplaced || !slices.Contains(exclusionsZhAfter, out[k].text) {
			continue
		}
		var vals []int
		for j := k - 1; j >= 0; j-- {
			if out[j].kind == itemValue {
				vals = append(vals, j)
				continue
			}
			if len(vals) > 0 && out[j].kind == itemVocab && valueLinks[out[j].text] && j > 0 && out[j-1].kind == itemValue {
				continue
			}
			break
		}
		if len(vals) == 0 {
			continue
		}
		for _, v := range vals {
			p.exclude(out[v].from)
		}
		out[k] = item{kind: itemVocab, ent: entry{role: roleStop}, from: out[k].from, to: out[k].to, text: out[k].text}
	}
	p.items = out
}

func (p *parsed) exclude(from int) {
	if p.excluded == nil {
		p.excluded = map[int]bool{}
	}
	p.excluded[from] = true
}

// exclusionItem is items [a, b) placed as one word with no slot of its
// own: the exclusion is the values' filter.
func (p *parsed) exclusionItem(a, b int) item {
	from, to := p.items[a].from, p.items[b-1].to
	return item{kind: itemVocab, ent: entry{role: roleStop}, from: from, to: to, text: spanText(p.toks[from:to])}
}

// exclusionAt is how many items from k an exclusion phrase spans; 0 when
// none starts there. The phrase's words may have been placed as anything
// ("counting" as a count); they must end where an item ends.
func (p *parsed) exclusionAt(k int) int {
	start := p.items[k].from
	ends := func(to int) int {
		for j := k; j < len(p.items); j++ {
			if p.items[j].to == to {
				return j - k + 1
			}
			if p.items[j].to > to {
				return 0
			}
		}
		return 0
	}
	tok := p.toks[start]
	if tok.han {
		// Chinese words as the segmenter cut them (不包括 may be 不 包括).
		var s string
		for i := start; i < len(p.toks) && p.toks[i].han && i < start+3; i++ {
			s += p.toks[i].raw
			if slices.Contains(exclusionsZh, s) {
				return ends(i + 1)
			}
		}
		return 0
	}
	for _, ph := range exclusionsEn {
		if start+len(ph) > len(p.toks) {
			continue
		}
		ok := true
		for i, w := range ph {
			if t := p.toks[start+i]; t.raw != w && t.w != w {
				ok = false
				break
			}
		}
		if ok {
			if n := ends(start + len(ph)); n > 0 {
				return n
			}
		}
	}
	return 0
}

// addExclusion adds value v of column col to the values the reading
// leaves out.
func addExclusion(fs []Filter, col, v string) []Filter {
	for i := range fs {
		if fs[i].Column == col && fs[i].Op == "!=" {
			if !slices.Contains(fs[i].Values, v) {
				fs[i].Values = append(fs[i].Values, v)
			}
			return fs
		}
	}
	return append(fs, Filter{Column: col, Op: "!=", Values: []string{v}})
}

// valueProblems are what keeps the request's values from one reading: a
// word that two values fit, a value both kept and excluded.
func (p *parsed) valueProblems(r Reading) []problem {
	var probs []problem
	words := make([]string, 0, len(p.meantAmbig))
	for w := range p.meantAmbig {
		words = append(words, w)
	}
	slices.Sort(words)
	for _, w := range words {
		vs := p.meantAmbig[w]
		probs = append(probs, problem{fmt.Sprintf("%q could be any of %s: say which", w, strings.Join(vs, ", ")),
			fmt.Sprintf("“%s”可以是 %s 中的任何一个：请指明是哪一个", w, strings.Join(vs, "、"))})
	}
	for _, f := range r.Filters {
		if f.Op != "!=" {
			continue
		}
		for _, g := range r.Filters {
			if g.Column == f.Column && g.Op == "=" {
				probs = append(probs, problem{fmt.Sprintf("it both keeps and excludes values of %s", f.Column),
					fmt.Sprintf("请求对 %s 既要保留又要排除某些值", f.Column)})
			}
		}
	}
	return probs
}

// versusDim is the column whose values the request sets against each
// other with nothing else to group by ("drought vs earthquake: total
// deaths", 火山和野火的死亡人数对比): the values, kept by the filter, are
// then compared one row each. Nil when the request groups or splits by
// time otherwise, or the values are not said side by side.
func (p *parsed) versusDim(r Reading, dims []*gcol, grain, part string) *gcol {
	if len(dims) > 0 || grain != "" || part != "" {
		return nil
	}
	name := p.versusColumn(r)
	if name == "" {
		return nil
	}
	var col *gcol
	for _, c := range p.t.cols {
		if c.name == name && c.text {
			col = c
		}
	}
	if col == nil {
		return nil
	}
	// The values next to each other: A vs B, A versus B, A和B.
	for k := 0; k+2 < len(p.items); k++ {
		a, m, b := p.items[k], p.items[k+1], p.items[k+2]
		if a.kind != itemValue || b.kind != itemValue || a.col != col || b.col != col || p.excluded[a.from] || p.excluded[b.from] {
			continue
		}
		if m.text == "vs" || m.text == "versus" || m.text == "vs." || m.text == "v" || m.text == "和" || m.text == "与" || m.text == "跟" {
			return col
		}
	}
	return nil
}
