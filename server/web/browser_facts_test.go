package web_test

// The facts panel: a person answers the agents' question in one session;
// a second session on the same file is not asked again, and its panel
// lists the fact, which the person edits and then forgets.

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// factsScript plays two sessions that each ask whether refunds count as
// negative revenue: the first waits for the person, the second is
// answered from memory.
const factsScript = `{"name": "asks about refunds twice", "replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Sum the revenue net of refunds"}]}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Do refunds count as negative revenue?","choices":["yes, as negative revenue","no, leave them out"]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print('NET', 250)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Net revenue: {{line:NET}}"}}]},
 {"content":"# Net revenue\n\nNet revenue: {{line:NET}} [step 1]."},
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Sum the revenue net of refunds by region"}]}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Do refunds count as negative revenue?","choices":["yes, as negative revenue","no, leave them out"]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print('NET', 250)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Net revenue by region: {{line:NET}}"}}]},
 {"content":"# Net revenue by region\n\nNet revenue: {{line:NET}} [step 1]."}]}`

// facts lists the facts the server remembers, as the API says them.
func (p *serveProc) facts(t *testing.T) []map[string]any {
	t.Helper()
	res, err := http.Get(p.url + "/v1/memory")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list struct {
		Entries []map[string]any `json:"entries"`
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var facts []map[string]any
	for _, e := range list.Entries {
		if e["kind"] == "fact" {
			facts = append(facts, e)
		}
	}
	return facts
}

func TestBrowserFactsPanelListsEditsAndForgets(t *testing.T) {
	chromium := needChromium(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed for the scripted plan's code; not found")
	}
	script := filepath.Join(t.TempDir(), "facts.json")
	if err := os.WriteFile(script, []byte(factsScript), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, "--script", script)
	b := newBrowser(t, chromium)
	ask := func(what, question string) {
		t.Helper()
		b.do(t, what,
			chromedp.SetUploadFiles(chromedp.ID("files"), []string{exampleFile(t, "sales.csv")}),
			chromedp.SendKeys(chromedp.ID("question"), question),
			chromedp.Click(chromedp.CSS(".options summary")),
			chromedp.SetValue(chromedp.ID("mode"), "plan"),
			chromedp.Click(chromedp.ID("ask")),
		)
	}
	b.do(t, "open the app", chromedp.Navigate(srv.url+"/"))
	ask("ask the first question", "what is the net revenue?")
	b.waitJS(t, "the question appears", `document.querySelectorAll('.interrupt .choices button').length === 2`)
	if !b.evalBool(t, `document.getElementById('facts').hidden`) {
		t.Error("the panel shows before Sift remembers anything")
	}
	b.do(t, "answer yes", chromedp.Click(chromedp.CSS(`.interrupt .choices button:first-child`)))
	b.runEnds(t, "the run finishes")
	b.waitJS(t, "the panel lists the answer, given in this session", `document.querySelector('#facts:not([hidden]) .fact .fact-when')?.textContent.includes('in this session')`)
	first := b.sessionID(t)

	b.do(t, "start a second analysis", chromedp.Click(chromedp.ID("new-session")))
	b.waitJS(t, "the start form", `!document.getElementById('start').hidden`)
	ask("ask the second question", "net revenue by region")
	b.runEnds(t, "the second run finishes")
	second := b.sessionID(t)
	if second == first {
		t.Fatal("the second question must have a session of its own")
	}
	if b.evalBool(t, `document.querySelector('.interrupt') !== null`) {
		t.Error("the second session asked again")
	}
	if report := srv.file(t, second, "report.md"); !strings.Contains(report, "## What Sift remembered") || !strings.Contains(report, "**yes, as negative revenue**") {
		t.Errorf("the second report must say what Sift remembered:\n%s", report)
	}
	b.waitJS(t, "the panel lists the fact of the earlier session", `document.querySelector('#facts:not([hidden]) .fact .fact-when a')?.getAttribute('href') === '#s=`+first+`'`)
	b.do(t, "open the panel", chromedp.Click(chromedp.CSS("#facts summary")))
	if got := b.evalString(t, `document.querySelector('#facts .fact-q').textContent + ' / ' + document.querySelector('#facts .fact-a').textContent`); got != "Do refunds count as negative revenue? / yes, as negative revenue" {
		t.Errorf("the fact reads %q", got)
	}
	b.screenshot(t, "41-facts")

	b.do(t, "edit it", chromedp.Click(chromedp.CSS("#facts .fact-edit")))
	b.waitJS(t, "the text box", `document.activeElement?.classList.contains('fact-text')`)
	b.do(t, "empty it and save", chromedp.SetValue(chromedp.CSS("#facts .fact-text"), "  "), chromedp.Click(chromedp.CSS("#facts .fact-save")))
	b.waitJS(t, "an empty text is refused", `!document.querySelector('#facts .fact-error').hidden`)
	b.do(t, "say it anew and save", chromedp.SetValue(chromedp.CSS("#facts .fact-text"), "no, refunds are left out"), chromedp.Click(chromedp.CSS("#facts .fact-save")))
	b.waitJS(t, "the edit shows", `document.querySelector('#facts .fact-a')?.textContent === 'no, refunds are left out' && document.querySelector('#facts .fact-when').textContent.includes('edited')`)
	if fs := srv.facts(t); len(fs) != 1 || fs[0]["answer"] != "no, refunds are left out" || fs[0]["edited"] == nil {
		t.Errorf("the server keeps %v", fs)
	}
	b.screenshot(t, "42-fact-edited")

	b.do(t, "forget it, then keep it", chromedp.Click(chromedp.CSS("#facts .fact-forget")), chromedp.Click(chromedp.CSS("#facts .fact-forget-no")))
	if n := len(srv.facts(t)); n != 1 {
		t.Errorf("keeping the fact forgot it: %d facts", n)
	}
	b.do(t, "forget it", chromedp.Click(chromedp.CSS("#facts .fact-forget")), chromedp.Click(chromedp.CSS("#facts .fact-forget-yes")))
	b.waitJS(t, "the panel goes", `document.getElementById('facts').hidden`)
	if fs := srv.facts(t); len(fs) != 0 {
		t.Errorf("the server still remembers %v", fs)
	}
	b.noPageErrors(t)
}
