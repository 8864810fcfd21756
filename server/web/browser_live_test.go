package web_test

// Real-browser tests of what a person sees while they wait and before
// they ask: the live status line with its clock and the meter during each
// model call, the data at a glance after an upload, example and next
// questions, the model's name, the sessions list, and refusals by cause.

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/server/web"
)

// gates hold scripted replies until the test lets them go.
type gates struct {
	mu      sync.Mutex
	reached map[string]chan struct{}
	release map[string]chan struct{}
	once    map[string]*sync.Once
}

func newGates(names ...string) *gates {
	g := &gates{reached: map[string]chan struct{}{}, release: map[string]chan struct{}{}, once: map[string]*sync.Once{}}
	for _, n := range names {
		g.reached[n], g.release[n], g.once[n] = make(chan struct{}), make(chan struct{}), &sync.Once{}
	}
	return g
}

// hold is a reply that waits at gate name before answering with msg.
func (g *gates) hold(name string, msg *schema.Message) scripted.Reply {
	return scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
		close(g.reached[name])
		<-g.release[name]
		return msg, nil
	}}
}

// midway is a reply that streams its first piece, then waits at gate
// name before sending the rest.
func (g *gates) midway(name string, msg *schema.Message) scripted.Reply {
	return scripted.Reply{Message: msg, Midway: func() {
		close(g.reached[name])
		<-g.release[name]
	}}
}

func (g *gates) wait(t *testing.T, name string) {
	t.Helper()
	select {
	case <-g.reached[name]:
	case <-time.After(browserTimeout):
		t.Fatalf("the run never reached %s", name)
	}
}

func (g *gates) open(name string) { g.once[name].Do(func() { close(g.release[name]) }) }

func (g *gates) openAll() {
	for n := range g.release {
		g.open(n)
	}
}

