package templates

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sift-agent/sift/operator"
)

// Built-ins rendered in Go: for a template in nativeRenderers the DuckDB
// engine's aggregates (duckTable.pre) become the result's tables, CSV
// files, chart, numbers and answer here, with no Python cell, so a run of
// built-ins starts no kernel. Each renderer is its py/ file's main() for
// the DuckDB path, line for line, and writes what it would
// (TestDuckDBEngineSameNumbersAsPandas holds them to the pandas cells).

// nativeRenderers are the templates rendered in Go.
var nativeRenderers = map[string]func(*native) error{
	TopN: (*native).topN, Trend: (*native).trend, ComparePeriods: (*native).comparePeriods, Pivot: (*native).pivot,
	Distribution: (*native).distribution, Profile: (*native).profile,
	Funnel: (*native).funnel, Cohort: (*native).cohort,
}

// native is one Go rendering: its inputs and the result it builds.
type native struct {
	ctx  context.Context
	op   operator.Operator
	lang string
	stem string
	p    Params
	pre  map[string]any
	out  pyResult
	// neutral: a CSV cell was written with a leading ' (noted once,
	// when it first was, as common.py's neutralise does).
	neutral bool
}

// renderNative renders template t's DuckDB aggregates in Go.
func renderNative(ctx context.Context, op operator.Operator, t Template, duck *duckTable, p Params, stem, lang string) (*pyResult, json.RawMessage, error) {
	n := &native{ctx: ctx, op: op, lang: lang, stem: stem, p: p, pre: duck.pre, out: pyResult{Data: map[string]any{}}}
	if err := nativeRenderers[t.Name](n); err != nil {
		if te, ok := err.(templateError); ok {
			return nil, nil, &CellError{Template: t.Name, Cell: duckCell, Message: string(te)}
		}
		return nil, nil, fmt.Errorf("run template %s: %w", t.Name, err)
	}
	data, err := json.Marshal(n.out.Data)
	if err != nil {
		return nil, nil, fmt.Errorf("run template %s: encode its numbers: %w", t.Name, err)
	}
	return &n.out, data, nil
}

func (n *native) tr(en, zh string) string { return tr(n.lang, en, zh) }

func (n *native) note(s string) { n.out.Notes = append(n.out.Notes, s) }

func (n *native) section(title, md string, files ...string) {
	n.out.Sections = append(n.out.Sections, Section{Title: title, Markdown: md, Files: files})
}

// saveCSV writes out/<stem>_<suffix>.csv and returns its path.
func (n *native) saveCSV(suffix string, cols []string, rows [][]mdCell) (string, error) {
	p := operator.OutDir + "/" + n.stem + "_" + suffix + ".csv"
	b, neutral := csvFile(cols, rows)
	if neutral && !n.neutral {
		n.neutral = true
		n.note(neutralNote(n.lang))
	}
	if err := n.op.WriteFile(n.ctx, p, b); err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	return p, nil
}

// savePNG writes a chart to out/<stem>_<suffix>.png and returns its path.
func (n *native) savePNG(suffix string, c *chart, draw func() ([]byte, error)) (string, error) {
	png, err := draw()
	if err != nil {
		return "", err
	}
	if c.fontMissing {
		n.note(chartFontNote(n.lang))
	}
	p := operator.OutDir + "/" + n.stem + "_" + suffix + ".png"
	if err := n.op.WriteFile(n.ctx, p, png); err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	return p, nil
}

// jnum is a number for the result's data: nil when missing.
func jnum(f float64) any {
	if missing(f) {
		return nil
	}
	return f
}

// jstr is a name for the result's data: nil when empty (Python's None).
func jstr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// preRows is the DuckDB engine's rows under key.
func (n *native) preRows(key string) [][]any {
	rows, _ := n.pre[key].([][]any)
	return rows
}

// ---------------------------------------------------------------- topn

