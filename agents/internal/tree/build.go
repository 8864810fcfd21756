// Package tree is Sift's agent tree: Sequential[planner stage, plan
// review, Loop(step tracker over the executor or direct steps, replanner
// stage), report agent], with the plan owner, the branches that run plan
// steps side by side, the budget guard and the answer check. The runner
// (package agents) builds it through Build and drives it through its ADK
// events and session values (Input); nothing here reaches back into the
// runner.
package tree

import (
	"context"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/web"
)

// Config is what one run's tree is built from. The runner fills it, once
// per tree, for a new question, a resume, a conversation's data analyst
// and an embedder's Agent alike.
type Config struct {
	// Models holds one ready (metered, wrapped) model per role. Required.
	Models Models
	// Operator runs the generated code. Required.
	Operator operator.Operator
	// Search and Fetch back the web researcher; Search is optional.
	Search web.Provider
	Fetch  web.FetchConfig
	// MaxIterations bounds the execute/replan loop; 0 means 10.
	MaxIterations int
	// ClassicExecutor makes the executor summarise the code agent's
	// answer itself (one more model call per step).
	ClassicExecutor bool
	// Verbatim turns tool-output caps off.
	Verbatim bool
	// Policy decides which tool calls need the person's approval;
	// Unattended means no one can answer questions or approvals.
	Policy     *tools.Policy
	Unattended bool
	// Recall answers ask_user's questions the person already answered in
	// an earlier session on the same data, instead of asking them again
	// (see tools.AskUserOptions.Recall). Optional.
	Recall func(question string) (reply string, ok bool)
	// Budget is checked at the safe points: before a step, a replan and
	// the report. Optional.
	Budget *BudgetGuard
	// MCP offers MCP servers' tools to the executor or the code agent.
	// Optional.
	MCP *mcp.Toolset
	// Sources are the databases the SQL tools query. Optional.
	Sources *sqldb.Sources
	// Outputs records every tool reply, for the answer check. Optional.
	Outputs *ToolOutputs
	// Extensions are the embedding service's tools, sub-agents and house
	// rules.
	Extensions Extensions
	// Locale is the person's locale, e.g. "zh-CN". Optional.
	Locale string
	// ReportImages: the report writer's model accepts images.
	ReportImages bool
	// StreamReport: the report writer streams its text.
	StreamReport bool
	// Parallel bounds the plan steps run at the same time.
	Parallel int
	// Offer leaves out the executor's optional tools the run cannot use;
	// the zero value offers them all.
	Offer prompt.Offer
	// Layout, when set, is the layout a resumed run keeps (LayoutDirect
	// or LayoutExecutor); "" decides from the configuration.
	Layout string
}

// Models holds one ready model per agent role.
type Models struct {
	Planner, Executor, Code, Report model.ToolCallingChatModel
}

func (c Config) tree() treeConfig {
	return treeConfig{
		models:          resolvedModels{planner: c.Models.Planner, executor: c.Models.Executor, code: c.Models.Code, report: c.Models.Report},
		op:              c.Operator,
		search:          c.Search,
		fetch:           c.Fetch,
		maxIterations:   c.MaxIterations,
		classicExecutor: c.ClassicExecutor,
		verbatim:        c.Verbatim,
		policy:          c.Policy,
		unattended:      c.Unattended,
		recall:          c.Recall,
		budget:          c.Budget,
		mcp:             c.MCP,
		sources:         c.Sources,
		outputs:         c.Outputs,
		ext:             c.Extensions,
		locale:          c.Locale,
		reportImages:    c.ReportImages,
		streamReport:    c.StreamReport,
		parallel:        c.Parallel,
		offer:           c.Offer,
		layout:          c.Layout,
	}
}

// Build composes the tree from c. The tree is rebuilt by position on
// resume: its shape and names (see checkpoint.go) are part of the
// checkpoint format.
func Build(ctx context.Context, c Config) (adk.ResumableAgent, error) {
	return buildTree(ctx, c.tree())
}

// Direct reports whether a tree built from c sends plan steps straight
// to the code agent (LayoutDirect), whose events then stand for the
// executor's; otherwise it keeps the executor (LayoutExecutor). A session
// records the layout, so that a resume keeps it.
func (c Config) Direct() bool { return c.tree().directSteps() }
