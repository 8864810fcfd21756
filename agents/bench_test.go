package agents

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

// benchPriceModel prices the scripted runs: list prices of a common model
// (see llm.DefaultPrices), so that cached tokens show in the cost.
const benchPriceModel = "gpt-4.1-mini"

// stepCost is one plan step's share of a run's requests.
type stepCost struct {
	calls, prompt, cached int
	inputCost             float64
}

// perStep splits a plan-mode run's requests into its plan steps: each step
// is its executor and code agent calls and the replanner call that closes
// it (told by its submit_result tool); the first call (the planner) and the
// report are left out. Input cost bills uncached prompt tokens at the input
// price and cached ones at the cached price of benchPriceModel.
func perStep(reqs []scripted.Request, price llm.Price) []stepCost {
	var out []stepCost
	cur := stepCost{}
	for _, r := range reqs[1:] {
		if len(r.Tools) == 0 { // the report
			break
		}
		cur.calls++
		cur.prompt += r.PromptTokens
		cur.cached += r.CachedTokens
		cur.inputCost += (float64(r.PromptTokens-r.CachedTokens)*price.Input + float64(r.CachedTokens)*price.CachedInput) / 1e6
		for _, t := range r.Tools {
			if t.Name == toolSubmitResult {
				out = append(out, cur)
				cur = stepCost{}
				break
			}
		}
	}
	return out
}

// BenchmarkCallsPerStep measures model calls, prompt tokens (as providers
// count them: tool definitions and framing included), cached tokens (the
// scripted model's simulated prefix cache) and input cost per plan step of
// a scripted 3-step analysis, for the classic layout (the executor
// summarises what the code agent answered: 5 calls a step) and Sift's (the
// code agent's answer is the step result: 4 calls a step), side by side.
//
//	go test ./agents -run '^$' -bench CallsPerStep -benchtime 1x -v
func BenchmarkCallsPerStep(b *testing.B) {
	const planSteps = 3
	price, ok := llm.DefaultPrices().Lookup(benchPriceModel)
	if !ok {
		b.Fatalf("no price for %s", benchPriceModel)
	}
	layouts := []struct {
		name    string
		classic bool
	}{{"classic", true}, {"sift", false}}
	results := map[string][]stepCost{}
	for _, layout := range layouts {
		b.Run(layout.name, func(b *testing.B) {
			py := pythonOrSkip(b)
			csv := salesCSV(b)
			var last *event.Usage
			var reqs []scripted.Request
			for b.Loop() {
				script := scripted.New(threeStepScript(layout.classic)...)
				s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: b.TempDir(), Python: py, ClassicExecutor: layout.classic})
				if err != nil {
					b.Fatal(err)
				}
				var done event.Event
				for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{csv}}) {
					done = e
				}
				if done.Err != nil {
					b.Fatalf("run failed: %v", done.Err)
				}
				last, reqs = done.Usage, script.Requests()
			}
			steps := perStep(reqs, price)
			if len(steps) != planSteps {
				b.Fatalf("found %d steps in %d requests, want %d", len(steps), len(reqs), planSteps)
			}
			results[layout.name] = steps
			var sum stepCost
			for _, st := range steps {
				sum.calls += st.calls
				sum.prompt += st.prompt
				sum.cached += st.cached
				sum.inputCost += st.inputCost
			}
			b.ReportMetric(float64(sum.calls)/planSteps, "calls/step")
			b.ReportMetric(float64(sum.prompt)/planSteps, "prompt-tokens/step")
			b.ReportMetric(float64(sum.cached)/planSteps, "cached-tokens/step")
			b.ReportMetric(float64(last.Calls), "calls/run")
			b.ReportMetric(float64(last.PromptTokens), "prompt-tokens/run")
		})
	}
	if len(results) != len(layouts) {
		return
	}
	var t strings.Builder
	fmt.Fprintf(&t, "\nper plan step (executor, code agent, replanner); input cost at %s list prices\n", benchPriceModel)
	fmt.Fprintf(&t, "%-5s | %-33s | %-33s\n", "", "classic: calls prompt cached cost", "sift: calls prompt cached cost")
	for i := range planSteps {
		c, s := results["classic"][i], results["sift"][i]
		fmt.Fprintf(&t, "%-5d | %5d %7d %7d  $%.5f | %5d %7d %7d  $%.5f\n", i+1, c.calls, c.prompt, c.cached, c.inputCost, s.calls, s.prompt, s.cached, s.inputCost)
	}
	b.Log(t.String())
}
