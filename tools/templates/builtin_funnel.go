package templates

import (
	"context"
	"slices"
	"strings"

	"github.com/sift-agent/sift/numfmt"
)

// funnelBuiltin is how many reach each ordered stage.
var funnelBuiltin = builtin{
	Template: Template{Name: Funnel, Title: "Funnel conversion", cell: "py/funnel.py",
		Description: "How many reach each ordered stage, conversion from the previous and the first stage, and drop-off, with a funnel chart.",
		Params:      []string{"stage: the stage column (long data)", "stages: the stages in order (or, for wide data, the stage columns)", "entity: count distinct ids", "measure: a count column to sum"},
		Example:     "funnel conversion visit -> signup -> purchase"},
	titleZh: "漏斗转化",
	aliases: []string{"conversion"},
	rank:    3,
	needs: func(a *asking, r *Reading) {
		r.Stages = a.p.stages
		var stageCols []string
		for _, c := range a.measures {
			stageCols = append(stageCols, c.name)
		}
		if len(stageCols) >= 2 {
			// Wide data: one column per stage, in the request's order.
			r.Stages = stageCols
		} else {
			for _, c := range append(a.dims, a.p.t.dimensions()...) {
				if c.idish {
					continue
				}
				for _, w := range c.words {
					switch w {
					case "event", "stage", "step", "status", "phase", "action", "funnel":
						if r.Stage == "" {
							r.Stage = c.name
						}
					}
				}
			}
			for _, c := range a.p.t.cols {
				if c.idish && r.Entity == "" {
					r.Entity = c.name
				}
			}
			if r.Stage == "" {
				a.add("no stage column (stage, step, event)", "没有阶段列（阶段、步骤、事件）")
			}
			for _, c := range a.dims {
				if c.name != r.Stage {
					// "各航空公司的转化漏斗": one funnel for each airline is
					// not what the funnel computes; dropping the grouping
					// would answer another question.
					a.add("a funnel is not split by %s", "漏斗不能按 %s 分组", c.name)
					break
				}
			}
		}
		r.Measures, r.ByMean, r.GroupBy = nil, nil, nil
	},
	cues: slices.Concat(
		cues(0.92, `\bfunnels?\b`, `漏斗`, `\bconversion(?: rates?)?\b`, `转化率`, `转化`),
		cues(0.7, `\bdrop[- ]?offs?\b`, `\bstage by stage\b`, `每个?(?:阶段|环节|步骤)`),
	),
	words:   []string{"funnel", "conversion"},
	phrases: []string{"drop off", "conversion rate"},
	wordsZh: []string{"漏斗", "转化率", "转化"},
	infer:   inferFunnel,
	hint:    "name the stage column (stage=...) and the stages in order (stages=[...]), or list one column per stage",
	formats: map[string]numfmt.Formats{"table": {"from_previous": pct1, "from_first": pct1}},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.funnel(ctx, *p)
		},
		// Stages are ordered by where they first occur.
		fileOrder:   true,
		lazyUniques: true,
		render:      (*native).funnel,
	},
}

// inferFunnel picks the funnel's shape: stage columns named in order (wide
// data), or a stage column with the stages in order (long data).
func inferFunnel(in *inference, r *request, cols []*column) {
	byName := map[string]*column{}
	for _, c := range cols {
		byName[normalize(c.name)] = c
	}
	if len(r.stages) >= 2 {
		allCols := true
		var names []string
		for _, s := range r.stages {
			c, ok := byName[normalize(s)]
			if !ok {
				allCols = false
				break
			}
			names = append(names, c.name)
		}
		if allCols {
			in.p.Stages = names
			in.reason("stages: the columns %s, in the request's order", strings.Join(names, " → "))
			return
		}
		in.p.Stages = r.stages
		in.reason("stages: %s (in the request's order)", strings.Join(r.stages, " → "))
	}
	if ms := r.mentioned(func(c *column) bool { return c.stage && !c.numeric }); len(ms) > 0 {
		in.p.Stage = ms[0].col.name
		in.reason("stage column: %s (%s)", in.p.Stage, ms[0].how(in.lang))
	} else {
		for _, c := range cols {
			if c.stage && !c.numeric {
				in.p.Stage = c.name
				in.reason("stage column: %s (its name)", c.name)
				break
			}
		}
	}
	if in.p.Stage == "" {
		in.miss("no stage column (stage, step, event) in the preview")
		return
	}
	for _, c := range cols {
		if c.idish && !c.numeric || c.idish && c.typ == "int" {
			in.p.Entity = c.name
			in.reason("entity: %s (each stage counts distinct %s)", c.name, c.name)
			break
		}
	}
	if in.p.Entity == "" {
		for _, m := range r.mentioned(isMeasure) {
			in.p.Measure = m.col.name
			in.reason("count column: %s (%s)", m.col.name, m.how(in.lang))
			break
		}
	}
}
