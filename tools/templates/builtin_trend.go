package templates

import (
	"context"
	"fmt"

	"slices"
	"strings"

	"github.com/sift-agent/sift/numfmt"
)

// trendBuiltin is a measure per period, as a line.
var trendBuiltin = builtin{
	Template: Template{Name: Trend, Title: "Trend over time", cell: "py/trend.py",
		Description: "A measure summed, averaged or counted per day, week, month, quarter or year, with a line chart; optionally one line per category.",
		Params:      []string{"time: the date column", "measure: the numeric column (none: count rows)", "aggregation: sum|mean|count|median|min|max", "period: day|week|month|quarter|year (default: from the span)", "category: split into one line per value"},
		Example:     "monthly revenue trend"},
	titleZh:    "趋势分析",
	spansYears: true,
	rank:       9,
	// A request that asks per period, or over time, and cues no other
	// built-in.
	choice: &choice{order: 20, claims: func(a *asking, _ Reading) bool { return a.period != "" || a.timeWord }},
	chosen: func(a *asking, r *Reading) {
		if (a.ranking || r.N > 0 || a.order != "") && len(a.dims) > 0 {
			a.add("it asks for a ranking and a trend at once", "请求同时要排名和趋势")
		} else if r.N > 1 {
			// "top 5 years by unemployment", 失业率最高的五个年份: the
			// N highest periods, which a trend of every period is not.
			a.add("it asks for the top %d periods, and a trend shows every period in order", "请求要排名前 %d 的时期，而趋势分析按顺序列出所有时期", r.N)
		}
		if a.p.says("cumulative") {
			// "cumulative rainfall by month": a running total, which a
			// trend of each month's own total is not.
			a.add("it asks for a cumulative (running) total, which no built-in computes", "请求要累积（滚动）总和，内置分析不算")
		}
	},
	needsTime: func(string) bool { return true },
	periodic:  func(*asking) bool { return true },
	measured: func(a *asking, r *Reading) {
		statOfPeriodByGroup(a)
		if !(a.perGrain || a.p.meanOfPeriod()) || len(a.dims) == 0 || a.agg != "mean" || a.grain == "" {
			return
		}
		grain, dim := a.grain, a.dims[0].name
		for _, c := range a.measures {
			if c.nonSum == "" {
				a.problem(fmt.Sprintf("“average %[1]s per %[2]s by %[3]s” can be the average of the %[2]sly totals for each %[3]s, or a trend of the average per %[2]s: say which", c.name, grain, dim), fmt.Sprintf("“按%[3]s的每%[2]s平均%[1]s”可以是每个%[3]s的每%[2]s平均总量，也可以是每%[2]s平均值的趋势：请说明是哪一种", c.name, zhGrain(grain), dim))
				break
			}
		}
	},
	needs: func(a *asking, r *Reading) {
		if col := a.p.versusColumn(*r); col != "" && len(r.GroupBy) == 0 {
			// "AAPL vs MSFT avg price by year", 苹果和微软每年平均股价对比:
			// one line each, not one line of the two pooled.
			r.GroupBy = []string{col}
		}
		trendOrderUnused(a, r)
		if len(r.Measures) > 1 && len(r.GroupBy) > 0 {
			// One line per category of each measure: a table the answer
			// does not say in one line.
			a.add("a trend of %d measures is not split by a category (%s): ask for one measure, or drop the category", "多个度量（%d 个）的趋势不再按类别（%s）拆分：请只问一个度量，或去掉类别", len(r.Measures), r.GroupBy[0])
		}
		if len(r.GroupBy) > 1 {
			a.add("a trend splits by one category; it names %d", "趋势分析只按一个类别拆分；请求提到了 %d 个", len(r.GroupBy))
		}
	},
	cues: slices.Concat(
		cues(0.85, `\btrends?\b`, `\bover time\b`, `\btime series\b`, `走势`, `趋势`, `时间序列`, `\bwhich (?:day|week|month|quarter|year)\b`, `哪(?:一|个)?(?:天|周|月|季度|年)`),
		cues(0.7, periodCue, `\bgrowth\b`, `\bhow (?:has|have|did) .{1,40} chang`, `变化`, `增长`),
	),
	words:      []string{"trend", "evolution", "evolve", "change", "changed", "develop", "timeline", "progression"},
	phrases:    []string{"time series"},
	wordsZh:    []string{"趋势", "走势", "变化", "时间序列", "变化趋势", "演变"},
	aggregates: true,
	infer: func(in *inference, r *request, cols []*column) {
		in.pickTime(r, cols)
		in.pickMeasure(r, cols, true)
		in.setPeriod(r)
		if cat := in.pickCategoryMentioned(r, in.p.Time); cat != "" {
			in.setCategory(&in.p.Category, "one line per", cat)
		}
	},
	head: seriesHead,
	suggestion: &suggestion{order: 20, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.time == "" || c.measure == "" {
			return nil, nil
		}
		return one("What is the monthly trend of %s?", "%s的月度趋势如何？"), []any{c.measure}
	}},
	hint:    seriesHint,
	formats: map[string]numfmt.Formats{"table": {"change_pct": pct1}},
	table: &readingTable{
		keys:  func(r Reading) []tableKey { return seriesKeys(r, r.Grain) },
		order: seriesOrder,
	},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.periodSeries(ctx, p, false)
		},
		lazyUniques: true,
		columns: func(p Params) []string {
			if p.Time == "" || p.Measure == "" {
				return nil
			}
			if p.Category != "" {
				return []string{p.Time, p.Measure, p.Category}
			}
			return []string{p.Time, p.Measure}
		},
		render: (*native).trend,
	},
}

// seriesHint is the hint of the built-ins over a date column (trend,
// compare_periods).
const seriesHint = "name the columns explicitly (time=<date column>, measure=<numeric column>), or use another template if the data has no dates"

// seriesHead is the first words of a reading over periods (trend,
// compare_periods): the measure per grain, its lines, and for a
// comparison what is compared.
func seriesHead(r Reading, lang string) string {
	zh := lang == LangChinese
	var b strings.Builder
	measure := func() string { return measureText(r, lang) }
	grain := grainText(lang, r.Grain)
	b.WriteString(measure())
	if grain != "" {
		if zh {
			b.WriteString("，按" + grain)
		} else {
			b.WriteString(" per " + grain)
		}
	}
	if len(r.GroupBy) > 0 {
		if zh {
			b.WriteString("，按 " + strings.Join(r.GroupBy, "、") + " 分线")
		} else {
			b.WriteString(", one line per " + strings.Join(r.GroupBy, ", "))
		}
	}
	if r.Analysis == ComparePeriods {
		switch {
		case len(r.Periods) > 0:
			if zh {
				b.WriteString("，比较 " + strings.Join(r.Periods, " 与 "))
			} else {
				b.WriteString(", comparing " + strings.Join(r.Periods, " with "))
			}
		case r.Compare != "":
			return compareHead(r, lang)
		}
	}
	return b.String()
}
