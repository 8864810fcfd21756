package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// wideCSV writes a 200-column sheet: an id, a date and 198 measures.
func wideCSV(b testing.TB) string {
	var sb strings.Builder
	sb.WriteString("id,date")
	for c := 0; c < 198; c++ {
		fmt.Fprintf(&sb, ",measure_%03d", c)
	}
	sb.WriteString("\n")
	for r := 0; r < 300; r++ {
		fmt.Fprintf(&sb, "%d,2024-%02d-%02d", r, r%12+1, r%28+1)
		for c := 0; c < 198; c++ {
			fmt.Fprintf(&sb, ",%d.%02d", (r*31+c*17)%1000, (r+c)%100)
		}
		sb.WriteString("\n")
	}
	p := filepath.Join(b.TempDir(), "wide.csv")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// eightStepScript is an 8-step analysis whose every cell prints a large
// table (the summary statistics of all 198 measures) and saves one file;
// the code agent passes what it printed on as its answer.
func eightStepScript() []scripted.Reply {
	var descs []string
	for i := 1; i <= 8; i++ {
		descs = append(descs, fmt.Sprintf("Step %d: describe measures and save out/step_%d.csv", i, i))
	}
	replies := []scripted.Reply{call(toolCreatePlan, steps(descs...))}
	for i := 1; i <= 8; i++ {
		code := fmt.Sprintf("import pandas as pd\ndf = pd.read_csv('input/wide.csv')\nd = (df.drop(columns=['date']) * %d).describe().T\nd.to_csv('out/step_%d.csv')\nprint(d.to_string())", i, i)
		replies = append(replies,
			call("python", map[string]string{"code": code}),
			echoToolResult(fmt.Sprintf("Step %d statistics:\n", i)),
		)
		if i < 8 {
			replies = append(replies, call(toolCreatePlan, steps(descs[i:]...)))
		}
	}
	return append(replies,
		call(toolSubmitResult, map[string]any{"answer": "Eight summaries saved."}),
		text("# Report\n\nEight summaries [step 1]."))
}

// BenchmarkContextManagement runs the same scripted 8-step analysis of a
// 200-column sheet with large tool outputs twice in one run — context
// management off (Verbatim: everything verbatim) and on — and prints the
// prompt tokens per agent and in total (as providers count them, tool
// definitions included), their ratio, and the tokens the scripted model's
// simulated prefix cache served. Both runs must leave the same artifacts.
//
//	go test ./agents -run '^$' -bench ContextManagement -benchtime 1x -v
func BenchmarkContextManagement(b *testing.B) {
	py := pythonOrSkip(b)
	data := wideCSV(b)
	run := func(verbatim bool) (*event.Usage, []string) {
		script := scripted.New(eightStepScript()...)
		s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: b.TempDir(), Python: py, Verbatim: verbatim})
		if err != nil {
			b.Fatal(err)
		}
		var done event.Event
		for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: "Describe every measure, step by step", Files: []string{data}}) {
			done = e
		}
		if done.Err != nil {
			b.Fatalf("verbatim=%v: %v", verbatim, done.Err)
		}
		if script.Remaining() != 0 {
			b.Fatalf("verbatim=%v: %d replies unused", verbatim, script.Remaining())
		}
		return done.Usage, outFiles(b, done.Path)
	}
	for b.Loop() {
		off, offFiles := run(true)
		on, onFiles := run(false)
		if strings.Join(offFiles, ",") != strings.Join(onFiles, ",") || len(onFiles) != 8 {
			b.Fatalf("artifacts differ: off %v, on %v", offFiles, onFiles)
		}
		var t strings.Builder
		fmt.Fprintf(&t, "\n%-10s %14s %14s %7s %14s %14s\n", "agent", "prompt (off)", "prompt (on)", "on/off", "cached (off)", "cached (on)")
		agents := []string{}
		for a := range off.PerAgent {
			agents = append(agents, a)
		}
		sort.Strings(agents)
		for _, a := range agents {
			o, n, oc, nc := off.PerAgent[a].PromptTokens, 0, off.PerAgent[a].CachedTokens, 0
			if on.PerAgent[a] != nil {
				n, nc = on.PerAgent[a].PromptTokens, on.PerAgent[a].CachedTokens
			}
			fmt.Fprintf(&t, "%-10s %14d %14d %6.0f%% %14d %14d\n", a, o, n, 100*float64(n)/float64(o), oc, nc)
		}
		ratio := float64(on.PromptTokens) / float64(off.PromptTokens)
		fmt.Fprintf(&t, "%-10s %14d %14d %6.0f%% %14d %14d   (calls: %d off, %d on; artifacts: %d, identical)\n", "total", off.PromptTokens, on.PromptTokens, 100*ratio, off.CachedTokens, on.CachedTokens, off.Calls, on.Calls, len(onFiles))
		b.Log(t.String())
		b.ReportMetric(float64(off.PromptTokens), "prompt-tokens-off")
		b.ReportMetric(float64(on.PromptTokens), "prompt-tokens-on")
		b.ReportMetric(100*ratio, "%on/off")
		b.ReportMetric(float64(on.CachedTokens), "cached-tokens-on")
	}
}
