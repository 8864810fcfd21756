package templates

import (
	"fmt"
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
	dropSingleRowGroups(a.p, r)
	var groups []string
	for _, g := range r.GroupBy {
		if g == "sheet" && r.Sheet == "*" {
			continue
		}
		groups = append(groups, g)
	}
	if len(groups) > 0 {
		a.add("it asks for the correlation per %s, and the correlation reads all the rows at once, not per group",
			"请求要按 %s 分别看相关性，而相关性分析一次读所有行，不分组", strings.Join(groups, ", "))
	}
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
// finds (builtin.showsAll): "top 5 outliers in wind" was answered with
// all 34 rows outside the fences, "distribution of the top 3 wind values"
// with the distribution of every value, and "compare 2013 vs 2014 for the
// top 3 weathers" with every weather, each under a first line that did
// not say the count.
func countUnused(a *asking, b *builtin, r Reading) {
	if !b.showsAll || r.N <= 0 {
		return
	}
	a.add("it asks for %[1]d of them, and %[2]s shows all it finds, not the first %[1]d", "请求要其中 %[1]d 个，而 %[2]s 列出找到的全部，不取前 %[1]d 个", r.N, b.Name)
}
