package web_test

// The real-browser test of analyses that live on: a finished analysis is
// refreshed on a file with a year more of data, compared with its refresh
// side by side, and forked from its second step with that step changed.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sift-agent/sift/llm/scripted"
)

const (
	lineageLoad   = "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\ndf.to_pickle('work/sales.pkl')\nprint(len(df), 'rows')"
	lineageRegion = "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\ns = df.groupby('region')['revenue'].sum().sort_values(ascending=False)\nprint(s.to_string())"
	lineageNoEast = "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\ns = df[df.region != 'East'].groupby('region')['revenue'].sum().sort_values(ascending=False)\nprint(s.to_string())"
	lineageMonth  = "import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\nprint(df.groupby(df.date.str[:7])['revenue'].sum().to_string())"
	lineageRows   = "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
)

// chainOf is a plan whose steps each need the one before, so a fork runs
// them one after another, whatever the server's parallelism.
func chainOf(from int, descs ...string) map[string]any {
	var s []map[string]any
	for i, d := range descs {
		st := map[string]any{"index": from + i, "description": d}
		if from+i > 1 {
			st["needs"] = []int{from + i - 1}
		}
		s = append(s, st)
	}
	return map[string]any{"steps": s}
}

func TestBrowserRefreshForkAndCompare(t *testing.T) {
	chromium := needChromium(t)
	steps := []string{"Load input/sales.csv", "Total revenue by region", "Total revenue by month"}
	script := scripted.New(
		reply("create_plan", chainOf(1, steps...)),
		reply("python", map[string]string{"code": lineageLoad}), say("Loaded 4 rows."),
		reply("create_plan", chainOf(2, steps[1:]...)),
		reply("python", map[string]string{"code": lineageRegion}), say("North 150, South 70, East 30."),
		reply("create_plan", chainOf(3, steps[2:]...)),
		reply("python", map[string]string{"code": lineageMonth}), say("Summed by month."),
		reply("submit_result", map[string]any{"answer": "North sells most (150)."}),
		say("# Revenue\n\nNorth leads with 150, South has 70 and East 30 [step 2]. The data has 4 rows [step 1].\n"),
		// The fork at step 2: steps 2 and 3, the replan between, the
		// answer and the report. Step 1 is not asked for.
		reply("python", map[string]string{"code": lineageNoEast}), say("North 150, South 70."),
		reply("create_plan", chainOf(3, steps[2:]...)),
		reply("python", map[string]string{"code": lineageMonth}), say("Summed by month."),
		reply("submit_result", map[string]any{"answer": "Without East, North sells most (150)."}),
		say("# Revenue without East\n\nNorth leads with 150 and South has 70 [step 2].\n"),
	)
	// The default Python mode, the kernel: the fork rebuilds step 1's
	// state by replaying its cell.
	srv := startServeScripted(t, script, nil)
	b := newBrowser(t, chromium)
	dir := t.TempDir()
	data := filepath.Join(dir, "sales.csv")
	more := filepath.Join(dir, "more", "sales.csv")
	if err := os.MkdirAll(filepath.Dir(more), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, []byte("date,region,revenue\n"+lineageRows), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(more, []byte("date,region,revenue\n"+lineageRows+"2025-01-07,North,200\n2025-03-02,South,120\n2025-03-15,East,40\n2025-06-01,North,10\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	b.do(t, "ask",
		chromedp.Navigate(srv.url+"/"),
		chromedp.WaitVisible(chromedp.ID("question")),
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{data}),
		chromedp.SendKeys(chromedp.ID("question"), "which region sells most?"),
		chromedp.Click(chromedp.CSS(".options summary")),
		chromedp.SetValue(chromedp.ID("mode"), "plan"),
		chromedp.Click(chromedp.ID("ask")),
	)
	b.runEnds(t, "the analysis finishes")
	parent := b.sessionID(t)
	b.waitJS(t, "a finished analysis offers refresh, fork and compare",
		`!document.getElementById('lineage').hidden && ['refresh-open','fork-open','compare-open'].every(id => !document.getElementById(id).hidden)`)
	calls := script.Calls()

	// Refresh on a year more of data: a new session, no model call, the
	// new numbers.
	b.do(t, "open the refresh", chromedp.Click(chromedp.ID("refresh-open")))
	b.do(t, "refresh on the new file",
		chromedp.SetUploadFiles(chromedp.ID("refresh-files"), []string{more}),
		chromedp.Click(chromedp.ID("refresh-go")),
	)
	b.waitJS(t, "the page opens the refreshed session", `location.hash !== '#s=`+parent+`' && location.hash.startsWith('#s=')`)
	refreshed := b.sessionID(t)
	b.waitJS(t, "the refresh finishes", `document.querySelector('.run')?.dataset.status === 'done' && document.querySelector('.report .md')?.textContent.includes('360')`)
	b.waitJS(t, "it says where it came from", `document.getElementById('lineage-origin').textContent.startsWith('Refreshed from')`)
	if got := script.Calls() - calls; got != 0 {
		t.Errorf("the refresh made %d model calls, want 0", got)
	}
	if md := srv.file(t, refreshed, "report.md"); !strings.Contains(md, "North leads with 360, South has 190 and East 70") || !strings.Contains(md, "The data has 8 rows") {
		t.Errorf("the refreshed report:\n%s", md)
	}
	b.screenshot(t, "61-refreshed")

	// Compare the refresh with the session it came from, side by side.
	b.do(t, "open the comparison", chromedp.Click(chromedp.ID("compare-open")))
	b.waitJS(t, "the parent is offered first", `document.getElementById('compare-with')?.options[0]?.value === '`+parent+`'`)
	b.do(t, "compare", chromedp.Click(chromedp.ID("compare-go")))
	b.waitJS(t, "the moved numbers are listed", `document.querySelectorAll('.compare-change').length > 0`)
	rows := b.evalTable(t, `.compare-changes`)
	// The session it came from is "was", the refresh "now".
	want := map[string]string{"150": "360", "70": "190", "30": "70", "4": "8"}
	for _, r := range rows[1:] {
		if want[r[0]] == r[1] {
			delete(want, r[0])
		}
	}
	if len(want) != 0 {
		t.Errorf("the comparison lacks %v (was → now); it shows %q", want, rows)
	}
	if sides := b.evalStrings(t, `[...document.querySelectorAll('.compare-side .md')].map(e => e.textContent)`); len(sides) != 2 || !strings.Contains(sides[0], "150") || !strings.Contains(sides[1], "360") || strings.Contains(sides[1], "Usage") {
		t.Errorf("the two reports side by side: %q", sides)
	}
	b.screenshot(t, "62-compare")

	// Fork the first session from step 2, with that step changed: steps
	// 2 and 3 run, step 1 does not.
	b.do(t, "back to the first session", chromedp.Click(chromedp.ID("lineage-parent")))
	// The first session came from none: once the page shows it, it names
	// no parent.
	b.waitJS(t, "it opens", `location.hash === '#s=`+parent+`' && document.getElementById('lineage-origin').hidden && !document.getElementById('fork-open').hidden`)
	b.do(t, "open the fork", chromedp.Click(chromedp.ID("fork-open")))
	b.waitJS(t, "the fork lists the steps", `document.getElementById('fork-step')?.options.length === 3`)
	b.do(t, "choose step 2 and change it",
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById('fork-step'); s.value = '2'; s.dispatchEvent(new Event('change')); })()`),
	)
	b.waitJS(t, "the step's description is there to edit", `document.getElementById('fork-text').value === 'Total revenue by region'`)
	b.do(t, "edit it",
		chromedp.Evaluate[chromedp.Void](`document.getElementById('fork-text').value = ''`),
		chromedp.SendKeys(chromedp.ID("fork-text"), "Total revenue by region without East"),
	)
	b.screenshot(t, "63-fork")
	calls = script.Calls()
	b.do(t, "fork", chromedp.Click(chromedp.ID("fork-go")))
	b.waitJS(t, "the page opens the fork", `location.hash !== '#s=`+parent+`' && location.hash !== '#s=`+refreshed+`'`)
	fork := b.sessionID(t)
	b.waitJS(t, "the fork finishes", `document.querySelector('.run')?.dataset.status === 'done' && document.querySelector('.report .md')?.textContent.includes('without East')`)
	if got := script.Calls() - calls; got != 7 {
		t.Errorf("the fork made %d model calls, want 7 (steps 2 and 3 only)", got)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	b.waitJS(t, "the fork says where it came from", `document.getElementById('lineage-origin').textContent.startsWith('Forked from')`)
	if md := srv.file(t, fork, "report.md"); !strings.Contains(md, "North leads with 150 and South has 70") {
		t.Errorf("the fork's report:\n%s", md)
	}
	b.screenshot(t, "64-forked")

	// A fork with an answer for a step that asked nothing says so in the
	// form, and makes nothing.
	b.do(t, "open the fork again", chromedp.Click(chromedp.ID("fork-open")))
	b.do(t, "answer instead",
		chromedp.Click(chromedp.ID("fork-kind-answer")),
		chromedp.SendKeys(chromedp.ID("fork-text"), "yes"),
		chromedp.Click(chromedp.ID("fork-go")),
	)
	b.waitJS(t, "the refusal is shown", `document.querySelector('#fork-form .lineage-error')?.textContent.includes('asked a question')`)
	if b.sessionID(t) != fork {
		t.Error("a refused fork must not leave the page")
	}

	// A refresh on a file whose columns were renamed shows the mapping,
	// and runs only once it is approved.
	renamed := filepath.Join(dir, "renamed", "sales.csv")
	if err := os.MkdirAll(filepath.Dir(renamed), 0o755); err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(more)
	if err := os.WriteFile(renamed, []byte(strings.Replace(string(body), "date,region,revenue", "date,Region,revenue_usd", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	b.do(t, "back to the first session again", chromedp.Click(chromedp.ID("lineage-parent")))
	b.waitJS(t, "it opens", `location.hash === '#s=`+parent+`' && document.getElementById('lineage-origin').hidden && !document.getElementById('refresh-open').hidden`)
	b.do(t, "open the refresh", chromedp.Click(chromedp.ID("refresh-open")))
	b.waitJS(t, "the refresh form", `document.getElementById('refresh-files') !== null`)
	b.do(t, "refresh on the renamed file",
		chromedp.SetUploadFiles(chromedp.ID("refresh-files"), []string{renamed}),
		chromedp.Click(chromedp.ID("refresh-go")),
	)
	b.waitJS(t, "the mapping is shown for approval", `!document.getElementById('refresh-mapping').hidden && document.getElementById('refresh-mapping').textContent.includes('revenue (int) → revenue_usd (int)') && document.getElementById('refresh-go').textContent === 'Approve the mapping and refresh'`)
	if b.sessionID(t) != parent {
		t.Error("a mapping waiting for approval must not start a refresh")
	}
	if m := b.evalString(t, `document.getElementById('refresh-mapping').textContent`); strings.Contains(m, ".uploads") || !strings.Contains(m, "input/sales.csv ← sales.csv") {
		t.Errorf("the mapping names the server's upload directory, or not the file: %q", m)
	}
	b.screenshot(t, "65-mapping")
	b.do(t, "approve", chromedp.Click(chromedp.ID("refresh-go")))
	b.waitJS(t, "the approved refresh opens and finishes", `location.hash !== '#s=`+parent+`' && document.querySelector('.run')?.dataset.status === 'done' && document.querySelector('.report .md')?.textContent.includes('North leads with 360')`)
	b.noPageErrors(t)
}