// While the model plans, writes code, re-plans and writes the report, the
// page says so with a clock that runs, and the meter counts each call as it
// ends; the header names the model; the data shows at a glance after the
// upload with questions to try; the finished run offers next questions
// that ask themselves.
func TestBrowserLiveStatusDuringEveryWait(t *testing.T) {
	chromium := needChromium(t)
	g := newGates("plan", "code", "replan", "report")
	script := scripted.New(
		g.hold("plan", scripted.ToolCall("create_plan", `{"steps":[{"index":1,"description":"Find the top region"}]}`)),
		g.hold("code", scripted.Text("North sells most.")),
		g.hold("replan", scripted.ToolCall("submit_result", `{"answer":"North sells most."}`)),
		g.midway("report", scripted.Text("# Regions\n\nNorth sells most [step 1], well ahead of the rest.\n\n## What follows\n\nSouth and East sell less; West least of all.")),
	)
	srv := startServeScripted(t, script, nil, "--python-mode", "process")
	t.Cleanup(g.openAll)
	b := newBrowser(t, chromium)

	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.waitJS(t, "the header names the model", `document.getElementById('model-note').textContent === 'Model: scripted'`)
	b.do(t, "choose the data", chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}))
	b.waitJS(t, "the data shows at a glance", `document.querySelectorAll('#glance table tbody tr').length > 0`)
	cols := b.evalStrings(t, `[...document.querySelectorAll('#glance th')].map(th => th.textContent)`)
	if len(cols) == 0 || !strings.Contains(strings.Join(cols, " "), "revenue") || !strings.Contains(strings.Join(cols, " "), "float") {
		t.Errorf("the glance's columns %q do not name sales.csv's columns with their types", cols)
	}
	examples := b.evalStrings(t, `[...document.querySelectorAll('#example-list button')].map(b => b.textContent)`)
	if len(examples) == 0 {
		t.Fatal("no example questions after the upload")
	}
	b.do(t, "pick an example", chromedp.Click(chromedp.CSS(`#example-list button`)))
	if got := b.evalString(t, `document.getElementById('question').value`); got != examples[0] {
		t.Errorf("the example filled the question with %q, want %q", got, examples[0])
	}
	b.screenshot(t, "61-glance")
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.waitJS(t, "the wide glance table says it scrolls", `document.querySelector('#glance .table-wrap').classList.contains('scrolls')`)
	b.viewportShot(t, "61-glance-390")
	b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))

	b.do(t, "ask in plan mode",
		chromedp.Evaluate[chromedp.Void](`document.getElementById('question').value = ''`),
		chromedp.SendKeys(chromedp.ID("question"), "which region sells most?"),
		chromedp.Click(chromedp.CSS(".options summary")),
		chromedp.SetValue(chromedp.ID("mode"), "plan"),
		chromedp.Click(chromedp.ID("ask")),
	)
	calls := 0
	for _, w := range []struct{ gate, says string }{
		{"plan", "Planning"},
		{"code", "Writing code for step 1"},
		{"replan", "Re-planning after step 1"},
		{"report", "Writing the report"},
	} {
		g.wait(t, w.gate)
		b.waitJS(t, "the status line says "+w.says, `document.querySelector('.status-line:not([hidden]) .status-text')?.textContent === '`+w.says+`…'`)
		// The clock runs while the call is held.
		first := b.evalString(t, `document.querySelector('.status-line .status-clock').textContent`)
		b.waitJS(t, "the clock of "+w.says+" moves", `document.querySelector('.status-line .status-clock').textContent !== '`+first+`'`)
		// Every call that ended is counted already.
		if got := meterCalls(t, b); got != script.Calls()-1 {
			t.Errorf("while %s the meter shows %d model calls, want the %d that ended", w.says, got, script.Calls()-1)
		}
		if w.gate == "report" {
			// The report shows as it is written: its first piece now, the
			// rest once the model sends it.
			b.waitJS(t, "the report's first piece shows", `document.querySelector('.run .report[data-writing] .md h1, .run .report[data-writing] .md h2, .run .report[data-writing] .md h3')?.textContent === 'Regions'`)
			if got := b.evalString(t, `document.querySelector('.run .report .md').textContent`); strings.Contains(got, "West least") {
				t.Errorf("the report shows its end before the model wrote it: %q", got)
			}
			// No heading over nothing: the report's Files wait for a file.
			if got := b.evalStrings(t, emptyHeadings); len(got) > 0 {
				t.Errorf("headings with nothing under them show while the report is written: %q", got)
			}
			b.screenshot(t, "65-report-writing")
			b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
			b.screenshot(t, "65-report-writing-390")
			b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))
		}
		if w.gate == "code" {
			// On a phone with its keyboard open, with the run's work
			// reaching below the screen, the status line stays in sight.
			b.do(t, "short phone", chromedp.EmulateViewport(390, 300, chromedp.EmulateScale(2)),
				chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			b.waitJS(t, "the run reaches below the screen", `document.querySelector('.run').getBoundingClientRect().bottom > innerHeight`)
			if !b.evalBool(t, `(r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector('.status-line').getBoundingClientRect())`) {
				t.Error("on a short phone screen the status line is out of sight")
			}
			b.viewportShot(t, "62-code-short-phone")
			b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))
		}
		if w.gate == "plan" {
			b.screenshot(t, "62-planning")
			b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
			b.viewportShot(t, "62-planning-390")
			b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))
		}
		calls = script.Calls()
		g.open(w.gate)
	}
	b.runEnds(t, "the run finishes")
	if got := b.evalString(t, `document.querySelector('.run .report .md').textContent`); !strings.Contains(got, "West least of all") || strings.Count(got, "Regions") != 1 {
		t.Errorf("the finished report is not shown once, whole: %q", got)
	}
	if b.evalBool(t, `document.querySelector('.run .report').hasAttribute('data-writing')`) {
		t.Error("the finished report still says it is being written")
	}
	if !b.evalBool(t, `document.querySelector('.run .report h4').checkVisibility() && document.querySelector('.run .report .downloads li') !== null`) {
		t.Error("the finished report does not list its files under Files")
	}
	if !b.evalBool(t, `document.querySelector('.status-line').hidden`) {
		t.Error("the status line stays after the run ended")
	}
	if got := meterCalls(t, b); got != calls {
		t.Errorf("the meter shows %d calls at the end, want %d", got, calls)
	}
	next := b.evalStrings(t, `[...document.querySelectorAll('.run .next button')].map(b => b.textContent)`)
	if len(next) == 0 {
		t.Fatal("the finished run offers no next questions")
	}
	b.screenshot(t, "63-next-questions")
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.screenshot(t, "63-next-questions-390")
	b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))
	// A next question asks itself: a built-in analysis answers it.
	b.do(t, "ask the next question", chromedp.Click(chromedp.CSS(`.run .next button`)))
	b.waitJS(t, "the next question runs and finishes", `document.querySelectorAll('.run').length === 2 && document.querySelectorAll('.run')[1].dataset.status === 'done'`)
	if got := b.evalString(t, `document.querySelectorAll('.run')[1].querySelector('.run-q').textContent`); got != next[0] {
		t.Errorf("the second run asks %q, want the chip's %q", got, next[0])
	}
	b.noPageErrors(t)
}

