package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sift-agent/sift/llm/scripted"
)

// regionSteps is a plan of two independent steps (each sums one region's
// revenue) and a total that needs both: run with --parallel 3, the two
// regions' steps run side by side.
var regionSteps = []planStep{
	{desc: "Sum the North revenue", code: "import pandas as pd\nnorth = int(pd.read_csv('input/sales.csv').query(\"region == 'North'\").revenue.sum())\nprint(f'NORTH={north}')"},
	{desc: "Sum the South revenue", code: "import pandas as pd\nsouth = int(pd.read_csv('input/sales.csv').query(\"region == 'South'\").revenue.sum())\nprint(f'SOUTH={south}')"},
	{desc: "Total of both regions", code: "print(f'TOTAL={north + south}')", needs: []int{1, 2}},
}

// regionResponder plays regionSteps through the scripted model server.
var regionResponder = planResponder("Revenue by region", regexp.MustCompile(`[A-Z]+=\d+`), func(scripted.Request) []planStep { return regionSteps })

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
			id := onlySession(t, sessions)
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
