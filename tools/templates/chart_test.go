package templates

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"testing"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
)

// cjkFontOrSkip skips t when no Noto Sans CJK font is installed.
func cjkFontOrSkip(t *testing.T) {
	t.Helper()
	for _, p := range cjkFontFiles {
		if _, err := os.Stat(p); err == nil {
			return
		}
	}
	t.Skip("Noto Sans CJK is not installed (apt-get install fonts-noto-cjk): charts with Chinese text cannot be checked")
}

// TestChartWithChineseLabelsRenders: a bar chart and a line chart whose
// title, axis and labels are Chinese are drawn as PNG in the CJK font,
// which has a glyph for each of their characters (no boxes).
func TestChartWithChineseLabelsRenders(t *testing.T) {
	cjkFontOrSkip(t)
	bar := &chart{title: "收入最高的3个地区", xLabel: "收入总和"}
	b, err := bar.barChart([]string{"华东", "华北", "西南"}, []float64{300, 200, 100})
	if err != nil {
		t.Fatal(err)
	}
	line := &chart{title: "按地区的月度收入", yLabel: "收入总和"}
	l, err := line.lineChart([]string{"2024-01", "2024-02", "2024-03"},
		[]lineSeries{{name: "华东", values: []float64{1, 2, 3}}, {name: "华北", values: []float64{3, math.NaN(), 1}}}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*chart{"bar": bar, "line": line} {
		if c.fontMissing {
			t.Errorf("%s chart: the CJK font was not used", name)
		}
	}
	for name, data := range map[string][]byte{"bar": b, "line": l} {
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s chart is not a PNG: %v", name, err)
		}
		if r := img.Bounds(); r.Dx() < 500 || r.Dy() < 200 {
			t.Errorf("%s chart is %v, too small", name, r)
		}
	}
	face := font.DefaultCache.Lookup(font.Font{Typeface: cjkTypeface}, 12)
	if face.Face == nil {
		t.Fatal("the CJK font is not in plot's font cache")
	}
	var buf sfnt.Buffer
	for _, r := range "收入最高的个地区华东北西南按月度总和" {
		if g, err := face.Face.GlyphIndex(&buf, r); err != nil || g == 0 {
			t.Errorf("the CJK font has no glyph for %q", r)
		}
	}
}

// TestChartNeedsCJKOnlyForCJKText: Latin text keeps plot's own font, so a
// chart in English does not load the 20 MB CJK collection.
func TestChartNeedsCJKOnlyForCJKText(t *testing.T) {
	if needsCJK("Top 3 products by total revenue", "Gadget", "Ünïcode café") {
		t.Error("Latin text wants the CJK font")
	}
	if !needsCJK("Top 3", "华东") {
		t.Error("Chinese text does not want the CJK font")
	}
}
