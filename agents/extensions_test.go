package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

type fxArgs struct {
	Currency string `json:"currency" jsonschema:"description=ISO code, e.g. EUR"`
}

// fxTool is a service's own tool: a stand-in for an internal API.
func fxTool(t *testing.T, calls *atomic.Int32) tool.BaseTool {
	t.Helper()
	ft, err := utils.InferTool("fx_rate", "Today's exchange rate of a currency to USD, from the treasury API.", func(_ context.Context, a fxArgs) (string, error) {
		calls.Add(1)
		return a.Currency + " to USD: 1.0842", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// fxScript is a run whose executor calls fx_rate itself.
func fxScript() []scripted.Reply {
	return []scripted.Reply{
		call(toolCreatePlan, steps("Look up the EUR to USD rate with fx_rate")),
		call("fx_rate", map[string]string{"currency": "EUR"}),
		text("EUR to USD is 1.0842."),
		call(toolSubmitResult, map[string]any{"answer": "1 EUR is 1.08 USD."}),
		text("# Rate\n\n1 EUR is 1.08 USD [step 1]."),
	}
}

var testExtensions = Extensions{
	Instructions: "Revenue means net of refunds.",
	Glossary:     map[string]string{"GMV": "gross merchandise value, before refunds", "AOV": "average order value"},
}

func TestExtensionToolAndHouseRulesReachTheAgents(t *testing.T) {
	var calls atomic.Int32
	script := scripted.New(fxScript()...)
	ext := testExtensions
	ext.ExecutorTools = []tool.BaseTool{fxTool(t, &calls)}
	s := httpSift(t, script, func(c *Config) { c.Extensions = ext })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "What is the euro worth in dollars?"})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if calls.Load() != 1 || !toolResultContains(evs, "fx_rate", "1.0842") {
		t.Errorf("the extension tool must run once and its reply reach the events (calls %d)", calls.Load())
	}
	reqs := script.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model calls, want 5", len(reqs))
	}
	for i, req := range reqs {
		sys := req.Messages[0]
		if sys.Role != schema.System || !strings.Contains(sys.Content, "## Standing instructions\nRevenue means net of refunds.") ||
			!strings.Contains(sys.Content, "## Glossary\n- AOV: average order value\n- GMV: gross merchandise value") {
			t.Errorf("request %d: the system prompt must end with the house rules:\n%s", i, sys.Content)
		}
	}
	var offered bool
	for _, ti := range reqs[1].Tools {
		offered = offered || ti.Name == "fx_rate"
	}
	if !offered {
		t.Error("the executor must be offered fx_rate")
	}
}

func TestExtensionToolFollowsTheApprovalPolicy(t *testing.T) {
	var calls atomic.Int32
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"deny": ["fx_rate"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	replies := fxScript()
	replies[2] = text("FAILED: fx_rate may not be used.")
	replies[3] = call(toolSubmitResult, map[string]any{"answer": "The rate could not be looked up."})
	replies[4] = text("# Rate\n\nNot available [step 1].")
	script := scripted.New(replies...)
	s := httpSift(t, script, func(c *Config) {
		c.Extensions.ExecutorTools = []tool.BaseTool{fxTool(t, &calls)}
		c.PolicyFile = policy
	})
	evs := collect(t, s, Request{Mode: ModePlan, Question: "What is the euro worth in dollars?"})
	// The only step failed, so the answer rests on it: the run says so.
	if done := evs[len(evs)-1]; !errors.Is(done.Err, ErrAnswerOnFailedSteps) {
		t.Fatalf("run ended with %v, want ErrAnswerOnFailedSteps", done.Err)
	}
	if calls.Load() != 0 {
		t.Error("a denied extension tool must not run")
	}
	var refused bool
	for _, e := range evs {
		refused = refused || e.Tool == "fx_rate" && e.Text != "" && strings.Contains(strings.ToLower(e.Text), "not run")
	}
	if !refused {
		t.Error("the model must be told the call was not run")
	}
}

func TestExtensionSubAgentIsOfferedAsATool(t *testing.T) {
	inner := scripted.New(text("Refunds were 4.2% of GMV last quarter."))
	expert, err := adk.NewChatModelAgent(context.Background(), &adk.ChatModelAgentConfig{
		Name: "finance_expert", Description: "Answers questions about the company's finance definitions and figures.",
		Model: inner.Model(),
	})
	if err != nil {
		t.Fatal(err)
	}
	script := scripted.New(
		call(toolCreatePlan, steps("Ask finance_expert for the refund rate")),
		call("finance_expert", map[string]string{"request": "What share of GMV was refunded?"}),
		text("Refunds were 4.2% of GMV."),
		call(toolSubmitResult, map[string]any{"answer": "Refunds were 4.2% of GMV."}),
		text("# Refunds\n\nRefunds were 4.2% of GMV [step 1]."),
	)
	s := httpSift(t, script, func(c *Config) { c.Extensions.SubAgents = []adk.Agent{expert} })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "How much was refunded?"})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if inner.Calls() != 1 || !toolResultContains(evs, "finance_expert", "4.2%") {
		t.Errorf("the sub-agent must answer the executor's call (calls %d)", inner.Calls())
	}
}

// streamOnly is a tool the agents cannot invoke.
type streamOnly struct{}

func (streamOnly) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "ticker", Desc: "streams prices"}, nil
}

func TestExtensionToolsThatCannotBeUsedAreRefused(t *testing.T) {
	var calls atomic.Int32
	for name, ext := range map[string]Extensions{
		"must implement tool.InvokableTool": {CodeTools: []tool.BaseTool{streamOnly{}}},
		`two tools are named "fx_rate"`:     {ExecutorTools: []tool.BaseTool{fxTool(t, &calls), fxTool(t, &calls)}},
	} {
		s := httpSift(t, scripted.New(fxScript()...), func(c *Config) { c.Extensions = ext })
		evs := collect(t, s, Request{Mode: ModePlan, Question: "q"})
		if done := evs[len(evs)-1]; done.Err == nil || !strings.Contains(done.Err.Error(), name) {
			t.Errorf("want an error saying %q, got %v", name, done.Err)
		}
	}
}