// emptyHeadings are the report's visible headings with nothing under them.
const emptyHeadings = `[...document.querySelectorAll('.run .report h4')]
	.filter(h => h.checkVisibility() && !h.nextElementSibling?.childElementCount).map(h => h.textContent)`

// A file that cannot be analysed is refused when it is chosen, named, with
// its cause and fix in one sentence; a file over the server's limit is
// refused before it is sent; sizes are in MiB, as the limit is.
func TestBrowserRefusesBadFilesByCause(t *testing.T) {
	chromium := needChromium(t)
	srv := startServe(t, "--max-upload", "1")
	b := newBrowser(t, chromium)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	elf, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.waitJS(t, "the config is loaded", `document.getElementById('model-note').textContent !== ''`)
	for _, tt := range []struct {
		file string
		data []byte
		says []string
	}{
		{"empty.csv", nil, []string{"empty.csv is empty", "upload the file that holds your data"}},
		{"data.csv", elf[:8192], []string{"data.csv is not a data file", "export your data as CSV"}},
		{"report.xlsx", elf[:8192], []string{"report.xlsx is not a workbook", "save it as .xlsx or .csv"}},
		{"big.csv", []byte(strings.Repeat("a,b\n", 400000)), []string{"1.5 MiB", "limit of 1 MiB"}},
	} {
		p := write(tt.file, tt.data)
		b.do(t, "choose "+tt.file, chromedp.SetUploadFiles(chromedp.ID("files"), []string{p}))
		b.waitJS(t, "the refusal of "+tt.file, `!document.getElementById('notice').hidden && document.getElementById('notice').textContent.includes('`+tt.says[0]+`')`)
		msg := b.evalString(t, `document.getElementById('notice').textContent`)
		for _, w := range tt.says {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tt.file, msg, w)
			}
		}
		if strings.Contains(msg, "Params") || strings.Contains(msg, "needs a model") || len(msg) > 300 {
			t.Errorf("%s: not one sentence by cause: %q", tt.file, msg)
		}
		if tt.file == "big.csv" {
			if got := b.evalString(t, `document.querySelector('#file-list li').textContent`); !strings.Contains(got, "MiB") {
				t.Errorf("the file list shows %q, want MiB", got)
			}
		} else if got := b.evalString(t, `document.querySelector('#file-list li.refused')?.textContent || ''`); !strings.HasPrefix(got, tt.file) || !strings.Contains(got, "refused") {
			// The refused file is marked where it is listed, not left
			// there as if it were fine.
			t.Errorf("%s: the file list shows %q, want it marked refused", tt.file, got)
		}
		// The page's own button chooses files: the browser's picker, which
		// says "No file chosen" beside the listed file, stays out of sight.
		if !b.evalBool(t, `document.getElementById('files').getBoundingClientRect().width <= 1 && document.getElementById('pick').checkVisibility() && document.getElementById('pick').textContent === 'Add files'`) {
			t.Errorf("%s: the browser's file picker shows beside the chosen file, or the page's button does not offer to add files", tt.file)
		}
		if tt.file == "data.csv" {
			b.screenshot(t, "64-not-data")
			b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
			b.viewportShot(t, "64-not-data-390")
			b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))
		}
		b.do(t, "remove "+tt.file, chromedp.Click(chromedp.CSS(`#file-list li button`)))
	}
	b.noPageErrors(t)
}

