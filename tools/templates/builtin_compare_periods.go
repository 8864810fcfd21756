package templates

import (
	"context"
	"fmt"

	"slices"

	"github.com/sift-agent/sift/numfmt"
)

// comparePeriodsBuiltin is each period against the one before, or the
// same one a year earlier.
var comparePeriodsBuiltin = builtin{
	Template: Template{Name: ComparePeriods, Title: "Period comparison", cell: "py/compare_periods.py",
		Description: "Each period against the one before (month over month, quarter over quarter, week over week) or the same period a year earlier (year over year), with changes and percentages.",
		Params:      []string{"time: the date column", "measure: the numeric column (none: count rows)", "aggregation", "compare: mom|qoq|wow|dod|yoy", "period: for yoy, the period compared (default month)"},
		Example:     "compare revenue month over month"},
	titleZh:    "时期对比",
	aliases:    []string{"compare", "yoy", "mom"},
	spansYears: true,
	rank:       1,
	// Two years and a measure: the years compared.
	choice:        &choice{order: 10, claims: func(a *asking, _ Reading) bool { return a.years >= 2 && len(a.measures)+a.aggs > 0 }},
	subsumes:      []string{Trend},
	compareCue:    true,
	comparesYears: true,
	showsAll:      true,
	ownOrder:      true,
	needsTime:     func(string) bool { return true },
	needs: func(a *asking, r *Reading) {
		compare := a.compare
		if compare == "seq" {
			compare = map[string]string{"day": "dod", "week": "wow", "month": "mom", "quarter": "qoq", "year": "yoy"}[r.Grain]
			if compare == "" {
				compare = "mom"
			}
		}
		r.Compare = compare
		if len(r.Measures) > 1 && len(r.Periods) == 0 {
			// Each period's change is computed for one measure.
			a.add("a comparison of each period with the one before follows one measure; it names %d", "逐期比较只跟踪一个度量；请求提到了 %d 个", len(r.Measures))
		}
		if len(r.Periods) == 0 && r.Compare == "" {
			a.add("it does not say which periods to compare", "请求没有说比较哪些时期")
		}
		// "失业率同比变化" over a table of several series (industries): a
		// rate is each series' own, and comparing them all averages the
		// rates, which the request did not ask.
		if k := a.p.t.seriesKey(); k != "" && a.aggs == 0 && len(r.ByMean) > 0 && !r.pinned(k) && !slices.Contains(r.GroupBy, k) {
			a.add("%[1]s is %[2]s of each %[3]s: a comparison over all of them would average them, which the request does not ask: name one %[3]s, or ask for the average",
				"%[1]s 是每个%[3]s各自的%[4]s：把所有%[3]s放在一起对比就要把它们平均，而请求没有要求平均：请指定一个%[3]s，或要求平均值",
				r.Measures[0].Column, nonSumOf(a.p.t.column(r.Measures[0].Column), nil), k, zhKind(nonSumOf(a.p.t.column(r.Measures[0].Column), nil)))
		}
		// "yoy change" over three months of one year: nothing to compare.
		if unit := compareUnits[r.Compare]; unit != "" {
			if tc := a.p.t.column(r.Time); tc != nil {
				if n := tc.periodsAt(unit); n == 1 {
					a.problem(fmt.Sprintf("%s spans one %s (%s to %s): a %s comparison needs two or more", tc.name, unit, tc.min, tc.max, compareNames[r.Compare]),
						fmt.Sprintf("%s 只覆盖一个%s（%s 至 %s）：%s比较至少需要两个%s", tc.name, zhGrain(unit), tc.min, tc.max, compareNamesZh[r.Compare], zhGrain(unit)))
				}
			}
		}
		comparisonGroups(a, r)
	},
	cues: slices.Concat(
		cues(0.92, `month[- ]over[- ]month`, `year[- ]over[- ]year`, `quarter[- ]over[- ]quarter`, `week[- ]over[- ]week`, `day[- ]over[- ]day`, `period[- ]over[- ]period`, `\b(?:mom|yoy|qoq|wow)\b`, `同比`, `环比`, `去年同期`),
		cues(0.85, `\b(?:vs\.?|versus|against|compared? (?:to|with)) (?:the )?(?:last|previous|prior|same) (?:day|week|month|quarter|year|period)`, `(?:与|和|跟|比)(?:上月|上个月|去年|上一年|上季度|上个季度|上周)`, `对比(?:上月|上个月|去年|上季度|上周)`, `\bcompare\b.{0,40}\b(?:periods?|months?|years?|quarters?|weeks?)\b`),
	),
	words:      []string{"compare", "comparison"},
	aggregates: true,
	infer: func(in *inference, r *request, cols []*column) {
		in.pickTime(r, cols)
		in.pickMeasure(r, cols, true)
		mode := r.compare
		if mode == "" || mode == "seq" {
			mode = map[string]string{"day": "dod", "week": "wow", "quarter": "qoq"}[r.period]
			if mode == "" {
				mode = "mom"
			}
		}
		in.p.Compare = mode
		in.reason("comparison: %s (from the request's words)", wordIn(in.lang, mode))
		if mode == "yoy" {
			in.setPeriod(r)
		}
	},
	params: func(p *Params, r Reading) {
		p.Compare = r.Compare
		if len(r.Periods) > 0 {
			p.Compare = "yoy"
		}
	},
	head: seriesHead,
	suggestion: &suggestion{order: 30, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.time == "" || c.measure == "" {
			return nil, nil
		}
		return one("How does %s compare month over month?", "%s的环比变化如何？"), []any{c.measure}
	}},
	hint:    seriesHint,
	formats: map[string]numfmt.Formats{"table": {"change_pct": pct1}},
	table: &readingTable{
		keys: func(r Reading) []tableKey {
			if len(r.Periods) > 0 {
				return seriesKeys(r, "year") // the years compared
			}
			return seriesKeys(r, r.Grain)
		},
		order: seriesOrder,
		finish: func(t *Table, r Reading) {
			if len(r.Periods) == 0 && r.Compare != "" {
				addChanges(t, r)
			}
		},
		answer: func(lang string, r Reading, t *Table) string {
			if r.Compare != "" && len(r.Periods) == 0 {
				// By the value, before its previous value and changes.
				return highLowAnswer(lang, t, len(t.Columns)-4)
			}
			return highLowAnswer(lang, t, len(t.Columns)-1)
		},
	},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.periodSeries(ctx, p, true)
		},
		lazyUniques: true,
		columns: func(p Params) []string {
			if p.Time == "" || p.Measure == "" {
				return nil
			}
			return []string{p.Time, p.Measure}
		},
		render: (*native).comparePeriods,
	},
}
