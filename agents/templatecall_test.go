package agents

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools/templates"
)

// TestExecutorFetchesAndFillsATemplate plays an executor that looks up a
// template's parameters with template_params and fills them in a
// run_template call: the parameters reach it through the tool result, the
// template runs on the named columns, and its answer is the step's result.
// The executor runs steps when it has a choice to make: here, with a
// search provider configured.
func TestExecutorFetchesAndFillsATemplate(t *testing.T) {
	lastTool := func(req scripted.Request) string {
		if m := req.Messages[len(req.Messages)-1]; m.Role == schema.Tool {
			return m.Content
		}
		return ""
	}
	script := scripted.New(
		call(toolCreatePlan, steps("Top 2 regions by total revenue in input/sales.csv")),
		call(templates.ParamsToolName, map[string]string{"template": "topn"}),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			got := lastTool(req)
			if !strings.Contains(got, "category: the column to group by") || !strings.Contains(got, "n: how many") {
				return nil, fmt.Errorf("the executor did not get topn's parameters: %q", got)
			}
			return scripted.ToolCall(templates.ToolName, `{"template":"topn","file":"input/sales.csv","params":{"category":"region","measure":"revenue","n":2}}`), nil
		}},
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			for _, m := range req.Messages {
				if strings.Contains(m.Content, "## Top 2 regions by total revenue") && strings.Contains(m.Content, "| 1 | North |") {
					return scripted.ToolCall(toolSubmitResult, `{"answer":"North and South sell most.","files":["out/topn_ranking.csv"]}`), nil
				}
			}
			return nil, fmt.Errorf("the replanner did not see the template's ranking")
		}},
		text("# Top regions\n\nNorth leads [step 1]."),
	)
	s := httpSift(t, script, func(c *Config) { c.Search = noSearch{} })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which two regions sell most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	if csv := readWS(t, done, "out/topn_ranking.csv"); !strings.Contains(csv, "North") || !strings.Contains(csv, "150") {
		t.Errorf("out/topn_ranking.csv:\n%s", csv)
	}
}
