package templates

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// correlation is py/correlation.py's main on the DuckDB path
// (duckdb_correlation.go computes the matrix).
func (n *native) correlation() error {
	method, _ := n.pre["method"].(string)
	cols, _ := n.pre["columns"].([]string)
	matrix, _ := n.pre["matrix"].([][]float64)
	pairs, _ := n.pre["pairs"].([]corrPair)
	if every, ok := n.pre["every_numeric"].(int); ok {
		if all, ok := n.pre["numeric_columns"].(int); ok {
			if n.lang == LangChinese {
				n.note(fmt.Sprintf("只用了 %d 个数值列中的前 %d 个", all, corrMaxColumns))
			} else {
				n.note(fmt.Sprintf("the first %d of %d numeric columns were used", corrMaxColumns, all))
			}
		}
		n.out.Picked = append(n.out.Picked, fmt.Sprintf(n.tr("columns: every numeric column (%d)", "列：所有数值列（%d 个）"), every))
	}
	k := len(cols)
	// corr.round(6), with the columns' names as its index.
	rows := make([][]mdCell, k)
	for i, c := range cols {
		rows[i] = []mdCell{c}
		for _, v := range matrix[i] {
			rows[i] = append(rows[i], roundTo(v, 1e6))
		}
	}
	matrixCSV, err := n.saveCSV("matrix", append([]string{""}, cols...), rows)
	if err != nil {
		return err
	}
	title := strings.ToUpper(method[:1]) + method[1:]
	c := &chart{title: fmt.Sprintf(n.tr("%s correlation", "%s 相关系数"), title)}
	heat, err := n.savePNG("heatmap", c, func() ([]byte, error) { return c.correlationHeatmap(cols, matrix) })
	if err != nil {
		return err
	}
	files := []string{heat, matrixCSV}
	if k == 2 {
		pts, _ := n.pre["points"].([2][]float64)
		sc := &chart{xLabel: cols[0], yLabel: cols[1]}
		scatter, err := n.savePNG("scatter", sc, func() ([]byte, error) { return sc.scatter(pts[0], pts[1]) })
		if err != nil {
			return err
		}
		files = []string{heat, scatter, matrixCSV}
	}
	// The strongest pairs, r rounded to 4 decimals; an empty list is a
	// table of no columns, as pandas makes it.
	var pairCols []string
	var pairRows [][]mdCell
	if len(pairs) > 0 {
		pairCols = headers(n.lang, []string{"column A", "column B", "r", "rows"}, "column A", "column B", "rows")
	}
	for _, p := range pairs[:min(10, len(pairs))] {
		pairRows = append(pairRows, []mdCell{p.A, p.B, roundTo(p.R, 1e4), p.N})
	}
	md := fmt.Sprintf(n.tr("Strongest pairs (%s):\n\n", "相关性最强的列对（%s）：\n\n"), method) + mdTable(n.lang, pairCols, pairRows, 10, 0)
	if k <= 8 {
		// corr.round(3).reset_index(): the index's column is "index", or
		// 列 where the axis is named.
		mcols := append([]string{n.tr("index", "列")}, cols...)
		mrows := make([][]mdCell, k)
		for i, c := range cols {
			mrows[i] = []mdCell{c}
			for _, v := range matrix[i] {
				mrows[i] = append(mrows[i], roundTo(v, 1e3))
			}
		}
		md += n.tr("\n\nMatrix:\n\n", "\n\n相关矩阵：\n\n") + mdTable(n.lang, mcols, mrows, 8, 0)
	}
	n.section(fmt.Sprintf(n.tr("Correlation of %d numeric columns", "%d 个数值列的相关性"), k), md, files...)

	data := make([][]any, k)
	for i, row := range matrix {
		data[i] = make([]any, k)
		for j, v := range row {
			data[i][j] = jnum(v)
		}
	}
	listed := make([]map[string]any, 0, min(50, len(pairs)))
	for _, p := range pairs[:min(50, len(pairs))] {
		listed = append(listed, map[string]any{"a": p.A, "b": p.B, "r": jnum(p.R), "n": p.N})
	}
	n.out.Data = map[string]any{"method": method, "columns": cols, "matrix": data, "pairs": listed}
	if len(pairs) == 0 {
		n.out.Answer = n.tr("No correlation could be computed (too few rows with values in both columns).", "无法计算相关性（两列都有值的行太少）。")
		return nil
	}
	p := pairs[0]
	strength := n.tr("weak", "弱")
	switch a := math.Abs(p.R); {
	case a >= 0.7:
		strength = n.tr("strong", "强")
	case a >= 0.4:
		strength = n.tr("moderate", "中等")
	}
	sign := n.tr("negative", "负相关")
	if p.R > 0 {
		sign = n.tr("positive", "正相关")
	}
	n.out.Answer = fmt.Sprintf(n.tr("The strongest correlation is between %s and %s: r = %.2f (%s, %s).", "相关性最强的是 %s 与 %s：r = %.2f（%s，%s）。"), p.A, p.B, p.R, strength, sign)
	return nil
}

