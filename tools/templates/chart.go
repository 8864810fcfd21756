package templates

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The built-ins rendered in Go (native.go) draw their charts here, with
// gonum.org/v1/plot, as PNG files for report.md and report.html. Text in
// Latin script is set in plot's own Liberation fonts; a chart with any
// other text (Chinese labels, titles in Chinese) in Noto Sans CJK from
// Debian's fonts-noto-cjk, which covers Latin too. Without that font such
// a chart is still drawn, and the result's notes say its CJK text may not
// show (chartFontNote).

// cjkFontFiles are where Debian and Ubuntu install Noto Sans CJK
// (fonts-noto-cjk), first found wins.
var cjkFontFiles = []string{
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/opentype/noto-cjk/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
}

// cjkTypeface is the name the CJK font is registered under in plot's
// font cache.
const cjkTypeface = "SiftNotoSansCJK"

var (
	cjkOnce  sync.Once
	cjkFound bool
)

// loadCJKFont registers Noto Sans CJK (its Simplified Chinese face) in
// plot's font cache once; it reports whether the font was found.
func loadCJKFont() bool {
	cjkOnce.Do(func() {
		for _, p := range cjkFontFiles {
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			coll, err := opentype.ParseCollection(data)
			if err != nil {
				continue
			}
			var face *sfnt.Font
			for i := 0; i < coll.NumFonts(); i++ {
				f, err := coll.Font(i)
				if err != nil {
					continue
				}
				if face == nil {
					face = f
				}
				if name, err := f.Name(nil, sfnt.NameIDFull); err == nil && strings.Contains(name, " SC") {
					face = f
					break
				}
			}
			if face == nil {
				continue
			}
			font.DefaultCache.Add(font.Collection{{Font: font.Font{Typeface: cjkTypeface}, Face: face}})
			cjkFound = true
			return
		}
	})
	return cjkFound
}

// chartFontNote is the note of a chart whose CJK text had no font.
func chartFontNote(lang string) string {
	return tr(lang, "the chart's Chinese, Japanese or Korean text may show as boxes: install Noto Sans CJK (Debian's fonts-noto-cjk) for it",
		"图表中的中文可能显示为方框：请安装 Noto Sans CJK 字体（Debian 的 fonts-noto-cjk）")
}

// chart is one chart's text and what it needs.
type chart struct {
	title, xLabel, yLabel string
	// fontMissing is set when the chart has CJK text and no font for it.
	fontMissing bool
	// barColor is the bars' colour; default barBlue.
	barColor color.Color
}

// newPlot makes a plot for c, in the CJK font when any of texts needs it.
func (c *chart) newPlot(texts ...string) *plot.Plot {
	p := plot.New()
	var fnt *font.Font
	if needsCJK(append(texts, c.title, c.xLabel, c.yLabel)...) {
		if loadCJKFont() {
			fnt = &font.Font{Typeface: cjkTypeface}
		} else {
			c.fontMissing = true
		}
	}
	set := func(s *text.Style, size float64) {
		if fnt != nil {
			s.Font = font.From(*fnt, font.Length(size))
		}
	}
	set(&p.Title.TextStyle, 13)
	set(&p.X.Label.TextStyle, 11)
	set(&p.Y.Label.TextStyle, 11)
	set(&p.X.Tick.Label, 8)
	set(&p.Y.Tick.Label, 9)
	set(&p.Legend.TextStyle, 9)
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = c.title, c.xLabel, c.yLabel
	return p
}

// needsCJK reports whether any text has a letter beyond Latin, Greek and
// Cyrillic, which Liberation does not cover.
func needsCJK(texts ...string) bool {
	for _, s := range texts {
		for _, r := range s {
			if r >= 0x2E80 {
				return true
			}
		}
	}
	return false
}

// chartLabel shortens a label to 30 characters, as the cells do.
func chartLabel(s string) string {
	if utf8.RuneCountInString(s) <= 30 {
		return s
	}
	return string([]rune(s)[:30])
}

