package templates

import (
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
	titleZh: "时期对比",
	aliases: []string{"compare", "yoy", "mom"},
	rank:    1,
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
	duck:    true,
}
