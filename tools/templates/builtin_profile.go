package templates

import (
	"context"

	"slices"
	"strings"

	"github.com/sift-agent/sift/numfmt"
)

// profileBuiltin is the data profile: what a file holds.
var profileBuiltin = builtin{
	Template: Template{Name: Profile, Title: "Data profile", cell: "py/profile.py",
		Description: "Shape, column types, missing values, duplicate rows, summary statistics, top categories and histograms of one table; bounded for wide files.",
		Params:      []string{"sheet: the sheet of a workbook"},
		Example:     "profile this file"},
	titleZh:    "数据概况",
	wholeTable: true,
	describes:  true,
	showsAll:   true,
	rank:       10,
	// Nothing but the file: "what's in this file", "看看这个文件".
	choice: &choice{order: 40, claims: func(a *asking, r Reading) bool {
		return len(a.measures) == 0 && len(a.dims) == 0 && a.sheetAs == "" && a.aggs == 0 && !a.ranking && a.order == "" && len(r.Filters) == 0 && a.years == 0
	}},
	needs: func(a *asking, r *Reading) {
		if !profileOfNamedColumns(a) && len(a.measures) > 0 && len(r.Filters) > 0 {
			// "summary of AAPL prices": a column of some rows asked
			// about, which a profile of the table does not answer apart
			// ("人口数据概况" names the table's subject, and is its profile).
			a.add("a profile is of the whole table, not of %s: ask for its distribution", "数据概况针对整张表，不针对 %s：请问它的分布", strings.Join(colNames(a.measures), ", "))
		}
		r.Measures, r.ByMean = nil, nil
		// "missing values per year", "profile by species": a profile is of
		// the whole table, not split ("profile flights and carriers" names
		// tables, not a split).
		by := r.Grain
		for _, it := range a.p.items {
			if it.kind == itemColumn && slices.Contains(r.GroupBy, it.col.name) && a.p.splitsByPeriod(it) {
				by = it.col.name
			}
		}
		if by != "" {
			a.add("a profile is of the whole table; it does not split by %s", "数据概况针对整张表，不按%s拆分", by)
		}
	},
	cues: slices.Concat(
		cues(0.85, `\bprofil(?:e|ing)\b`, `\bdata quality\b`, `\bmissing (?:values?|data)\b`, `数据概况`, `概况`, `概览`, `数据画像`, `数据质量`, `缺失值?`, `探查`, `探索性`),
		cues(0.75, `\boverview\b`, `\bdescribe\b`, `\bexplore\b`, `\beda\b`, `what(?:'s| is) in (?:this|the|my) (?:file|data|table|dataset|spreadsheet)`, `\bnull values\b`, `\bduplicates?\b`, `摘要`, `描述统计`, `基本情况`, `看看(?:这个|这份)?(?:文件|数据|表)`, `了解(?:一下)?(?:这个|这份)?(?:数据|文件)`, `总结(?:一下)?(?:这个|这份)?(?:数据|文件|表)`, `重复`),
		cues(0.65, `\bsummar(?:y|ise|ize)\b`),
	),
	words:   []string{"profile", "profiling", "overview", "summary", "summarise", "summarize", "describe", "eda", "explore", "quality", "missing", "null", "duplicate"},
	phrases: []string{"data quality", "missing value", "what is in", "what in", "what s in", "quick overview"},
	wordsZh: []string{"概况", "概览", "数据概况", "数据画像", "数据质量", "缺失值", "缺失", "探查", "描述统计", "基本情况", "摘要", "重复"},
	suggestion: &suggestion{order: 80, ask: func(suggestColumns) ([][2]string, []any) {
		return one("Profile this data: missing values and column types", "对这份数据做数据概况分析"), nil
	}},
	formats: map[string]numfmt.Formats{"columns": {"missing_pct": pct1}},
	table:   &readingTable{compute: profileTable},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, _ *Params) error {
			return d.profile(ctx)
		},
		allUniques: true,
		render:     (*native).profile,
	},
}