// pngOf writes p as a PNG of w × h inches.
func pngOf(p *plot.Plot, w, h float64) ([]byte, error) {
	wt, err := p.WriterTo(vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch, "png")
	if err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	return b.Bytes(), nil
}

var (
	barBlue = color.RGBA{R: 0x4f, G: 0x81, B: 0xbd, A: 0xff}
	barRed  = color.RGBA{R: 0xc0, G: 0x50, B: 0x4d, A: 0xff}
)

// barChart draws names and their values as horizontal bars, the first on
// top.
func (c *chart) barChart(names []string, values []float64) ([]byte, error) {
	labels := make([]string, len(names))
	vs := make(plotter.Values, len(values))
	for i := range names {
		// The first is drawn on top: plot's first bar is the lowest.
		j := len(names) - 1 - i
		labels[j] = chartLabel(names[i])
		vs[j] = values[i]
		if missing(vs[j]) {
			vs[j] = 0
		}
	}
	p := c.newPlot(labels...)
	bars, err := plotter.NewBarChart(vs, vg.Points(14))
	if err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	bars.Horizontal = true
	bars.Color = barBlue
	if c.barColor != nil {
		bars.Color = c.barColor
	}
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.NominalY(labels...)
	p.X.Min = math.Min(0, p.X.Min)
	return pngOf(p, 8, math.Max(3, 0.35*float64(len(names))+1.2))
}

// lineSeries is one line of a line chart: NaN where it has no value.
type lineSeries struct {
	name   string
	values []float64
}

// palette is matplotlib's default cycle, as the cells' charts used.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xd6, 0x27, 0x28, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
}

// lineChart draws one line per series over the x labels, with a legend
// when there are names, and shades the periods at shaded (partial ones).
func (c *chart) lineChart(labels []string, series []lineSeries, shaded []int) ([]byte, error) {
	var names []string
	for _, s := range series {
		names = append(names, s.name)
	}
	p := c.newPlot(append(names, labels...)...)
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, s := range series {
		var pts plotter.XYs
		for i, v := range s.values {
			if !missing(v) {
				pts = append(pts, plotter.XY{X: float64(i), Y: v})
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("draw the chart: %w", err)
		}
		col := color.Color(barBlue)
		if s.name != "" {
			col = palette[k%len(palette)]
		}
		line.Color, points.Color = col, col
		points.Shape = draw.CircleGlyph{}
		points.Radius = vg.Points(2)
		p.Add(line, points)
		if s.name != "" {
			p.Legend.Add(chartLabel(s.name), line, points)
		}
	}
	if !math.IsInf(lo, 0) {
		for _, i := range shaded {
			x0, x1 := float64(i)-0.5, float64(i)+0.5
			box, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: lo}, {X: x1, Y: lo}, {X: x1, Y: hi}, {X: x0, Y: hi}})
			if err == nil {
				box.Color = color.RGBA{0xd9, 0xd9, 0xd9, 0x99}
				box.LineStyle.Width = 0
				p.Add(box)
			}
		}
	}
	step := max(1, len(labels)/12)
	var ticks []plot.Tick
	for i := 0; i < len(labels); i += step {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: labels[i]})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Min, p.X.Max = -0.5, math.Max(0.5, float64(len(labels))-0.5)
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	return pngOf(p, 8, 4.5)
}

var barGrey = color.RGBA{R: 0xa6, G: 0xa6, B: 0xa6, A: 0xff}

