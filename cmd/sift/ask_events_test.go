package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// `sift ask --json` (and so `sift chat --db`, the same conversation) shows
// each model call start and end, as `sift run --json` does: the
// supervisor's reading of the question and the SQL analyst's calls.
func TestAskJSONCarriesModelCallEvents(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	db, _ := shopDB(t)
	script := writeScript(t, `{"name": "ask", "replies": [
 {"content": "Total revenue over all orders.", "tool_calls": [{"name": "transfer_to_agent", "arguments": {"agent_name": "sql_analyst"}}]},
 {"tool_calls": [{"name": "sql_query", "arguments": {"sql": "`+totalSQL+`", "save_as": "total_revenue"}}]},
 {"tool_calls": [{"name": "submit_answer", "arguments": {"answer": "Total revenue is {{line:| TOTAL=}}", "sql": "`+totalSQL+`", "data_file": "out/total_revenue.csv"}}]}
]}`)
	io, out, errOut := testIO()
	code := execute(context.Background(), io, []string{"ask", "--json", "--script", script, "--db", "shop=sqlite:" + db, "--sessions-dir", t.TempDir(), "What is the total revenue?"})
	if code != exitOK {
		t.Fatalf("exit code = %d; stderr:\n%s", code, errOut)
	}
	var started []string
	finished := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e struct{ Kind, Text string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		switch e.Kind {
		case "model_started":
			started = append(started, e.Text)
		case "model_finished":
			finished++
		}
	}
	if strings.Join(started, "|") != "Reading the question|Writing SQL|Writing SQL" || finished != 3 {
		t.Errorf("model calls started %q, %d finished; want the supervisor's and the SQL analyst's two, each finished", started, finished)
	}
}
