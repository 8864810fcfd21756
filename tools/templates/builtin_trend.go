package templates

import (
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
	titleZh: "趋势分析",
	rank:    9,
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
	duck:    true,
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
			b.WriteString("，" + wordIn(lang, r.Compare))
			if !zh {
				b.Reset()
				b.WriteString(measure() + " " + compareText(r.Compare))
			}
		}
	}
	return b.String()
}
