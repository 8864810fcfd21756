package templates

import "strings"

// distributionNeeds checks a reading of the distribution built-in: the
// groups of one row each are the values distributed (dropSingleRowGroups);
// any other group is refused, since the distribution describes each column
// over all the rows it reads and never splits them by a category: "histogram
// of wind by weather" answered with one histogram of all the wind values
// under a first line that said "per weather".
func distributionNeeds(a *asking, r *Reading) {
	refuseGroups(a, r, "distribution", "分布")
}

// refuseGroups refuses the groups of a reading whose built-in reads all
// its rows at once (distribution, correlation), after dropping the groups
// of one row each, which are the rows themselves; a workbook's sheets
// read together are no group of the reading's.
func refuseGroups(a *asking, r *Reading, what, whatZh string) {
	dropSingleRowGroups(a.p, r)
	var groups []string
	for _, g := range r.GroupBy {
		if g == "sheet" && r.Sheet == "*" {
			continue
		}
		groups = append(groups, g)
	}
	if len(groups) > 0 {
		a.add("it asks for the %[2]s per %[1]s, and the %[2]s reads all the rows at once, not per group",
			"请求要按 %[1]s 分别看%[3]s，而%[3]s分析一次读所有行，不分组", strings.Join(groups, ", "), what, whatZh)
	}
}
