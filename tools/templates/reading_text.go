package templates

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/sift-agent/sift/preview"
)

// Understand parses request against the previews into a Reading. ok is true only when the reading is complete
// (every content word placed, every slot grounded, the aggregation sensible): only then may a built-in answer.
// When ok is false the Reading is the partial one and Why says, in the request's language, which words could not
// be placed and which columns exist (or the one clarifying question with candidate columns).
func Understand(request string, files []*preview.FilePreview) (r Reading, ok bool, why string) {
	lang := LangOf(request)
	best, probs, t := understandBest(request, files)
	if t == nil {
		return Reading{}, false, textIn(lang, "no table among the files to run it on")
	}
	if len(best.Unplaced) == 0 && len(probs) == 0 {
		return best, true, ""
	}
	return best, false, whyNot(lang, best, probs, t)
}

// understandBest parses request over every table and keeps the reading
// with the fewest problems, then the most of the request placed on
// columns and values; a table the request names (by file or sheet) first.
func understandBest(request string, files []*preview.FilePreview) (Reading, []problem, *gtable) {
	type cand struct {
		r     Reading
		probs []problem
		t     *gtable
		score int
	}
	var best *cand
	for fi, f := range files {
		if f == nil {
			continue
		}
		for j := range f.Sheets {
			s := &f.Sheets[j]
			if len(s.Columns) == 0 {
				continue
			}
			t := groundTable(fi, f, s)
			for fj, o := range files {
				if o != nil && fj != fi {
					t.otherStems = append(t.otherStems, fileStem(o.Name))
				}
			}
			p := parseOn(request, t)
			r, probs := p.build()
			score := -100*(len(r.Unplaced)+len(probs)) + p.grounded()
			if r.Sheet != "" && r.Sheet != "*" && r.Sheet != s.Name {
				// The request names another sheet of this workbook.
				score -= 1000
			}
			if best == nil || score > best.score {
				best = &cand{r, probs, t, score}
			}
		}
	}
	if best == nil {
		return Reading{}, nil, nil
	}
	return best.r, best.probs, best.t
}

// fileStem is a file name's words without its extension.
func fileStem(name string) []string {
	base := path.Base(filepath.ToSlash(name))
	ws, _ := columnWords(strings.TrimSuffix(base, path.Ext(base)))
	return ws
}

// grounded counts the items placed on the table itself.
func (p *parsed) grounded() int {
	n := 0
	for _, it := range p.items {
		switch it.kind {
		case itemColumn, itemValue, itemSheet:
			n += 2
		case itemFile:
			n += 3
		}
	}
	return n
}

// whyNot says why a reading is not complete, in lang.
func whyNot(lang string, r Reading, probs []problem, t *gtable) string {
	var parts []string
	if len(r.Unplaced) > 0 {
		q := quoted(r.Unplaced)
		if lang == LangChinese {
			parts = append(parts, fmt.Sprintf("无法把请求中的%s对应到 %s 的列上（现有的列：%s）", strings.Join(q, "、"), r.File, t.columnsText()))
		} else {
			parts = append(parts, fmt.Sprintf("could not place %s of the request on %s (its columns: %s)", strings.Join(q, ", "), r.File, t.columnsText()))
		}
	}
	for _, p := range probs {
		if lang == LangChinese {
			parts = append(parts, p.zh)
		} else {
			parts = append(parts, p.en)
		}
	}
	if lang == LangChinese {
		return "内置分析不回答这个请求：" + strings.Join(parts, "；")
	}
	return "no built-in analysis answers this request: " + strings.Join(parts, "; ")
}

