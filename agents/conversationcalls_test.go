package agents

import (
	"testing"

	"github.com/sift-agent/sift/agents/internal/conversation"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools/sqldb"
)

// modelCallsOf checks that every model call of evs is bracketed by
// model_started and model_finished, and returns the words of the starts.
func modelCallsOf(t *testing.T, evs []event.Event, calls int) []string {
	t.Helper()
	var said []string
	open := 0
	for _, e := range evs {
		switch e.Kind {
		case event.ModelStarted:
			open++
			said = append(said, e.Text)
		case event.ModelFinished:
			open--
			if e.Usage == nil || e.Call == nil {
				t.Errorf("a model_finished event without its call or usage: %+v", e)
			}
		}
	}
	if len(said) != calls || open != 0 {
		t.Errorf("%d model calls started (%d left open) for %d calls made: %q", len(said), open, calls, said)
	}
	return said
}

// A conversation's turn (sift chat --db, sift ask) says when each model
// call starts and ends, as a run does: the supervisor's, the SQL
// analyst's, and the data analyst's run's.
func TestConversationReportsEachModelCall(t *testing.T) {
	t.Run("sql", func(t *testing.T) {
		ss, _ := openShop(t)
		script := scripted.New(
			transfer(conversation.NameSQLAnalyst, requestByRegion),
			call(sqldb.SQLQueryName, map[string]string{"sql": sqlByRegion, "save_as": "revenue_by_region"}),
			submitFromResult("out/revenue_by_region.csv", sqlByRegion),
		)
		srv := scripted.NewServer(script)
		t.Cleanup(srv.Close)
		c := newTestConversation(t, llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "test-key", Model: "scripted"}, script, ss, nil)
		evs := ask(t, c, "What is the revenue by region?")
		if err := evs[len(evs)-1].Err; err != nil {
			t.Fatal(err)
		}
		said := modelCallsOf(t, evs, script.Calls())
		want := []string{"Reading the question", "Writing SQL", "Writing SQL"}
		if len(said) != len(want) || said[0] != want[0] || said[1] != want[1] || said[2] != want[2] {
			t.Errorf("the calls said %q, want %q", said, want)
		}
	})
	t.Run("files", func(t *testing.T) {
		script := scripted.New(
			transfer(conversation.NameDataAnalyst, "Total revenue by region in input/sales.csv"),
			call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": "Sum revenue by region"}}, "complexity": "trivial"}),
			call("python", map[string]string{"code": "import pandas as pd\nprint(pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum().to_string())"}),
			echoToolResult("By region:\n"),
			text("# Revenue\n\nNorth leads with 150 [step 1]."),
		)
		c := newTestConversation(t, llm.Endpoint{}, script, nil, func(c *ConversationConfig) { c.Files = []string{salesCSV(t)} })
		evs := ask(t, c, "Revenue by region?")
		if err := evs[len(evs)-1].Err; err != nil {
			t.Fatal(err)
		}
		said := modelCallsOf(t, evs, script.Calls())
		if len(said) == 0 || said[0] != "Reading the question" || said[1] != "Planning" || said[len(said)-1] != "Writing the report" {
			t.Errorf("the calls said %q, want the supervisor's, then the run's from Planning to Writing the report", said)
		}
	})
}