// pairedBars draws two bars per x label, side by side, the first series
// grey (what is compared with) and the second blue, with a legend.
func (c *chart) pairedBars(labels []string, series []lineSeries) ([]byte, error) {
	short := make([]string, len(labels))
	for i, l := range labels {
		short[i] = chartLabel(l)
	}
	var names []string
	for _, s := range series {
		names = append(names, s.name)
	}
	p := c.newPlot(append(names, short...)...)
	w := vg.Points(math.Max(4, math.Min(18, 240/float64(max(1, len(labels)))/float64(len(series)))))
	for k, s := range series {
		vs := make(plotter.Values, len(s.values))
		for i, v := range s.values {
			if !missing(v) {
				vs[i] = v
			}
		}
		bars, err := plotter.NewBarChart(vs, w)
		if err != nil {
			return nil, fmt.Errorf("draw the chart: %w", err)
		}
		bars.Color = barBlue
		if k == 0 && len(series) > 1 {
			bars.Color = barGrey
		}
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(2*k-len(series)+1) / 2
		p.Add(bars)
		p.Legend.Add(chartLabel(s.name), bars)
	}
	p.NominalX(short...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	// Room for the outer bars at both ends and for the legend on top.
	p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
	p.Y.Min = math.Min(0, p.Y.Min)
	if p.Y.Max > 0 {
		p.Y.Max *= 1.18
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return pngOf(p, 8, 4.5)
}

// heatGrid is a table of values as plot's grid: column j, row i at y =
// rows-1-i, so that the first row is on top.
type heatGrid struct{ values [][]float64 }

func (g heatGrid) Dims() (c, r int) {
	if len(g.values) == 0 {
		return 0, 0
	}
	return len(g.values[0]), len(g.values)
}
func (g heatGrid) Z(c, r int) float64 { return g.values[len(g.values)-1-r][c] }
func (g heatGrid) X(c int) float64    { return float64(c) }
func (g heatGrid) Y(r int) float64    { return float64(r) }

// heatmap draws values (one row per name in rows, one column per name in
// cols) in shades of blue, each cell with its number, the first row on
// top.
func (c *chart) heatmap(rows, cols []string, values [][]float64) ([]byte, error) {
	rowLabels, colLabels := make([]string, len(rows)), make([]string, len(cols))
	for i, r := range rows {
		rowLabels[len(rows)-1-i] = shortLabel(r, 24)
	}
	for j, k := range cols {
		colLabels[j] = shortLabel(k, 16)
	}
	p := c.newPlot(append(rowLabels, colLabels...)...)
	blues, err := brewer.GetPalette(brewer.TypeSequential, "Blues", 9)
	if err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	hm := plotter.NewHeatMap(heatGrid{values}, blues)
	if hm.Min == hm.Max {
		hm.Max = hm.Min + 1
	}
	p.Add(hm)
	var pts plotter.XYLabels
	var styles []text.Style
	for i, row := range values {
		for j, v := range row {
			if missing(v) {
				continue
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: float64(j), Y: float64(len(values) - 1 - i)})
			pts.Labels = append(pts.Labels, fmtFloat(v))
			st := text.Style{Color: color.Black, Font: font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, vg.Points(8)), XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
			if (v-hm.Min)/(hm.Max-hm.Min) > 0.6 {
				st.Color = color.White
			}
			styles = append(styles, st)
		}
	}
	if len(pts.XYs) > 0 && len(rows)*len(cols) <= 300 {
		labels, err := plotter.NewLabels(pts)
		if err != nil {
			return nil, fmt.Errorf("draw the chart: %w", err)
		}
		labels.TextStyle = styles
		p.Add(labels)
	}
	p.NominalX(colLabels...)
	p.NominalY(rowLabels...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Min, p.X.Max = -0.5, float64(len(cols))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	return pngOf(p, math.Max(5, 0.6*float64(len(cols))+3), math.Max(3, 0.35*float64(len(rows))+1.5))
}

// shortLabel cuts a label to n characters.
func shortLabel(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// gridOf draws plots in rows of at most three, each w × h inches, as one
// PNG (common.py's grid).
func gridOf(plots []*plot.Plot, w, h float64) ([]byte, error) {
	ncol := max(1, min(3, len(plots)))
	nrow := (len(plots) + ncol - 1) / ncol
	img := vgimg.New(vg.Length(w*float64(ncol))*vg.Inch, vg.Length(h*float64(nrow))*vg.Inch)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	table := make([][]*plot.Plot, nrow)
	for i := range table {
		table[i] = make([]*plot.Plot, ncol)
		for j := range table[i] {
			if k := i*ncol + j; k < len(plots) {
				table[i][j] = plots[k]
			}
		}
	}
	canvases := plot.Align(table, draw.Tiles{Rows: nrow, Cols: ncol, PadX: vg.Points(12), PadY: vg.Points(12), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}, dc)
	for i := range table {
		for j, p := range table[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return nil, fmt.Errorf("draw the chart: %w", err)
	}
	return b.Bytes(), nil
}

// smallPlot is one tile of a grid: its title in 9 points.
func (c *chart) smallPlot(title string) *plot.Plot {
	sub := &chart{title: chartTitle(title)}
	p := sub.newPlot()
	c.fontMissing = c.fontMissing || sub.fontMissing
	p.Title.TextStyle.Font.Size = vg.Points(9)
	return p
}

// chartTitle cuts a column's name to 40 characters for a tile's title.
func chartTitle(s string) string { return shortLabel(s, 40) }

// histogram is a tile with the bins between edges holding counts.
func (c *chart) histogram(title string, edges, counts []float64) *plot.Plot {
	p := c.smallPlot(title)
	h := &plotter.Histogram{FillColor: barBlue}
	h.LineStyle.Width = 0
	for i := 0; i+1 < len(edges) && i < len(counts); i++ {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: edges[i], Max: edges[i+1], Weight: counts[i]})
	}
	if len(edges) > 1 {
		h.Width = (edges[len(edges)-1] - edges[0]) / float64(len(edges)-1)
	}
	p.Add(h)
	p.X.Tick.Label.Font.Size = vg.Points(8)
	return p
}

// boxStats is one horizontal box plot from its numbers: the quartiles,
// median, whiskers and the values past them.
type boxStats struct {
	q1, median, q3, lo, hi float64
	fliers                 []float64
}

// DataRange is the whiskers' and fliers' extent.
func (b boxStats) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Min(b.lo, b.q1), math.Max(b.hi, b.q3)
	for _, f := range b.fliers {
		xmin, xmax = math.Min(xmin, f), math.Max(xmax, f)
	}
	return xmin, xmax, -1, 1
}

// Plot draws the box at y = 0.
func (b boxStats) Plot(c draw.Canvas, plt *plot.Plot) {
	tx, ty := plt.Transforms(&c)
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
	y0, y1, ym := ty(-0.4), ty(0.4), ty(0)
	box := []vg.Point{{X: tx(b.q1), Y: y0}, {X: tx(b.q3), Y: y0}, {X: tx(b.q3), Y: y1}, {X: tx(b.q1), Y: y1}, {X: tx(b.q1), Y: y0}}
	c.StrokeLines(line, c.ClipLinesXY(box)...)
	c.StrokeLines(draw.LineStyle{Color: palette[1], Width: vg.Points(1.5)}, c.ClipLinesXY([]vg.Point{{X: tx(b.median), Y: y0}, {X: tx(b.median), Y: y1}})...)
	cy0, cy1 := ty(-0.2), ty(0.2)
	for _, w := range [][2]float64{{b.lo, b.q1}, {b.q3, b.hi}} {
		if missing(w[0]) || missing(w[1]) {
			continue
		}
		c.StrokeLines(line, c.ClipLinesXY([]vg.Point{{X: tx(w[0]), Y: ym}, {X: tx(w[1]), Y: ym}})...)
	}
	for _, x := range []float64{b.lo, b.hi} {
		if !missing(x) {
			c.StrokeLines(line, c.ClipLinesXY([]vg.Point{{X: tx(x), Y: cy0}, {X: tx(x), Y: cy1}})...)
		}
	}
	glyph := draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.5), Shape: draw.RingGlyph{}}
	for _, f := range b.fliers {
		if pt := (vg.Point{X: tx(f), Y: ym}); c.Contains(pt) {
			c.DrawGlyph(glyph, pt)
		}
	}
}

// boxPlot is a tile with one horizontal box plot.
func (c *chart) boxPlot(title string, b boxStats) *plot.Plot {
	p := c.smallPlot(title)
	p.Add(b)
	p.Y.Tick.Marker = plot.ConstantTicks(nil)
	p.X.Tick.Label.Font.Size = vg.Points(8)
	return p
}