// Text renders the reading as the answer's first line in lang ("" English, LangChinese), e.g.
// "Average of temp_max per calendar year, 2012–2015, from input/seattle-weather.csv".
func (r Reading) Text(lang string) string {
	zh := lang == LangChinese
	var b strings.Builder
	if bi := builtinNamed(r.Analysis); bi != nil && bi.head != nil {
		b.WriteString(bi.head(r, lang))
	} else {
		t, _ := Lookup(r.Analysis)
		b.WriteString(t.TitleIn(lang))
		if len(r.Columns) > 0 {
			if zh {
				b.WriteString("：" + strings.Join(r.Columns, "、"))
			} else {
				b.WriteString(" of " + strings.Join(r.Columns, ", "))
			}
		}
		if len(r.GroupBy) > 0 {
			if zh {
				b.WriteString("，按 " + strings.Join(r.GroupBy, "、") + " 分组")
			} else {
				b.WriteString(", per " + strings.Join(r.GroupBy, ", "))
			}
		}
	}
	for _, f := range r.Filters {
		col := f.Column
		if f.Op == "year" {
			if zh {
				fmt.Fprintf(&b, "，%s 年", strings.Join(f.Values, "、"))
			} else {
				fmt.Fprintf(&b, ", in %s", strings.Join(f.Values, ", "))
			}
			continue
		}
		if f.Op == ">=" || f.Op == "<=" {
			switch {
			case zh && f.Op == ">=":
				fmt.Fprintf(&b, "，%s 自 %s 起", col, f.Values[0])
			case zh:
				fmt.Fprintf(&b, "，%s 至 %s 止", col, f.Values[0])
			case f.Op == ">=":
				fmt.Fprintf(&b, ", %s from %s", col, f.Values[0])
			default:
				fmt.Fprintf(&b, ", %s up to %s", col, f.Values[0])
			}
			continue
		}
		if f.Op == "!=" {
			if zh {
				fmt.Fprintf(&b, "，不含 %s（%s）", strings.Join(f.Values, "、"), col)
			} else {
				fmt.Fprintf(&b, ", excluding %s (%s)", strings.Join(f.Values, " and "), col)
			}
			continue
		}
		if zh {
			fmt.Fprintf(&b, "，%s 为 %s", col, strings.Join(f.Values, "、"))
		} else {
			fmt.Fprintf(&b, ", where %s is %s", col, strings.Join(f.Values, " or "))
		}
	}
	if r.Span[0] != "" && r.Span[1] != "" && len(r.Periods) == 0 && !hasYearFilter(r) && builtinHas(r.Analysis, func(b *builtin) bool { return b.spansYears }) {
		lo, hi := yearOf(r.Span[0]), yearOf(r.Span[1])
		if lo != "" && hi != "" && lo != hi {
			b.WriteString(", " + lo + "–" + hi)
		}
	}
	from := r.File
	if zh && from != "" {
		// A Chinese answer holds no Latin words but the data's: the file is
		// a link, as the report's other files are.
		from = "[" + from + "](" + from + ")"
	}
	switch {
	case r.Sheet == "*":
		if zh {
			from += " 的所有工作表"
		} else {
			from += ", all sheets stacked"
		}
	case r.Sheet != "":
		if zh {
			from += " 的工作表“" + r.Sheet + "”"
		} else {
			from += ", sheet " + r.Sheet
		}
	}
	if zh {
		b.WriteString("，数据来自 " + from)
	} else {
		b.WriteString(", from " + from)
	}
	if len(r.ByMean) > 0 {
		if zh {
			var zhs []string
			for _, m := range r.ByMean {
				// "temp_max (a temperature)" → "temp_max（温度）"
				if name, kind, ok := strings.Cut(m, " ("); ok {
					m = name + "（" + zhKind(strings.TrimSuffix(kind, ")")) + "）"
				}
				zhs = append(zhs, m)
			}
			b.WriteString("（取平均值，不求和：" + strings.Join(zhs, "、") + "）")
		} else {
			b.WriteString(" (averaged, not summed: " + strings.Join(r.ByMean, ", ") + ")")
		}
	}
	if r.RowIs != "" {
		if zh {
			unit := map[string]string{"day": "天", "year": "年", "month": "个月"}[r.RowIs]
			if unit == "" {
				unit = "条 " + r.RowIs
			}
			b.WriteString("（每行是一" + unit + "，所以数的是行数）")
		} else {
			b.WriteString(" (each row is one " + r.RowIs + ", so rows are counted)")
		}
	}
	out := b.String()
	if !zh && out != "" {
		out = strings.ToUpper(out[:1]) + out[1:]
	}
	return out
}

