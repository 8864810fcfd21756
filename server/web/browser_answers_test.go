package web_test

// Real-browser tests of what a person answers and controls in the page:
// editing and rejecting a plan, approving and denying a tool call, pausing
// and resuming, the live usage meter, and the whole path by keyboard. The
// model is the scripted one, served over HTTP from the test, so a step can
// be held while the page is checked.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// startServeScripted serves the script as an OpenAI-compatible model and
// starts `sift serve` on it.
func startServeScripted(t *testing.T, script *scripted.Script, env []string, args ...string) *serveProc {
	t.Helper()
	model := scripted.NewServer(script)
	t.Cleanup(model.Close)
	return startServeEnv(t, env, append([]string{"--base-url", model.URL + "/v1", "--api-key", "k", "--model", "scripted"}, args...)...)
}

func reply(name string, args any) scripted.Reply {
	b, _ := json.Marshal(args)
	return scripted.Reply{Message: scripted.ToolCall(name, string(b))}
}

func say(s string) scripted.Reply { return scripted.Reply{Message: scripted.Text(s)} }

func planOf(descs ...string) map[string]any {
	var s []map[string]any
	for i, d := range descs {
		s = append(s, map[string]any{"index": i + 1, "description": d})
	}
	return map[string]any{"steps": s}
}

// wordStep is one step whose code agent answers in words (no Python).
func wordStep(summary string) []scripted.Reply {
	return []scripted.Reply{say(summary)}
}

// askInPage starts an analysis of sales.csv in plan mode, with the plan
// review on when review is set.
func askInPage(t *testing.T, b *browser, srv *serveProc, question string, review bool) {
	t.Helper()
	actions := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(srv.url + "/"),
		chromedp.WaitVisible(chromedp.ID("question")),
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
		chromedp.SendKeys(chromedp.ID("question"), question),
		chromedp.Click(chromedp.CSS(".options summary")),
		chromedp.SetValue(chromedp.ID("mode"), "plan"),
	}
	if review {
		actions = append(actions, chromedp.Click(chromedp.ID("review")))
	}
	b.do(t, "ask", append(actions, chromedp.Click(chromedp.ID("ask")))...)
}

