package web_test

// The real-browser tests: a headless Chromium, driven by chromedp, uses the
// web app of a real `sift serve` the way a person would, and the tests check
// what the page shows against the server's files and the data itself.
//
// They need Debian's chromium (CI installs it); they skip, saying so, where
// it is missing. Screenshots go to $SIFT_TEST_ARTIFACTS, else to
// $TMPDIR/sift-browser-artifacts; each test logs where.

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/server/web"
	"github.com/sift-agent/sift/session"
)

// browserTimeout bounds each wait in the page: a stuck page fails the test
// instead of hanging it.
const browserTimeout = 90 * time.Second

func TestBrowserTemplateRunShowsChartAndNumbers(t *testing.T) {
	chromium := needChromium(t)
	srv := startServe(t, "--token", "s3cret-token")
	b := newBrowser(t, chromium)

	// The server has a token: the page asks for it before anything else.
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.do(t, "token dialog", chromedp.WaitVisible(chromedp.ID("token-dialog")))
	b.screenshot(t, "01-token")
	b.do(t, "type the token",
		chromedp.SendKeys(chromedp.ID("token"), "s3cret-token"),
		chromedp.Click(chromedp.CSS("#token-form button[type=submit]")),
	)
	b.waitJS(t, "the dialog closes once the token works", `!document.getElementById('token-dialog').open`)
	b.waitJS(t, "the config says there is no model",
		`document.getElementById('model-note').textContent.includes('No model')`)

	sales := exampleFile(t, "sales.csv")
	b.do(t, "choose the file and ask",
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{sales}),
	)
	b.waitJS(t, "the chosen file is listed", `document.querySelector('#file-list li')?.textContent.includes('sales.csv')`)
	b.do(t, "ask",
		chromedp.SendKeys(chromedp.ID("question"), "monthly revenue trend"),
	)
	b.screenshot(t, "02-start")
	b.do(t, "submit", chromedp.Click(chromedp.ID("ask")))

	b.runEnds(t, "the run finishes")
	b.waitJS(t, "the chart image renders",
		`[...document.querySelectorAll('.step img.chart')].some(i => i.complete && i.naturalWidth > 0)`)
	b.waitJS(t, "the report's chart renders",
		`[...document.querySelectorAll('.report img')].some(i => i.complete && i.naturalWidth > 0)`)
	b.waitJS(t, "the artifact table is previewed", `document.querySelector('.step .table-fig table tbody tr') !== null`)
	b.screenshot(t, "03-report")

	id := b.evalString(t, `decodeURIComponent(location.hash.replace(/^#s=/, ''))`)
	if id == "" {
		t.Fatal("the page did not open the new session (no #s=ID in its address)")
	}

	// The page's numbers: the report's table and the step's table preview.
	pageReport := b.evalTable(t, `.report .md table`)
	pagePreview := b.evalTable(t, `.step .table-fig table`)
	reportMD := srv.file(t, id, "report.md")
	reportTable := markdownTable(t, reportMD, "| month")
	if !equalTables(pageReport, reportTable) {
		t.Errorf("the page's report table differs from report.md:\npage:   %q\nreport: %q", pageReport, reportTable)
	}

	// And those numbers are right: recompute monthly revenue from the data.
	want := monthlyRevenue(t, sales)
	months := make([]string, 0, len(want))
	for m := range want {
		months = append(months, m)
	}
	sort.Strings(months)
	if len(pageReport) != len(months)+1 {
		t.Fatalf("the page's table has %d rows, want a header and %d months", len(pageReport), len(months))
	}
	for k, m := range months {
		row := pageReport[k+1]
		if row[0] != m {
			t.Errorf("row %d: month %q, want %q", k+1, row[0], m)
			continue
		}
		got, err := strconv.ParseFloat(strings.ReplaceAll(row[1], ",", ""), 64)
		if err != nil || abs(got-want[m]) > 0.01 {
			t.Errorf("%s: the page shows revenue %q, the data sums to %.2f", m, row[1], want[m])
		}
	}
	if len(pagePreview) < len(months)+1 || pagePreview[1][0] != months[0] {
		t.Errorf("the artifact preview does not list the months: %q", pagePreview)
	}

	// The step's summary is the report's answer, word for word.
	summary := b.evalString(t, `document.querySelector('.step .summary').textContent`)
	if summary == "" || !strings.Contains(reportMD, summary) {
		t.Errorf("the step's summary %q is not in report.md", summary)
	}
	if got := b.evalString(t, `document.querySelector('.step').dataset.status`); got != "done" {
		t.Errorf("step status %q, want done", got)
	}
	if got := b.evalString(t, `document.getElementById('meter-calls').textContent`); got != "0 model calls" {
		t.Errorf("meter %q, want 0 model calls (no model configured)", got)
	}

	// The same page at phone width.
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.waitJS(t, "the sessions list folds into a drawer",
		`getComputedStyle(document.getElementById('sessions-toggle')).display !== 'none'`)
	b.screenshot(t, "04-report-phone")

	// A question no built-in analysis answers says plainly it needs a model.
	b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))
	b.do(t, "ask a follow-up that needs a model",
		chromedp.SendKeys(chromedp.ID("followup"), "why did sales drop in August?"),
		chromedp.Click(chromedp.ID("followup-ask")),
	)
	b.waitJS(t, "the follow-up ends", `document.querySelectorAll('.run').length === 2 && ['failed','done'].includes(document.querySelectorAll('.run')[1].dataset.status)`)
	// One sentence with the fix, not the library's list of every
	// built-in analysis and its parameters.
	msg := b.evalString(t, `document.querySelectorAll('.run')[1].querySelector('.error')?.innerText || ''`)
	if !strings.Contains(msg, "This question needs a model") || !strings.Contains(msg, "built-in analyses") || strings.Contains(msg, "Params:") || len(msg) > 400 {
		t.Errorf("the follow-up's error does not say in one sentence that it needs a model: %q", msg)
	}
	// The header, titled by the first question, which was answered, says
	// it is the follow-up that failed.
	if got := b.evalString(t, `document.getElementById('status').textContent`); got != "follow-up failed" {
		t.Errorf("under the answered first question the header says %q, want follow-up failed", got)
	}
	b.screenshot(t, "05-needs-model")

	// A follow-up a built-in analysis answers gets its own run, and the
	// whole session comes back from its log when the page is reloaded.
	b.do(t, "ask a follow-up",
		chromedp.SendKeys(chromedp.ID("followup"), "top 5 products by revenue"),
		chromedp.Click(chromedp.ID("followup-ask")),
	)
	b.waitJS(t, "the third run finishes", `document.querySelectorAll('.run').length === 3 && document.querySelectorAll('.run')[2].dataset.status === 'done'`)
	b.waitJS(t, "its table shows", `document.querySelectorAll('.run')[2].querySelector('.report .md table tbody tr') !== null`)
	b.do(t, "reload", chromedp.Reload())
	b.waitJS(t, "the reloaded page rebuilds the three runs",
		`document.querySelectorAll('.run').length === 3 && document.querySelectorAll('.run')[2].dataset.status === 'done'`)
	b.waitJS(t, "and its charts",
		`[...document.querySelectorAll('.run')[0].querySelectorAll('.report img')].some(i => i.complete && i.naturalWidth > 0)`)
	if got := b.evalString(t, `document.querySelector('#session-list a[aria-current=page]')?.getAttribute('href') || ''`); got != "#s="+id {
		t.Errorf("the sessions list marks %q as open, want #s=%s", got, id)
	}
	if got := b.evalString(t, `document.getElementById('session-title').textContent`); got != "monthly revenue trend" {
		t.Errorf("the session is titled %q, want its first question", got)
	}
	b.screenshot(t, "06-reloaded")
	b.noPageErrors(t)
}

