package templates

import (
	"context"

	"fmt"
	"strings"
)

// pivotBuiltin is a cross-tabulation of two categories, or of a category
// and a period.
var pivotBuiltin = builtin{
	Template: Template{Name: Pivot, Title: "Pivot table", cell: "py/pivot.py",
		Description: "A cross-tabulation of two categories, or of a category and a period, aggregating a measure or counting rows, with totals and a heatmap.",
		Params:      []string{"category: the row category", "category2: the column category", "time and period: use periods as the columns instead", "measure", "aggregation"},
		Example:     "pivot sales by region and product"},
	titleZh:    "数据透视表",
	aliases:    []string{"crosstab"},
	rank:       4,
	needsTime:  func(period string) bool { return period != "" },
	periodic:   func(a *asking) bool { return len(a.dims) == 1 },
	countsRows: true,
	showsAll:   true,
	ownOrder:   true,
	needs: func(a *asking, r *Reading) {
		if len(r.GroupBy) < 2 && r.Grain == "" || len(r.GroupBy) > 2 {
			a.add("a pivot needs two categories, or a category and a period", "数据透视表需要两个类别，或一个类别和一个周期")
		}
		if len(r.Measures) > 1 {
			// A pivot's cells hold one measure (the cell computes the
			// first alone).
			a.add("a pivot table holds one measure in its cells; it names %d", "数据透视表的单元格只放一个度量；请求提到了 %d 个", len(r.Measures))
		}
	},
	cues:       cues(0.9, `\bpivot\b`, `\bcross[- ]?tab(?:ulat\w*|s)?\b`, `\bcontingency\b`, `透视`, `交叉表`, `交叉分析`),
	words:      []string{"pivot", "crosstab", "contingency"},
	phrases:    []string{"cross tab"},
	wordsZh:    []string{"透视", "透视表", "数据透视表", "交叉表"},
	aggregates: true,
	infer: func(in *inference, r *request, cols []*column) {
		if ms := r.mentioned(isMeasure); len(ms) > 0 || moneyWordRe.MatchString(r.masked) {
			in.pickMeasure(r, cols, true)
		} else {
			in.reason("measure: none, rows are counted (no measure named)")
		}
		if !in.setCategory(&in.p.Category, "rows", in.pickCategory(r, cols, in.p.Measure)) {
			in.miss("no text column for the rows in the preview")
			return
		}
		if cat2 := in.pickCategoryMentioned(r, in.p.Category); cat2 != "" {
			in.setCategory(&in.p.Category2, "columns", cat2)
		} else if tm := r.mentioned(isTime); len(tm) > 0 || r.period != "" {
			in.pickTime(r, cols)
			in.setPeriod(r)
			if in.p.Period == "" {
				in.p.Period = "month"
				in.reason("period: month (the columns are periods of %s)", in.p.Time)
			}
		} else if !in.setCategory(&in.p.Category2, "columns", in.pickCategory(r, cols, in.p.Measure, in.p.Category)) {
			in.miss("only one text column; a pivot needs two categories or a date")
		}
	},
	params: func(p *Params, r Reading) {
		if len(r.GroupBy) > 1 {
			p.Category2 = r.GroupBy[1]
		}
	},
	head: func(r Reading, lang string) string {
		grain := grainText(lang, r.Grain)
		by := strings.Join(r.GroupBy, " × ")
		if grain != "" && len(r.GroupBy) == 1 {
			by += " × " + grain
		}
		if lang == LangChinese {
			return fmt.Sprintf("%s 的数据透视表：%s", by, measureText(r, lang))
		}
		return fmt.Sprintf("Pivot of %s by %s", measureText(r, lang), by)
	},
	suggestion: &suggestion{order: 50, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.cat == "" || c.cat2 == "" || c.measure == "" {
			return nil, nil
		}
		return one("Pivot table of %[1]s by %[2]s and %[3]s", "按%[2]s和%[3]s做%[1]s的数据透视表"), []any{c.measure, c.cat, c.cat2}
	}},
	hint: groupHint,
	table: &readingTable{
		keys: func(r Reading) []tableKey {
			keys := groupKeys(r)
			if len(r.GroupBy) == 1 && r.Time != "" {
				keys = append(keys, timeKey(r, r.Grain))
			}
			return keys
		},
	},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.pivot(ctx, p)
		},
		lazyUniques: true,
		render:      (*native).pivot,
	},
}
