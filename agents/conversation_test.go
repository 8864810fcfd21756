package agents

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/conversation"
	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools/sqldb"
)

// shopFacts are the totals the generated shop database must produce.
type shopFacts struct {
	// RevenueByRegion sums quantity*price over all orders;
	// RevenueByRegion2023 over orders placed in 2023.
	RevenueByRegion, RevenueByRegion2023 map[string]float64
	Total                                float64
}

var shopRegions = []string{"East", "North", "South", "West"}

// newShopDB writes a SQLite shop (customers, products, orders) whose
// totals the tests know; prices are multiples of 0.5, so every sum is
// exact.
func newShopDB(t testing.TB) (string, shopFacts) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL)`)
	exec(`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL)`)
	exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), product_id INTEGER NOT NULL REFERENCES products(id), order_date TEXT NOT NULL, quantity INTEGER NOT NULL)`)
	f := shopFacts{RevenueByRegion: map[string]float64{}, RevenueByRegion2023: map[string]float64{}}
	region := map[int]string{}
	for i := 1; i <= 20; i++ {
		region[i] = shopRegions[i%len(shopRegions)]
		exec(`INSERT INTO customers VALUES (?, ?, ?)`, i, fmt.Sprintf("Customer %d", i), region[i])
	}
	price := map[int]float64{}
	for i := 1; i <= 8; i++ {
		price[i] = 4 + float64(i)*1.5
		exec(`INSERT INTO products VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("Product %d", i), []string{"books", "games"}[i%2], price[i])
	}
	for o := 1; o <= 300; o++ {
		cust, prod, qty := 1+(o*7)%20, 1+(o*3)%8, 1+o%4
		year := 2023 + o%2
		date := fmt.Sprintf("%d-%02d-%02d", year, 1+o%12, 1+o%28)
		exec(`INSERT INTO orders VALUES (?, ?, ?, ?, ?)`, o, cust, prod, date, qty)
		rev := float64(qty) * price[prod]
		f.RevenueByRegion[region[cust]] += rev
		f.Total += rev
		if year == 2023 {
			f.RevenueByRegion2023[region[cust]] += rev
		}
	}
	return p, f
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// openShop opens the shop database as the conversation's only source.
func openShop(t testing.TB) (*sqldb.Sources, shopFacts) {
	t.Helper()
	p, f := newShopDB(t)
	ss, err := sqldb.OpenSources(context.Background(), []string{"shop=sqlite:" + p}, sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ss, f
}

const (
	sqlByRegion         = "SELECT c.region, SUM(o.quantity * p.price) AS total_revenue FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id GROUP BY c.region ORDER BY c.region"
	sqlByRegion2023     = "SELECT c.region, SUM(o.quantity * p.price) AS total_revenue FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id WHERE strftime('%Y', o.order_date) = '2023' GROUP BY c.region ORDER BY c.region"
	requestByRegion     = "Total revenue (quantity times price) by customer region, over all orders."
	requestByRegion2023 = "Total revenue (quantity times price) by customer region, for orders placed in 2023."
)

// transfer is a supervisor reply: the rewritten request beside the
// transfer call.
func transfer(agent, request string) scripted.Reply {
	m := scripted.ToolCall(adk.TransferToAgentToolName, fmt.Sprintf(`{"agent_name":%q}`, agent))
	m.Content = request
	return scripted.Reply{Message: m}
}

// cellRow matches "| North | 1234.5 |" in a query reply.
var cellRow = regexp.MustCompile(`\| (\w+) \| ([0-9.]+) \|`)

// submitFromResult submits an answer whose numbers come from the last
// query reply, as a model would read them.
func submitFromResult(dataFile, sqlText string) scripted.Reply {
	return scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
		var last string
		for i := len(req.Messages) - 1; i >= 0; i-- {
			if req.Messages[i].Role == schema.Tool {
				last = req.Messages[i].Content
				break
			}
		}
		var findings []string
		for _, m := range cellRow.FindAllStringSubmatch(last, -1) {
			findings = append(findings, m[1]+": "+m[2])
		}
		if len(findings) == 0 {
			return nil, fmt.Errorf("no result rows in the last tool reply: %q", last)
		}
		args, _ := json.Marshal(map[string]any{
			"answer": "Revenue by region: " + strings.Join(findings, ", ") + ".", "findings": findings,
			"sql": sqlText, "data_file": dataFile, "follow_ups": []string{"And for 2023?", "Which products sell best?", "Monthly trend?", "a fourth is dropped"},
		})
		return scripted.ToolCall(conversation.ToolSubmitAnswer, string(args)), nil
	}}
}

func newTestConversation(t testing.TB, m llm.Endpoint, script *scripted.Script, ss *sqldb.Sources, mutate func(*ConversationConfig)) *Conversation {
	t.Helper()
	cfg := ConversationConfig{Config: Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute}, Sources: ss}
	if m.BaseURL != "" {
		cm, err := llm.New(context.Background(), m, llm.WithSleep(func(context.Context, time.Duration) error { return nil }))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Models.Default = cm
	} else {
		cfg.Models.Default = script.Model()
	}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := NewConversation(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ask(t testing.TB, c *Conversation, q string) []event.Event {
	t.Helper()
	var evs []event.Event
	for e := range c.Ask(context.Background(), q) {
		evs = append(evs, e)
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != event.Done {
		t.Fatalf("the last event must be done; got %d events", len(evs))
	}
	return evs
}

// requestsOf returns the requests whose system prompt starts like prompt.
func requestsOf(script *scripted.Script, prompt string) []scripted.Request {
	head := prompt[:40]
	var out []scripted.Request
	for _, r := range script.Requests() {
		if len(r.Messages) > 0 && r.Messages[0].Role == schema.System && strings.HasPrefix(r.Messages[0].Content, head) {
			out = append(out, r)
		}
	}
	return out
}

func toolCalls(evs []event.Event, name string) []event.Event {
	var out []event.Event
	for _, e := range kinds(evs, event.ToolCall) {
		if name == "" || e.Tool == name {
			out = append(out, e)
		}
	}
	return out
}

func TestConversationAnswersThroughSQLOverHTTP(t *testing.T) {
	ss, facts := openShop(t)
	script := scripted.New(
		transfer(conversation.NameSQLAnalyst, requestByRegion),
		call(sqldb.SQLQueryName, map[string]string{"sql": sqlByRegion, "save_as": "revenue_by_region"}),
		submitFromResult("out/revenue_by_region.csv", sqlByRegion),
	)
	srv := scripted.NewServer(script)
	t.Cleanup(srv.Close)
	c := newTestConversation(t, llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "test-key", Model: "scripted"}, script, ss, nil)
	evs := ask(t, c, "What is the revenue by region?")
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("turn failed: %v", done.Err)
	}
	if script.Remaining() != 0 || script.Calls() != 3 {
		t.Errorf("model calls = %d with %d replies unused; want 3 and 0 (the analyst's exit ends the turn without a supervisor call)", script.Calls(), script.Remaining())
	}
	turns := c.Turns()
	if len(turns) != 1 {
		t.Fatalf("turns = %d, want 1", len(turns))
	}
	tr := turns[0]
	north := num(facts.RevenueByRegion["North"])
	if tr.Route != RouteSQL || tr.Request != requestByRegion || !strings.Contains(tr.Answer, "North: "+north) {
		t.Errorf("turn = %+v; want the SQL route, the rewritten request and North's revenue %s in the answer", tr, north)
	}
	if len(tr.FollowUps) != conversation.MaxFollowUps {
		t.Errorf("follow-ups = %q, want the first %d", tr.FollowUps, conversation.MaxFollowUps)
	}
	if tr.DataFile != "out/revenue_by_region.csv" {
		t.Fatalf("data file = %q", tr.DataFile)
	}
	csv := readWS(t, done, tr.DataFile)
	for _, r := range shopRegions {
		if want := r + "," + num(facts.RevenueByRegion[r]); !strings.Contains(csv, want) {
			t.Errorf("the saved CSV lacks %q:\n%s", want, csv)
		}
	}
	if tr.Chart != "out/revenue_by_region.png" {
		t.Errorf("chart = %q, want the pie of four positive totals drawn to out/revenue_by_region.png", tr.Chart)
	} else if st, err := os.Stat(filepath.Join(done.Path, tr.Chart)); err != nil || st.Size() == 0 {
		t.Errorf("the chart file is missing or empty: %v", err)
	}
	report := readWS(t, done, "report.md")
	for _, w := range []string{"# " + requestByRegion, "North: " + north, "```sql\n" + sqlByRegion, "| region | total_revenue |", "](out/revenue_by_region.png)", "And for 2023?"} {
		if !strings.Contains(report, w) {
			t.Errorf("report.md lacks %q:\n%s", w, report)
		}
	}
	if h := readWS(t, done, "report.html"); !strings.Contains(h, "data:image/png;base64,") {
		t.Error("report.html must inline the chart")
	}
	var said bool
	for _, e := range kinds(evs, event.Message) {
		said = said || (e.Agent == conversation.NameSQLAnalyst && strings.Contains(e.Text, "North: "+north))
	}
	if !said || len(kinds(evs, event.Report)) != 1 || len(kinds(evs, event.Artifact)) != 2 {
		t.Errorf("want the answer message, one report and two artifact events; got %d reports, %d artifacts", len(kinds(evs, event.Report)), len(kinds(evs, event.Artifact)))
	}
	// The analyst's prompt holds the schema and the rewritten request.
	ar := requestsOf(script, prompt.SQLAnalystText)
	if len(ar) != 2 || !strings.Contains(ar[0].Messages[0].Content, "orders") || !strings.Contains(ar[0].Messages[1].Content, requestByRegion) {
		t.Errorf("the analyst must see the schema and the request; got %d requests", len(ar))
	}
	hist, err := conversation.LoadHistory(filepath.Join(done.Path, conversation.HistoryFile))
	if err != nil || len(hist) != 1 || hist[0].SQL != sqlByRegion {
		t.Errorf("history file = %+v, %v", hist, err)
	}
}

