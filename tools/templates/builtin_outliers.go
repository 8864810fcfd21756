package templates

import (
	"context"
)

// outliersBuiltin is the rows outside the IQR fences or far in z.
var outliersBuiltin = builtin{
	Template: Template{Name: Outliers, Title: "Outliers", cell: "py/outliers.py",
		Description: "Rows outside the IQR fences (Q1−1.5·IQR, Q3+1.5·IQR) and rows with |z| > 3, per numeric column, with box plots and the flagged rows.",
		Params:      []string{"columns: the numeric columns (default: all, at most 20)", "iqr_k: the fence multiplier (default 1.5)", "z_threshold: default 3"},
		Example:     "find outliers in amount"},
	titleZh:   "异常值",
	aliases:   []string{"outlier", "anomalies"},
	rank:      6,
	cues:      cues(0.9, `\boutliers?\b`, `\banomal(?:y|ies|ous)\b`, `\bunusual (?:values?|rows?|records?|amounts?|transactions?|orders?)\b`, `\bextreme values?\b`, `\bz[- ]?scores?\b`, `\biqr\b`, `异常值`, `离群`, `异常`, `极端值`),
	words:     []string{"outlier", "anomaly", "anomalies", "anomalous", "unusual", "abnormal"},
	phrases:   []string{"z score", "unusual value", "extreme value"},
	wordsZh:   []string{"异常值", "离群", "异常", "极端值", "离群值"},
	columnsIn: true,
	showsAll:  true,
	ownOrder:  true,
	// Outliers per series: only the reading engine groups them.
	duckOnly: func(r Reading) bool { return len(r.GroupBy) > 0 },
	needs: func(a *asking, r *Reading) {
		p := a.p
		// "outlier states" in a table of one row per state: the states are
		// the values examined, not groups (a group of one row has no
		// fences; the outliers are among the states).
		dropSingleRowGroups(p, r)
		if len(r.GroupBy) == 0 {
			// Outliers per series, unless a filter keeps one series
			// ("IBM股价的异常值": the rows of IBM, not IBM as a group).
			if key := p.t.seriesKey(); key != "" && !r.pinned(key) {
				r.GroupBy = []string{key}
			}
		}
	},
	infer: func(in *inference, r *request, cols []*column) {
		inferColumns(in, numericMentions(r), cols)
	},
	suggestion: &suggestion{order: 60, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.measure == "" {
			return nil, nil
		}
		return one("Are there outliers in %s?", "%s有哪些异常值？"), []any{c.measure}
	}},
	table: &readingTable{compute: outliersTable, answer: func(lang string, _ Reading, t *Table) string {
		return outliersAnswer(lang, t)
	}},
	// Its rows are numbered as pandas numbers them, in the file's order,
	// and written as pandas shows them; rendered in Go.
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, root, abs string, p *Params) error {
			return d.outliers(ctx, root, abs, *p)
		},
		inOrder: true,
		render:  (*native).outliers,
	},
}
