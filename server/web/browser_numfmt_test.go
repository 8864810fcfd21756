package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserShareReadsAsInTheReport: topn on sales.csv writes Gizmo's
// share as 0.3697... to its CSV and 37.0% to report.md; the step's table
// and the viewer show 37.0% too (the format the built-in recorded, which
// the tables endpoint sends), not the file's 0.3697.
func TestBrowserShareReadsAsInTheReport(t *testing.T) {
	chromium := needChromium(t)
	srv := startServe(t)
	b := newBrowser(t, chromium)
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.do(t, "ask",
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
		chromedp.SendKeys(chromedp.ID("question"), "top 5 products by revenue"),
		chromedp.Click(chromedp.ID("ask")),
	)
	b.runEnds(t, "the run finishes")
	b.waitJS(t, "the step previews the ranking", `document.querySelector('.step .table-fig table tbody tr') !== null`)
	id := b.evalString(t, `decodeURIComponent(location.hash.replace(/^#s=/, ''))`)
	reportMD := srv.file(t, id, "report.md")
	if !strings.Contains(reportMD, "| Gizmo | 104,355.0 | 37.0% |") {
		t.Fatalf("report.md does not show Gizmo's share as 37.0%%:\n%s", reportMD)
	}
	share := func(selector string) string {
		t.Helper()
		return b.evalString(t, `(() => {
			const t = document.querySelector('`+selector+`');
			const k = [...t.querySelectorAll('thead th')].findIndex(th => th.textContent === 'share');
			return t.querySelector('tbody tr').querySelectorAll('td,th')[k].textContent;
		})()`)
	}
	if got := share(".step .table-fig table"); got != "37.0%" {
		t.Errorf("the step's table shows Gizmo's share as %q, the report as 37.0%%", got)
	}
	b.do(t, "open the ranking in the viewer", chromedp.Evaluate[chromedp.Void](`(() => {
		const a = document.querySelector('.downloads a[data-path="out/topn_ranking.csv"]');
		a.scrollIntoView(); a.focus(); a.click();
	})()`))
	b.waitJS(t, "the viewer shows the ranking", `document.getElementById('viewer')?.open === true && document.querySelector('.viewer-table tbody tr') !== null`)
	if got := share(".viewer-table"); got != "37.0%" {
		t.Errorf("the viewer shows Gizmo's share as %q, the report as 37.0%%", got)
	}
	b.noPageErrors(t)
}
