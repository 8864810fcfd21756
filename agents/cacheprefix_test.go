package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/tokens"
)

// wideSalesCSV is salesCSV with 40 more numeric columns, so the data
// context (and the code agent's requests) pass the 1,024 tokens above which
// providers cache prompts. The totals the scripts check are unchanged.
func wideSalesCSV(t testing.TB) string {
	t.Helper()
	rows := [][]string{{"2024-01-05", "North", "100"}, {"2024-01-20", "South", "70"}, {"2024-02-03", "North", "50"}, {"2024-02-10", "East", "30"}}
	var b strings.Builder
	b.WriteString("date,region,revenue")
	for c := range 40 {
		fmt.Fprintf(&b, ",measure_%02d", c)
	}
	b.WriteString("\n")
	for r, row := range rows {
		b.WriteString(strings.Join(row, ","))
		for c := range 40 {
			fmt.Fprintf(&b, ",%d.%02d", (r*37+c*11)%500, (r+c)%100)
		}
		b.WriteString("\n")
	}
	p := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// renderRequest is a request as a provider renders it, in order: tool
// definitions, then messages (without the reply's priming).
func renderRequest(tools []*schema.ToolInfo, msgs []*schema.Message) string {
	var b strings.Builder
	for _, s := range tokens.Segments("", msgs, tools) {
		if s.Kind == tokens.KindReplyPrime {
			continue
		}
		b.WriteString(s.Kind + "\x00" + s.Text + "\n")
	}
	return b.String()
}

// agentOf names the agent that sent req: its role, with the replanner told
// from the planner (they share a model) by its submit_result tool.
func agentOf(req scripted.Request) string {
	if req.Agent == "planner" && offers(req, toolSubmitResult) {
		return "replanner"
	}
	return req.Agent
}

// TestRequestsKeepAStablePrefix runs a 3-step analysis and checks that
// every request of an agent begins with the same characters as its
// previous one — tool definitions and system message (prompt and run
// context), byte for byte — so providers' prefix caches serve them; and
// that every request long enough to be cached is served from the simulated
// cache. The question is long, as a person's pasted context can be, so
// that the requests pass the cache threshold (the data description alone
// no longer takes the code agent's there).
func TestRequestsKeepAStablePrefix(t *testing.T) {
	for _, executor := range []bool{false, true} {
		name := "direct steps"
		if executor {
			name = "through the executor"
		}
		t.Run(name, func(t *testing.T) { stablePrefixRun(t, executor) })
	}
}

// stablePrefixRun is TestRequestsKeepAStablePrefix in one layout: steps
// straight to the code agent, or (with a search provider) through the
// executor.
func stablePrefixRun(t *testing.T, executor bool) {
	script := scripted.New(threeStepScript(executor)...)
	cfg := Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t)}
	if executor {
		cfg.Search = noSearch{}
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	question := "Which region sells most?" + strings.Repeat(" The regions are the company's sales territories, reported monthly.", 80)
	evs := collect(t, s, Request{Mode: ModePlan, Question: question, Files: []string{wideSalesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	last := map[string]scripted.Request{}
	pairs, cacheable := map[string]int{}, 0
	for i, req := range script.Requests() {
		agent := agentOf(req)
		if prev, ok := last[agent]; ok {
			stable := renderRequest(prev.Tools, prev.Messages[:1])
			got := renderRequest(req.Tools, req.Messages)
			if !strings.HasPrefix(got, stable) {
				n := 0
				for n < len(got) && n < len(stable) && got[n] == stable[n] {
					n++
				}
				t.Errorf("request %d (%s) parts from the previous one at character %d of its %d-character stable part:\nprevious: %q\nthis:     %q",
					i, agent, n, len(stable), stable[max(n-40, 0):min(n+40, len(stable))], got[max(n-40, 0):min(n+40, len(got))])
			}
			pairs[agent]++
			if req.PromptTokens >= scripted.CacheMinTokens {
				cacheable++
				if req.CachedTokens < scripted.CacheMinTokens {
					t.Errorf("request %d (%s) has %d prompt tokens but only %d were cached", i, agent, req.PromptTokens, req.CachedTokens)
				}
			}
		}
		last[agent] = req
	}
	agents := []string{"code", "replanner"}
	if executor {
		agents = append(agents, "executor")
	}
	for _, agent := range agents {
		if pairs[agent] < 2 {
			t.Errorf("%s made %d follow-up requests; the 3-step run should give at least 2", agent, pairs[agent])
		}
	}
	if cacheable == 0 {
		t.Error("no request reached the cache threshold: the long question should put the code agent's and the executor's above it")
	}
}
