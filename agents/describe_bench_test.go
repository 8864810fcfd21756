package agents

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

// analysisScript is a plan-mode run of the given steps, each through the
// code agent (one python call, then the code agent passes what it printed
// on), with replans between them, a submitted answer and a report.
func analysisScript(descs, codes []string, answer string) []scripted.Reply {
	replies := []scripted.Reply{call(toolCreatePlan, steps(descs...))}
	for i := range descs {
		replies = append(replies,
			call(nameCodeAgent, map[string]string{"request": descs[i]}),
			call("python", map[string]string{"code": codes[i]}),
			echoToolResult("Done. Output:\n"),
		)
		if i < len(descs)-1 {
			replies = append(replies, call(toolCreatePlan, steps(descs[i+1:]...)))
		}
	}
	return append(replies,
		call(toolSubmitResult, map[string]any{"answer": answer}),
		text("# Report\n\n"+answer+" [step 2]."))
}

// weatherScript is a 3-step analysis of the numeric file (dates and
// decimals, 1,461 rows × 6 columns).
func weatherScript() []scripted.Reply {
	return analysisScript([]string{
		"Load input/weather.csv (parse date) as w and check its size and missing values",
		"Monthly mean of temp_max to out/monthly_temp.csv with a line chart out/monthly_temp.png",
		"Count days by weather type to out/weather_types.csv",
	}, []string{
		"import pandas as pd\nw = pd.read_csv('input/weather.csv', parse_dates=['date'])\nprint(w.shape)\nprint(w.isna().sum().to_string())",
		"import matplotlib.pyplot as plt\nm = w.groupby(w.date.dt.month)['temp_max'].mean().round(1)\nm.to_csv('out/monthly_temp.csv')\nm.plot(title='Mean temp_max by month')\nplt.savefig('out/monthly_temp.png')\nprint(m.to_string())",
		"c = w['weather'].value_counts()\nc.to_csv('out/weather_types.csv')\nprint(c.to_string())",
	}, "July is the warmest month.")
}

// BenchmarkDescribedDataPerStep measures prompt tokens (o200k, as the
// scripted model counts a provider's request: messages with their framing
// and tool definitions) per plan step of a 3-step analysis of the numeric
// weather file and of the sales demo, per role.
//
//	go test ./agents -run '^$' -bench DescribedDataPerStep -benchtime 1x -v
func BenchmarkDescribedDataPerStep(b *testing.B) {
	const planSteps = 3
	price, ok := llm.DefaultPrices().Lookup(benchPriceModel)
	if !ok {
		b.Fatalf("no price for %s", benchPriceModel)
	}
	cases := []struct {
		name, file string
		script     func() []scripted.Reply
	}{
		{"weather", filepath.Join("testdata", "data", "weather.csv"), weatherScript},
		{"sales-demo", filepath.Join("..", "examples", "data", "sales.csv"), func() []scripted.Reply {
			return analysisScript([]string{stepLoad, stepRegion, stepMonth}, []string{codeLoad, codeRegion, codeMonth}, "One region leads.")
		}},
	}
	var t strings.Builder
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			py := pythonOrSkip(b)
			file, err := filepath.Abs(c.file)
			if err != nil {
				b.Fatal(err)
			}
			var reqs []scripted.Request
			for b.Loop() {
				script := scripted.New(c.script()...)
				s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
					Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: b.TempDir(), Python: py})
				if err != nil {
					b.Fatal(err)
				}
				var done generic.Event
				for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: "What stands out?", Files: []string{file}}) {
					done = e
				}
				if done.Err != nil {
					b.Fatalf("run failed: %v", done.Err)
				}
				reqs = script.Requests()
			}
			st := perStep(reqs, price)
			if len(st) != planSteps {
				b.Fatalf("found %d steps in %d requests, want %d", len(st), len(reqs), planSteps)
			}
			roles := map[string]int{}
			for _, r := range reqs[1:] {
				if len(r.Tools) > 0 {
					roles[agentOf(r)] += r.PromptTokens
				}
			}
			var sum int
			fmt.Fprintf(&t, "%s: planner %d tokens; per step:", c.name, reqs[0].PromptTokens)
			for i, s := range st {
				sum += s.prompt
				fmt.Fprintf(&t, " %d) %d calls %d tokens", i+1, s.calls, s.prompt)
			}
			fmt.Fprintf(&t, "; by role over the steps: executor %d, code %d, replanner %d\n", roles["executor"], roles["code"], roles["replanner"])
			b.ReportMetric(float64(sum)/planSteps, "prompt-tokens/step")
			b.ReportMetric(float64(reqs[0].PromptTokens), "planner-tokens")
		})
	}
	b.Log("\n" + t.String())
}
