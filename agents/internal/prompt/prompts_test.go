package prompt

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/internal/golden"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
)

// goldenView is a run in the middle of its work: one step done, one
// failed, one to do.
func goldenView() View {
	fp := &plans.FullPlan{Question: "月度收入趋势如何？哪个地区卖得最好？"}
	fp.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Load input/sales.csv"}, {Description: "Monthly revenue with a line chart"}, {Description: "Revenue by region"}}})
	fp.Steps[0].Status, fp.Steps[0].Summary = plans.StatusDone, "504 rows, 6 columns, no missing values."
	fp.Steps[1].Status, fp.Steps[1].Summary, fp.Steps[1].Files = plans.StatusFailed, "FAILED: KeyError 'Date'; the column is 'date'.", []string{"out/partial.csv"}
	return View{
		Question:    fp.Question,
		DataContext: "### input/sales.csv (csv; 20.6 KiB)\n- date (date): 2024-01-01 … 2024-12-31\n- region (text, 4 distinct values): West=129, North=128, South=127, East=120\n- revenue (float): 12.50 … 2205.00",
		Inputs:      []string{"input/sales.csv"},
		Plan:        fp,
	}
}

// rememberedView is goldenView in a later session on the same data: a
// fact the person gave and an example of code that worked.
func rememberedView() View {
	v := goldenView()
	v.Remembered = `- Asked "Do refunds count as negative revenue?", the person answered: yes (you said so on 2026-11-30 in session s1).`
	v.Examples = "Step \"Monthly revenue with a line chart\" (session s1, 2026-11-30; memory entry e-0123456789abcdef0123):\n```python\ndf.groupby(df['date'].str[:7])['revenue'].sum().plot()\n```"
	return v
}

// checkGolden and render are the shared golden-file helpers.
var (
	checkGolden = golden.Check
	render      = golden.Messages
)

// TestPromptsGolden pins every agent's rendered prompt; a prompt change
// shows up as a diff in review (regenerate with UPDATE_GOLDEN=1, and bump
// PromptVersion).
func TestPromptsGolden(t *testing.T) {
	v := goldenView()
	cases := map[string][]*schema.Message{
		"planner": Planner(v, false),
		// A question a built-in analysis could answer.
		"planner_builtins": Planner(v, true),
		"executor":         Executor(v, Offer{}),
		// A question no built-in analysis does. (Without a search
		// provider too, steps go straight to the code agent.)
		"executor_lean": Executor(v, Offer{NoTemplates: true}),
		"replanner":     Replanner(v),
		"code":          CodeAgent(operator.PythonKernel, CodeContext(v), CodeData{Context: v.DataContext, Inputs: v.Inputs}, []*schema.Message{schema.UserMessage("Sum revenue by month")}),
		"code_process":  CodeAgent(operator.PythonProcess, CodeContext(v), CodeData{Context: v.DataContext, Inputs: v.Inputs, Kernel: "df: DataFrame"}, []*schema.Message{schema.UserMessage("Sum revenue by month")}),
		"report":        Report(v, []string{"out/monthly.png", "out/partial.csv"}),
		"column_mapping": ColumnMapping("input/sales.csv", []string{"date (date)", "region (text)", "revenue (int)"},
			[]string{"date (date)", "area (text)", "takings (int)"}, []string{"region (text)", "revenue (int)"}),
		// A later session on the same data: the person's fact and the
		// code that worked before.
		"code_remembered": CodeAgent(operator.PythonKernel, CodeContext(rememberedView()), CodeData{Context: v.DataContext, Inputs: v.Inputs}, []*schema.Message{schema.UserMessage("Sum revenue by month")}),
	}
	for name, msgs := range cases {
		t.Run(name, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", "prompts", name+".golden"), render(msgs), name+" prompt")
		})
	}
}

