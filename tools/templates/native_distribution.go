package templates

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
)

// statKeys are the statistics distribution.py's table shows, in order.
var statKeys = []string{"count", "mean", "std", "min", "q1", "median", "q3", "max", "skew"}

// preJSON decodes the DuckDB engine's aggregates under key into v as the
// Python cell reads them (through JSON: numbers as float64, none as nil).
func (n *native) preJSON(key string, v any) error {
	b, err := json.Marshal(n.pre[key])
	if err != nil {
		return fmt.Errorf("encode the aggregates %s: %w", key, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode the aggregates %s: %w", key, err)
	}
	return nil
}

// num is a JSON number or none as a float (NaN for none).
func num(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}

// round4 is pandas' round(4) of a number (numpy's: scaled, rounded half
// to even, scaled back).
func round4(v float64) float64 {
	if missing(v) {
		return v
	}
	return math.RoundToEven(v*1e4) / 1e4
}

// statCells is a table column of statistics: float64 numbers, or nil
// where none (a column with no number at all stays none, as pandas
// keeps it as objects).
func statCells(vs []any, round bool) []mdCell {
	out := make([]mdCell, len(vs))
	for i, v := range vs {
		if f, ok := v.(float64); ok {
			if round {
				f = round4(f)
			}
			out[i] = f
		}
	}
	return out
}

// distribution is py/distribution.py's main on the DuckDB path.
func (n *native) distribution() error {
	var nums, texts []string
	var stats map[string]map[string]any
	var hists map[string]struct{ Edges, Counts []float64 }
	var boxes map[string]struct {
		Whislo, Whishi any
		Fliers         []float64
	}
	var counts map[string][][]any
	for key, v := range map[string]any{"nums": &nums, "texts": &texts, "stats": &stats, "hist": &hists, "box": &boxes, "counts": &counts} {
		if err := n.preJSON(key, v); err != nil {
			return err
		}
	}
	var files []string
	data := map[string]any{}
	if len(nums) > 0 {
		cols := append([]string{"column"}, statKeys...)
		// Each statistic is a column of the table: float numbers (none as
		// NaN), the count an integer.
		byKey := map[string][]any{}
		for _, c := range nums {
			s := stats[c]
			for _, k := range statKeys {
				byKey[k] = append(byKey[k], s[k])
			}
			cs := map[string]any{}
			for _, k := range statKeys {
				cs[k] = s[k]
			}
			data[c] = cs
		}
		table := func(round bool) [][]mdCell {
			columns := map[string][]mdCell{}
			for _, k := range statKeys[1:] {
				columns[k] = statCells(byKey[k], round)
			}
			rows := make([][]mdCell, len(nums))
			for i, c := range nums {
				rows[i] = []mdCell{c, int64(num(byKey["count"][i]))}
				for _, k := range statKeys[1:] {
					rows[i] = append(rows[i], columns[k][i])
				}
			}
			return rows
		}
		csvPath, err := n.saveCSV("summary", cols, table(false))
		if err != nil {
			return err
		}
		c := &chart{}
		histPNG, err := n.savePNG("histograms", c, func() ([]byte, error) {
			var plots = make([]*plot.Plot, 0, len(nums))
			for _, name := range nums {
				h := hists[name]
				plots = append(plots, c.histogram(name, h.Edges, h.Counts))
			}
			return gridOf(plots, 4, 3)
		})
		if err != nil {
			return err
		}
		boxPNG, err := n.savePNG("boxplots", c, func() ([]byte, error) {
			var plots = make([]*plot.Plot, 0, len(nums))
			for _, name := range nums {
				s, b := stats[name], boxes[name]
				plots = append(plots, c.boxPlot(name, boxStats{q1: num(s["q1"]), median: num(s["median"]), q3: num(s["q3"]),
					lo: num(b.Whislo), hi: num(b.Whishi), fliers: b.Fliers}))
			}
			return gridOf(plots, 4, 2.5)
		})
		if err != nil {
			return err
		}
		files = append(files, histPNG, boxPNG, csvPath)
		title := fmt.Sprintf("Distribution of %d numeric column", len(nums))
		if len(nums) != 1 {
			title += "s"
		}
		md := mdTable(n.lang, headers(n.lang, cols, statHeaders...), table(true), 12, 0)
		n.section(n.tr(title, fmt.Sprintf("%d 个数值列的分布", len(nums))), md, files...)
	}
	values := map[string]any{}
	if len(texts) > 0 {
		var parts []string
		var cfiles []string
		for _, c := range texts {
			var rows [][]mdCell
			var items []any
			var names []string
			var vs []float64
			for _, r := range counts[c] {
				v, k := fmt.Sprint(r[0]), num(r[1])
				rows = append(rows, []mdCell{v, int64(k)})
				items = append(items, map[string]any{"value": v, "count": int64(k)})
				names, vs = append(names, v), append(vs, k)
			}
			values[c] = nonNilAny(items)
			parts = append(parts, "**"+c+"**\n\n"+mdTable(n.lang, headers(n.lang, []string{"value", "count"}, "value", "count"), rows, 20, 0))
			ch := &chart{title: chartTitle(c)}
			png, err := n.savePNG(fmt.Sprintf("values_%d", len(cfiles)+1), ch, func() ([]byte, error) { return ch.barChart(names, vs) })
			if err != nil {
				return err
			}
			cfiles = append(cfiles, png)
		}
		n.section(n.tr("Most common values", "最常见的值"), strings.Join(parts, "\n\n"), cfiles...)
	}
	n.out.Data = map[string]any{"columns": data, "values": values}
	if len(nums) > 0 {
		c := nums[0]
		s := stats[c]
		more := ""
		if k := len(nums) - 1; k > 0 {
			plural := "s"
			if k == 1 {
				plural = ""
			}
			more = n.tr(fmt.Sprintf("; %d more column%s in the table", k, plural), fmt.Sprintf("；表中还有 %d 列", k))
		}
		n.out.Answer = fmt.Sprintf(n.tr("%s: median %s, middle half %s to %s, range %s to %s%s.", "%s：中位数 %s，中间一半在 %s 到 %s 之间，范围 %s 到 %s%s。"),
			c, fmtFloat(num(s["median"])), fmtFloat(num(s["q1"])), fmtFloat(num(s["q3"])), fmtFloat(num(s["min"])), fmtFloat(num(s["max"])), more)
		return nil
	}
	c := texts[0]
	if len(counts[c]) == 0 {
		return templateError(fmt.Sprintf("column %s has no values to count", pyQuote(c)))
	}
	top := counts[c][0]
	n.out.Answer = fmt.Sprintf(n.tr("%s: the most common value is %s (%s rows).", "%s：最常见的值是 %s（%s 行）。"), c, fmt.Sprint(top[0]), fmtFloat(num(top[1])))
	return nil
}

// statHeaders are the distribution table's own headers.
var statHeaders = append([]string{"column"}, statKeys...)
