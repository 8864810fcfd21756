package templates

import (
	"fmt"
	"strings"

	"github.com/sift-agent/sift/preview"
)

// yearsTogether reports whether the request takes the years together
// ("average co2 by quarter, all years combined", 所有年份合起来，各季度的
// 平均浓度): its months or quarters are those of the calendar, not of
// each year.
func (p *parsed) yearsTogether() bool {
	for _, ph := range yearsTogetherEn {
		if p.says(ph) {
			return true
		}
	}
	for _, ph := range yearsTogetherZh {
		if strings.Contains(p.text, ph) {
			return true
		}
	}
	return false
}

var (
	yearsTogetherEn = []string{"all years together", "all years combined", "all the years together", "all the years combined",
		"years combined", "regardless of year", "regardless of the year", "across all years", "across all the years", "over all years", "over all the years"}
	yearsTogetherZh = []string{"所有年份合起来", "所有年份合在一起", "所有年份放在一起", "各年合起来", "历年合起来", "所有年合起来", "不论年份", "不管年份", "不管哪一年", "不论哪一年"}
)

// The words that take the years together have no slot of their own: the
// month or quarter said with them is of the calendar (yearsTogether).
func init() {
	for _, w := range yearsTogetherZh {
		zhWords[w] = entry{role: roleStop}
	}
	for _, w := range yearsTogetherEn {
		ws := strings.Fields(w)
		for k := range ws {
			ws[k] = canonOf(ws[k])
		}
		enPhrases[strings.Join(ws, " ")] = entry{role: roleStop}
	}
}

// countOfMeasure says why a count of a numeric column's values is not
// answered: it would count rows, and what is asked is the values added
// up, which a column of fractions (a rate, a mean) does not allow.
func countOfMeasure(c *gcol, zh bool) string {
	frac := c.typ == preview.ColumnFloat
	switch {
	case zh && frac:
		return fmt.Sprintf("“%[1]s的数量”会数行数，而 %[1]s 的值带小数（可能是比率），不能相加：请说明要数什么，或问 %[1]s 的平均值", c.name)
	case zh:
		return fmt.Sprintf("“%[1]s的数量”会数行数，而不是把 %[1]s 的值相加：请问 %[1]s 的总和，或说明要数什么", c.name)
	case frac:
		return fmt.Sprintf("a number of %[1]s would count rows, and %[1]s holds fractions (it may be a rate), which do not add up to a count: say what to count, or ask for the average %[1]s", c.name)
	}
	return fmt.Sprintf("a number of %[1]s would count rows, not add up its values: ask for the total %[1]s, or say what to count", c.name)
}

// 年均值 is a yearly mean (均值), the year said by the request's own
// period word (历年…的年均值); 年均 alone stays the grain ("annual").
func init() {
	zhWords["年均值"] = entry{role: roleAgg, value: "mean"}
}

// numberWordsEn are the English numbers a request spells ("top five",
// "which two symbols"), read as the digits: "three" was corrected as a
// typo to "there", a stop word, and the ranking's count dropped. "one" is left a word
// ("which one", "one row per state").
var numberWordsEn = map[string]string{"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
	"nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15", "twenty": "20"}

// oneEditAway is the one word of five letters or more among words that w
// is an edit away from; "" when none is, or several are.
func oneEditAway[V any](w string, words map[string]V) string {
	hit := ""
	for k := range words {
		if len(k) >= 5 && editDistance1(w, k) {
			if hit != "" && hit != k {
				return ""
			}
			hit = k
		}
	}
	return hit
}

// Words of the probe2 set's refusals that say nothing of their own or
// name what the lexicon lacked: courtesy (麻烦, 试), "tends to",
// "<order> first" (lightest first), "not counting" as an
// exclusion, 用 (using a method), and "how many" with a classifier
// (有多少只, 多少辆, 多少起), which counts rows.
func init() {
	// Not "happened" nor 发生: "what happened here?" would then say
	// nothing but stop words, and a profile answer a question it is not.
	for _, w := range []string{"麻烦", "试", "试着", "用", "分组", "分开"} {
		zhWords[w] = entry{role: roleStop}
	}
	for _, w := range []string{"tends", "tend"} {
		if _, ok := enWords[w]; !ok {
			enWords[w] = entry{role: roleStop}
		}
	}
	for w, e := range enWords {
		if e.role == roleOrder || e.role == roleSuper {
			if _, ok := enPhrases[w+" first"]; !ok {
				enPhrases[w+" first"] = e // "lightest first", "cheapest first"
			}
		}
	}
	exclusionsEn = append(exclusionsEn, []string{"not", "counting"}, []string{"not", "including"})
	// Not 种: 多少种企鹅 counts the kinds (reading_counts.go).
	for _, c := range []string{"只", "辆", "个", "家", "条", "起", "次", "架", "位", "名"} {
		zhWords["多少"+c] = entry{role: roleAgg, value: "count"}
	}
	for zh, names := range usStatesZh {
		for _, n := range []string{zh, zh + "州"} {
			if _, ok := meantNames[n]; !ok {
				meantNames[n] = names
			}
		}
	}
	for zh, names := range map[string][]string{"加州": {"california"}, "德州": {"texas"}} {
		meantNames[zh] = names
	}
}