func TestConversationRepairsAFailingQuery(t *testing.T) {
	ss, facts := openShop(t)
	bad := strings.Replace(sqlByRegion, "o.quantity * p.price", "o.amount", 1)
	script := scripted.New(
		transfer(conversation.NameSQLAnalyst, requestByRegion),
		call(sqldb.SQLQueryName, map[string]string{"sql": bad}),
		call(sqldb.SQLQueryName, map[string]string{"sql": sqlByRegion, "save_as": "revenue_by_region"}),
		submitFromResult("out/revenue_by_region.csv", sqlByRegion),
	)
	c := newTestConversation(t, llm.Endpoint{}, script, ss, nil)
	evs := ask(t, c, "Revenue by region?")
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("turn failed: %v", done.Err)
	}
	var results []string
	for _, e := range kinds(evs, event.ToolResult) {
		if e.Tool == sqldb.SQLQueryName {
			results = append(results, e.Text)
		}
	}
	if len(results) != 2 || !strings.HasPrefix(results[0], "Error:") || !strings.Contains(results[1], "| North | "+num(facts.RevenueByRegion["North"])+" |") {
		t.Fatalf("want a failed query then the repaired one with the right total; got %q", results)
	}
	// The hint reached the model that wrote the repair.
	ar := requestsOf(script, prompt.SQLAnalystText)
	if len(ar) < 2 {
		t.Fatalf("analyst requests = %d", len(ar))
	}
	var hint string
	for _, m := range ar[1].Messages {
		if m.Role == schema.Tool {
			hint = m.Content
		}
	}
	if !strings.Contains(hint, "amount") || !strings.Contains(hint, "Hint:") || !strings.Contains(hint, "quantity") {
		t.Errorf("the analyst's second request must carry the error and a hint naming the real columns, got:\n%s", hint)
	}
	if tr := c.Turns()[0]; !strings.Contains(tr.Answer, num(facts.RevenueByRegion["North"])) {
		t.Errorf("answer = %q", tr.Answer)
	}
}

