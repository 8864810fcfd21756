package templates

import (
	"context"

	"fmt"
	"slices"
	"strings"

	"github.com/sift-agent/sift/numfmt"
)

// topNBuiltin is a measure per category, ranked.
var topNBuiltin = builtin{
	Template: Template{Name: TopN, Title: "Top N / group by", cell: "py/topn.py",
		Description: "Groups by a category, aggregates a measure (or counts rows), ranks the groups and charts the top or bottom N with their shares.",
		Params:      []string{"category: the column to group by", "measure: the numeric column (none: count rows)", "aggregation: sum|mean|count|median|min|max", "n: how many (default 10)", "ascending: true for the bottom N"},
		Example:     "top 10 customers by sales"},
	titleZh: "排名与分组",
	aliases: []string{"top_n", "groupby", "group_by", "ranking"},
	rank:    8,
	// A category, a ranking or an order, with no period asked.
	choice: &choice{order: 30, claims: func(a *asking, _ Reading) bool {
		return len(a.dims) > 0 || a.sheetAs != "" || a.across || a.ranking || a.order != ""
	}},
	chosen: func(a *asking, r *Reading) {
		if len(a.dims) >= 2 {
			r.Analysis = Pivot
		}
	},
	noPeriod: true,
	needs: func(a *asking, r *Reading) {
		if a.order == "" {
			r.Order = "desc"
		}
		if r.N == 0 && a.order != "" && a.p.asksWhich() {
			// "which stock has the highest average price": the one.
			r.N = 1
		}
		if len(r.GroupBy) == 0 {
			a.add("it names nothing to rank (the text columns: %s)", "请求没有指明要排名的对象（文本列：%s）", strings.Join(colNames(a.p.t.dimensions()), ", "))
		}
		if len(r.Measures) > 1 && (a.ranking || r.N > 0 || a.order != "" || a.p.asksWhich()) {
			// "top 5 origins by avg hp and avg weight": which one ranks
			// is not said. Without a ranking asked, the groups are listed
			// with each measure, ordered by the first.
			a.add("a ranking orders by one measure; it names %d", "排名只按一个度量；请求提到了 %d 个", len(r.Measures))
		}
	},
	cues: slices.Concat(
		cues(0.9, `\b(?:top|bottom)\s*-?\s*\d+\b`, `前\s*(?:\d+|[一二两三四五六七八九十]+)`, `后\s*(?:\d+|[一二三四五六七八九十]+)\s*(?:名|个|位)`, `排名`, `排行`, `\brank(?:ing|ed|s)?\b`, `\b(?:best|worst)[- ]selling\b`),
		cues(0.75, `\btop\b`, `\b(?:highest|lowest|biggest|largest|smallest|most|least)\b`, `最(?:多|高|少|低|大|好|差)`, `\bgroup(?:ed)? by\b`, `\bbreak(?:down| down)\b`, `分组`, `汇总`),
	),
	aggregates: true,
	infer: func(in *inference, r *request, cols []*column) {
		in.pickMeasure(r, cols, true)
		if !in.setCategory(&in.p.Category, "category", in.pickCategory(r, cols, in.p.Measure)) {
			in.miss("no text column to group by in the preview")
		}
		in.p.N = 10
		if r.n > 0 {
			in.p.N = r.n
			in.reason("n: %d (from the request)", r.n)
		}
		if r.bottom {
			in.p.Ascending = true
			in.reason("the bottom %d (the request asks for the lowest)", in.p.N)
		}
	},
	params: func(p *Params, r Reading) {
		if p.N == 0 {
			p.N = 10
		}
		p.Ascending = r.Order == "asc"
	},
	head: func(r Reading, lang string) string {
		var b strings.Builder
		n := ""
		if r.N > 0 {
			n = fmt.Sprint(r.N)
		}
		if lang == LangChinese {
			dir := "从高到低"
			if r.Order == "asc" {
				dir = "从低到高"
			}
			if len(r.Measures) > 1 {
				// Ordered by the first measure said.
				dir = "按" + aggText(lang, r.Measures[0].Agg, r.Measures[0].Column) + dir
			}
			fmt.Fprintf(&b, "按 %s 分组的%s，%s排列", strings.Join(r.GroupBy, "、"), measureText(r, lang), dir)
			if n != "" {
				b.WriteString("，前 " + n + " 个")
			}
		} else {
			dir := "highest first"
			if r.Order == "asc" {
				dir = "lowest first"
			}
			if len(r.Measures) > 1 {
				// Ordered by the first measure said.
				first := aggText(lang, r.Measures[0].Agg, r.Measures[0].Column)
				if first != r.Measures[0].Column {
					first = strings.ToLower(first[:1]) + first[1:]
				}
				dir = strings.Replace(dir, " first", " "+first+" first", 1)
			}
			fmt.Fprintf(&b, "%s per %s, %s", measureText(r, lang), strings.Join(r.GroupBy, " and "), dir)
			if n != "" {
				b.WriteString(", top " + n)
				if r.Order == "asc" {
					b.WriteString(" from the bottom")
				}
			}
		}
		return b.String()
	},
	// No count of groups: the data may have fewer than any N named.
	suggestion: &suggestion{order: 10, ask: func(c suggestColumns) ([][2]string, []any) {
		if c.cat == "" || c.measure == "" {
			return nil, nil
		}
		return [][2]string{
			{"Which %s has the highest total %s?", "哪个%s的%s总和最高？"},
			{"Which %s has the highest average %s?", "哪个%s的%s平均值最高？"},
		}, []any{c.cat, c.measure}
	}},
	hint:    groupHint,
	formats: map[string]numfmt.Formats{"ranking": {"share": pct1}},
	table: &readingTable{
		keys: groupKeys,
		order: func(r Reading, _ []string) []string {
			if r.Order == "asc" {
				return []string{"v0 ASC NULLS LAST", "k0"}
			}
			return []string{"v0 DESC NULLS LAST", "k0"}
		},
		limit: func(r Reading) int {
			if r.N == 0 && len(r.Measures) > 1 {
				// Several measures per group, no ranking asked: every
				// group.
				return 0
			}
			if r.N == 0 {
				return 10 // as the topn cell shows by default
			}
			return r.N
		},
	},
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			return d.topN(ctx, p)
		},
		lazyUniques: true,
		columns: func(p Params) []string {
			if p.Category == "" || (p.Measure == "" && p.Aggregation != "" && p.Aggregation != "count") {
				return nil
			}
			if p.Measure != "" {
				return []string{p.Category, p.Measure}
			}
			return []string{p.Category}
		},
		render: (*native).topN,
	},
}

// groupHint is the hint of the built-ins over categories (topn, pivot).
const groupHint = "name the columns explicitly (category=..., measure=...)"