// The sessions list follows what happens elsewhere: a session started in
// another tab (here, through the API) appears with its question, its file
// and its status, which changes as its run ends; an open session shows
// the questions asked in it elsewhere.
func TestBrowserSessionListIsLive(t *testing.T) {
	chromium := needChromium(t)
	srv := startServe(t)
	b := newBrowser(t, chromium)
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.waitJS(t, "the empty list", `!document.getElementById('session-empty').hidden`)

	id := srv.createAndAsk(t, exampleFile(t, "sales.csv"), "monthly revenue trend")
	b.waitJS(t, "the other tab's session appears, done", `[...document.querySelectorAll('#session-list a')].some(a =>
		a.getAttribute('href') === '#s=`+id+`' && a.textContent.includes('monthly revenue trend') &&
		a.querySelector('.session-files')?.textContent === 'sales.csv' && a.querySelector('.badge').textContent === 'done')`)

	// Opened here, the session shows a question asked in it elsewhere,
	// even one that ended before this page looked again.
	b.do(t, "open it", chromedp.Click(chromedp.CSS(`#session-list a[href="#s=`+id+`"]`)))
	b.runEnds(t, "its run shows")
	run, _ := json.Marshal(map[string]string{"question": "top regions by revenue"})
	srv.post(t, "/v1/sessions/"+id+"/runs", "application/json", bytes.NewReader(run), nil)
	b.waitJS(t, "the other tab's follow-up shows, done", `document.querySelectorAll('.run').length === 2 &&
		document.querySelectorAll('.run')[1].dataset.status === 'done' &&
		document.querySelectorAll('.run')[1].querySelector('.run-q').textContent === 'top regions by revenue'`)
	b.noPageErrors(t)
}

// createAndAsk creates a session with file through the API and asks q in
// it, as another tab would; it returns the session's id.
func (p *serveProc) createAndAsk(t *testing.T, file, q string) string {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("file", filepath.Base(file))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = w.Close()
	var created struct{ ID string }
	p.post(t, "/v1/sessions", w.FormDataContentType(), &body, &created)
	run, _ := json.Marshal(map[string]string{"question": q})
	p.post(t, "/v1/sessions/"+created.ID+"/runs", "application/json", bytes.NewReader(run), nil)
	return created.ID
}

func (p *serveProc) post(t *testing.T, path, contentType string, body io.Reader, out any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, p.url+path, body)
	req.Header.Set("Content-Type", contentType)
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("POST %s: %s: %s", path, res.Status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("POST %s: %v: %s", path, err, b)
		}
	}
}

