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
