package templates

import (
	"fmt"
	"math"
	"sort"
)

// pivot.py's bounds on the rows and columns shown.
const (
	pivotMaxRows = 30
	pivotMaxCols = 20
)

// pivot is py/pivot.py's main on the DuckDB path.
func (n *native) pivot() error {
	code, _ := n.pre["code"].(string)
	label := func(v any) string {
		s := fmt.Sprint(v)
		if code == "" {
			return s
		}
		d, ok := parseDay(s)
		if !ok {
			return s
		}
		return periodLabel(periodStartOf(d, code), code)
	}
	measure, agg, rowsCol := n.p.Measure, n.p.Aggregation, n.p.Category
	colsName := n.p.Category2
	if code != "" {
		noun := periodNouns[code]
		if n.lang == LangChinese {
			noun = periodNounsZH[code]
		}
		colsName = fmt.Sprintf(n.tr("%s (%s)", "%s（%s）"), n.p.Time, noun)
	}

	// The cells, unstacked: rows and columns in sorted order, NaN where a
	// pair has no rows.
	type key struct{ r, c string }
	cells := map[key]float64{}
	rowSet, colSet := map[string]bool{}, map[string]bool{}
	for _, r := range n.preRows("cells") {
		k := key{fmt.Sprint(r[0]), label(r[1])}
		cells[k] = toFloat(r[2])
		rowSet[k.r], colSet[k.c] = true, true
	}
	if len(cells) == 0 {
		return templateError("no rows to cross-tabulate")
	}
	rows, cols := sortedKeys(rowSet), sortedKeys(colSet)
	sums := agg == "sum" || agg == "count"
	value := func(r, c string) float64 {
		v, ok := cells[key{r, c}]
		if !ok {
			v = math.NaN()
		}
		if sums && math.IsNaN(v) {
			v = 0
		}
		return v
	}
	rowTot, colTot := map[string]float64{}, map[string]float64{}
	var grand float64
	// pandas adds the table up as numpy lays it out: unstacked with every
	// pair present, its columns lie in memory one after the other; with a
	// pair missing (filled with 0), its rows do. The sums along the
	// contiguous axis, and the grand total in memory order, are numpy's
	// pairwise sums, the others sums in order (pairwiseSum).
	dense := len(cells) == len(rows)*len(cols)
	rowSum, colSum := pairwiseSum, sequentialSum
	if dense {
		rowSum, colSum = sequentialSum, pairwiseSum
	}
	addUp := func() {
		colTot = map[string]float64{}
		var all []float64
		for _, c := range cols {
			var vs []float64
			for _, r := range rows {
				vs = append(vs, value(r, c))
			}
			colTot[c] = colSum(vs)
			if dense {
				all = append(all, vs...)
			}
		}
		if !dense {
			for _, r := range rows {
				for _, c := range cols {
					all = append(all, value(r, c))
				}
			}
		}
		grand = pairwiseSum(all)
	}
	if sums {
		for _, r := range rows {
			var vs []float64
			for _, c := range cols {
				vs = append(vs, value(r, c))
			}
			rowTot[r] = rowSum(vs)
		}
		addUp()
	} else {
		for _, r := range n.preRows("row_totals") {
			rowTot[fmt.Sprint(r[0])] = toFloat(r[1])
		}
		for _, r := range n.preRows("column_totals") {
			colTot[label(r[0])] = toFloat(r[1])
		}
		if g := n.preRows("grand"); len(g) > 0 {
			grand = toFloat(g[0][len(g[0])-1])
		}
	}
	var leftOut []string
	if sums {
		// A total row of the data would count everything twice.
		groups := make([]group, len(rows))
		for i, r := range rows {
			groups[i] = group{r, rowTot[r]}
		}
		_, dropped := dropTotals(n.lang, groups, rowsCol, "the table and its totals", &n.out.Notes)
		if len(dropped) > 0 {
			leftOut = dropped
			var kept []string
			for _, r := range rows {
				if !containsString(dropped, r) {
					kept = append(kept, r)
				} else {
					delete(rowTot, r)
				}
			}
			rows = kept
			addUp()
		}
	}
	byTotal := func(names []string, tot map[string]float64) []string {
		out := append([]string(nil), names...)
		sort.SliceStable(out, func(i, j int) bool {
			a, b := tot[out[i]], tot[out[j]]
			if math.IsNaN(a) || math.IsNaN(b) {
				return !math.IsNaN(a) && math.IsNaN(b)
			}
			return a > b
		})
		return out
	}
	rows = byTotal(rows, rowTot)
	if code == "" {
		cols = byTotal(cols, colTot)
	}
	total := func(m map[string]float64, k string) float64 {
		if v, ok := m[k]; ok {
			return v
		}
		return math.NaN()
	}

	// The full table with its totals, to CSV.
	csvCols := append(append([]string{rowsCol}, cols...), "Total")
	var csvRows [][]mdCell
	for _, r := range rows {
		row := []mdCell{r}
		for _, c := range cols {
			row = append(row, value(r, c))
		}
		csvRows = append(csvRows, append(row, total(rowTot, r)))
	}
	totalRow := []mdCell{"Total"}
	for _, c := range cols {
		totalRow = append(totalRow, total(colTot, c))
	}
	csvRows = append(csvRows, append(totalRow, grand))
	csvPath, err := n.saveCSV("table", csvCols, csvRows)
	if err != nil {
		return err
	}
	what := describeAgg(n.lang, measure, agg)

	shownRows, shownCols := rows[:min(len(rows), pivotMaxRows)], cols[:min(len(cols), pivotMaxCols)]
	hm := make([][]float64, len(shownRows))
	var shown [][]mdCell
	for i, r := range shownRows {
		row := []mdCell{r}
		hm[i] = make([]float64, len(shownCols))
		for j, c := range shownCols {
			hm[i][j] = value(r, c)
			row = append(row, hm[i][j])
		}
		shown = append(shown, append(row, total(rowTot, r)))
	}
	title := n.tr(fmt.Sprintf("%s by %s and %s", what, rowsCol, colsName), fmt.Sprintf("按%s和%s的%s", rowsCol, colsName, what))
	ch := &chart{title: title}
	png, err := n.savePNG("heatmap", ch, func() ([]byte, error) { return ch.heatmap(shownRows, shownCols, hm) })
	if err != nil {
		return err
	}
	md := mdTable(n.lang, headers(n.lang, append(append([]string{rowsCol}, shownCols...), "Total"), "Total"), shown, pivotMaxRows, 0)
	if len(cols) > pivotMaxCols || len(rows) > pivotMaxRows {
		md += fmt.Sprintf(n.tr("\n\n(%d of %d rows and %d of %d columns shown; the CSV has the full table)",
			"\n\n（显示 %d 行（共 %d 行）、%d 列（共 %d 列）；CSV 文件包含完整的表）"), len(shownRows), len(rows), len(shownCols), len(cols))
	}
	n.section(n.tr(fmt.Sprintf("%s by %s and %s", pyCapitalize(what), rowsCol, colsName), fmt.Sprintf("按%s和%s的%s", rowsCol, colsName, what)), md, png, csvPath)

	values := make([]any, len(rows))
	bestR, bestC, best := "", "", math.NaN()
	for i, r := range rows {
		vs := make([]any, len(cols))
		for j, c := range cols {
			v := value(r, c)
			vs[j] = jnum(v)
			if !math.IsNaN(v) && (math.IsNaN(best) || v > best) {
				bestR, bestC, best = r, c, v
			}
		}
		values[i] = vs
	}
	totalsData := func(m map[string]float64) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = jnum(v)
		}
		return out
	}
	n.out.Data = map[string]any{
		"rows_column": rowsCol, "columns_column": colsName, "measure": jstr(measure), "aggregation": agg,
		"rows": rows, "columns": cols, "values": values, "row_totals": totalsData(rowTot),
		"column_totals": totalsData(colTot), "grand_total": jnum(grand), "left_out_totals": nonNil(leftOut),
	}
	bestText := ""
	if !math.IsNaN(best) {
		bestText = fmt.Sprintf(n.tr(": the largest cell is %s / %s (%s)", "：最大的单元格是 %s / %s（%s）"), bestR, bestC, fmtFloat(best))
	}
	if n.lang == LangChinese {
		n.out.Answer = fmt.Sprintf("按%s（%d）和%s（%d）的%s%s；合计 %s。", rowsCol, len(rows), colsName, len(cols), what, bestText, fmtFloat(grand))
	} else {
		n.out.Answer = fmt.Sprintf("%s by %s (%d) and %s (%d)%s; overall %s.", pyCapitalize(what), rowsCol, len(rows), colsName, len(cols), bestText, fmtFloat(grand))
	}
	return nil
}

// sortedKeys is a set's members in order.
func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
