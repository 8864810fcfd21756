package main

import (
	"context"
	"strings"
	"testing"

	"github.com/sift-agent/sift/llm/scripted"
)

// TestRunShowsEachToolCallOnceThroughHTTP: `sift run` against an
// OpenAI-compatible endpoint (the scripted server, through the real
// client) shows each tool call once, as it does with --script.
func TestRunShowsEachToolCallOnceThroughHTTP(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	srv := scripted.NewServer(scripted.New(
		scriptedCall("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Count the rows"}}}),
		scriptedCall("python", map[string]string{"code": "import pandas as pd\ndf = pd.read_csv('input/sales.csv')"}),
		scriptedCall("python", map[string]string{"code": "print(len(df), 'rows')"}),
		scripted.Reply{Message: scripted.Text("The file has 504 rows.")},
		scriptedCall("submit_result", map[string]any{"answer": "504 rows"}),
		scripted.Reply{Message: scripted.Text("# Rows\n\n504 rows [step 1].")},
	))
	defer srv.Close()
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--base-url", srv.URL + "/v1", "--api-key", "k", "--model", "scripted",
		"--file", "../../examples/data/sales.csv", "--sessions-dir", t.TempDir(), "How many rows?"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	// The step's two calls of the code agent, each shown once.
	for _, call := range []string{" python: import pandas as pd (2 lines)", " python: print(len(df), 'rows')"} {
		if n := strings.Count(errOut.String(), call); n != 1 {
			t.Errorf("%q shown %d times, want once:\n%s", call, n, errOut)
		}
	}
	if n := strings.Count(errOut.String(), " python: "); n != 2 {
		t.Errorf("%d python calls shown, want the two made:\n%s", n, errOut)
	}
}