// roundTo is numpy's round of v to the decimals of scale (10^decimals):
// scaled, rounded half to even, scaled back.
func roundTo(v, scale float64) float64 {
	if missing(v) {
		return v
	}
	return math.RoundToEven(v*scale) / scale
}

// correlationHeatmap draws the matrix as correlation.py does: red for
// positive, blue for negative, white at 0, from -1 to 1, each cell with
// its r (%.2f) when there are at most 12 columns, labels cut to 20
// characters, and a colour bar.
func (c *chart) correlationHeatmap(cols []string, matrix [][]float64) ([]byte, error) {
	k := len(cols)
	rowLabels, colLabels := make([]string, k), make([]string, k)
	for i, name := range cols {
		short := string([]rune(name)[:min(20, utf8.RuneCountInString(name))])
		rowLabels[k-1-i], colLabels[i] = short, short
	}
	p := c.newPlot(append(rowLabels, colLabels...)...)
	rdbu, err := brewer.GetPalette(brewer.TypeDiverging, "RdBu", 11)
	if err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	// RdBu_r: blue at -1, red at 1.
	colors := rdbu.Colors()
	rev := make([]color.Color, len(colors))
	for i, col := range colors {
		rev[len(colors)-1-i] = col
	}
	pal := colorList(rev)
	hm := plotter.NewHeatMap(heatGrid{matrix}, pal)
	hm.Min, hm.Max = -1, 1
	hm.NaN = color.White
	hm.Underflow, hm.Overflow = rev[0], rev[len(rev)-1]
	p.Add(hm)
	if k <= 12 {
		var pts plotter.XYLabels
		var styles []text.Style
		for i, row := range matrix {
			for j, v := range row {
				if math.IsNaN(v) {
					continue
				}
				pts.XYs = append(pts.XYs, plotter.XY{X: float64(j), Y: float64(k - 1 - i)})
				pts.Labels = append(pts.Labels, fmt.Sprintf("%.2f", v))
				styles = append(styles, text.Style{Color: color.Black, Font: font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, vg.Points(7)),
					XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler})
			}
		}
		if len(pts.XYs) > 0 {
			labels, err := plotter.NewLabels(pts)
			if err != nil {
				return nil, fmt.Errorf("draw the chart: %w", err)
			}
			labels.TextStyle = styles
			p.Add(labels)
		}
	}
	// The colour bar: a column of swatches from -1 to 1 at the right.
	bar := make([][]float64, 41)
	for i := range bar {
		bar[i] = []float64{1 - float64(i)/20}
	}
	cb := plotter.NewHeatMap(heatGrid{bar}, pal)
	cb.Min, cb.Max = -1, 1
	p.NominalX(colLabels...)
	p.NominalY(rowLabels...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Min, p.X.Max = -0.5, float64(k)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(k)-0.5
	legend := plot.New()
	legend.Add(cb)
	legend.X.Tick.Marker = plot.ConstantTicks(nil)
	legend.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "-1.0"}, {Value: 10, Label: "-0.5"}, {Value: 20, Label: "0.0"}, {Value: 30, Label: "0.5"}, {Value: 40, Label: "1.0"}})
	legend.Y.Tick.Label.Font.Size = vg.Points(8)
	legend.X.Min, legend.X.Max = -0.5, 0.5
	legend.Y.Min, legend.Y.Max = -0.5, 40.5
	w, h := math.Max(5, 0.5*float64(k)+2), math.Max(4, 0.5*float64(k)+1.5)
	return besideBar(p, legend, w, h)
}

// colorList is a palette of the given colours.
type colorList []color.Color

func (l colorList) Colors() []color.Color { return l }

// scatter draws the points (x, y) as correlation.py's scatter plot does.
func (c *chart) scatter(x, y []float64) ([]byte, error) {
	p := c.newPlot()
	pts := make(plotter.XYs, len(x))
	for i := range x {
		pts[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	s.GlyphStyle.Radius = vg.Points(1.6)
	s.GlyphStyle.Color = color.NRGBA{R: palette[0].R, G: palette[0].G, B: palette[0].B, A: 0x99}
	p.Add(s)
	p.Add(plotter.NewGrid())
	return pngOf(p, 6, 4.5)
}

// besideBar draws the heatmap p and its colour bar side by side as one
// PNG of w × h inches, the bar 0.9 inch wide.
func besideBar(p, bar *plot.Plot, w, h float64) ([]byte, error) {
	img := vgimg.New(vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	split := vg.Length(w-0.9) * vg.Inch
	p.Draw(draw.Crop(dc, 0, split-dc.Max.X, 0, 0))
	bar.Draw(draw.Crop(dc, split, 0, vg.Points(40), -vg.Points(60)))
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	return b.Bytes(), nil
}
