package templates

import "strings"

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
