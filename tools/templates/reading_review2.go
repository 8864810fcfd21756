package templates

import (
	"fmt"
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