// A failed step shows its error's last line, the traceback behind a
// toggle and none of the hints meant for the model; a run stopped on
// purpose reads as stopped, in plain words; the run's bookkeeping notes
// and the Python tool's "stdout:" label never show.
func TestBrowserFailuresInPlainWords(t *testing.T) {
	chromium := needChromium(t)
	// The page only, with an empty session list: the app lists sessions at
	// start and every few seconds, and a 404 there is a page error (it
	// failed this test whenever the list was asked before the check).
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
		const step = { index: 1, description: 'Load', status: 'doing' };
		v.handle({ kind: 'session' });
		v.handle({ kind: 'message', agent: 'sift', text: 'Follow-up in session X keeps 1 earlier step; the Python state is rebuilt by replaying 1 earlier cell.' });
		v.handle({ kind: 'step_started', step });
		v.handle({ kind: 'tool_call', tool: 'python', tool_call_id: 'c1', agent: 'code_agent', args: '{"code":"1/0"}', step });
		v.handle({ kind: 'tool_result', tool: 'python', tool_call_id: 'c1', agent: 'code_agent', step,
			text: 'Traceback (most recent call last):\n  File "<cell>", line 1, in <module>\nZeroDivisionError: division by zero\nHint: check the divisor before dividing' });
		v.handle({ kind: 'step_finished', step: { index: 2, description: 'Count', status: 'done', summary: 'Counted the rows:\nstdout:\n504 rows' } });
		v.handle({ kind: 'error', text: 'run failed: interrupted: context canceled' });
		v.handle({ kind: 'done', text: 'run failed: interrupted: context canceled' });
		return {
			failure: [...div.querySelectorAll('.failure')].map((p) => p.textContent).join('|'),
			tracebackOpen: div.querySelector('.result-wrap details')?.open ?? null,
			tracebacks: div.querySelectorAll('pre.traceback').length,
			text: div.innerText,
			status: v.status,
		};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got["failure"] != "ZeroDivisionError: division by zero" || got["tracebacks"] != float64(1) || got["tracebackOpen"] != false {
		t.Errorf("the failed cell shows %q, %v tracebacks (open %v); want its last line and one folded traceback", got["failure"], got["tracebacks"], got["tracebackOpen"])
	}
	text := got["text"].(string)
	if !strings.Contains(text, "Counted the rows:\n504 rows") {
		t.Errorf("step 2's summary does not show its output:\n%s", text)
	}
	for _, bad := range []string{"Hint:", "context canceled", "run failed", "replaying", "earlier cell", "stdout:"} {
		if strings.Contains(text, bad) {
			t.Errorf("the page shows %q:\n%s", bad, text)
		}
	}
	if !strings.Contains(text, "Stopped.") || got["status"] != "paused" {
		t.Errorf("a deliberate stop does not read as stopped (status %v):\n%s", got["status"], text)
	}
	b.noPageErrors(t)
}