// usStatesZh are the states of the United States in Chinese, with or
// without 州 (佛罗里达, 佛罗里达州).
var usStatesZh = map[string][]string{
	"阿拉巴马": {"alabama"}, "阿拉斯加": {"alaska"}, "亚利桑那": {"arizona"}, "阿肯色": {"arkansas"}, "加利福尼亚": {"california"},
	"科罗拉多": {"colorado"}, "康涅狄格": {"connecticut"}, "特拉华": {"delaware"}, "佛罗里达": {"florida"}, "佐治亚": {"georgia"},
	"夏威夷": {"hawaii"}, "爱达荷": {"idaho"}, "伊利诺伊": {"illinois"}, "印第安纳": {"indiana"}, "艾奥瓦": {"iowa"}, "爱荷华": {"iowa"},
	"堪萨斯": {"kansas"}, "肯塔基": {"kentucky"}, "路易斯安那": {"louisiana"}, "缅因": {"maine"}, "马里兰": {"maryland"},
	"马萨诸塞": {"massachusetts"}, "密歇根": {"michigan"}, "明尼苏达": {"minnesota"}, "密西西比": {"mississippi"}, "密苏里": {"missouri"},
	"蒙大拿": {"montana"}, "内布拉斯加": {"nebraska"}, "内华达": {"nevada"}, "新罕布什尔": {"new hampshire"}, "新泽西": {"new jersey"},
	"新墨西哥": {"new mexico"}, "纽约": {"new york"}, "北卡罗来纳": {"north carolina"}, "北达科他": {"north dakota"}, "俄亥俄": {"ohio"},
	"俄克拉何马": {"oklahoma"}, "俄勒冈": {"oregon"}, "宾夕法尼亚": {"pennsylvania"}, "罗得岛": {"rhode island"}, "南卡罗来纳": {"south carolina"},
	"南达科他": {"south dakota"}, "田纳西": {"tennessee"}, "得克萨斯": {"texas"}, "德克萨斯": {"texas"}, "犹他": {"utah"}, "佛蒙特": {"vermont"},
	"弗吉尼亚": {"virginia"}, "华盛顿州": {"washington"}, "西弗吉尼亚": {"west virginia"}, "威斯康星": {"wisconsin"}, "怀俄明": {"wyoming"},
}

// periodValueProblems asks which is meant when a period word said as a
// time of day ("during the day", "in the morning") is also a value of a
// text column (Time of day: Day, Night): "strikes at night versus during
// the day" was read as a daily series of the night's strikes.
func (p *parsed) periodValueProblems() []problem {
	var probs []problem
	for _, it := range p.items {
		if it.kind != itemVocab || it.ent.role != roleGrain || it.from == 0 || p.toks[it.from].han {
			continue
		}
		j := it.from - 1
		if p.toks[j].w == "the" && j > 0 {
			j--
		}
		if w := p.toks[j].w; w != "during" && w != "in" && w != "at" {
			continue
		}
		for _, c := range p.t.cols {
			if _, ok := c.values[normalize(p.toks[it.from].raw)]; ok && c.text {
				probs = append(probs, problem{fmt.Sprintf("“%s” can be a period or the value %s of %s: say which", joinRaw(p.toks[j:it.to]), c.values[normalize(p.toks[it.from].raw)], c.name),
					fmt.Sprintf("“%s”可以是时间周期，也可以是 %s 的值 %s：请说明是哪一种", joinRaw(p.toks[j:it.to]), c.name, c.values[normalize(p.toks[it.from].raw)])})
				break
			}
		}
	}
	return probs
}

// averagePerYear is the 年均 said right before a numeric column (年均发电量,
// the average a year), which is a mean as much as a year: alone it was read
// as the year, and "各能源类型的年均发电量" answered with every year's total
// of each source. 年均值 is its own word (a mean).
func (p *parsed) averagePerYear() (item, bool) {
	for k := 0; k+1 < len(p.items); k++ {
		it, next := p.items[k], p.items[k+1]
		if it.kind == itemVocab && it.ent.role == roleGrain && it.text == "年均" && next.kind == itemColumn && next.col.numeric {
			return it, true
		}
	}
	return item{}, false
}

// listsValues reports whether the request lists or sets against each
// other two values of one column ("Amazon and Apple", 亚马逊和苹果…对比):
// each is a group, so an order word right before the measure is each
// one's maximum or minimum (亚马逊和苹果的最低股价 is each one's lowest
// price, not their mean prices ranked).
func (p *parsed) listsValues() bool {
	return p.listedColumn(true) != nil
}

// averagePerYearProblems asks which is meant by 年均 of a quantity that
// adds up (发电量, 死亡人数) with no group: the average of the yearly
// totals, one number, or a trend of the rows' mean each year, which pools
// the rows of each year (three sources' generation averaged). Of a level
// (a temperature, a price) the yearly mean is the average a year.
func (p *parsed) averagePerYearProblems(r Reading) []problem {
	if _, ok := p.averagePerYear(); !ok || len(r.GroupBy) > 0 || !builtinHas(r.Analysis, func(b *builtin) bool { return b.periodic != nil }) {
		return nil
	}
	for _, m := range r.Measures {
		if c := p.t.column(m.Column); c != nil && nonSumOf(c, nil) == "" {
			return []problem{{fmt.Sprintf("“年均 %[1]s” can be the average of the yearly totals of %[1]s, or a trend of its mean per year: say which", c.name),
				fmt.Sprintf("“年均%[1]s”可以是各年总量的平均值，也可以是每年均值的趋势：请说明是哪一种", c.name)}}
		}
	}
	return nil
}