func TestConversationFollowUpIsRewrittenAndContinuesInANewProcess(t *testing.T) {
	ss, facts := openShop(t)
	script := scripted.New(
		transfer(conversation.NameSQLAnalyst, requestByRegion),
		call(sqldb.SQLQueryName, map[string]string{"sql": sqlByRegion, "save_as": "revenue_by_region"}),
		submitFromResult("out/revenue_by_region.csv", sqlByRegion),
		transfer(conversation.NameSQLAnalyst, requestByRegion2023),
		call(sqldb.SQLQueryName, map[string]string{"sql": sqlByRegion2023, "save_as": "revenue_by_region_2023"}),
		submitFromResult("out/revenue_by_region_2023.csv", sqlByRegion2023),
	)
	root := t.TempDir()
	first := newTestConversation(t, llm.Endpoint{}, script, ss, func(c *ConversationConfig) { c.SessionsRoot = root })
	if done := ask(t, first, "What is the revenue by region?"); done[len(done)-1].Err != nil {
		t.Fatal(done[len(done)-1].Err)
	}
	id := first.ID()
	first.Close()

	// A new Conversation on the same session reads the history file.
	second := newTestConversation(t, llm.Endpoint{}, script, ss, func(c *ConversationConfig) { c.SessionsRoot, c.SessionID = root, id })
	if n := len(second.Turns()); n != 1 {
		t.Fatalf("the continued conversation has %d turns, want 1", n)
	}
	evs := ask(t, second, "and for 2023?")
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("turn failed: %v", done.Err)
	}
	sup := requestsOf(script, prompt.SupervisorText)
	if len(sup) != 2 {
		t.Fatalf("supervisor requests = %d, want 2", len(sup))
	}
	var conv []string
	for _, m := range sup[1].Messages[1:] {
		conv = append(conv, string(m.Role)+": "+m.Content)
	}
	joined := strings.Join(conv, "\n")
	for _, w := range []string{"user: What is the revenue by region?", "assistant: Revenue by region: ", "ran: " + sqlByRegion, "user: and for 2023?"} {
		if !strings.Contains(joined, w) {
			t.Errorf("the supervisor's second request lacks %q:\n%s", w, joined)
		}
	}
	var transferred bool
	for _, e := range toolCalls(evs, adk.TransferToAgentToolName) {
		transferred = transferred || strings.Contains(e.Args, conversation.NameSQLAnalyst)
	}
	if !transferred {
		t.Error("the follow-up must be transferred to the SQL analyst")
	}
	ar := requestsOf(script, prompt.SQLAnalystText)
	last := ar[len(ar)-2] // the analyst's first call of the second turn
	if user := last.Messages[1].Content; !strings.Contains(user, "## Request\n"+requestByRegion2023) || !strings.Contains(user, sqlByRegion) {
		t.Errorf("the analyst must get the rewritten request and the earlier SQL:\n%s", user)
	}
	tr := second.Turns()[1]
	if tr.Question != "and for 2023?" || tr.Request != requestByRegion2023 || !strings.Contains(tr.Answer, "North: "+num(facts.RevenueByRegion2023["North"])) {
		t.Errorf("turn 2 = %+v", tr)
	}
}

