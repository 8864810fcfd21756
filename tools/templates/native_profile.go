package templates

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
)

// profile.py's bounds.
const (
	profileMaxMDColumns   = 30
	profileMaxStatColumns = 50
	profileMaxHist        = 12
)

// kindsZH is profile.py's KINDS_ZH.
var kindsZH = map[string]string{"empty": "空", "bool": "布尔", "datetime": "日期时间", "int": "整数", "float": "小数",
	"number as text": "文本形式的数字", "date": "日期", "text": "文本"}

// describeStats are pandas' describe() rows, profile's statistics.
var describeStats = []string{"count", "mean", "std", "min", "25%", "50%", "75%", "max"}

// profile is py/profile.py's main on the DuckDB path.
func (n *native) profile() error {
	var columns, kinds, numericOrder, topOrder []string
	var missingCounts, uniques map[string]float64
	var rows, dups float64
	var numeric map[string]map[string]any
	var topValues map[string][][]any
	for key, v := range map[string]any{"columns": &columns, "kinds": &kinds, "numeric_order": &numericOrder, "top_order": &topOrder,
		"missing": &missingCounts, "uniques": &uniques, "rows": &rows, "duplicates": &dups, "numeric": &numeric, "top_values": &topValues} {
		if err := n.preJSON(key, v); err != nil {
			return err
		}
	}
	if len(kinds) != len(columns) {
		return fmt.Errorf("the profile's aggregates have %d kinds for %d columns", len(kinds), len(columns))
	}
	kindOf := map[string]string{}
	var nums, empty []string
	for i, c := range columns {
		kindOf[c] = kinds[i]
		switch kinds[i] {
		case "int", "float", "number as text":
			nums = append(nums, c)
		case "empty":
			empty = append(empty, c)
		}
	}
	ncols := len(columns)
	nrows := int64(rows)

	// The columns' table.
	colNames := []string{"column", "type", "non_null", "missing", "missing_pct", "unique"}
	table := make([][]mdCell, ncols)
	for i, c := range columns {
		m := int64(missingCounts[c])
		table[i] = []mdCell{c, kinds[i], nrows - m, m, float64(m) / rows, int64(uniques[c])}
	}
	colsCSV, err := n.saveCSV("columns", colNames, table)
	if err != nil {
		return err
	}
	var withMissing []int
	for i, c := range columns {
		if missingCounts[c] > 0 {
			withMissing = append(withMissing, i)
		}
	}
	sort.SliceStable(withMissing, func(a, b int) bool {
		return missingCounts[columns[withMissing[a]]] > missingCounts[columns[withMissing[b]]]
	})
	lines := []string{
		fmt.Sprintf(n.tr("- **%s rows × %s columns**", "- **%s 行 × %s 列**"), fmtInt(nrows), fmtInt(int64(ncols))),
		fmt.Sprintf(n.tr("- Duplicate rows: %s", "- 重复行：%s"), fmtInt(int64(dups))),
		fmt.Sprintf(n.tr("- Columns with missing values: %s of %s", "- 有缺失值的列：%s / %s"), fmtInt(int64(len(withMissing))), fmtInt(int64(ncols))),
	}
	if len(empty) > 0 {
		line := fmt.Sprintf(n.tr("- Entirely empty columns: %s", "- 完全为空的列：%s"), strings.Join(empty[:min(20, len(empty))], ", "))
		if len(empty) > 20 {
			line += " …"
		}
		lines = append(lines, line)
	}
	var shown [][]mdCell
	for _, r := range table[:min(len(table), profileMaxMDColumns)] {
		s := append([]mdCell(nil), r...)
		if n.lang == LangChinese {
			if zh, ok := kindsZH[s[1].(string)]; ok {
				s[1] = zh
			}
		}
		s[4] = pct(r[4].(float64))
		shown = append(shown, s)
	}
	md := strings.Join(lines, "\n") + "\n\n" + mdTable(n.lang, headers(n.lang, colNames, colNames...), shown, profileMaxMDColumns, 0)
	if ncols > profileMaxMDColumns {
		md += fmt.Sprintf(n.tr("\n\n(%d of %d columns shown; the CSV lists them all)", "\n\n（显示 %d 列，共 %d 列；CSV 文件列出全部）"), profileMaxMDColumns, ncols)
	}
	files := []string{colsCSV}
	if len(withMissing) > 0 {
		top := withMissing[:min(30, len(withMissing))]
		names := make([]string, len(top))
		shares := make([]float64, len(top))
		for k, i := range top {
			names[k], shares[k] = columns[i], 100*missingCounts[columns[i]]/rows
		}
		c := &chart{title: n.tr("Missing values by column", "各列的缺失值"), xLabel: n.tr("% missing", "缺失比例（%）"), barColor: barRed}
		png, err := n.savePNG("missing", c, func() ([]byte, error) { return c.barChart(names, shares) })
		if err != nil {
			return err
		}
		files = append(files, png)
	}
	n.section(n.tr("Overview", "概览"), md, files...)

	// The numeric columns' statistics.
	stats := map[string]any{}
	if len(numericOrder) > 0 {
		var csvRows, mdRows [][]mdCell
		for _, c := range numericOrder {
			row, rounded := []mdCell{c}, []mdCell{c}
			s := map[string]any{}
			for _, k := range describeStats {
				v := num(numeric[c][k])
				row, rounded = append(row, v), append(rounded, round4(v))
				s[k] = jnum(v)
			}
			stats[c] = s
			csvRows, mdRows = append(csvRows, row), append(mdRows, rounded)
		}
		cols := append([]string{"column"}, describeStats...)
		statsCSV, err := n.saveCSV("numeric_summary", cols, csvRows)
		if err != nil {
			return err
		}
		md := mdTable(n.lang, headers(n.lang, cols, "column", "count", "mean", "std", "min", "max"), mdRows, profileMaxMDColumns, 0)
		if len(nums) > profileMaxStatColumns {
			md += fmt.Sprintf(n.tr("\n\n(statistics of the first %d of %d numeric columns)", "\n\n（只统计了 %d 个数值列中的前 %d 个）"), profileMaxStatColumns, len(nums))
		}
		n.section(n.tr("Summary statistics", "汇总统计"), md, statsCSV)
	}

	// The text columns' most common values.
	tops := map[string]any{}
	if len(topOrder) > 0 {
		var parts []string
		var csvRows [][]mdCell
		for _, c := range topOrder {
			var items []any
			var shown []string
			for _, r := range topValues[c] {
				v, k := fmt.Sprint(r[0]), int64(num(r[1]))
				items = append(items, map[string]any{"value": v, "count": k})
				csvRows = append(csvRows, []mdCell{c, v, k, float64(k) / math.Max(1, rows-missingCounts[c])})
				shown = append(shown, fmt.Sprintf("%s (%s)", shortLabel(v, 40), fmtInt(k)))
			}
			tops[c] = nonNilAny(items)
			parts = append(parts, "- "+fmt.Sprintf(n.tr("**%s** (%s distinct): ", "**%s**（%s 个不同值）："), c, fmtInt(int64(uniques[c])))+strings.Join(shown, n.tr(", ", "、")))
		}
		topCSV, err := n.saveCSV("top_values", []string{"column", "value", "count", "share"}, csvRows)
		if err != nil {
			return err
		}
		n.section(n.tr("Top categories", "最常见的类别"), strings.Join(parts, "\n\n"), topCSV)
	}

	// Histograms of the first numeric columns.
	var histCols []string
	for _, c := range numericOrder {
		if _, ok := numeric[c]["hist"]; ok && numeric[c]["hist"] != nil {
			histCols = append(histCols, c)
		}
	}
	if len(histCols) > 0 {
		c := &chart{}
		png, err := n.savePNG("distributions", c, func() ([]byte, error) {
			plots := make([]*plot.Plot, 0, len(histCols))
			for _, name := range histCols {
				h, _ := numeric[name]["hist"].(map[string]any)
				plots = append(plots, c.histogram(name, floats(h["edges"]), floats(h["counts"])))
			}
			return gridOf(plots, 4, 3)
		})
		if err != nil {
			return err
		}
		k := len(histCols)
		noun := "numeric column"
		if k != 1 {
			noun += "s"
		}
		md := n.tr(fmt.Sprintf("Histograms of %s %s.", fmtInt(int64(k)), noun), fmt.Sprintf("%d 个数值列的直方图。", k))
		if len(nums) > profileMaxHist {
			if n.lang == LangChinese {
				md += fmt.Sprintf("（%d 个中的前 %d 个）", len(nums), profileMaxHist)
			} else {
				md += fmt.Sprintf(" (the first %d of %d)", profileMaxHist, len(nums))
			}
		}
		n.section(n.tr("Distributions", "分布"), md, png)
	}

	missingData := map[string]any{}
	types := map[string]any{}
	for i, c := range columns {
		missingData[c] = int64(missingCounts[c])
		types[c] = kinds[i]
	}
	n.out.Data = map[string]any{
		"rows": nrows, "columns": ncols, "duplicates": int64(dups), "missing": missingData, "types": types,
		"empty_columns": nonNil(empty), "numeric": stats, "top_values": tops,
	}
	worst := ""
	if len(withMissing) > 0 {
		w := columns[withMissing[0]]
		worst = fmt.Sprintf(n.tr("; most missing: %s (%s of %s)", "；缺失最多的是 %s（%s / %s）"), w, fmtInt(int64(missingCounts[w])), fmtInt(nrows))
	}
	if n.lang == LangChinese {
		n.out.Answer = fmt.Sprintf("这张表有 %s 行、%s 列；%s 列有缺失值%s；重复行 %s 行。", fmtInt(nrows), fmtInt(int64(ncols)), fmtInt(int64(len(withMissing))), worst, fmtInt(int64(dups)))
		return nil
	}
	have, rowsWord := "s have", "s"
	if len(withMissing) == 1 {
		have = " has"
	}
	if dups == 1 {
		rowsWord = ""
	}
	n.out.Answer = fmt.Sprintf("The table has %s rows and %s columns; %s column%s missing values%s; %s duplicate row%s.",
		fmtInt(nrows), fmtInt(int64(ncols)), fmtInt(int64(len(withMissing))), have, worst, fmtInt(int64(dups)), rowsWord)
	return nil
}

// floats is a JSON list of numbers.
func floats(v any) []float64 {
	xs, _ := v.([]any)
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = num(x)
	}
	return out
}
