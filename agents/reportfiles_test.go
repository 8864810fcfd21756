package agents

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/sift-agent/sift/llm/scripted"
)

// TestRunOnAFailedStepSaysSoAndFails: the only step fails, the replanner
// submits an answer naming a chart nobody wrote: the report says what
// failed without hints or cut markers, shows no missing file, and the run
// ends with ErrAnswerOnFailedSteps, not "Done".
func TestRunOnAFailedStepSaysSoAndFails(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Sum revenue by Region")),
		call("python", map[string]string{"code": "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nprint(df['Region'].sum())"}),
		echoToolResult("FAILED: "),
		call(toolSubmitResult, map[string]any{"answer": "Revenue by region is charted in out/summary.png [step 1].", "files": []string{"out/summary.png"}}),
	)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Revenue by region?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrAnswerOnFailedSteps) || !strings.Contains(done.Err.Error(), "step 1 failed (") {
		t.Fatalf("done error = %v, want ErrAnswerOnFailedSteps naming step 1", done.Err)
	}
	report := readWS(t, done, "report.md")
	for _, bad := range []string{"Hint:", "characters cut", "⚠", "![", "](out/summary.png)"} {
		if strings.Contains(report, bad) {
			t.Errorf("report.md shows %q:\n%s", bad, report)
		}
	}
	for _, want := range []string{"What failed: KeyError: 'Region'\n", "```traceback", "**Not written:**", "out/summary.png"} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
	if html := readWS(t, done, "report.html"); strings.Contains(html, "(missing:") || !strings.Contains(html, "<details") {
		t.Errorf("report.html shows a missing file or no folded traceback")
	}
	if r := done.Plan.Result; r != nil && len(r.Files) > 0 {
		t.Errorf("the answer still hands back %v, which was never written", r.Files)
	}
}

// TestReportNeverShowsWhatDoesNotExist: the report model shows a chart and
// links a file that were never written beside ones that were: the missing
// ones are neither inlined nor linked, and the report says they were not
// written; the run succeeds.
func TestReportNeverShowsWhatDoesNotExist(t *testing.T) {
	const code = "import pandas as pd\ns = pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum()\ns.to_csv('out/by_region.csv')\nprint(s.to_string())"
	script := scripted.New(
		call(toolCreatePlan, steps("Revenue by region to out/by_region.csv")),
		call("python", map[string]string{"code": code}),
		echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "North leads with 150.", "files": []string{"out/by_region.csv", "out/summary.png"}}),
		text("# Revenue\n\nNorth leads with 150 [step 1].\n\n![Summary](out/summary.png)\n\nData: [by region](out/by_region.csv), details in [the workbook](out/details.xlsx).\n"),
	)
	s := httpSift(t, script, nil)
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Revenue by region?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	report := readWS(t, done, "report.md")
	for _, bad := range []string{"](out/summary.png)", "](out/details.xlsx)"} {
		if strings.Contains(report, bad) {
			t.Errorf("report.md still links %s:\n%s", bad, report)
		}
	}
	for _, want := range []string{"[by region](out/by_region.csv)", "Summary (`out/summary.png`, not written)", "**Not written:** this report names 2 files that the run never wrote, so they are not shown: out/summary.png, out/details.xlsx."} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
	if html := readWS(t, done, "report.html"); strings.Contains(html, "(missing:") {
		t.Errorf("report.html shows a missing image:\n%s", html)
	}
	if got := done.Plan.Result.Files; len(got) != 1 || got[0] != "out/by_region.csv" {
		t.Errorf("answer files = %v, want only the written one", got)
	}
	if _, err := os.Stat(filepath.Join(done.Path, "out", "summary.png")); err == nil {
		t.Fatal("test setup: out/summary.png exists")
	}
}

// TestBuiltInOnOneSheetNamesTheOthers: a built-in analysis that runs on
// one sheet of a workbook (the one the request names: sheets with the
// same columns are not chosen for the person) says which, and which
// sheets it did not use; asked for every sheet, it runs one step per
// sheet.
func TestBuiltInOnOneSheetNamesTheOthers(t *testing.T) {
	py := pythonOrSkip(t)
	f := excelize.NewFile()
	for i, name := range []string{"Europe", "Japan", "USA"} {
		if i == 0 {
			f.SetSheetName("Sheet1", name)
		} else if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		rows := [][]any{{"model", "sales"}, {"A", 10 + i}, {"B", 20}, {"C", 5}}
		for j, r := range rows {
			if err := f.SetSheetRow(name, fmt.Sprintf("A%d", j+1), &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	book := filepath.Join(t.TempDir(), "cars.xlsx")
	if err := f.SaveAs(book); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, offlineSift(t, py), Request{Question: "top 3 model by sales in Europe", Files: []string{book}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	report := readWS(t, done, "report.md")
	if !strings.Contains(report, `Only sheet "Europe" of input/cars.xlsx is analysed; its other 2 sheets are not ("Japan", "USA")`) {
		t.Errorf("report.md does not name the sheet used and the others:\n%s", report)
	}
	evs = collect(t, offlineSift(t, py), Request{Question: "profile every sheet", Files: []string{book}})
	done = evs[len(evs)-1]
	if done.Err != nil || len(done.Plan.Steps) != 3 || !strings.Contains(done.Plan.Steps[2].Description, "input/cars.xlsx, sheet USA") {
		t.Errorf("profile every sheet: err %v, steps %+v", done.Err, done.Plan.Steps)
	}
}