func TestPromptsAskForThePersonsLanguage(t *testing.T) {
	for name, p := range map[string]string{"planner": PlannerText, "executor": Offer{}.Prompt(), "executor_lean": Offer{NoTemplates: true}.Prompt(), "code": codeAgentPrompt, "code_process": codeAgentProcessPrompt, "web": WebResearcherText, "replanner": replannerPrompt, "report": reportPrompt} {
		if !strings.Contains(p, "language of the person's question") {
			t.Errorf("%s prompt must ask for answers in the person's language", name)
		}
		if strings.ContainsAny(p, "{}") {
			t.Errorf("%s prompt must not hold braces: some Eino paths format prompts as f-strings", name)
		}
	}
}

// TestReplannerResultsAreCapped: the replanner sees every finished step's
// result again after each step, so the latest is cut to replanLatestChars
// and each earlier one to replanOlderChars, at line ends, head and tail (a
// failed step's error ends it), while the report's view keeps them whole.
func TestReplannerResultsAreCapped(t *testing.T) {
	fp := &plans.FullPlan{}
	fp.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "a"}, {Description: "b"}, {Description: "c"}, {Description: "d"}}})
	long := "HEAD\n" + strings.Repeat("2021     19.33     12.28         1344.3\n", 60) + "TAIL"
	for i := range fp.Steps[:3] {
		fp.Steps[i].Status, fp.Steps[i].Summary = plans.StatusDone, long
	}
	fp.Steps[1].Status = plans.StatusFailed
	user := Replanner(View{Plan: fp})[1].Content
	if n := strings.Count(user, "lines cut ...]"); n != 3 {
		t.Errorf("every finished result must be cut; %d were:\n%s", n, user)
	}
	if strings.Count(user, "HEAD\n") != 3 || strings.Count(user, "TAIL") != 3 {
		t.Errorf("a cut result must keep its head and its tail (%d, %d):\n%s", strings.Count(user, "HEAD\n"), strings.Count(user, "TAIL\n"), user)
	}
	for _, line := range strings.Split(user, "\n") {
		if strings.HasPrefix(line, "2021") && line != "2021     19.33     12.28         1344.3" {
			t.Errorf("a result must be cut at line ends, not in %q", line)
		}
	}
	if n, max := len([]rune(user)), 2*replanOlderChars+replanLatestChars+200; n > max {
		t.Errorf("the replanner's message is %d characters, more than %d", n, max)
	}
	step := func(i int) string {
		from := strings.Index(user, fmt.Sprintf("%d. [", i))
		to := strings.Index(user[from+1:], fmt.Sprintf("\n%d. [", i+1))
		if to < 0 {
			return user[from:]
		}
		return user[from : from+1+to]
	}
	if older, latest := len(step(1)), len(step(3)); latest < 3*older {
		t.Errorf("the latest result (%d bytes) must be kept longer than an earlier one (%d)", latest, older)
	}
	if all := AllResults(fp); strings.Contains(all, "cut ...]") {
		t.Errorf("the report's view must keep the results whole")
	}
}

// TestReplannerShowsEachResultUnderItsStep: the replanner reads each
// finished step's result under the step's own line, not in a second list
// headed again, and a step's files are listed only when its result does
// not already name them.
func TestReplannerShowsEachResultUnderItsStep(t *testing.T) {
	fp := &plans.FullPlan{}
	fp.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Revenue by region"}, {Description: "Monthly chart"}, {Description: "Top products"}}})
	fp.Steps[0].Status, fp.Steps[0].Summary, fp.Steps[0].Files = plans.StatusDone, "North leads (150).\nfiles written: out/by_region.csv", []string{"out/by_region.csv"}
	fp.Steps[1].Status, fp.Steps[1].Summary, fp.Steps[1].Files = plans.StatusDone, "Revenue rose 33%.", []string{"out/monthly.png"}
	user := Replanner(View{Plan: fp})[1].Content
	want := "## Plan\n1. [done] Revenue by region\nNorth leads (150).\nfiles written: out/by_region.csv\n\n" +
		"2. [done] Monthly chart\nRevenue rose 33%.\nFiles: out/monthly.png\n\n3. [todo] Top products"
	if user != want {
		t.Errorf("replanner's message:\n%s\nwant:\n%s", user, want)
	}
}
