package templates

import (
	"fmt"
	"path/filepath"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/operator"
	"gonum.org/v1/plot"
)

// outliers is py/outliers.py's main on the DuckDB path: the fences and
// counts per column, the box plots, and the flagged rows (written by the
// engine as pandas writes them: rowsWriter), with no Python.
func (n *native) outliers() error {
	names, _ := n.pre["names"].([]string)
	per, _ := n.pre["columns"].(map[string]*outlierColumn)
	k, _ := n.pre["iqr_k"].(float64)
	zt, _ := n.pre["z_threshold"].(float64)
	rowCount, _ := n.pre["row_count"].(int64)
	listed, _ := n.pre["rows"].([]int64)
	head, _ := n.pre["md_rows"].([][]mdCell)
	tableCols, _ := n.pre["table_columns"].([]string)
	if neutral, _ := n.pre["rows_neutralised"].(bool); neutral {
		n.neutral = true
		n.note(neutralNote(n.lang))
	}
	rowsFile, err := n.moveRows()
	if err != nil {
		return err
	}
	zHeader := "|z|>" + pyGeneral(zt, 6)
	cols := []string{"column", "lower fence", "upper fence", "IQR outliers", zHeader}
	var rows, rounded [][]mdCell
	for _, c := range names {
		oc := per[c]
		lo, hi := num(oc.Lower), num(oc.Upper)
		rows = append(rows, []mdCell{c, lo, hi, oc.IQRCount, oc.ZCount})
		rounded = append(rounded, []mdCell{c, round4(lo), round4(hi), oc.IQRCount, oc.ZCount})
	}
	summary, err := n.saveCSV("summary", cols, rows)
	if err != nil {
		return err
	}
	files := []string{summary, rowsFile}
	var withOut []string
	for _, c := range names {
		if per[c].IQRCount > 0 || per[c].ZCount > 0 {
			withOut = append(withOut, c)
		}
	}
	if len(withOut) > 0 {
		draw := withOut[:min(12, len(withOut))]
		ch := &chart{}
		png, err := n.savePNG("boxplots", ch, func() ([]byte, error) {
			plots := make([]*plot.Plot, 0, len(draw))
			for _, c := range draw {
				b := per[c].Box
				var fliers []float64
				fs, _ := b["fliers"].([]any)
				for _, f := range fs {
					fliers = append(fliers, num(f))
				}
				plots = append(plots, ch.boxPlot(c, boxStats{q1: num(b["q1"]), median: num(b["med"]), q3: num(b["q3"]),
					lo: num(b["whislo"]), hi: num(b["whishi"]), fliers: fliers}))
			}
			return gridOf(plots, 4, 2.5)
		})
		if err != nil {
			return err
		}
		files = append([]string{png}, files...)
	}
	md := fmt.Sprintf(n.tr("IQR fences at %s×IQR beyond the quartiles; z-scores beyond ±%s.\n\n", "IQR 界限为四分位数向外 %s×IQR；z 分数超出 ±%s。\n\n"), pyGeneral(k, 6), pyGeneral(zt, 6)) +
		mdTable(n.lang, headers(n.lang, cols, "column", "lower fence", "upper fence", "IQR outliers"), rounded, mdRows, 0)
	n.section(n.tr("Outliers by column", "各列的异常值"), md, files...)
	if rowCount > 0 {
		shown := min(len(tableCols)+1, 12)
		hcols := append([]string{"row"}, tableCols...)[:shown]
		cut := make([][]mdCell, len(head))
		for i, r := range head {
			cut[i] = r[:shown]
		}
		flagged := fmt.Sprintf(n.tr("%s flagged (row = 0-based data row):\n\n", "标记了 %s 行（行号从 0 开始，按数据行计）：\n\n"), fmtInt(rowCount))
		if n.lang != LangChinese {
			noun := " rows"
			if rowCount == 1 {
				noun = " row"
			}
			flagged = fmt.Sprintf("%s%s flagged (row = 0-based data row):\n\n", fmtInt(rowCount), noun)
		}
		n.section(n.tr("Rows with outliers", "含异常值的行"), flagged+mdTable(n.lang, headers(n.lang, hcols, "row"), cut, mdRows, int(rowCount)), rowsFile)
	}
	columns := map[string]any{}
	for _, c := range names {
		oc := *per[c]
		oc.Box = nil
		columns[c] = oc
	}
	n.out.Data = map[string]any{"columns": columns, "rows": listed, "row_count": rowCount, "iqr_k": k, "z_threshold": zt}
	if rowCount == 0 {
		shownNames := names[:min(5, len(names))]
		list := ""
		for i, c := range shownNames {
			if i > 0 {
				list += ", "
			}
			list += c
		}
		n.out.Answer = fmt.Sprintf(n.tr("No outliers in %s by either rule.", "按两种规则，%s 中都没有异常值。"), list)
		return nil
	}
	worst := names[0]
	for _, c := range names {
		if per[c].IQRCount+per[c].ZCount > per[worst].IQRCount+per[worst].ZCount {
			worst = c
		}
	}
	w := per[worst]
	if n.lang == LangChinese {
		n.out.Answer = fmt.Sprintf("%s 行含异常值；最多的在 %s（%d 个在 IQR 界限 %s 到 %s 之外，%d 个 |z| > %s）。",
			fmtInt(rowCount), worst, w.IQRCount, fmtFloat(num(w.Lower)), fmtFloat(num(w.Upper)), w.ZCount, pyGeneral(zt, 6))
		return nil
	}
	noun, verb := " rows", ""
	if rowCount == 1 {
		noun, verb = " row", "s"
	}
	n.out.Answer = fmt.Sprintf("%s%s hold%s outliers; most in %s (%d outside the IQR fences %s to %s, %d with |z| > %s).",
		fmtInt(rowCount), noun, verb, worst, w.IQRCount, fmtFloat(num(w.Lower)), fmtFloat(num(w.Upper)), w.ZCount, pyGeneral(zt, 6))
	return nil
}

// moveRows moves the engine's file of the flagged rows, written as the
// cell's would be, to out/<stem>_rows.csv, through the confined opener.
func (n *native) moveRows() (string, error) {
	from, _ := n.pre["rows_file"].(string)
	to := operator.OutDir + "/" + n.stem + "_rows.csv"
	real, err := filepath.EvalSymlinks(n.op.Root())
	if err != nil {
		return "", err
	}
	r, err := confined.OpenRoot(real)
	if err != nil {
		return "", err
	}
	defer r.Close()
	if err := r.MkdirAll(operator.OutDir, 0o755); err != nil {
		return "", err
	}
	if err := r.Rename(from, to); err != nil {
		return "", fmt.Errorf("move the flagged rows to %s: %w", to, err)
	}
	return to, nil
}