// A rejected plan goes back to the planner with the person's feedback and
// a new plan comes up for review; its steps, edited in the page (one
// reworded, one removed), are the steps that run.
func TestBrowserPlanRejectThenEdit(t *testing.T) {
	chromium := needChromium(t)
	const feedback = "Group by region, not by month"
	r := []scripted.Reply{
		reply("create_plan", planOf("Sum revenue by month", "Chart the months")),
		// The second plan comes as JSON text, as some models write it.
		say(`{"steps": [{"index": 1, "description": "Sum revenue by region"}, {"index": 2, "description": "Chart the regions"}, {"index": 3, "description": "Name the top region"}], "complexity": "moderate"}`),
	}
	r = append(r, wordStep("Summed by region and month.")...)
	r = append(r, reply("create_plan", planOf("Name the top region")))
	r = append(r, wordStep("North sells most.")...)
	r = append(r, reply("submit_result", map[string]any{"answer": "North"}), say("# Regions\n\nNorth sells most [step 2]."))
	script := scripted.New(r...)
	srv := startServeScripted(t, script, nil, "--python-mode", "process")
	b := newBrowser(t, chromium)

	askInPage(t, b, srv, "which region sells most?", true)
	b.waitJS(t, "the first plan's review", `[...document.querySelectorAll('.edit-steps textarea')].map(t => t.value).join('|') === 'Sum revenue by month|Chart the months'`)
	// The prompt does not repeat the title above it.
	if got := b.evalString(t, `document.querySelector('.interrupt h4').textContent + ' / ' + document.querySelector('.interrupt .prompt').textContent`); got != "Review the plan / Approve it, edit its steps, or reject it with feedback." {
		t.Errorf("the review says %q", got)
	}
	b.screenshot(t, "31-first-plan")

	// Rejecting needs feedback: without it the page asks for it and sends
	// nothing.
	b.do(t, "reject without feedback", chromedp.Click(chromedp.CSS(`.plan-edit button[data-action=reject]`)))
	b.waitJS(t, "the feedback box is marked", `document.getElementById('reject-feedback').getAttribute('aria-invalid') === 'true' && document.activeElement.id === 'reject-feedback'`)
	if n := script.Calls(); n != 1 {
		t.Fatalf("a reject without feedback reached the planner: %d model calls, want 1", n)
	}
	b.do(t, "reject with feedback",
		chromedp.SendKeys(chromedp.ID("reject-feedback"), feedback),
		chromedp.Click(chromedp.CSS(`.plan-edit button[data-action=reject]`)),
	)
	b.waitJS(t, "the new plan's review", `[...document.querySelectorAll('.edit-steps textarea')].map(t => t.value).join('|') === 'Sum revenue by region|Chart the regions|Name the top region'`)
	if reqs := script.Requests(); len(reqs) < 2 || !requestSays(reqs[1], feedback) {
		t.Errorf("the planner was not given the feedback %q when it planned again", feedback)
	}
	if got := b.evalString(t, `document.querySelector('.plan-edit button[data-action=approve]').textContent`); got != "Approve plan" {
		t.Errorf("the unedited plan's button says %q", got)
	}
	// The new plan shows only as the review, never as raw JSON above it.
	if txt := b.evalString(t, `document.querySelector('.run').innerText`); strings.Contains(txt, `"steps"`) || strings.Contains(txt, `"complexity"`) {
		t.Errorf("raw plan JSON shows after the reject:\n%s", txt)
	}
	b.screenshot(t, "32-new-plan")

	// On a phone the review's fields take the width and grow with their
	// text.
	b.do(t, "phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	b.waitJS(t, "the step fields take the phone's width", `[...document.querySelectorAll('.edit-steps textarea')].every(t => t.getBoundingClientRect().width > 250)`)
	b.do(t, "write a long feedback", chromedp.SendKeys(chromedp.ID("reject-feedback"), strings.Repeat("Group the regions and compare them month by month. ", 6)))
	b.waitJS(t, "the feedback box grows with its text", `(t => t.clientHeight > 100 && t.scrollHeight <= t.clientHeight + 2)(document.getElementById('reject-feedback'))`)
	b.viewportShot(t, "32-new-plan-390")
	b.do(t, "clear the feedback", chromedp.Evaluate[chromedp.Void](`document.getElementById('reject-feedback').value = ''`), chromedp.EmulateViewport(1280, 800))

	// Edit: reword step 1, remove step 2.
	b.do(t, "edit the steps",
		chromedp.SendKeys(chromedp.CSS(`.edit-steps li:nth-child(1) textarea`), " and month"),
		chromedp.Click(chromedp.CSS(`.edit-steps li:nth-child(2) button`)),
	)
	b.waitJS(t, "the button says the plan is edited", `document.querySelector('.plan-edit button[data-action=approve]').textContent === 'Approve edited plan'`)
	if got := b.evalString(t, `document.querySelectorAll('.edit-steps textarea')[1].getAttribute('aria-label')`); got != "Step 2" {
		t.Errorf("after a removal the second step is labelled %q, want Step 2", got)
	}
	b.screenshot(t, "33-edited")
	b.do(t, "approve the edited plan", chromedp.Click(chromedp.CSS(`.plan-edit button[data-action=approve]`)))
	b.runEnds(t, "the run finishes")
	b.screenshot(t, "34-done")

	want := []string{"Sum revenue by region and month", "Name the top region"}
	if got := b.evalStrings(t, `[...document.querySelectorAll('.run .step .desc')].map(d => d.textContent)`); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the page ran steps %q, want the edited %q", got, want)
	}
	if n := b.evalString(t, `String(document.querySelectorAll('.step[data-status=done]').length)`); n != "2" {
		t.Errorf("%s steps done, want 2", n)
	}
	plan := srv.file(t, b.sessionID(t), "plan.md")
	if !strings.Contains(plan, want[0]) || strings.Contains(plan, "Chart the regions") {
		t.Errorf("plan.md does not hold the edited plan:\n%s", plan)
	}
	b.noPageErrors(t)
}

