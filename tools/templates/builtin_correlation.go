package templates

import (
	"context"
	"slices"
	"strings"
)

// correlationBuiltin is the correlation of numeric columns.
var correlationBuiltin = builtin{
	Template: Template{Name: Correlation, Title: "Correlation", cell: "py/correlation.py",
		Description: "The correlation matrix of numeric columns (Pearson by default), a heatmap and the strongest pairs; a scatter plot for two columns.",
		Params:      []string{"columns: the numeric columns (default: all, at most 30)", "method: pearson|spearman|kendall"},
		Example:     "correlation between price and quantity"},
	titleZh: "相关性分析",
	aliases: []string{"corr"},
	rank:    5,
	cues: slices.Concat(
		cues(0.9, `\bcorrelat\w*\b`, `相关性`, `相关系数`, `相关`, `\bspearman\b`, `\bpearson\b`),
		cues(0.7, `\brelationship between\b`, `\bhow .{1,30} relates? to\b`, `(?:之间|间)的关系`, `\bscatter(?: ?plot)?\b`, `散点图`),
	),
	words:     []string{"correlation", "corr", "correl", "correlate", "correlated", "relationship", "relate", "relation", "pearson", "spearman", "kendall", "scatter"},
	phrases:   []string{"relationship between", "pearson r", "correlation coefficient"},
	wordsZh:   []string{"相关性", "相关系数", "相关", "关系", "有关", "散点图", "关联", "斯皮尔曼", "肯德尔", "皮尔逊"},
	columnsIn: true,
	showsAll:  true,
	needs: func(a *asking, r *Reading) {
		p, add := a.p, a.add
		if len(r.Columns) == 1 {
			add("a correlation needs two numeric columns; it names one", "相关性需要两个数值列；请求只提到一个")
		}
		for _, w := range []string{"spearman", "kendall"} {
			if p.says(w) {
				r.Method = w
			}
		}
		if p.saysRaw("斯皮尔曼") {
			r.Method = "spearman"
		} else if p.saysRaw("肯德尔") {
			r.Method = "kendall"
		}
		correlationGroups(a, r)
	},
	infer: func(in *inference, r *request, cols []*column) {
		if names := numericMentions(r); len(names) >= 2 {
			in.p.Columns = names
			in.reason("columns: %s (named in the request)", strings.Join(names, ", "))
		} else if countNumeric(cols) < 2 {
			in.miss("fewer than two numeric columns in the preview")
		}
		if r.method != "" {
			in.p.Method = r.method
			in.reason("method: %s (from the request)", r.method)
		}
	},
	suggestion: &suggestion{order: 40, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.measure == "" || c.measure2 == "" {
			return nil, nil
		}
		return one("What is the correlation between %s and %s?", "%s和%s的相关性如何？"), []any{c.measure, c.measure2}
	}},
	table: &readingTable{compute: correlationTable},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.correlation(ctx, *p)
		},
		// nancorr adds up in the rows' order: the file's.
		fileOrder:   true,
		lazyUniques: true,
		columns: func(p Params) []string {
			return p.Columns
		},
		render: (*native).correlation,
	},
}