func TestConversationRepliesWithoutAnalyst(t *testing.T) {
	tests := []struct {
		name, question, reply string
	}{
		{"an ambiguous request gets a question back", "Show me the numbers for last period", "Which measure and period do you mean: revenue or order count, for 2023 or 2024?"},
		{"a request outside data analysis is declined", "Write me a poem about autumn", "I can only help with analysing your data, so I will not write a poem; I can, for example, show revenue by region or the monthly order trend."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, _ := openShop(t)
			script := scripted.New(text(tt.reply))
			c := newTestConversation(t, llm.Endpoint{}, script, ss, nil)
			evs := ask(t, c, tt.question)
			if done := evs[len(evs)-1]; done.Err != nil {
				t.Fatalf("turn failed: %v", done.Err)
			}
			if calls := toolCalls(evs, ""); len(calls) != 0 || script.Calls() != 1 {
				t.Errorf("want one supervisor call and no tool call; got %d calls and tool calls %+v", script.Calls(), calls)
			}
			msgs := kinds(evs, event.Message)
			if len(msgs) != 1 || msgs[0].Agent != conversation.NameSupervisor || msgs[0].Text != tt.reply {
				t.Errorf("want the supervisor's reply as the one message, got %+v", msgs)
			}
			tr := c.Turns()[0]
			if tr.Route != RouteReply || tr.Answer != tt.reply || tr.SQL != "" {
				t.Errorf("turn = %+v", tr)
			}
			if _, err := os.Stat(filepath.Join(c.Workdir(), "report.md")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a reply must write no report: %v", err)
			}
		})
	}
}

func TestConversationRoutesFilesToThePlanExecuteAnalyst(t *testing.T) {
	script := scripted.New(
		transfer(conversation.NameDataAnalyst, "Total revenue by region in input/sales.csv"),
		call(toolCreatePlan, map[string]any{"steps": []map[string]any{{"index": 1, "description": "Sum revenue by region"}}, "complexity": "trivial"}),
		call("python", map[string]string{"code": "import pandas as pd\nprint(pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum().to_string())"}),
		echoToolResult("By region:\n"),
		text("# Revenue\n\nNorth leads with 150 [step 1]."),
	)
	c := newTestConversation(t, llm.Endpoint{}, script, nil, func(c *ConversationConfig) { c.Files = []string{salesCSV(t)} })
	evs := ask(t, c, "Revenue by region?")
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("turn failed: %v", done.Err)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	tr := c.Turns()[0]
	if tr.Route != RoutePlan || !strings.Contains(tr.Answer, "North") || !strings.Contains(tr.Answer, "150") {
		t.Errorf("turn = %+v", tr)
	}
	if p := requestsOf(script, prompt.PlannerText); len(p) != 1 || !strings.Contains(p[0].Messages[0].Content, "## Question\nTotal revenue by region in input/sales.csv") {
		t.Error("the planner must plan the rewritten request")
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "North leads with 150") {
		t.Errorf("report.md:\n%s", r)
	}
}

func TestNewConversationNeedsAModel(t *testing.T) {
	ss, _ := openShop(t)
	_, err := NewConversation(context.Background(), ConversationConfig{Config: Config{SessionsRoot: t.TempDir()}, Sources: ss})
	if !errors.Is(err, ErrNoModel) || !strings.Contains(err.Error(), "SQL") {
		t.Fatalf("want ErrNoModel saying SQL needs a model, got %v", err)
	}
}