// topN is py/topn.py's main on the DuckDB path.
func (n *native) topN() error {
	var groups []group
	for _, r := range n.preRows("groups") {
		groups = append(groups, group{name: fmt.Sprint(r[0]), value: toFloat(r[1])})
	}
	measure, cat, agg := n.p.Measure, n.p.Category, n.p.Aggregation
	top := n.p.N
	if top == 0 {
		top = 10
	}
	ascending := n.p.Ascending
	groups, leftOut := dropTotals(n.lang, groups, cat, "", &n.out.Notes)
	// sort_values(kind="mergesort"): stable, missing values last.
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i].value, groups[j].value
		if math.IsNaN(a) || math.IsNaN(b) {
			return !math.IsNaN(a) && math.IsNaN(b)
		}
		if ascending {
			return a < b
		}
		return a > b
	})
	what := describeAgg(n.lang, measure, agg)
	total := math.NaN()
	if agg == "sum" || agg == "count" {
		total = 0
		for _, g := range groups {
			if !math.IsNaN(g.value) {
				total += g.value
			}
		}
	}
	// topn.py's "if total:": no shares when the total is 0 or none.
	shares := !math.IsNaN(total) && total != 0
	cols := []string{"rank", cat, what}
	if shares {
		cols = append(cols, "share")
	}
	rows := make([][]mdCell, len(groups))
	for i, g := range groups {
		rows[i] = []mdCell{int64(i + 1), g.name, g.value}
		if shares {
			rows[i] = append(rows[i], g.value/total)
		}
	}
	csvPath, err := n.saveCSV("ranking", cols, rows)
	if err != nil {
		return err
	}
	head := rows[:min(top, len(rows))]
	shown := make([][]mdCell, len(head))
	for i, r := range head {
		shown[i] = append([]mdCell(nil), r...)
		if shares {
			shown[i][3] = pct(r[3].(float64))
		}
	}
	word := "Top"
	if ascending {
		word = "Bottom"
	}
	title := fmt.Sprintf("%s %d %s by %s", word, len(head), plural(cat, len(head)), what)
	if n.lang == LangChinese {
		title = fmt.Sprintf("%s%s的%d个%s", what, map[bool]string{true: "最低", false: "最高"}[ascending], len(head), cat)
	}
	names := make([]string, len(head))
	values := make([]float64, len(head))
	for i := range head {
		names[i], values[i] = groups[i].name, groups[i].value
	}
	c := &chart{title: title, xLabel: what}
	png, err := n.savePNG("chart", c, func() ([]byte, error) { return c.barChart(names, values) })
	if err != nil {
		return err
	}
	md := mdTable(n.lang, headers(n.lang, cols, "rank", "share"), shown, max(top, 1), 0)
	if len(groups) > top {
		md += fmt.Sprintf(n.tr("\n\n%s of %s groups shown; the CSV ranks them all.", "\n\n显示 %s 组，共 %s 组；CSV 文件列出全部排名。"), fmtInt(int64(len(head))), fmtInt(int64(len(groups))))
	}
	n.section(title, md, png, csvPath)

	var topData []any
	for i := range head {
		item := map[string]any{"name": names[i], "value": jnum(values[i]), "share": nil}
		if shares {
			item["share"] = jnum(values[i] / total)
		}
		topData = append(topData, item)
	}
	var totalData any
	if !math.IsNaN(total) {
		totalData = total
	}
	n.out.Data = map[string]any{
		"category": cat, "measure": jstr(measure), "aggregation": agg, "n": top, "ascending": ascending,
		"groups": len(groups), "total": totalData, "left_out_totals": nonNil(leftOut),
		"top": nonNilAny(topData),
	}
	var items []string
	for i := range head[:min(3, len(head))] {
		s := names[i] + " (" + fmtFloat(values[i])
		if shares {
			s += ", " + pct(values[i]/total)
		}
		items = append(items, s+")")
	}
	more := len(head) - 3
	if n.lang == LangChinese {
		dir := "排名"
		if ascending {
			dir = "倒数"
		}
		rest := ""
		if more > 0 {
			rest = fmt.Sprintf("；表中还有 %d 项", more)
		}
		n.out.Answer = fmt.Sprintf("按%s的%s%s：%s%s。", cat, what, dir, strings.Join(items, "、"), rest)
		return nil
	}
	rest := ""
	if more > 0 {
		rest = fmt.Sprintf("; %d more in the table", more)
	}
	n.out.Answer = fmt.Sprintf("%s %s by %s: %s%s.", word, plural(cat, len(head)), what, strings.Join(items, ", "), rest)
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilAny(s []any) []any {
	if s == nil {
		return []any{}
	}
	return s
}
