package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// regionSteps is a plan of two independent steps (each sums one region's
// revenue) and a total that needs both: run with --parallel 3, the two
// regions' steps run side by side.
var regionSteps = []struct{ desc, code string }{
	{"Sum the North revenue", "import pandas as pd\nnorth = int(pd.read_csv('input/sales.csv').query(\"region == 'North'\").revenue.sum())\nprint(f'NORTH={north}')"},
	{"Sum the South revenue", "import pandas as pd\nsouth = int(pd.read_csv('input/sales.csv').query(\"region == 'South'\").revenue.sum())\nprint(f'SOUTH={south}')"},
	{"Total of both regions", "print(f'TOTAL={north + south}')"},
}

var (
	todoStep  = regexp.MustCompile(`(?m)^\d+\. \[todo\] (.+)$`)
	regionFig = regexp.MustCompile(`[A-Z]+=\d+`)
)

// regionResponder plays regionSteps through the server, where requests do
// not name their agent: the tools offered tell them apart. It answers from
// what each request shows, so steps side by side may ask in any order.
func regionResponder(req scripted.Request) (*schema.Message, error) {
	call := func(name string, args any) *schema.Message {
		b, _ := json.Marshal(args)
		return scripted.ToolCall(name, string(b))
	}
	offered := func(name string) bool {
		return slices.ContainsFunc(req.Tools, func(t *schema.ToolInfo) bool { return t.Name == name })
	}
	last := req.Messages[len(req.Messages)-1]
	plan := func(descs []string) *schema.Message {
		var steps []map[string]any
		for i, s := range regionSteps {
			if slices.Contains(descs, s.desc) {
				needs := []int{}
				if i == 2 {
					needs = []int{1, 2}
				}
				steps = append(steps, map[string]any{"index": i + 1, "description": s.desc, "needs": needs})
			}
		}
		return call("create_plan", map[string]any{"steps": steps})
	}
	switch {
	case offered("create_plan") && !offered("submit_result"):
		return plan([]string{regionSteps[0].desc, regionSteps[1].desc, regionSteps[2].desc}), nil
	case offered("submit_result"):
		var todo []string
		for _, m := range todoStep.FindAllStringSubmatch(last.Content, -1) {
			todo = append(todo, m[1])
		}
		if len(todo) > 0 {
			return plan(todo), nil
		}
		return call("submit_result", map[string]any{"answer": strings.Join(regionFig.FindAllString(last.Content, -1), "; ")}), nil
	case offered("python"):
		if last.Role == schema.Tool {
			return scripted.Text("Done. Output:\n" + last.Content), nil
		}
		for _, s := range regionSteps {
			if strings.Contains(last.Content, s.desc) {
				return call("python", map[string]string{"code": s.code}), nil
			}
		}
		return nil, fmt.Errorf("code request for no known step: %q", last.Content)
	}
	figs := regionFig.FindAllString(last.Content, -1)
	slices.Sort(figs)
	return scripted.Text("# Revenue by region\n\n" + strings.Join(slices.Compact(figs), "\n") + "\n"), nil
}

// TestReplayParallelSession records sessions run with --parallel 1 and 3
// through the real client, then replays each with sift replay: both
// reproduce the report with no divergence, although the steps' calls
// arrive in another order; a changed input is a divergence of the code
// agent and a changed number in the report, as for any session.
func TestReplayParallelSession(t *testing.T) {
	pythonOrSkip(t)
	isolateEnv(t)
	ctx := context.Background()
	dir := t.TempDir()
	// 30 rows of 10 each; the changed input has 20 in the last row, past
	// what the data preview shows, so only the code's output differs.
	var rows, changedRows strings.Builder
	for _, b := range []*strings.Builder{&rows, &changedRows} {
		b.WriteString("region,revenue\n")
		for i := range 30 {
			region, revenue := "North", 10
			if i%2 == 1 {
				region = "South"
			}
			if i == 29 && b == &changedRows {
				revenue = 20
			}
			fmt.Fprintf(b, "%s,%d\n", region, revenue)
		}
	}
	data, changed := filepath.Join(dir, "sales.csv"), filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(data, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changed, []byte(changedRows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := scripted.NewServer(scripted.NewResponder(regionResponder))
	defer srv.Close()
	for _, parallel := range []string{"1", "3"} {
		t.Run("parallel="+parallel, func(t *testing.T) {
			sessions := t.TempDir()
			io, _, errOut := testIO()
			if code := execute(ctx, io, []string{"run", "--mode", "plan", "--parallel", parallel, "--base-url", srv.URL + "/v1", "--api-key", "k", "--model", "scripted",
				"--file", data, "--sessions-dir", sessions, "Revenue by region, and the total?"}); code != exitOK {
				t.Fatalf("run: exit %d: %s", code, errOut)
			}
			if parallel == "3" && !strings.Contains(errOut.String(), "side by side") {
				t.Errorf("the steps did not run side by side:\n%s", errOut)
			}
			entries, _ := os.ReadDir(sessions)
			if len(entries) != 1 {
				t.Fatalf("%d sessions, want 1", len(entries))
			}
			id := entries[0].Name()
			report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
			if err != nil || !strings.Contains(string(report), "TOTAL=300") {
				t.Fatalf("the recorded report lacks the total (%v):\n%s", err, report)
			}
			replay := func(args ...string) (int, string) {
				io, out, errOut := testIO()
				code := execute(ctx, io, append([]string{"replay", "--sessions-dir", sessions}, args...))
				return code, out.String() + errOut.String()
			}
			if code, text := replay(id); code != exitOK || !strings.Contains(text, "No divergence") {
				t.Fatalf("replay: exit %d:\n%s", code, text)
			}
			code, text := replay("--file", changed, id)
			for _, want := range []string{"First divergence: call ", "(code, recording line ", "of the request differs", "SOUTH=150", "SOUTH=160", "TOTAL=310", "Changed: report.md line "} {
				if code != exitRunFailed || !strings.Contains(text, want) {
					t.Fatalf("replay with a changed input: exit %d, want %q in:\n%s", code, want, text)
				}
			}
		})
	}
}
