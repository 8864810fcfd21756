package templates

import (
	"context"
	"slices"
)

// cohortBuiltin is retention by the period of first activity.
var cohortBuiltin = builtin{
	Template: Template{Name: Cohort, Title: "Cohort retention", cell: "py/cohort.py",
		Description: "Entities grouped by the period of their first activity; the share active again in each later period, as a retention matrix, heatmap and average curve.",
		Params:      []string{"entity: the id column (user, customer)", "time: the activity date column", "period: day|week|month|quarter|year (default month)"},
		Example:     "monthly cohort retention of users"},
	titleZh:   "同期群留存",
	aliases:   []string{"retention"},
	rank:      2,
	needsTime: func(string) bool { return true },
	needs: func(a *asking, r *Reading) {
		for _, d := range a.dims {
			if d.idish || r.Entity == "" {
				r.Entity = d.name
			}
		}
		if r.Entity == "" {
			for _, c := range a.p.t.cols {
				if c.idish {
					r.Entity = c.name
					break
				}
			}
		}
		if r.Entity == "" {
			a.add("no id column to follow (user, customer)", "没有可追踪的编号列（用户、客户）")
		}
		r.GroupBy, r.Measures, r.ByMean = nil, nil, nil
		if r.Grain == "" {
			r.Grain = "month"
		}
	},
	cues: slices.Concat(
		cues(0.92, `\bcohorts?\b`, `\bretention\b`, `\bretained\b`, `留存`, `同期群`),
		cues(0.7, `\brepeat (?:purchase|customers?|users?)\b`, `\bcome back\b`, `\breturning (?:users?|customers?)\b`, `复购`, `回访`),
	),
	words:   []string{"cohort", "retention", "retained"},
	wordsZh: []string{"留存", "同期群", "留存率"},
	infer: func(in *inference, r *request, cols []*column) {
		in.pickTime(r, cols)
		if ms := r.mentioned(func(c *column) bool { return c.idish }); len(ms) > 0 {
			in.p.Entity = ms[0].col.name
			in.reason("entity: %s (%s)", in.p.Entity, ms[0].how(in.lang))
		} else {
			for _, c := range cols {
				if c.idish && !c.timeish {
					in.p.Entity = c.name
					in.reason("entity: %s (an id-like column name)", c.name)
					break
				}
			}
			if in.p.Entity == "" {
				in.miss("no id column (user, customer) in the preview")
			}
		}
		in.p.Period = "month"
		if r.period != "" {
			in.p.Period = r.period
		}
		in.reason("period: %s", wordIn(in.lang, in.p.Period))
	},
	hint: "name the columns explicitly (entity=<id column>, time=<date column>)",
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.cohort(ctx, p)
		},
		lazyUniques: true,
		render:      (*native).cohort,
	},
}
