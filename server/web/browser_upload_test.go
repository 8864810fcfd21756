package web_test

// The upload progress bar, seen while a large file is on its way: a proxy
// in front of `sift serve` holds the upload partway until the test has
// looked, so the bar is caught between empty and full without timing.

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// uploadGate holds one upload partway: reached closes once its first
// bytes have passed, and the rest waits until release closes.
type uploadGate struct {
	reached, release chan struct{}
	seen, opened     sync.Once
}

func newUploadGate() *uploadGate {
	return &uploadGate{reached: make(chan struct{}), release: make(chan struct{})}
}

func (g *uploadGate) open() { g.opened.Do(func() { close(g.release) }) }

func (g *uploadGate) wait(t *testing.T) {
	t.Helper()
	select {
	case <-g.reached:
	case <-time.After(browserTimeout):
		t.Fatal("the upload never reached the server")
	}
}

// heldBody passes the first n bytes of an upload through, then waits at
// its gate before the rest.
type heldBody struct {
	io.ReadCloser
	n    int64
	gate *uploadGate
}

func (b *heldBody) Read(p []byte) (int, error) {
	if b.n <= 0 {
		b.gate.seen.Do(func() { close(b.gate.reached) })
		<-b.gate.release
		return b.ReadCloser.Read(p)
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	k, err := b.ReadCloser.Read(p)
	b.n -= int64(k)
	return k, err
}

func TestBrowserUploadShowsItsProgress(t *testing.T) {
	chromium := needChromium(t)
	srv := startServe(t)
	target, err := url.Parse(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	var gate atomic.Pointer[uploadGate]
	gate.Store(newUploadGate())
	proxy := httputil.NewSingleHostReverseProxy(target)
	direct := proxy.Director
	proxy.Director = func(r *http.Request) {
		direct(r)
		// To sift serve the page is its own: its host and origin.
		r.Host = target.Host
		if r.Header.Get("Origin") != "" {
			r.Header.Set("Origin", srv.url)
		}
		if r.Method == http.MethodPost && r.URL.Path == "/v1/sessions" {
			r.Body = &heldBody{ReadCloser: r.Body, n: 1 << 20, gate: gate.Load()}
		}
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	t.Cleanup(func() { gate.Load().open() }) // before the proxy closes

	// A CSV of about 17 MiB: far more than the sockets between the
	// browser and the proxy hold, so the browser is caught mid-upload.
	p := filepath.Join(t.TempDir(), "big.csv")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "date,region,revenue")
	regions := []string{"North", "South", "East", "West"}
	for i := range 900000 {
		fmt.Fprintf(w, "2024-%02d-%02d,%s,%d\n", i%12+1, i%28+1, regions[i%4], i%997)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	b := newBrowser(t, chromium)
	for _, width := range []int{1280, 390} {
		if width == 390 {
			b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
		}
		b.do(t, "open the app", chromedp.Navigate(front.URL+"/"))
		b.waitJS(t, "the config is loaded", `document.getElementById('model-note').textContent !== ''`)
		b.do(t, "choose the big file", chromedp.SetUploadFiles(chromedp.ID("files"), []string{p}))
		gate.Load().wait(t)
		b.waitJS(t, "the bar shows part of the upload", `(() => {
			const bar = document.getElementById('upload-progress');
			return !document.getElementById('upload').hidden && bar.value > 0 && bar.value < 1 &&
				/^Uploading… [0-9.]+ MiB of 1[0-9.]+ MiB$/.test(document.getElementById('upload-label').textContent);
		})()`)
		if width == 1280 {
			b.screenshot(t, "66-uploading")
		} else {
			b.viewportShot(t, "66-uploading-390")
		}
		if got := b.evalBool(t, `document.getElementById('upload-progress').getBoundingClientRect().width > 100`); !got {
			t.Errorf("at %d px the progress bar is not drawn wide enough to read", width)
		}
		// The upload goes through; the bar leaves and the data shows.
		held := gate.Load()
		gate.Store(newUploadGate()) // the next upload is held again
		held.open()
		b.waitJS(t, "the upload finishes and the data shows", `document.getElementById('upload').hidden && document.querySelectorAll('#glance table tbody tr').length > 0`)
	}
	b.noPageErrors(t)
}

// A workbook shows at a glance sheet by sheet: the file names its sheets,
// and each has its columns with their types and its first rows.
func TestBrowserGlanceShowsEachSheet(t *testing.T) {
	chromium := needChromium(t)
	f := excelize.NewFile()
	rows := map[string][][]any{
		"Sales":   {{"region", "revenue"}, {"North", 120.5}, {"South", 99.25}},
		"Targets": {{"region", "target", "owner"}, {"North", 100, "Ann"}, {"South", 110, "Bo"}},
	}
	_ = f.SetSheetName("Sheet1", "Sales")
	_, _ = f.NewSheet("Targets")
	for sheet, rs := range rows {
		for i, r := range rs {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := f.SetSheetRow(sheet, cell, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	book := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(book); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t)
	b := newBrowser(t, chromium)
	b.do(t, "choose the workbook", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.ID("question")),
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{book}))
	b.waitJS(t, "the workbook shows at a glance", `document.querySelectorAll('#glance table').length === 2`)
	if got := b.evalString(t, `document.querySelector('#glance .glance-file').textContent`); !strings.Contains(got, "book.xlsx") || !strings.Contains(got, "sheets: Sales, Targets") {
		t.Errorf("the glance names the file as %q, want its sheets", got)
	}
	labels := b.evalStrings(t, `[...document.querySelectorAll('#glance p.label')].map(p => p.textContent)`)
	heads := b.evalStrings(t, `[...document.querySelectorAll('#glance table')].map(t => [...t.querySelectorAll('th')].map(th => th.textContent).join(','))`)
	if strings.Join(labels, "|") != "Sales|Targets" || len(heads) != 2 ||
		!strings.HasPrefix(heads[0], "regiontext,revenue") || !strings.HasPrefix(heads[1], "regiontext,target") || !strings.Contains(heads[1], "owner") {
		t.Errorf("the sheets show as %q with columns %q", labels, heads)
	}
	if got := b.evalString(t, `document.querySelectorAll('#glance table')[1].querySelector('tbody tr').textContent`); got != "North100Ann" {
		t.Errorf("the Targets sheet's first row shows %q", got)
	}
	b.screenshot(t, "69-workbook")
	b.noPageErrors(t)
}
