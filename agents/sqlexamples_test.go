package agents

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents/internal/conversation"
	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/tools/sqldb"
)

// TestSQLThatWorkedIsShownToTheSQLAnalyst: the SQL of an answered turn is
// kept about the database, and the SQL analyst of a later conversation on
// it is shown it, which the turn says in an event.
func TestSQLThatWorkedIsShownToTheSQLAnalyst(t *testing.T) {
	ss, _ := openShop(t)
	root := t.TempDir()
	shared := func(cfg *ConversationConfig) { cfg.SessionsRoot = root }
	turn := func(request, sqlText string) []scripted.Reply {
		return []scripted.Reply{
			transfer(conversation.NameSQLAnalyst, request),
			call(sqldb.SQLQueryName, map[string]string{"sql": sqlText, "save_as": "result"}),
			submitFromResult("out/result.csv", sqlText),
		}
	}
	script := scripted.New(turn(requestByRegion, sqlByRegion)...)
	first := newTestConversation(t, llm.Endpoint{}, script, ss, shared)
	if done := ask(t, first, "Revenue by region?"); done[len(done)-1].Err != nil {
		t.Fatal(done[len(done)-1].Err)
	}
	es, err := entriesOf(first.sift, memory.KindExample)
	if err != nil || len(es) != 1 || es[0].Language != memory.LanguageSQL || es[0].Answer != sqlByRegion || es[0].Question != requestByRegion {
		t.Fatalf("the turn's SQL must be kept: %+v %v", es, err)
	}

	script.Push(turn(requestByRegion2023, sqlByRegion2023)...)
	second := newTestConversation(t, llm.Endpoint{}, script, ss, shared)
	evs := ask(t, second, "And in 2023 only?")
	ar := requestsOf(script, prompt.SQLAnalystText)
	sys := ar[len(ar)-1].Messages[0].Content
	if !strings.Contains(sys, "## SQL that worked before on these databases") || !strings.Contains(sys, "```sql\n"+sqlByRegion+"\n```") {
		t.Errorf("the SQL analyst must be shown the SQL that worked:\n%s", sys)
	}
	if said := strings.Join(messagesOf(evs, MemoryAgent), "\n"); !strings.Contains(said, "The SQL analyst is shown 1 example of SQL that worked before") {
		t.Errorf("the turn must say which examples it shows: %q", said)
	}
	if first := ar[0].Messages[0].Content; strings.Contains(first, "SQL that worked before") {
		t.Error("the first conversation had nothing to be shown")
	}
}