// A run that waits for a free slot says so, with its place in the queue
// and a clock, until it starts.
func TestBrowserWaitingInTheQueue(t *testing.T) {
	chromium := needChromium(t)
	g := newGates("plan", "plan2")
	run := func(gate, topic string) []scripted.Reply {
		plan := reply("create_plan", planOf("Look at "+topic))
		if gate != "" {
			plan = g.hold(gate, plan.Message)
		}
		r := []scripted.Reply{plan}
		r = append(r, wordStep("Looked at "+topic+".")...)
		return append(r, reply("submit_result", map[string]any{"answer": topic}), say("# "+topic+"\n\nLooked at "+topic+" [step 1]."))
	}
	// The other tab's run, the page's, the other tab's second, the page's
	// follow-up: one at a time.
	var r []scripted.Reply
	for _, x := range [][2]string{{"plan", "regions"}, {"", "months"}, {"plan2", "products"}, {"", "weeks"}} {
		r = append(r, run(x[0], x[1])...)
	}
	script := scripted.New(r...)
	srv := startServeScripted(t, script, nil, "--python-mode", "process", "--max-runs", "1")
	t.Cleanup(g.openAll)
	b := newBrowser(t, chromium)

	// Another tab's run takes the one slot and holds it.
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("file", "sales.csv")
	data, err := os.ReadFile(exampleFile(t, "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = w.Close()
	var other struct{ ID string }
	srv.post(t, "/v1/sessions", w.FormDataContentType(), &body, &other)
	otherAsks := func(q string) {
		ask, _ := json.Marshal(map[string]string{"question": q, "mode": "plan"})
		srv.post(t, "/v1/sessions/"+other.ID+"/runs", "application/json", bytes.NewReader(ask), nil)
	}
	otherAsks("look at the regions")
	g.wait(t, "plan")

	askInPage(t, b, srv, "look at the months", false)
	b.waitJS(t, "the status line says the run waits in the queue", `document.querySelector('.status-line:not([hidden]) .status-text')?.textContent === 'Waiting in the queue (#1)…'`)
	if got := b.evalString(t, `document.getElementById('status').textContent`); got != "queued: #1" {
		t.Errorf("the session's badge says %q, want queued: #1", got)
	}
	// Nothing has started to pause (the server refuses): no Pause button.
	if !b.evalBool(t, `document.getElementById('pause').hidden`) {
		t.Error("a queued run offers Pause")
	}
	first := b.evalString(t, `document.querySelector('.status-line .status-clock').textContent`)
	b.waitJS(t, "the queue's clock moves", `document.querySelector('.status-line .status-clock').textContent !== '`+first+`'`)
	b.screenshot(t, "67-queued")
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.viewportShot(t, "67-queued-390")
	b.do(t, "desktop width", chromedp.EmulateViewport(1280, 800))

	g.open("plan")
	b.runEnds(t, "the queued run starts and finishes")
	if got := b.evalString(t, `document.querySelector('.run .report .md').textContent`); !strings.Contains(got, "Looked at months") {
		t.Errorf("the page's run reports %q", got)
	}
	// The run goes on in the view that showed it waiting, which no longer
	// says it waits.
	if n := b.evalString(t, `String(document.querySelectorAll('.run').length)`); n != "1" {
		t.Errorf("the page shows %s runs, want the one", n)
	}
	if got := b.evalStrings(t, `[...document.querySelectorAll('.status-line:not([hidden])')].map(s => s.textContent)`); len(got) > 0 {
		t.Errorf("a status line stays after the run ended: %q", got)
	}

	// A follow-up that waits does so in a view of its own: the finished
	// run above it stays finished.
	b.waitJS(t, "the other tab's run is done", `[...document.querySelectorAll('.session-link .badge')].every(b => b.textContent === 'done')`)
	otherAsks("look at the products")
	g.wait(t, "plan2")
	b.do(t, "ask a follow-up",
		chromedp.SendKeys(chromedp.ID("followup"), "look at the weeks"),
		chromedp.Click(chromedp.ID("followup-ask")))
	b.waitJS(t, "the follow-up waits in the queue", `document.querySelectorAll('.run').length === 2 && document.querySelectorAll('.run')[1].querySelector('.status-line:not([hidden]) .status-text')?.textContent === 'Waiting in the queue (#1)…'`)
	if got := b.evalString(t, `document.querySelector('.run').dataset.status`); got != "done" {
		t.Errorf("while the follow-up waits, the first run says %q", got)
	}
	g.open("plan2")
	b.waitJS(t, "the follow-up runs and finishes", `document.querySelectorAll('.run')[1]?.dataset.status === 'done'`)
	if got := b.evalStrings(t, `[...document.querySelectorAll('.run')].map(r => r.dataset.status + ': ' + r.querySelector('.report .md').textContent.trim())`); len(got) != 2 || !strings.Contains(got[0], "done: months") || !strings.Contains(got[1], "done: weeks") {
		t.Errorf("the runs show %q, want the question's and the follow-up's, done", got)
	}
	if got := b.evalStrings(t, `[...document.querySelectorAll('.status-line:not([hidden])')].map(s => s.textContent)`); len(got) > 0 {
		t.Errorf("a status line stays after the follow-up ended: %q", got)
	}
	b.noPageErrors(t)
}

// A question asked in Chinese is answered in Chinese: the report's
// headings and answer, and the next questions it offers (here by the
// built-in analyses, with no model).
func TestBrowserChineseQuestionGetsAChineseReport(t *testing.T) {
	chromium := needChromium(t)
	srv := startServe(t)
	b := newBrowser(t, chromium)
	b.do(t, "ask in Chinese",
		chromedp.Navigate(srv.url+"/"),
		chromedp.WaitVisible(chromedp.ID("question")),
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
		chromedp.SendKeys(chromedp.ID("question"), "每个月的收入趋势如何？"),
		chromedp.Click(chromedp.ID("ask")),
	)
	b.runEnds(t, "the run finishes")
	b.waitJS(t, "the report's chart renders", `[...document.querySelectorAll('.run .report img')].some(i => i.complete && i.naturalWidth > 0)`)
	han := func(s string) bool {
		for _, r := range s {
			if r >= 0x4e00 && r <= 0x9fff {
				return true
			}
		}
		return false
	}
	heads := b.evalStrings(t, `[...document.querySelectorAll('.run .report .md :is(h1, h2, h3)')].map(h => h.textContent)`)
	if len(heads) == 0 {
		t.Fatal("the report has no headings")
	}
	for _, h := range heads {
		if !han(h) {
			t.Errorf("the report's heading %q is not in Chinese (all: %q)", h, heads)
		}
	}
	// The answer names the peak month (July) in Chinese.
	if got := b.evalString(t, `document.querySelector('.run .report .md').textContent`); !strings.Contains(got, "最高在 2024-07") {
		t.Errorf("the report does not answer in Chinese with the peak month: %q", got)
	}
	next := b.evalStrings(t, `[...document.querySelectorAll('.run .next button')].map(b => b.textContent)`)
	if len(next) == 0 {
		t.Fatal("no next questions")
	}
	for _, q := range next {
		if !han(q) {
			t.Errorf("the next question %q is not in Chinese", q)
		}
	}
	b.screenshot(t, "68-report-zh")
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.viewportShot(t, "68-report-zh-390")
	b.noPageErrors(t)
}

// While a tool works, the status line names it and its step: Python, SQL
// or a built-in analysis; when the tool answers, the wait before it (the
// model's) shows again, and a run that ends shows none.
func TestBrowserStatusLineNamesToolWaits(t *testing.T) {
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
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`(async () => {
		const { RunView } = await import('./run.js');
		const div = document.createElement('div');
		document.body.append(div);
		const v = new RunView(div, { image() {}, link() {}, blob: async () => new Blob([]), answer: async () => {}, onStatus() {}, onUsage() {}, modelless: false });
		const line = () => v.statusLine.hidden ? '(none)' : v.statusText.textContent;
		const seen = [];
		const step = { index: 2, description: 'Sum', status: 'doing' };
		v.handle({ kind: 'session' });
		v.handle({ kind: 'step_started', step });
		v.handle({ kind: 'model_started', text: 'Writing code for step 2', agent: 'code_agent', step });
		seen.push(line());
		v.handle({ kind: 'model_finished', text: 'Writing code for step 2', agent: 'code_agent', step });
		for (const tool of ['python', 'sql_query', 'run_template']) {
			v.handle({ kind: 'tool_call', tool, tool_call_id: tool, agent: 'code_agent', args: '{}', step });
			seen.push(line());
			v.handle({ kind: 'tool_result', tool, tool_call_id: tool, agent: 'code_agent', text: 'ok', step });
		}
		v.handle({ kind: 'model_started', text: 'Re-planning after step 2', agent: 'replanner' });
		v.handle({ kind: 'tool_call', tool: 'python', tool_call_id: 'p2', agent: 'code_agent', args: '{}' });
		seen.push(line());
		v.handle({ kind: 'tool_result', tool: 'python', tool_call_id: 'p2', agent: 'code_agent', text: 'ok' });
		seen.push(line());
		v.handle({ kind: 'done' });
		seen.push(line());
		return seen;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Writing code for step 2…", "Running Python for step 2…", "Running SQL for step 2…", "Running the analysis for step 2…", "Running Python for step 2…", "Re-planning after step 2…", "(none)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the status line said\n%q\nwant\n%q", got, want)
	}
	b.noPageErrors(t)
}