func TestBrowserPlanReviewApproveTicksSteps(t *testing.T) {
	chromium := needChromium(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 with pandas and matplotlib is needed for the scripted plan's code; not found")
	}
	srv := startServe(t, "--script", exampleFile(t, "../demo/script.json"))
	b := newBrowser(t, chromium)

	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	// The header names the script, not just "configured".
	b.waitJS(t, "the header names the scripted model", `document.getElementById('model-note').textContent === 'Model: scripted (script.json)'`)
	b.do(t, "ask with plan review on",
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
		chromedp.SendKeys(chromedp.ID("question"), "What is the monthly revenue trend in 2024, and which region sells most?"),
		chromedp.Click(chromedp.CSS(".options summary")),
		chromedp.SetValue(chromedp.ID("mode"), "plan"),
		chromedp.Click(chromedp.ID("review")),
		chromedp.Click(chromedp.ID("ask")),
	)
	b.waitJS(t, "the plan review appears", `document.querySelector('.interrupt .plan-edit') !== null`)
	steps := b.evalStrings(t, `[...document.querySelectorAll('.edit-steps textarea')].map(t => t.value)`)
	if len(steps) != 3 || !strings.Contains(steps[0], "input/sales.csv") {
		t.Fatalf("the review shows steps %q, want the script's three", steps)
	}
	// It says whom it waits for, in the header and the list.
	b.waitJS(t, "the session says it waits for the person", `document.getElementById('status').textContent === 'waiting for you' &&
		document.querySelector('.session-link[aria-current="page"] .badge')?.textContent === 'waiting for you'`)
	b.screenshot(t, "11-review")
	// On a phone the plan's steps fill the screen: its Approve stays in
	// sight at the bottom while any of the plan shows, without scrolling
	// past the plan to find it.
	b.do(t, "short phone", chromedp.EmulateViewport(390, 640, chromedp.EmulateScale(2)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('.interrupt').scrollIntoView({block: 'start'}); undefined`))
	if in := b.evalString(t, `(() => {
		const r = document.querySelector('.plan-edit button[data-action=approve]').getBoundingClientRect();
		return String(r.top >= 0 && r.bottom <= window.innerHeight);
	})()`); in != "true" {
		t.Errorf("at 390x640 with the plan's top in view, Approve is out of sight")
	}
	png := b.capture(t)
	_ = os.WriteFile(filepath.Join(b.artifacts, "11-review-390x640.png"), png, 0o644)
	b.do(t, "desktop again", chromedp.EmulateViewport(1280, 800))

	// Record every status each step shows from now on, to see them tick
	// one after another rather than appear finished.
	b.do(t, "watch the steps", chromedp.Evaluate[chromedp.Void](`
		window.__ticks = [];
		new MutationObserver((ms) => {
			for (const m of ms) {
				const li = m.target.closest ? m.target.closest('.step') : null;
				if (li && m.attributeName === 'data-status') window.__ticks.push(li.dataset.index + ':' + li.dataset.status);
			}
		}).observe(document.getElementById('runs'), {subtree: true, attributes: true, attributeFilter: ['data-status']});
		undefined`))
	// A pointer click lands on the point where the button was measured:
	// the desktop layout must be back and the sticky actions settled, so
	// that the button itself is what sits at its centre.
	b.waitJS(t, "the approve button is where a click lands", `innerWidth === 1280 && (() => {
		const btn = document.querySelector('.plan-edit button[data-action=approve]');
		if (!btn) return false;
		btn.scrollIntoView({block: 'center', behavior: 'instant'});
		const r = btn.getBoundingClientRect();
		return r.width > 0 && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === btn;
	})()`)
	b.do(t, "approve", chromedp.Click(chromedp.CSS(`.plan-edit button[data-action=approve]`)))
	b.runEnds(t, "the run finishes")
	b.waitJS(t, "both charts render",
		`[...document.querySelectorAll('.step img.chart')].filter(i => i.complete && i.naturalWidth > 0).length >= 2`)
	b.screenshot(t, "12-done")
	b.viewportShot(t, "13-done-1280x800")
	b.do(t, "open step 2's chart", chromedp.Click(chromedp.CSS(`.step[data-index="2"] .files summary`)))
	b.waitJS(t, "step 2's chart shows", `document.querySelector('.step[data-index="2"] img.chart').getBoundingClientRect().height > 100`)
	b.viewportShot(t, "15-step-chart-1280x800")
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.viewportShot(t, "14-done-390x844")

	ticks := b.evalStrings(t, `window.__ticks`)
	for _, i := range []string{"1", "2", "3"} {
		doing, done := indexOf(ticks, i+":doing"), indexOf(ticks, i+":done")
		if doing < 0 || done < 0 || doing > done {
			t.Errorf("step %s did not go doing then done while the page watched: %q", i, ticks)
		}
	}
	if indexOf(ticks, "1:done") > indexOf(ticks, "2:doing") || indexOf(ticks, "2:done") > indexOf(ticks, "3:doing") {
		t.Errorf("steps ticked out of order: %q", ticks)
	}
	if n := b.evalString(t, `String(document.querySelectorAll('.step[data-status=done]').length)`); n != "3" {
		t.Errorf("%s steps done, want 3", n)
	}
	code := b.evalString(t, `document.querySelector('.step[data-index="2"] pre.code')?.textContent || ''`)
	if !strings.Contains(code, "monthly_revenue.png") {
		t.Errorf("step 2 does not show the code it ran: %q", code)
	}
	answer := b.evalString(t, `document.querySelector('.report .md')?.textContent || ''`)
	if !strings.Contains(answer, "North had the highest revenue") {
		t.Errorf("the report does not give the script's answer: %q", answer)
	}
	if got := b.evalString(t, `document.getElementById('meter-calls').textContent`); got == "0 model calls" {
		t.Errorf("the meter did not count the scripted model's calls: %q", got)
	}
	b.noPageErrors(t)
}

// --- the server ---------------------------------------------------------------

type serveProc struct {
	url   string
	token string
}

// startServe builds the sift command and runs `sift serve` on a free
// loopback port, with a fresh sessions directory; the process is stopped
// when the test ends.
func startServe(t *testing.T, args ...string) *serveProc {
	t.Helper()
	return startServeEnv(t, nil, args...)
}

// startServeEnv is startServe with env added to the process's environment.
func startServeEnv(t *testing.T, env []string, args ...string) *serveProc {
	t.Helper()
	bin := buildSift(t)
	out, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
	if !strings.Contains(string(out), "--addr") {
		t.Skipf("this build's sift has no serve command yet (issue 12's API); `sift serve --help` says:\n%s", out)
	}
	addr := freeAddr(t)
	dir := t.TempDir()
	cmdArgs := append([]string{"serve", "--addr", addr, "--sessions-dir", filepath.Join(dir, "sessions")}, args...)
	cmd := exec.Command(bin, cmdArgs...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "SIFT_HOME="+dir, "SIFT_CONFIG=", "SIFT_STORE=",
		"SIFT_MODEL=", "SIFT_BASE_URL=", "SIFT_API_KEY=", "SIFT_TOKEN=", "SIFT_PRICES=")
	cmd.Env = append(cmd.Env, env...)
	log := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sift serve: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			<-exited
		}
		// What a killed server's kernel pool left (slots, mounted disks)
		// is swept as the next server there would, so the test's
		// directory can be removed.
		_, _ = operator.SweepKernelPool(filepath.Join(dir, "sessions", session.KernelPoolDir))
		if t.Failed() {
			t.Logf("sift serve's output:\n%s", log.String())
		}
	})
	p := &serveProc{url: "http://" + addr}
	for i, tok := range args {
		if tok == "--token" && i+1 < len(args) {
			p.token = args[i+1]
		}
	}
	// Wait until it answers /healthz, or fail with its output if it exits.
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-exited:
			t.Fatalf("sift serve exited before it was ready (%v):\n%s", err, log.String())
		default:
		}
		res, err := http.Get(p.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("sift serve did not answer /healthz within 30s:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond) // readiness poll of another process, not synchronisation
	}
}

// file reads a session's file through the API, as the page does.
func (p *serveProc) file(t *testing.T, id, path string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/v1/sessions/%s/files/%s", p.url, id, path), nil)
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", path, res.Status, body)
	}
	return string(body)
}

// TestMain removes the sift binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtSift != "" && os.Getenv("SIFT_BIN") == "" {
		os.RemoveAll(filepath.Dir(builtSift))
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	builtSift string
	buildErr  error
)

// buildSift builds ./cmd/sift once for the whole test binary; with
// $SIFT_BIN set it tests that prebuilt binary instead.
func buildSift(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SIFT_BIN"); p != "" {
		return p
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sift-web-test-")
		if err != nil {
			buildErr = err
			return
		}
		builtSift = filepath.Join(dir, "sift")
		cmd := exec.Command("go", "build", "-o", builtSift, "./cmd/sift")
		cmd.Dir = moduleRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/sift: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtSift
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

func exampleFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(moduleRoot(t), "examples", "data", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(p)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// --- the browser ----------------------------------------------------------------

// needChromium finds the installed browser, or skips: the tests never
// download one.
func needChromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	if p := os.Getenv("SIFT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium found: install Debian's chromium (apt-get install chromium), or set SIFT_CHROMIUM, to run the browser tests")
	return ""
}

type browser struct {
	ctx       context.Context
	artifacts string
	mu        sync.Mutex
	errs      []string
}

func newBrowser(t *testing.T, chromium string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.WindowSize(1280, 800),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	b := &browser{ctx: ctx, artifacts: artifactsDir(t)}
	if err := chromedp.Listen(ctx, b.onEvent); err != nil {
		t.Fatalf("start chromium (%s): %v", chromium, err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	t.Logf("screenshots of %s go to %s", t.Name(), b.artifacts)
	return b
}

// onEvent keeps the page's uncaught exceptions and console errors: a test
// fails on any, since they mean the app broke where nobody looked.
func (b *browser) onEvent(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg = "exception: " + e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, string(a.Value)+a.Description)
		}
		msg = "console.error: " + strings.Join(parts, " ")
	default:
		return
	}
	b.mu.Lock()
	b.errs = append(b.errs, msg)
	b.mu.Unlock()
}

func (b *browser) noPageErrors(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errs {
		t.Errorf("the page logged an error: %s", e)
	}
}

func (b *browser) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.screenshot(t, "failed")
		t.Fatalf("%s: %v%s", what, err, b.pageErrors())
	}
}

// waitJS waits, by polling in the page, until the expression is true.
func (b *browser) waitJS(t *testing.T, what, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserTimeout)
	defer cancel()
	start := time.Now()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(browserTimeout)))
	if err != nil {
		b.screenshot(t, "failed")
		text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById('main').innerText`))
		// What was waited for comes last: a run's log keeps only the
		// tail of a long page.
		t.Fatalf("the page says:\n%s%s\nwaiting for %s: %v after %v", text, b.pageErrors(), what, err, time.Since(start).Round(time.Millisecond))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Logf("waiting for %s took %v", what, d.Round(time.Millisecond))
	}
}

