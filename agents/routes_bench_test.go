package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// routeCase is one request of the routing suite: a built-in analysis
// (template), a one-step request (trivial), or a two-step analysis
// (complex).
type routeCase struct {
	question string
	kind     string
	template string // kind "template": what plan mode asks run_template for
	code     []string
}

// routeSuite is the fixed suite of 21 requests of mixed difficulty: 12 that
// a built-in analysis answers, 5 trivial ones, 1 trivial one whose first
// code run fails (auto mode escalates it to the planner) and 3 that need
// two steps.
var routeSuite = []routeCase{
	{question: "monthly revenue trend", kind: "template", template: "trend"},
	{question: "weekly revenue trend", kind: "template", template: "trend"},
	{question: "top 3 regions by revenue", kind: "template", template: "topn"},
	{question: "top 5 products by revenue", kind: "template", template: "topn"},
	{question: "profile this data", kind: "template", template: "profile"},
	{question: "数据概况", kind: "template", template: "profile"},
	{question: "按月统计销售额趋势", kind: "template", template: "trend"},
	{question: "distribution of revenue", kind: "template", template: "distribution"},
	{question: "find outliers in revenue", kind: "template", template: "outliers"},
	{question: "pivot revenue by region and product", kind: "template", template: "pivot"},
	{question: "month over month revenue change", kind: "template", template: "compare_periods"},
	{question: "correlation between units and revenue", kind: "template", template: "correlation"},
	{question: "What is the total revenue?", kind: "trivial", code: []string{"import pandas as pd\nprint(pd.read_csv('input/sales.csv')['revenue'].sum())"}},
	{question: "How many orders are there?", kind: "trivial", code: []string{"import pandas as pd\nprint(len(pd.read_csv('input/sales.csv')))"}},
	{question: "What is the average units per order?", kind: "trivial", code: []string{"import pandas as pd\nprint(pd.read_csv('input/sales.csv')['units'].mean())"}},
	{question: "What date range does the data cover?", kind: "trivial", code: []string{"import pandas as pd\nd = pd.read_csv('input/sales.csv')['date']\nprint(d.min(), d.max())"}},
	{question: "How many distinct products are sold?", kind: "trivial", code: []string{"import pandas as pd\nprint(pd.read_csv('input/sales.csv')['product'].nunique())"}},
	{question: "Explain the revenue of each Region in one sentence", kind: "failing", code: []string{
		"import pandas as pd\nprint(pd.read_csv('input/sales.csv').groupby('Region')['revenue'].sum())",
		"import pandas as pd\nprint(pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum().to_string())"}},
	{question: "Which region grew fastest between the first and last quarter, and why might that be?", kind: "complex", code: []string{
		"import pandas as pd\ndf = pd.read_csv('input/sales.csv', parse_dates=['date'])\ndf.to_pickle('work/s.pkl')\nprint(len(df))",
		"import pandas as pd\ndf = pd.read_pickle('work/s.pkl')\nq = df.groupby([df.date.dt.quarter, 'region'])['revenue'].sum().unstack()\nq.to_csv('out/quarterly_by_region.csv')\nprint(((q.iloc[-1] / q.iloc[0]) - 1).sort_values().to_string())"}},
	{question: "Explain how weekend sales differ from weekday sales per product, with a chart of the gap", kind: "complex", code: []string{
		"import pandas as pd\ndf = pd.read_csv('input/sales.csv', parse_dates=['date'])\ndf['weekend'] = df.date.dt.dayofweek >= 5\ndf.to_pickle('work/s.pkl')\nprint(df.weekend.mean())",
		"import pandas as pd\ndf = pd.read_pickle('work/s.pkl')\ng = df.pivot_table(index='product', columns='weekend', values='revenue', aggfunc='sum')\ng.to_csv('out/weekend_gap.csv')\ng.plot(kind='bar')\nprint(g.to_string())"}},
	{question: "Why did the products' shares of revenue shift between the first and second half of the year? Show the change per product", kind: "complex", code: []string{
		"import pandas as pd\ndf = pd.read_csv('input/sales.csv', parse_dates=['date'])\ndf['half'] = (df.date.dt.month > 6).map({False: 'H1', True: 'H2'})\ndf.to_pickle('work/s.pkl')\nprint(df.half.value_counts().to_string())",
		"import pandas as pd\ndf = pd.read_pickle('work/s.pkl')\ns = df.pivot_table(index='product', columns='half', values='revenue', aggfunc='sum')\ns = s / s.sum()\ns['change'] = s.H2 - s.H1\ns.sort_values('change').to_csv('out/share_change.csv')\nprint(s.to_string())"}},
}

