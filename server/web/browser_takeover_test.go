package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sift-agent/sift/server/web"
)

// TestBrowserShowsTakeover: a run a draining worker paused and handed
// back goes on on another worker: the page says so (the takeover event's
// text) and ends done, not paused.
func TestBrowserShowsTakeover(t *testing.T) {
	chromium := needChromium(t)
	mux := http.NewServeMux()
	mux.Handle("/", web.Handler())
	mux.HandleFunc("GET /v1/sessions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"sessions":[]}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := newBrowser(t, chromium)
	b.do(t, "open the app", chromedp.Navigate(srv.URL+"/"))
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[map[string]any](`(async () => {
		const { RunView } = await import('./run.js');
		const div = document.createElement('div');
		document.body.append(div);
		const v = new RunView(div, { image() {}, link() {}, blob: async () => new Blob([]), answer: async () => {}, onStatus() {}, onUsage() {}, modelless: false });
		v.handle({ kind: 'session' });
		v.handle({ kind: 'paused', text: 'paused before step 2' });
		v.handle({ kind: 'done', text: 'paused' });
		v.handle({ kind: 'takeover', text: 'worker w3 goes on with the run that worker w2 paused and handed back as it shut down' });
		v.handle({ kind: 'session' });
		v.handle({ kind: 'done' });
		return { text: div.innerText, status: v.status };
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if text := got["text"].(string); !strings.Contains(text, "worker w3 goes on with the run") || got["status"] != "done" {
		t.Errorf("after a takeover the page shows (status %v):\n%s", got["status"], text)
	}
	b.noPageErrors(t)
}
