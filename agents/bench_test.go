package agents

import (
	"context"
	"testing"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/model/scripted"
)

// BenchmarkCallsPerStep measures model calls and prompt tokens per plan
// step of a scripted 3-step analysis, for the classic layout (the executor
// summarises what the code agent answered: 5 calls a step) and Sift's (the
// code agent's answer is the step result: 4 calls a step), side by side.
//
//	go test ./agents -run '^$' -bench CallsPerStep -benchtime 3x
func BenchmarkCallsPerStep(b *testing.B) {
	const planSteps = 3
	for _, layout := range []struct {
		name    string
		classic bool
	}{{"classic", true}, {"sift", false}} {
		b.Run(layout.name, func(b *testing.B) {
			py := pythonOrSkip(b)
			csv := salesCSV(b)
			var last *generic.Usage
			for b.Loop() {
				script := scripted.New(threeStepScript(layout.classic)...)
				s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: b.TempDir(), Python: py, ClassicExecutor: layout.classic})
				if err != nil {
					b.Fatal(err)
				}
				var done generic.Event
				for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{csv}}) {
					done = e
				}
				if done.Err != nil {
					b.Fatalf("run failed: %v", done.Err)
				}
				last = done.Usage
			}
			// Per step: everything but the one planner call and the report.
			stepCalls, stepPrompt := 0, 0
			for agent, u := range last.PerAgent {
				if agent == "report" {
					continue
				}
				stepCalls += u.Calls
				stepPrompt += u.PromptTokens
			}
			plannerFirst := last.PerAgent["planner"]
			// The planner role also serves the replanner; take the first
			// (planning) call out using its share of the role's tokens.
			stepCalls--
			stepPrompt -= plannerFirst.PromptTokens / plannerFirst.Calls
			b.ReportMetric(float64(stepCalls)/planSteps, "calls/step")
			b.ReportMetric(float64(stepPrompt)/planSteps, "prompt-tokens/step")
			b.ReportMetric(float64(last.Calls), "calls/run")
			b.ReportMetric(float64(last.PromptTokens), "prompt-tokens/run")
		})
	}
}
