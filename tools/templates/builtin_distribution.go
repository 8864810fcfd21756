package templates

import (
	"context"

	"slices"
	"strings"
)

// distributionBuiltin is the distribution of columns.
var distributionBuiltin = builtin{
	Template: Template{Name: Distribution, Title: "Distribution", cell: "py/distribution.py",
		Description: "Summary statistics, histograms and box plots per numeric column (at most 12), most common values per text column.",
		Params:      []string{"columns: the columns (default: the numeric ones)"},
		Example:     "show the distribution of order values"},
	titleZh: "分布分析",
	aliases: []string{"histogram"},
	rank:    7,
	cues: slices.Concat(
		cues(0.88, `\bdistribut(?:ion|ions|ed)\b`, `\bhistograms?\b`, `\bbox ?plots?\b`, `\bbox[- ]and[- ]whisker\b`, `分布`, `直方图`, `箱线图`, `箱形图`),
		cues(0.7, `\bspread\b`, `\brange of values\b`, `\bquantiles?\b`, `\bpercentiles?\b`, `分位数`),
	),
	words:     []string{"distribution", "distributed", "histogram", "spread", "quantile", "percentile", "boxplot"},
	phrases:   []string{"box plot"},
	wordsZh:   []string{"分布", "直方图", "箱线图", "分位数"},
	columnsIn: true,
	showsAll:  true,
	ownOrder:  true,
	describes: true,
	// "distribution of poverty rates across states" in a table of one row
	// per state: the states are the values distributed, not groups of one;
	// other groups are refused (distributionNeeds).
	needs: distributionNeeds,
	infer: func(in *inference, r *request, cols []*column) {
		var names []string
		for _, m := range r.mentions {
			if !m.col.timeish {
				names = append(names, m.col.name)
			}
		}
		inferColumns(in, names, cols)
	},
	suggestion: &suggestion{order: 70, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.measure == "" {
			return nil, nil
		}
		return one("What is the distribution of %s?", "%s的分布如何？"), []any{c.measure}
	}},
	table: &readingTable{compute: distributionTable},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.distribution(ctx, *p)
		},
		render: (*native).distribution,
	},
}

// inferColumns takes the columns the request names (distribution,
// outliers), or notes that the table has no numeric column to default to.
func inferColumns(in *inference, names []string, cols []*column) {
	if len(names) > 0 {
		in.p.Columns = names
		in.reason("columns: %s (named in the request)", strings.Join(names, ", "))
	} else if countNumeric(cols) == 0 {
		in.miss("no numeric column in the preview")
	}
}
