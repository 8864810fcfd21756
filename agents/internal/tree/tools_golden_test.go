package tree

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/tokens"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools"
)

// renderToolList is one agent's tool list as the golden file shows it: each
// tool's name, the sizes of its description and JSON schema, and the prompt
// tokens it costs; then the list's total as a provider counts it.
func renderToolList(t *testing.T, name string, infos []*schema.ToolInfo) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d tools, %d prompt tokens\n", name, len(infos), tokens.Tools("", infos))
	for _, ti := range infos {
		fmt.Fprintf(&b, "  %-16s description %4d chars, schema %4d chars, %4d tokens\n",
			ti.Name, len(ti.Desc), len(tokens.ToolSchema(ti)), tokens.Tools("", []*schema.ToolInfo{ti}))
	}
	return b.String()
}

func infosOf(t *testing.T, ts []tool.BaseTool) []*schema.ToolInfo {
	t.Helper()
	var out []*schema.ToolInfo
	for _, tl := range ts {
		info, err := tl.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, info)
	}
	return out
}

// TestToolListsGolden pins every agent's full tool list, names and sizes,
// so that a tool definition that grows (and is billed on every call of its
// agent) shows up as a diff in review. Regenerate with UPDATE_GOLDEN=1.
func TestToolListsGolden(t *testing.T) {
	op, err := operator.NewLocal(operator.LocalConfig{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m := scripted.New().Model()
	cfg := treeConfig{op: op, policy: &tools.Policy{}, models: resolvedModels{planner: m, executor: m, code: m, report: m}}
	executor, _, err := buildExecutorTools(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	code, err := cfg.codeAgentTools()
	if err != nil {
		t.Fatal(err)
	}
	webTools, err := cfg.webAgentTools()
	if err != nil {
		t.Fatal(err)
	}
	// With a database (or a file large enough for SQL), the executor and
	// the code agent also get the SQL tools.
	cfg.sources, _ = openShop(t)
	sqlExecutor, _, err := buildExecutorTools(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sqlCode, err := cfg.codeAgentTools()
	if err != nil {
		t.Fatal(err)
	}
	// A run with a search provider whose question no built-in analysis
	// does: the executor is offered no template tool. (Without a search
	// provider the executor would only pass steps on, and they go
	// straight to the code agent, whose list is above.)
	lean := cfg
	lean.sources = nil
	lean.offer = prompt.Offer{NoTemplates: true}
	leanExecutor, _, err := buildExecutorTools(context.Background(), lean)
	if err != nil {
		t.Fatal(err)
	}
	got := renderToolList(t, "planner", []*schema.ToolInfo{createPlanTool}) +
		renderToolList(t, "executor", infosOf(t, executor)) +
		renderToolList(t, "code_agent", infosOf(t, code)) +
		renderToolList(t, "web_researcher", infosOf(t, webTools)) +
		renderToolList(t, "replanner", []*schema.ToolInfo{replanTool, submitResultTool}) +
		renderToolList(t, "executor with a database", infosOf(t, sqlExecutor)) +
		renderToolList(t, "code_agent with a database", infosOf(t, sqlCode)) +
		renderToolList(t, "executor when no template fits", infosOf(t, leanExecutor))
	checkGolden(t, filepath.Join("testdata", "tools.golden"), got, "tool lists (every agent call pays for them)")
}