func hasYearFilter(r Reading) bool {
	for _, f := range r.Filters {
		if f.Op == "year" || f.Column == r.Time && (f.Op == ">=" || f.Op == "<=") {
			return true
		}
	}
	return false
}

func yearOf(s string) string {
	if len(s) >= 4 && isDigits(s[:4]) {
		return s[:4]
	}
	return ""
}

func aggText(lang, agg, col string) string {
	if lang == LangChinese {
		return col + " 的" + wordIn(lang, agg)
	}
	names := map[string]string{"sum": "Total", "mean": "Average", "median": "Median", "min": "Minimum", "max": "Maximum",
		"count": "Count", "count_distinct": "Distinct count"}
	if n, ok := names[agg]; ok {
		return n + " of " + col
	}
	return col
}

func grainText(lang, g string) string {
	if lang == LangChinese {
		return map[string]string{"day": "日", "week": "周", "month": "月", "quarter": "季度", "year": "年",
			"month_of_year": "月份（一年中的第几月）", "weekday": "星期几", "quarter_of_year": "季度（一年中的第几季度）", "hour_of_day": "一天中的小时"}[g]
	}
	return map[string]string{"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "calendar year",
		"month_of_year": "calendar month (January–December, all years together)", "weekday": "day of the week",
		"quarter_of_year": "quarter of the year (all years together)", "hour_of_day": "hour of the day"}[g]
}

func compareText(c string) string {
	return map[string]string{"yoy": "year over year", "mom": "month over month", "qoq": "quarter over quarter",
		"wow": "week over week", "dod": "day over day"}[c]
}

// paramsOf are the template parameters of a complete reading.
func paramsOf(r Reading) Params {
	p := Params{Time: r.Time, Category: first(r.GroupBy), Columns: r.Columns, N: r.N, Method: r.Method, Entity: r.Entity, Stage: r.Stage, Stages: r.Stages}
	if r.Sheet != "*" {
		p.Sheet = r.Sheet
	}
	if len(r.Measures) > 0 {
		p.Measure = r.Measures[0].Column
		p.Aggregation = r.Measures[0].Agg
		if p.Aggregation == "count_distinct" {
			p.Aggregation = "nunique"
		}
	} else if aggregates(r.Analysis) {
		p.Aggregation = "count"
	}
	if slicesContains(Periods, r.Grain) {
		p.Period = r.Grain
	}
	if b := builtinNamed(r.Analysis); b != nil && !b.aggregates {
		p.Category, p.Measure, p.Aggregation = "", "", ""
	} else if b != nil && b.params != nil {
		b.params(&p, r)
	}
	return p
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// duckOnly reports whether the reading needs a computation only the
// reading engine (DuckDB) makes: a filter, a calendar part, an integer
// year as time, sheets stacked, compared named periods, or what the
// built-in says (builtin.duckOnly: outliers per series).
func (r Reading) duckOnly() bool {
	if len(r.Filters) > 0 || r.Sheet == "*" || len(r.Periods) > 0 || slicesContains(calendarParts, r.Grain) {
		return true
	}
	if len(r.Measures) > 1 && groupedTable(r) {
		// The cells compute one measure (Params.Measure): the reading
		// engine computes each.
		return true
	}
	if b := builtinNamed(r.Analysis); b != nil && b.duckOnly != nil && b.duckOnly(r) {
		return true
	}
	return r.Time != "" && r.YearTime
}