func requestSays(r scripted.Request, s string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// Under a policy that asks before every Python call, the page shows the
// call and its code; a denial (with its reason) reaches the model and the
// call does not run, an approval runs it.
func TestBrowserApprovalDenyThenApprove(t *testing.T) {
	chromium := needChromium(t)
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(policy, []byte(`{"ask": ["python"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const reason = "never delete the input"
	// A script file, for its placeholders: the step's summary and the
	// report take the approved call's printed count.
	scriptFile := filepath.Join(dir, "script.json")
	if err := os.WriteFile(scriptFile, []byte(`{"name": "deny then approve", "replies": [
 {"tool_calls": [{"name": "create_plan", "arguments": {"steps": [{"index": 1, "description": "Count the rows"}]}}]},
 {"tool_calls": [{"name": "python", "arguments": {"code": "import os\nos.remove('input/sales.csv')"}}]},
 {"tool_calls": [{"name": "python", "arguments": {"code": "import pandas as pd\nprint('ROWS', len(pd.read_csv('input/sales.csv')))"}}]},
 {"content": "{{last_tool_result}}"},
 {"tool_calls": [{"name": "submit_result", "arguments": {"answer": "Rows: {{line:ROWS}}"}}]},
 {"content": "# Rows\n\nRows: {{line:ROWS}} [step 1]."}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := scripted.LoadFile(scriptFile)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServeScripted(t, script, nil, "--policy", policy)
	b := newBrowser(t, chromium)
	askInPage(t, b, srv, "how many rows?", false)

	b.waitJS(t, "the first approval request", `document.querySelector('.interrupt .approval') !== null && document.querySelector('.interrupt .prompt').textContent.includes('os.remove')`)
	if got := b.evalString(t, `document.querySelector('.interrupt h4').textContent`); got != "Approval needed" {
		t.Errorf("the approval is titled %q", got)
	}
	if got := b.evalString(t, `document.getElementById('status').textContent`); got != "waiting for you" {
		t.Errorf("status %q while the approval waits, want waiting for you", got)
	}
	b.screenshot(t, "41-approval")
	b.do(t, "deny it, saying why",
		chromedp.SendKeys(chromedp.ID("deny-reason"), reason),
		chromedp.Click(chromedp.CSS(`.interrupt .approval button.danger`)),
	)
	b.waitJS(t, "the second approval request", `document.querySelector('.interrupt .approval') !== null && document.querySelector('.interrupt .prompt').textContent.includes('read_csv')`)
	if reqs := script.Requests(); len(reqs) < 3 || !requestSays(reqs[2], reason) {
		t.Errorf("the model was not told the denial's reason %q", reason)
	}
	b.screenshot(t, "42-second-approval")
	b.do(t, "approve it", chromedp.Click(chromedp.CSS(`.interrupt .approval button.primary`)))
	b.runEnds(t, "the run finishes")
	b.screenshot(t, "43-done")

	// The denied call did not run: the data is whole, and the approved
	// call counted all of it.
	rows := len(strings.Split(strings.TrimSpace(readFile(t, exampleFile(t, "sales.csv"))), "\n")) - 1
	if got := b.evalString(t, `document.querySelector('.report .md').textContent`); !strings.Contains(got, "Rows: "+strconv.Itoa(rows)) {
		t.Errorf("the report says %q, want Rows: %d (the approved call's count)", got, rows)
	}
	results := b.evalString(t, `[...document.querySelectorAll('.step pre.result')].map(p => p.textContent).join('\n---\n')`)
	if !strings.Contains(results, reason) {
		t.Errorf("the step's log does not show the denial with its reason:\n%s", results)
	}
	b.noPageErrors(t)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The meter counts model calls, tokens and cost while the run goes (not
// only at its end); Pause in the page stops the run after its step, and
// Resume in the page finishes it in the same view.
func TestBrowserPauseResumeAndLiveMeter(t *testing.T) {
	chromium := needChromium(t)
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	r := []scripted.Reply{reply("create_plan", planOf("Step one", "Step two", "Step three"))}
	r = append(r, wordStep("One done.")...)
	r = append(r, reply("create_plan", planOf("Step two", "Step three")),
		scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
			close(reached)
			<-release
			return scripted.Text("Two done."), nil
		}})
	// Paused after step two, the run stops before the replanner's call:
	// the resumed run goes on with step three as planned, then replans.
	r = append(r, wordStep("Three done.")...)
	r = append(r, reply("submit_result", map[string]any{"answer": "3"}), say("# Steps\n\nThree steps ran [step 3]."))
	script := scripted.New(r...)
	prices := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(prices, []byte(`{"scripted": {"input": 1000, "output": 1000}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServeScripted(t, script, []string{"SIFT_PRICES=" + prices}, "--python-mode", "process")
	t.Cleanup(open) // before the model server's Close, which waits for the held reply
	b := newBrowser(t, chromium)
	askInPage(t, b, srv, "run three steps", false)
	watchListAgrees(t, b)

	select {
	case <-reached:
	case <-time.After(browserTimeout):
		t.Fatal("the run never reached step two")
	}
	callsAtPause := script.Calls()
	// Step two is held: the meter already shows the calls so far.
	b.waitJS(t, "step two runs", `document.querySelector('.step[data-index="2"]')?.dataset.status === 'doing'`)
	b.waitJS(t, "the meter counts the calls so far", `document.getElementById('meter-calls').textContent !== '0 model calls'`)
	midCalls := meterCalls(t, b)
	midCost := meterCost(t, b)
	if midCalls <= 0 || midCalls >= script.Calls()+1 || midCost <= 0 {
		t.Errorf("mid-run meter: %d calls, $%g; want some calls (the model has answered %d) and a cost", midCalls, midCost, script.Calls())
	}
	if got := b.evalString(t, `document.getElementById('meter-tokens').textContent`); strings.HasPrefix(got, "0 tokens") {
		t.Errorf("mid-run meter shows %q", got)
	}
	if got := b.evalString(t, `document.querySelector('.run').dataset.status`); got != "running" {
		t.Fatalf("the run is %q while step two is held", got)
	}
	b.screenshot(t, "51-meter-mid-run")

	b.do(t, "pause", chromedp.Click(chromedp.ID("pause")))
	b.waitJS(t, "the page says it pauses", `document.getElementById('status').textContent.startsWith('pausing')`)
	open()
	// Resume is offered once the run has ended (the server refuses it
	// between the paused and done events).
	b.waitJS(t, "the run pauses", `document.querySelector('.run').dataset.status === 'paused' && !document.getElementById('resume').hidden && !document.getElementById('resume').disabled`)
	if got := b.evalStrings(t, `[...document.querySelectorAll('.step')].map(s => s.dataset.status)`); strings.Join(got, ",") != "done,done,todo" {
		t.Errorf("paused after step two, the steps are %q, want done,done,todo", got)
	}
	if !b.evalBool(t, `document.getElementById('pause').hidden`) {
		t.Error("Pause is still offered on a paused run")
	}
	// The pause cost no model call: the held one was the last.
	if got := script.Calls(); got != callsAtPause {
		t.Errorf("the model was called %d more times between the pause and the stop, want none", got-callsAtPause)
	}
	b.screenshot(t, "52-paused")

	b.do(t, "resume", chromedp.Click(chromedp.ID("resume")))
	b.runEnds(t, "the run finishes")
	if got := b.evalStrings(t, `[...document.querySelectorAll('.step')].map(s => s.dataset.status)`); strings.Join(got, ",") != "done,done,done" {
		t.Errorf("after the resume the steps are %q", got)
	}
	if n := b.evalString(t, `String(document.querySelectorAll('.run').length)`); n != "1" {
		t.Errorf("the resume made %s run views, want it in the first", n)
	}
	if got := meterCalls(t, b); got != script.Calls() || got <= midCalls {
		t.Errorf("final meter: %d calls, want the %d the model answered (more than the %d mid-run)", got, script.Calls(), midCalls)
	}
	if got := meterCost(t, b); got <= midCost {
		t.Errorf("final cost $%g, want more than mid-run $%g", got, midCost)
	}
	b.screenshot(t, "53-resumed")
	listAgreed(t, b)
	b.noPageErrors(t)
}

// watchListAgrees records, whenever the open session's status changes, the
// status its entry in the sessions list shows at that moment.
func watchListAgrees(t *testing.T, b *browser) {
	t.Helper()
	b.waitJS(t, "the session is listed", `document.querySelector('.session-link[aria-current="page"] .badge') !== null`)
	b.do(t, "watch the list", chromedp.Evaluate[chromedp.Void](`
		window.__agree = [];
		new MutationObserver(() => {
			const head = document.getElementById('status').className;
			const item = document.querySelector('.session-link[aria-current="page"] .badge')?.className.replace(' small', '');
			if (item) window.__agree.push(head + ' | ' + item);
		}).observe(document.getElementById('status'), {attributes: true, attributeFilter: ['class']});
		undefined`))
}

// listAgreed checks that the list said what the header said every time.
func listAgreed(t *testing.T, b *browser) {
	t.Helper()
	seen := b.evalStrings(t, `window.__agree`)
	if len(seen) == 0 {
		t.Fatal("the header's status never changed while watched")
	}
	for _, s := range seen {
		head, item, _ := strings.Cut(s, " | ")
		if head != item {
			t.Errorf("the header says %q while the sessions list says %q (all: %q)", head, item, seen)
			break
		}
	}
}

func meterCalls(t *testing.T, b *browser) int {
	t.Helper()
	s := b.evalString(t, `document.getElementById('meter-calls').textContent`)
	n, err := strconv.Atoi(strings.Fields(s)[0])
	if err != nil {
		t.Fatalf("meter calls %q: %v", s, err)
	}
	return n
}

func meterCost(t *testing.T, b *browser) float64 {
	t.Helper()
	s := b.evalString(t, `document.getElementById('meter-cost').textContent`)
	v, err := strconv.ParseFloat(strings.TrimPrefix(strings.Fields(s)[0], "$"), 64)
	if err != nil {
		t.Fatalf("meter cost %q: %v", s, err)
	}
	return v
}

// The whole path by keyboard alone: Tab reaches the data the server offers
// (Space picks it), the question box, the options and Ask (Enter sends);
// the plan review takes focus and Enter approves it.
func TestBrowserKeyboardOnly(t *testing.T) {
	chromium := needChromium(t)
	r := []scripted.Reply{reply("create_plan", planOf("Look at the sales"))}
	r = append(r, wordStep("Looked at the sales.")...)
	r = append(r, reply("submit_result", map[string]any{"answer": "looked"}), say("# Sales\n\nLooked at them [step 1]."))
	script := scripted.New(r...)
	srv := startServeScripted(t, script, nil, "--python-mode", "process", "--data-dir", "examples="+filepath.Dir(exampleFile(t, "sales.csv")))
	b := newBrowser(t, chromium)

	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.waitJS(t, "the offered data is listed", `document.querySelector('#source-list input') !== null && !document.getElementById('sources').hidden`)
	// The file chooser, out of sight behind the page's button, is reached
	// by Tab and the button shows where the focus is.
	b.tabTo(t, "#files")
	if got := b.evalString(t, `getComputedStyle(document.getElementById('pick')).outlineStyle`); got == "none" {
		t.Error("with the file chooser focused, its button shows no focus ring")
	}
	b.tabTo(t, "#source-list input")
	b.key(t, " ")
	b.tabTo(t, "#question")
	b.key(t, "which region sells most?")
	b.tabTo(t, ".options summary")
	b.key(t, kb.Enter)
	b.tabTo(t, "#mode")
	b.key(t, kb.End)
	b.tabTo(t, "#review")
	b.key(t, " ")
	if got := b.evalString(t, `[document.querySelector('#source-list input').checked, document.getElementById('mode').value, document.getElementById('review').checked].join(',')`); got != "true,plan,true" {
		t.Fatalf("the keyboard set data, mode, review = %s, want true,plan,true", got)
	}
	b.tabTo(t, "#ask")
	b.screenshot(t, "61-keyboard-ask")
	b.key(t, kb.Enter)

	b.waitJS(t, "the plan review appears", `document.querySelector('.plan-edit button[data-action=approve]') !== null`)
	b.tabTo(t, ".plan-edit button[data-action=approve]")
	b.screenshot(t, "62-keyboard-review")
	b.key(t, kb.Enter)
	b.runEnds(t, "the run finishes")
	if got := b.evalString(t, `document.querySelector('.report .md').textContent`); !strings.Contains(got, "Looked at them") {
		t.Errorf("the report reads %q", got)
	}
	if n := script.Calls(); n != 4 {
		t.Errorf("the model was called %d times, want the script's 4 (plan, step, result, report)", n)
	}
	b.screenshot(t, "63-keyboard-done")
	b.noPageErrors(t)
}

// The start page gives the question box the focus once it has loaded, but
// not after the person moved it into the form: the sessions list loads
// after the form is usable, and a focus taken then sent the key meant for a
// data box into the question (TestBrowserKeyboardOnly failed so in CI).
// The list is held back here so that it arrives after the Tab.
func TestBrowserStartKeepsTheFocusThePersonMoved(t *testing.T) {
	chromium := needChromium(t)
	srv := startServeScripted(t, scripted.New(), nil, "--python-mode", "process", "--data-dir", "examples="+filepath.Dir(exampleFile(t, "sales.csv")))
	b := newBrowser(t, chromium)
	slow := `(() => {
	  const f = window.fetch;
	  window.fetch = (u, o) => String(u).endsWith('v1/sessions') && !(o && o.method && o.method !== 'GET')
	    ? new Promise((ok) => setTimeout(ok, 1500)).then(() => { window.__listed = true; return f(u, o); })
	    : f(u, o);
	})()`
	b.do(t, "hold back the sessions list", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: slow})
		return err
	}))
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	b.waitJS(t, "the offered data is listed", `document.querySelector('#source-list input') !== null && !document.getElementById('sources').hidden`)
	if b.evalBool(t, `window.__listed === true`) {
		t.Fatal("the sessions list came before the Tab: the test cannot tell")
	}
	b.tabTo(t, "#source-list input")
	b.waitJS(t, "the sessions list has loaded", `window.__listed === true && !document.getElementById('start').hidden`)
	time.Sleep(300 * time.Millisecond) // the app focuses after a zero timeout
	if got := b.evalString(t, `document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ''`); !strings.HasPrefix(got, "src-") {
		t.Errorf("after the sessions list loaded the focus is on %q, want the data box the person tabbed to", got)
	}
	b.key(t, " ")
	b.waitJS(t, "Space checks the data box", `document.querySelector('#source-list input').checked`)
	b.noPageErrors(t)
}

// maxTabs bounds tabTo: more Tabs than the page has stops means the
// element cannot be reached by keyboard.
const maxTabs = 60

// tabTo presses Tab until the focused element matches selector.
func (b *browser) tabTo(t *testing.T, selector string) {
	t.Helper()
	is := `document.activeElement && document.activeElement.matches(` + strconv.Quote(selector) + `)`
	var path []string
	for range maxTabs {
		if b.evalBool(t, is) {
			return
		}
		b.key(t, kb.Tab)
		path = append(path, b.evalString(t, `(() => { const e = document.activeElement; return e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ').join('.') : '') : 'none'; })()`))
	}
	b.screenshot(t, "failed")
	t.Fatalf("%d Tabs did not reach %s; focus went %s", maxTabs, selector, strings.Join(path, " → "))
}

// key types keys into the focused element, as a keyboard does.
func (b *browser) key(t *testing.T, keys string) {
	t.Helper()
	b.do(t, "press "+strconv.Quote(keys), chromedp.KeyEvent(keys))
}

func (b *browser) evalBool(t *testing.T, expr string) bool {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// sessionID is the open session's ID, from the page's address.
func (b *browser) sessionID(t *testing.T) string {
	t.Helper()
	id := b.evalString(t, `decodeURIComponent(location.hash.replace(/^#s=/, ''))`)
	if id == "" {
		t.Fatal("the page did not open a session (no #s=ID in its address)")
	}
	return id
}