// script is the scripted model's part for one request under one mode.
func (c routeCase) script(mode Mode) []scripted.Reply {
	report := text("# Report\n\nSee the results [step 1].")
	switch c.kind {
	case "template":
		if mode == ModeAuto {
			return nil // a built-in analysis: no model at all
		}
		return []scripted.Reply{
			// The step runs the built-in analysis with no model call.
			call(toolCreatePlan, steps("Run the built-in "+c.template+" analysis on input/sales.csv")),
			call(toolSubmitResult, map[string]any{"answer": "See the built-in analysis."}),
			report,
		}
	case "trivial":
		plan := call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": c.question}}, "complexity": "trivial"})
		if mode == ModeAuto {
			return []scripted.Reply{plan, call("python", map[string]string{"code": c.code[0]}), echoToolResult("Answer: "), report}
		}
		return []scripted.Reply{plan, call("python", map[string]string{"code": c.code[0]}),
			echoToolResult("Answer: "), call(toolSubmitResult, map[string]any{"answer": "done"}), report}
	case "failing":
		failed := text("FAILED: there is no column 'Region'; the columns are lower-case.")
		retry := []scripted.Reply{call(toolCreatePlan, steps("Revenue by region (lower-case column)")),
			call("python", map[string]string{"code": c.code[1]}),
			echoToolResult("Result: "), call(toolSubmitResult, map[string]any{"answer": "done"}), report}
		plan := call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": c.question}}, "complexity": "trivial"})
		return append([]scripted.Reply{plan, call("python", map[string]string{"code": c.code[0]}), failed}, retry...)
	default: // complex: the same two-step loop in both modes
		out := []scripted.Reply{call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": "Prepare the data"}, {"index": 2, "description": c.question}}, "complexity": "normal"})}
		for i, code := range c.code {
			out = append(out, call("python", map[string]string{"code": code}), echoToolResult("Result: "))
			if i == 0 {
				out = append(out, call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 2, "description": c.question}}}))
			}
		}
		return append(out, call(toolSubmitResult, map[string]any{"answer": "done"}), report)
	}
}

// BenchmarkRoutes runs the routing suite under --mode plan and --mode auto
// side by side and prints, per request, the model calls and wall time of
// each; it fails when the two modes leave different artifacts.
//
//	go test ./agents -run '^$' -bench Routes -benchtime 1x
func BenchmarkRoutes(b *testing.B) {
	py := pythonOrSkip(b)
	data := benchSalesCSV(b)
	type outcome struct {
		calls  int
		wall   time.Duration
		files  []string
		result string
	}
	run := func(c routeCase, mode Mode) outcome {
		script := scripted.New(c.script(mode)...)
		cfg := Config{SessionsRoot: b.TempDir(), Python: py}
		if c.kind != "template" || mode != ModeAuto {
			cfg.Models.Default = script.Model()
		}
		s, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		var done event.Event
		for e := range s.Run(context.Background(), Request{Mode: mode, Question: c.question, Files: []string{data}}) {
			done = e
		}
		if done.Err != nil {
			b.Fatalf("%s (%s): %v", c.question, mode, done.Err)
		}
		if script.Remaining() != 0 {
			b.Fatalf("%s (%s): %d scripted replies unused: the route was not the expected one", c.question, mode, script.Remaining())
		}
		result := "answered"
		if fp := done.Plan; fp == nil || fp.Result == nil || len(fp.Steps) == 0 || fp.Steps[len(fp.Steps)-1].Status != plans.StatusDone {
			result = "failed"
		}
		return outcome{calls: done.Usage.Calls, wall: time.Since(start), files: outFiles(b, done.Path), result: result}
	}
	for b.Loop() {
		var planCalls, autoCalls int
		var planWall, autoWall time.Duration
		var table strings.Builder
		fmt.Fprintf(&table, "\n%-4s %-9s %10s %10s %11s %11s %-17s  %s\n", "#", "kind", "plan calls", "auto calls", "plan wall", "auto wall", "outcome plan/auto", "request")
		for i, c := range routeSuite {
			p, a := run(c, ModePlan), run(c, ModeAuto)
			if strings.Join(p.files, ",") != strings.Join(a.files, ",") {
				b.Fatalf("%s: artifacts differ: plan %v, auto %v", c.question, p.files, a.files)
			}
			planCalls += p.calls
			autoCalls += a.calls
			planWall += p.wall
			autoWall += a.wall
			if p.result != "answered" || a.result != "answered" {
				b.Fatalf("%s: outcome plan %s, auto %s; every request of the suite must end answered", c.question, p.result, a.result)
			}
			fmt.Fprintf(&table, "%-4d %-9s %10d %10d %11s %11s %-17s  %s\n", i+1, c.kind, p.calls, a.calls, p.wall.Round(time.Millisecond), a.wall.Round(time.Millisecond), p.result+"/"+a.result, c.question)
		}
		fmt.Fprintf(&table, "%-14s %10d %10d %11s %11s  auto uses %.0f%% fewer model calls\n", "total", planCalls, autoCalls, planWall.Round(time.Millisecond), autoWall.Round(time.Millisecond), 100*(1-float64(autoCalls)/float64(planCalls)))
		b.Log(table.String())
		b.ReportMetric(float64(planCalls), "plan-calls")
		b.ReportMetric(float64(autoCalls), "auto-calls")
		b.ReportMetric(100*(1-float64(autoCalls)/float64(planCalls)), "%fewer-calls")
	}
}

// benchSalesCSV writes a year of daily sales, enough for every template.
func benchSalesCSV(b testing.TB) string {
	var sb strings.Builder
	sb.WriteString("date,region,product,units,revenue\n")
	regions := []string{"North", "South", "East", "West"}
	products := []string{"Widget", "Gadget", "Gizmo"}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 366; i++ {
		for j, r := range regions {
			units := 5 + (i*7+j*3)%17
			fmt.Fprintf(&sb, "%s,%s,%s,%d,%d\n", day.Format("2006-01-02"), r, products[(i+j)%3], units, units*(10+j*5))
		}
		day = day.AddDate(0, 0, 1)
	}
	p := filepath.Join(b.TempDir(), "sales.csv")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// outFiles lists the workspace's artifacts (under out/), sorted.
func outFiles(b testing.TB, root string) []string {
	var out []string
	_ = filepath.WalkDir(filepath.Join(root, "out"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}
