package templates

import "strings"

// distributionNeeds checks a reading of the distribution built-in: the
// groups of one row each are the values distributed (dropSingleRowGroups);
// any other group is refused, since the distribution describes each column
// over all the rows it reads and never splits them by a category: "histogram
// of wind by weather" answered with one histogram of all the wind values
// under a first line that said "per weather".
func distributionNeeds(a *asking, r *Reading) {
	dropSingleRowGroups(a.p, r)
	var groups []string
	for _, g := range r.GroupBy {
		if g == "sheet" && r.Sheet == "*" {
			continue
		}
		groups = append(groups, g)
	}
	if len(groups) > 0 {
		a.add("it asks for the distribution per %s, and the distribution reads all the rows at once, not per group",
			"请求要按 %s 分别看分布，而分布分析一次读所有行，不分组", strings.Join(groups, ", "))
	}
}