// runEnds waits until the page's first run is done, and fails at once,
// with what the page says, when it failed: a failed run is not waited on
// for the whole timeout. (A run waiting for the person or paused is not
// an end: the tests answer it, or the server moves it on.)
func (b *browser) runEnds(t *testing.T, what string) {
	t.Helper()
	b.waitJS(t, what, `['done', 'failed'].includes(document.querySelector('.run')?.dataset.status)`)
	if status := b.evalString(t, `document.querySelector('.run').dataset.status`); status != "done" {
		b.screenshot(t, "failed")
		text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById('main').innerText`))
		t.Fatalf("the page says:\n%s%s\n%s: the run ended %s, want done", text, b.pageErrors(), what, status)
	}
}

func (b *browser) pageErrors() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errs) == 0 {
		return ""
	}
	return "\npage errors:\n" + strings.Join(b.errs, "\n")
}

func (b *browser) evalString(t *testing.T, expr string) string {
	t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return s
}

func (b *browser) evalStrings(t *testing.T, expr string) []string {
	t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return s
}

// evalTable reads the first table matching the selector as rows of cell
// texts, header first.
func (b *browser) evalTable(t *testing.T, selector string) [][]string {
	t.Helper()
	rows, err := chromedp.Run(b.ctx, chromedp.Evaluate[[][]string](fmt.Sprintf(
		`[...(document.querySelector(%q)?.rows || [])].map(r => [...r.cells].map(c => c.textContent.trim()))`, selector)))
	if err != nil {
		t.Fatalf("read table %s: %v", selector, err)
	}
	return rows
}

// screenshot saves the page as NAME.png in the artifacts directory.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	// From the top: a full-page capture of a scrolled page draws the
	// sticky header in the middle.
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(b.artifacts, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Logf("save screenshot: %v", err)
	}
}

// viewportShot saves what a person sees without scrolling.
// capture is a screenshot of the viewport where it is scrolled now.
func (b *browser) capture(t *testing.T) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot: %v", err)
	}
	return png
}

func (b *browser) viewportShot(t *testing.T, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(b.artifacts, name+".png"), png, 0o644); err != nil {
		t.Logf("save screenshot: %v", err)
	}
}

func artifactsDir(t *testing.T) string {
	t.Helper()
	root := os.Getenv("SIFT_TEST_ARTIFACTS")
	if root == "" {
		root = filepath.Join(os.TempDir(), "sift-browser-artifacts")
	}
	dir := filepath.Join(root, t.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// --- checking the numbers ----------------------------------------------------------

// markdownTable reads the Markdown table whose header row starts with
// prefix, as rows of trimmed cells (the separator row left out).
func markdownTable(t *testing.T, md, prefix string) [][]string {
	t.Helper()
	var rows [][]string
	in := false
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if !in && strings.HasPrefix(line, prefix) {
			in = true
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		if regexp.MustCompile(`^\|[\s:|-]+\|$`).MatchString(line) {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("no table starting %q in:\n%s", prefix, md)
	}
	return rows
}

func equalTables(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

// monthlyRevenue sums the revenue column of the sales example per month.
func monthlyRevenue(t *testing.T, path string) map[string]float64 {
	return revenueBy(t, path, func(row map[string]string) string { return row["date"][:7] })
}

// topRegion is the region with the most revenue in the sales example.
func topRegion(t *testing.T, path string) string {
	best, top := "", 0.0
	for region, v := range revenueBy(t, path, func(row map[string]string) string { return row["region"] }) {
		if v > top {
			best, top = region, v
		}
	}
	return best
}

// revenueBy sums the revenue column of the sales example by key(row).
func revenueBy(t *testing.T, path string, key func(row map[string]string) string) map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for _, r := range rows[1:] {
		row := map[string]string{}
		for k, name := range rows[0] {
			row[name] = r[k]
		}
		v, err := strconv.ParseFloat(row["revenue"], 64)
		if err != nil {
			t.Fatalf("revenue %q: %v", row["revenue"], err)
		}
		sums[key(row)] += v
	}
	return sums
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// The report renderer turns Markdown from the model into nodes, never
// markup: HTML in a report shows as text, scripts and handlers never run,
// and only http(s) links and workspace files become links.
func TestBrowserMarkdownRendersTextOnly(t *testing.T) {
	chromium := needChromium(t)
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	b := newBrowser(t, chromium)
	b.do(t, "open the app", chromedp.Navigate(srv.URL+"/"))
	const md = "# Title <b>x</b>\n\n" +
		"Hello <img src=x onerror=\"window.__pwned=1\"> and <script>window.__pwned=2</script> **bold** in out/monthly_revenue.csv\n\n" +
		"| a | b |\n|---|---:|\n| 1 | <i>2</i> |\n\n" +
		"[bad](javascript:window.__pwned=3) [ok](https://example.com) [file](out/x.csv) ![c](out/c.png) ![ext](https://example.com/t.png)\n"
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[map[string]any](fmt.Sprintf(`(async () => {
		const { renderMarkdown } = await import('./markdown.js');
		const linked = [], images = [];
		const div = document.createElement('div');
		div.append(renderMarkdown(%q, {
			link: (p, a) => { linked.push(p); a.href = '#'; },
			image: (p, img) => { images.push(p); },
		}));
		document.body.append(div);
		return {
			pwned: window.__pwned || 0,
			elements: [...div.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()).join(' '),
			h: div.querySelector('h3')?.textContent,
			text: div.querySelector('p').textContent,
			cell: div.querySelector('td:last-child')?.textContent,
			hrefs: [...div.querySelectorAll('a')].map((a) => a.getAttribute('href')).join(' '),
			linked: linked.join(' '), images: images.join(' '),
		};
	})()`, md), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got["pwned"] != float64(0) {
		t.Errorf("markup in the report ran: __pwned = %v", got["pwned"])
	}
	// No element but the ones Markdown asks for: no script, no img from
	// the raw tag, no b or i from the table cell.
	for _, tag := range []string{"script", "b", "i"} {
		if regexp.MustCompile(`\b` + tag + `\b`).MatchString(got["elements"].(string)) {
			t.Errorf("a <%s> element was made from the report's text: %s", tag, got["elements"])
		}
	}
	want := map[string]any{
		"h":      "Title <b>x</b>",
		"text":   `Hello <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> bold in out/monthly_revenue.csv`,
		"cell":   "<i>2</i>",
		"hrefs":  "https://example.com #",
		"linked": "out/x.csv",
		"images": "out/c.png",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
}

// A question the run asks comes with its choices as buttons; picking one
// answers it and the run goes on to its report.
func TestBrowserQuestionAnsweredByChoice(t *testing.T) {
	chromium := needChromium(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 with pandas is needed for the scripted plan's code; not found")
	}
	script := filepath.Join(t.TempDir(), "ask.json")
	if err := os.WriteFile(script, []byte(`{"name": "asks which measure", "replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Find the top region"}]}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Which measure?","choices":["revenue","units"]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nby = df.groupby('region')['revenue'].sum()\nprint('TOP', by.idxmax())"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Top region: {{line:TOP}}"}}]},
 {"content":"# Sales\n\nTop region: {{line:TOP}} [step 1]."}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, "--script", script)
	b := newBrowser(t, chromium)
	b.do(t, "open the app and ask",
		chromedp.Navigate(srv.url+"/"),
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
		chromedp.SendKeys(chromedp.ID("question"), "which region sells most?"),
		chromedp.Click(chromedp.CSS(".options summary")),
		chromedp.SetValue(chromedp.ID("mode"), "plan"),
		chromedp.Click(chromedp.ID("ask")),
	)
	b.waitJS(t, "the question appears with its choices", `document.querySelectorAll('.interrupt .choices button').length === 2`)
	if got := b.evalString(t, `document.querySelector('.interrupt .prompt').textContent`); got != "Which measure?" {
		t.Errorf("the page asks %q, want the script's question", got)
	}
	b.screenshot(t, "21-question")
	b.do(t, "pick revenue", chromedp.Click(chromedp.CSS(`.interrupt .choices button:first-child`)))
	b.runEnds(t, "the run finishes")
	b.waitJS(t, "the question is gone", `document.querySelector('.interrupt') === null`)
	report := b.evalString(t, `document.querySelector('.report .md').textContent`)
	if top := topRegion(t, exampleFile(t, "sales.csv")); !strings.Contains(report, "Top region: "+top) {
		t.Errorf("the report after the answer: %q, want the top region of the data (%s)", report, top)
	}
	// The step's output shows once, though the code agent repeats what
	// its Python printed.
	if n := b.evalString(t, `String([...document.querySelectorAll('.run pre.result, .run .message')].filter(p => p.textContent.includes('TOP')).length)`); n != "1" {
		t.Errorf("step 1's output shows %s times, want once; the run shows:\n%s", n, b.evalString(t, `(d => { document.querySelectorAll('details').forEach(x => x.open = true); return document.querySelector('.run').innerText; })()`))
	}
	b.screenshot(t, "22-answered")
	b.noPageErrors(t)
}
