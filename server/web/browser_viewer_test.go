package web_test

// The file viewer: a scripted run writes a 100,000-row CSV, a workbook of
// two sheets, a PNG, an SVG and a broken workbook, and the person opens
// each from the report's Files list, in place.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/xuri/excelize/v2"
)

// viewerScript is a scripted model's script for a one-step plan whose
// Python writes the viewer's files to out/, with the workbook's bytes
// given (Python here has no library that writes workbooks).
func viewerScript(t *testing.T, workbook []byte) string {
	t.Helper()
	code := `import base64, csv, matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
with open("out/big.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["n", "label", "amount", "note"])
    for i in range(1, 100001):
        note = ""
        if i == 1:
            note = '=HYPERLINK("http://evil.example","click")'
        elif i == 2:
            note = "x" * 5000
        elif i == 3:
            note = "<img src=x onerror=document.title='pwned'>"
        w.writerow([i, f"row {i}", round(i * 1.5, 2), note])
open("out/book.xlsx", "wb").write(base64.b64decode("` + base64.StdEncoding.EncodeToString(workbook) + `"))
open("out/broken.xlsx", "wb").write(b"PK\x03\x04 this is not a workbook")
open("out/shape.svg", "w").write('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120"><script>document.title="pwned"</script><rect width="300" height="120" fill="#1f6feb"/><text x="20" y="70" fill="white" font-size="28">an SVG</text></svg>')
plt.plot([1, 2, 3], [3, 1, 2]); plt.title("A chart"); plt.savefig("out/chart.png"); plt.close("all")
print("ANSWER: wrote the viewer's files")
`
	files := []string{"out/big.csv", "out/book.xlsx", "out/broken.xlsx", "out/shape.svg", "out/chart.png"}
	script := map[string]any{
		"name": "viewer files",
		"replies": []any{
			map[string]any{"tool_calls": []any{map[string]any{"name": "create_plan", "arguments": map[string]any{
				"steps": []any{map[string]any{"index": 1, "description": "Write out/big.csv, out/book.xlsx, out/broken.xlsx, out/shape.svg and out/chart.png."}}}}}},
			map[string]any{"tool_calls": []any{map[string]any{"name": "python", "arguments": map[string]any{"code": code}}}},
			map[string]any{"content": "Wrote the files:\n{{last_tool_result}}"},
			map[string]any{"tool_calls": []any{map[string]any{"name": "submit_result", "arguments": map[string]any{
				"answer": "{{line:ANSWER:}}", "files": files}}}},
			map[string]any{"content": "# The viewer's files\n\n**Answer:** {{line:ANSWER:}}\n\n![A chart](out/chart.png)\n\n" +
				"The rows are in [the big table](out/big.csv) and [the workbook](out/book.xlsx); [a broken one](out/broken.xlsx) and [an SVG](out/shape.svg).\n"},
		},
	}
	b, err := json.Marshal(script)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "viewer-script.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// twoSheets is a workbook of two sheets: Revenue (60 rows, a formula
// that must not be evaluated) and Regions.
func twoSheets(t *testing.T) []byte {
	t.Helper()
	wb := excelize.NewFile()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(wb.SetSheetName("Sheet1", "Revenue"))
	must(wb.SetSheetRow("Revenue", "A1", &[]any{"month", "revenue", "double"}))
	for i := 1; i <= 60; i++ {
		must(wb.SetSheetRow("Revenue", fmt.Sprintf("A%d", i+1), &[]any{fmt.Sprintf("2024-%02d", (i-1)%12+1), 1000 + i*37}))
	}
	must(wb.SetCellFormula("Revenue", "C2", "B2*2"))
	_, err := wb.NewSheet("Regions")
	must(err)
	must(wb.SetSheetRow("Regions", "A1", &[]any{"region", "share"}))
	for i, r := range []string{"North", "South", "East", "West"} {
		must(wb.SetSheetRow("Regions", fmt.Sprintf("A%d", i+2), &[]any{r, 0.1 * float64(i+1)}))
	}
	buf, err := wb.WriteToBuffer()
	must(err)
	return buf.Bytes()
}

func TestBrowserViewersOpenEveryFileInPlace(t *testing.T) {
	chromium := needChromium(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 with matplotlib is needed for the scripted step's code; not found")
	}
	srv := startServe(t, "--script", viewerScript(t, twoSheets(t)))
	b := newBrowser(t, chromium)
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.do(t, "ask",
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
		chromedp.SendKeys(chromedp.ID("question"), "write the viewer's files"),
		chromedp.Click(chromedp.CSS(".options summary")),
		chromedp.SetValue(chromedp.ID("mode"), "plan"),
		chromedp.Click(chromedp.ID("ask")),
	)
	b.runEnds(t, "the run finishes")
	b.waitJS(t, "the Files list has the big table", `document.querySelector('.downloads a[data-path="out/big.csv"]') !== null`)
	for _, p := range []string{"plan.md", "report.md", "report.html"} {
		if got := b.evalString(t, fmt.Sprintf(`String(document.querySelectorAll('.downloads a[data-path=%q]').length)`, p)); got == "0" {
			t.Errorf("the Files list has no %s", p)
		}
	}
	// The step's inline preview reads 25 rows, not the file.
	b.waitJS(t, "the step previews the big table", `document.querySelector('.step .table-fig table caption')?.textContent === 'First 25 of 100,000 rows'`)

	open := func(path string) {
		t.Helper()
		b.do(t, "open "+path, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			const a = document.querySelector('.downloads a[data-path=%q]');
			a.scrollIntoView(); a.focus(); a.click();
		})()`, path)))
		b.waitJS(t, path+" opens in the viewer", `document.getElementById('viewer')?.open === true`)
	}
	escape := func(path string) {
		t.Helper()
		b.do(t, "Escape", chromedp.KeyEvent("\u001b"))
		b.waitJS(t, "Escape closes the viewer", `!document.getElementById('viewer').open`)
		if got := b.evalString(t, `document.activeElement?.dataset?.path || document.activeElement?.tagName || ''`); got != path {
			t.Errorf("after Escape the focus is on %q, want the link to %s", got, path)
		}
	}

	// The CSV: 50 rows a page of 100,000, the header kept, page forward.
	start := time.Now()
	open("out/big.csv")
	b.waitJS(t, "the first page shows", `document.querySelectorAll('.viewer-table tbody tr').length === 50`)
	t.Logf("the first page of a 100,000-row CSV showed %v after the click", time.Since(start).Round(time.Millisecond))
	if got := b.evalString(t, `document.querySelector('.viewer-where').textContent`); got != "Rows 1–50 of 100,000 · page 1 of 2,000" {
		t.Errorf("the pager says %q", got)
	}
	if got := b.evalStrings(t, `[...document.querySelectorAll('.viewer-table thead th')].map(c => c.textContent)`); strings.Join(got, "|") != "#|n|label|amount|note" {
		t.Errorf("the header is %q", got)
	}
	cells := b.evalStrings(t, `[...document.querySelectorAll('.viewer-table tbody tr')].slice(0, 3).map(r => r.cells[4].textContent)`)
	if len(cells) != 3 || cells[0] != `=HYPERLINK("http://evil.example","click")` || len([]rune(cells[1])) != 500 || cells[2] != "<img src=x onerror=document.title='pwned'>" {
		t.Errorf("the hostile cells show as %q, want the formula and the markup as text and the long cell cut to 500", cells)
	}
	if n := b.evalString(t, `String(document.querySelectorAll('.viewer-body img, .viewer-body a[href^="http"]').length)`); n != "0" {
		t.Errorf("cells became %s elements (images or links)", n)
	}
	b.viewportShot(t, "viewer-csv")
	b.do(t, "next page", chromedp.Click(chromedp.CSS(`.viewer-pager button[data-page=next]`)))
	b.waitJS(t, "page 2 shows", `document.querySelector('.viewer-table tbody th')?.textContent === '51'`)
	if got := b.evalString(t, `document.querySelector('.viewer-table tbody tr').cells[1].textContent`); got != "51" {
		t.Errorf("page 2 starts with n = %q, want 51", got)
	}
	b.do(t, "phone", chromedp.EmulateViewport(390, 640, chromedp.EmulateScale(2)))
	b.waitJS(t, "the viewer fills the phone", `document.getElementById('viewer').getBoundingClientRect().width >= 389`)
	if in := b.evalString(t, `(() => {
		const ok = (el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
		return String(['.viewer-close', '.viewer-download', '.viewer-pager button[data-page=next]', '.viewer-pager button[data-page=prev]'].every(s => ok(document.querySelector(s))));
	})()`); in != "true" {
		t.Errorf("at 390x640 the viewer's close, download or pager buttons are out of sight")
	}
	b.viewportShot(t, "viewer-csv-390x640")
	escape("out/big.csv")
	b.do(t, "desktop", chromedp.EmulateViewport(1280, 800))

	// The workbook: a tab per sheet, the second one read on a click.
	open("out/book.xlsx")
	b.waitJS(t, "the workbook's first sheet shows", `document.querySelectorAll('.sheet-tab').length === 2 && document.querySelectorAll('.viewer-table tbody tr').length === 50`)
	if got := b.evalStrings(t, `[...document.querySelector('.viewer-table tbody tr').cells].map(c => c.textContent)`); strings.Join(got, "|") != "1|2024-01|1037|" {
		t.Errorf("Revenue's first row is %q, want the formula cell empty (not evaluated)", got)
	}
	b.do(t, "open the second sheet", chromedp.Click(chromedp.CSS(`.sheet-tab[data-sheet=Regions]`)))
	b.waitJS(t, "the Regions sheet shows", `document.querySelector('.sheet-tab[data-sheet=Regions]').getAttribute('aria-selected') === 'true' &&
		document.querySelectorAll('.viewer-table tbody tr').length === 4`)
	if got := b.evalString(t, `document.querySelector('.viewer-table tbody tr').cells[1].textContent`); got != "North" {
		t.Errorf("Regions starts with %q, want North", got)
	}
	b.viewportShot(t, "viewer-xlsx")
	b.do(t, "phone", chromedp.EmulateViewport(390, 640, chromedp.EmulateScale(2)))
	b.waitJS(t, "the viewer fills the phone", `document.getElementById('viewer').getBoundingClientRect().width >= 389`)
	b.viewportShot(t, "viewer-xlsx-390x640")
	escape("out/book.xlsx")
	b.do(t, "desktop", chromedp.EmulateViewport(1280, 800))

	// A link inside the report opens the viewer too.
	b.do(t, "open the workbook from the report's text", chromedp.Evaluate[chromedp.Void](`(() => {
		const a = document.querySelector('.report .md a[data-path="out/book.xlsx"]');
		a.focus(); a.click();
	})()`))
	b.waitJS(t, "the report's link opens the workbook", `document.getElementById('viewer').open && document.querySelectorAll('.sheet-tab').length === 2`)
	escape("out/book.xlsx")

	// A broken workbook says so and offers the download.
	open("out/broken.xlsx")
	b.waitJS(t, "the broken workbook says it cannot be shown", `document.querySelector('.viewer-error')?.textContent.includes('cannot be shown')`)
	if got := b.evalString(t, `document.querySelector('.viewer-error a')?.dataset.path || ''`); got != "out/broken.xlsx" {
		t.Errorf("the error offers a download of %q, want out/broken.xlsx", got)
	}
	escape("out/broken.xlsx")

	// Images, the SVG only as an <img>: its script never runs.
	for _, p := range []string{"out/chart.png", "out/shape.svg"} {
		open(p)
		b.waitJS(t, p+" shows large", `(() => { const i = document.querySelector('.viewer-image'); return i && i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 250; })()`)
		if n := b.evalString(t, `String(document.querySelectorAll('.viewer-body svg, .viewer-body object, .viewer-body embed').length)`); n != "0" {
			t.Errorf("%s is in the page as %s inline elements, want only an <img>", p, n)
		}
		if p == "out/chart.png" {
			b.viewportShot(t, "viewer-image")
		}
		escape(p)
	}

	// report.html in a sandboxed frame that runs nothing.
	open("report.html")
	b.waitJS(t, "the report's frame is there", `document.querySelector('.viewer-frame') !== null`)
	if got := b.evalString(t, `(() => { const f = document.querySelector('.viewer-frame'); return f.getAttribute('sandbox') + '|' + f.src.slice(0, 5); })()`); got != "allow-scripts|blob:" {
		t.Errorf("the report's frame has sandbox=%q, want sandbox with only allow-scripts (an origin of its own, no popups, forms or top navigation) and a blob: source", got)
	}
	b.waitJS(t, "the report's frame has loaded", `document.querySelector('.viewer-frame').hasAttribute('data-loaded')`)
	b.viewportShot(t, "viewer-report")
	// A link inside the report, clicked as a person clicks it, opens the
	// session's file in the viewer: the frame and the app stay where they
	// are.
	page := b.evalString(t, `location.href`)
	b.waitJS(t, "the report's frame keeps its links (reportframe.js runs in it)", `document.querySelector('.viewer-frame').dataset.links === 'kept'`)
	// The frame has an origin of its own: the test reaches its links as a
	// person with a keyboard does, from a click on its first line. The
	// click is made where a hit test finds the frame, again until the
	// frame has the focus, and the Tabs must leave the focus in it: keys
	// that walked the app's buttons instead would fail below for a reason
	// that is not the report's.
	inFrame := `String(document.activeElement === document.querySelector('.viewer-frame'))`
	focusOn := `document.activeElement?.className || document.activeElement?.tagName || ''`
	for i := 0; ; i++ {
		if b.evalString(t, `String(document.getElementById('viewer').open)`) != "true" {
			t.Fatalf("the viewer closed before the click on report.html's first line (click %d); the focus is on %q", i+1, b.evalString(t, focusOn))
		}
		xy := b.evalStrings(t, `(() => {
			const f = document.querySelector('.viewer-frame'), r = f.getBoundingClientRect();
			const x = r.left + 8, y = r.top + 8;
			return [String(x), String(y), String(document.elementFromPoint(x, y) === f)];
		})()`)
		var x, y float64
		fmt.Sscan(xy[0], &x)
		fmt.Sscan(xy[1], &y)
		if xy[2] == "true" {
			b.do(t, "click the first line of report.html", chromedp.MouseClickXY(x, y))
			if b.evalString(t, inFrame) == "true" {
				if i > 0 {
					t.Logf("report.html's frame took the focus at try %d", i+1)
				}
				break
			}
		}
		if i == 50 {
			t.Fatalf("in 50 tries a click on report.html's first line (at %v,%v; the frame is there: %s) never gave its frame the focus; the focus is on %q",
				x, y, xy[2], b.evalString(t, focusOn))
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.do(t, "reach the workbook's link inside report.html (the second link)", chromedp.KeyEvent("\t"), chromedp.KeyEvent("\t"))
	if b.evalString(t, inFrame) != "true" {
		t.Fatalf("two Tabs from report.html's first line took the focus out of its frame, to %q; the workbook is its second link", b.evalString(t, focusOn))
	}
	// Enter follows it, on its keydown, in the frame's process: the viewer
	// then replaces the frame, and Chrome may never answer that event.
	// The key's keypress comes after, to wherever the focus is by then:
	// on the close button it closed the workbook just opened (a press of
	// Enter in make test, where the two events were far enough apart). So
	// the keydown goes first, and the rest once the workbook shows.
	enter := kb.Encode('\r')
	down, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	if _, err := chromedp.Run(down, keyEvents(enter[:1])); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("press Enter on the workbook's link: %v", err)
	}
	cancel()
	b.waitJS(t, "Enter's keydown on the report's link opens the workbook in the viewer", `document.getElementById('viewer').open && document.querySelectorAll('.sheet-tab').length === 2`)
	b.do(t, "the rest of Enter (keypress, keyup)", keyEvents(enter[1:]))
	if b.evalString(t, `String(document.getElementById('viewer').open)`) != "true" {
		t.Fatalf("the rest of Enter's events closed the workbook a report's link had just opened; the focus is on %q", b.evalString(t, focusOn))
	}
	b.waitJS(t, "the report's link opens the workbook in the viewer", `document.getElementById('viewer').open && document.querySelectorAll('.sheet-tab').length === 2`)
	if got := b.evalString(t, `location.href`); got != page {
		t.Errorf("the link in the report took the app from %s to %s", page, got)
	}
	b.viewportShot(t, "viewer-report-link")
	escape("report.html") // the focus goes back to what opened the viewer
	// Where each kind of link goes: only this session's files are opened.
	b.do(t, "read where links go", chromedp.Evaluate[chromedp.Void](`import(new URL('reportlinks.js', location.href).href).then((m) => {
		const id = 'S1';
		window.linkTargets = JSON.stringify([
			'out/book.xlsx', './out/a%20b.csv', 'report.md', 'plan.md', 'out/x/../y.png', '#top', 'https://example.com/a',
			'../S2/out/x.csv', 'out/../../S2/report.md', '/v1/sessions/S2/files/report.md', 'v1/sessions/S1/files/out/c.csv',
			'out/.x.csv', 'work/.hidden', 'input/sales.csv', 'events.jsonl', 'javascript:alert(1)', 'file:///etc/passwd', '/etc/passwd', 'out/%2e%2e%2fx',
		].map((href) => [href, m.reportTarget(href, id)]));
	})`))
	b.waitJS(t, "the link targets", `typeof window.linkTargets === 'string'`)
	var targets [][2]any
	if err := json.Unmarshal([]byte(b.evalString(t, `window.linkTargets`)), &targets); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"out/book.xlsx": "file out/book.xlsx", "./out/a%20b.csv": "file out/a b.csv", "report.md": "file report.md", "plan.md": "file plan.md",
		"out/x/../y.png": "file out/y.png", "#top": "anchor", "https://example.com/a": "web https://example.com/a",
		"v1/sessions/S1/files/out/c.csv": "file out/c.csv",
	}
	for _, tg := range targets {
		href := tg[0].(string)
		got := "nowhere"
		if m, ok := tg[1].(map[string]any); ok {
			switch {
			case m["file"] != nil:
				got = "file " + m["file"].(string)
			case m["web"] != nil:
				got = "web " + m["web"].(string)
			case m["anchor"] != nil:
				got = "anchor"
			}
		}
		w, ok := want[href]
		if !ok {
			w = "nowhere"
		}
		if got != w {
			t.Errorf("a report link to %q goes %s, want %s", href, got, w)
		}
	}
	open("report.html")
	b.waitJS(t, "the report's frame has loaded again", `document.querySelector('.viewer-frame')?.hasAttribute('data-loaded')`)
	escape("report.html")
	if got := b.evalString(t, `document.title`); got != "Sift" {
		t.Errorf("the page's title is %q: a file's script ran", got)
	}
	b.noPageErrors(t)
}

// keyEvents dispatches key events as they are, one by one (chromedp's
// KeyEvent sends a key's down, press and up at once).
func keyEvents(evs []*input.DispatchKeyEventParams) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, ev := range evs {
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *ev); err != nil {
				return err
			}
		}
		return nil
	})
}
