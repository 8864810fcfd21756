package prompt

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

// TestConversationPromptsGolden pins the supervisor's and the SQL analyst's
// rendered prompts (regenerate with UPDATE_GOLDEN=1, and bump
// Version).
func TestConversationPromptsGolden(t *testing.T) {
	earlier := []Turn{
		{Question: "Revenue by region?", Request: "Total revenue by customer region.", Route: "sql_analyst", Answer: "North leads with 1,200.", Findings: []string{"North 1200", "South 800"},
			SQL: "SELECT region, SUM(amount) AS total_revenue FROM orders GROUP BY region", FollowUps: []string{"And for 2023?", "Which products sell best?"}},
		{Question: "Thanks! What can you do?", Route: "supervisor", Answer: "I answer questions about your data."},
	}
	analysts := []Analyst{{Name: "sql_analyst", Description: SQLAnalystDescription}, {Name: "data_analyst", Description: DataAnalystDescription}}
	data := "Database \"shop\" (sqlite), 2 tables.\norders: id, region, amount, order_date"
	cases := map[string][]*schema.Message{
		"supervisor":  Supervisor(analysts, data, append(History(earlier), schema.UserMessage("and for 2023?"))),
		"sql_analyst": SQLAnalyst("Total revenue by customer region for 2023.", data, "- SQLite: use strftime('%Y', col).", "", earlier),
		// A later session on the same database: SQL that worked before.
		"sql_analyst_remembered": SQLAnalyst("Total revenue by customer region for 2023.", data, "- SQLite: use strftime('%Y', col).",
			"Request \"Revenue by region for 2022\" (session s1, 2026-11-30; memory entry e-0123456789abcdef0123):\n```sql\nSELECT c.region, SUM(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE strftime('%Y', o.date) = '2022' GROUP BY c.region\n```", earlier),
	}
	for name, msgs := range cases {
		t.Run(name, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", "prompts", name+".golden"), render(msgs), name+" prompt")
		})
	}
}

func TestConversationPromptsRules(t *testing.T) {
	for name, p := range map[string]string{"supervisor": SupervisorText, "sql_analyst": SQLAnalystText} {
		if !strings.Contains(p, "language of the person's question") {
			t.Errorf("%s prompt must ask for answers in the person's language", name)
		}
		if strings.ContainsAny(p, "{}") {
			t.Errorf("%s prompt must not hold braces: some Eino paths format prompts as f-strings", name)
		}
	}
	for _, w := range []string{"transfer_to_agent", "self-contained", "and for 2023?", "one short question", "Decline politely"} {
		if !strings.Contains(SupervisorText, w) {
			t.Errorf("the supervisor prompt must cover %q", w)
		}
	}
	for _, w := range []string{"save_as", "Hint", "submit_answer", "follow-up"} {
		if !strings.Contains(SQLAnalystText, w) {
			t.Errorf("the SQL analyst prompt must cover %q", w)
		}
	}
}
