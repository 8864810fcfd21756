package tree

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/prebuilt/planexecute"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/templates"
	"github.com/sift-agent/sift/tools/web"
)

const (
	// ToolOutputCap bounds a tool reply the models see (see tools.CapOutput).
	ToolOutputCap     = 12000
	codeMaxIterations = 12
)

// createPlanTool is the planner's structured plan; replanTool the
// replanner's, which leaves out the complexity only the planner rates.
var (
	createPlanTool = planTool(true)
	replanTool     = planTool(false)
)

// planTool is create_plan, with the complexity rating or without. The
// prompts explain the rules; the schema says only what goes where.
func planTool(complexity bool) *schema.ToolInfo {
	params := map[string]*schema.ParameterInfo{
		"steps": {
			Type:     schema.Array,
			Required: true,
			ElemInfo: &schema.ParameterInfo{
				Type: schema.Object,
				SubParams: map[string]*schema.ParameterInfo{
					"index":       {Type: schema.Integer, Desc: "1-based position", Required: true},
					"description": {Type: schema.String, Desc: "what to do: files, columns, computation, outputs under out/", Required: true},
					"needs":       {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.Integer}, Desc: "indexes of earlier steps it uses; [] for none"},
				},
			},
		},
	}
	if complexity {
		params["complexity"] = &schema.ParameterInfo{Type: schema.String, Enum: []string{"trivial", "normal", "complex"}}
	}
	return &schema.ToolInfo{
		Name:        ToolCreatePlan,
		Desc:        "The steps still to do, in order.",
		ParamsOneOf: schema.NewParamsOneOfByParams(params),
	}
}

// submitResultTool ends the execute/replan loop with the final answer.
var submitResultTool = &schema.ToolInfo{
	Name: ToolSubmitResult,
	Desc: "Submit the final result.",
	ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"answer":         {Type: schema.String, Required: true, Desc: "the direct answer"},
		"findings":       {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Desc: "key findings with their numbers"},
		"files":          {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Desc: "deliverable files (out/...)"},
		"next_questions": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Desc: "2 or 3 follow-up questions on the data's columns"},
	}),
}

// treeConfig is what one run's agent tree is built from.
type treeConfig struct {
	models        resolvedModels
	op            operator.Operator
	search        web.Provider
	fetch         web.FetchConfig
	maxIterations int
	// classicExecutor makes the executor summarise the code agent's answer
	// itself (one more model call per step); kept to measure the difference.
	classicExecutor bool
	// verbatim turns tool-output caps off.
	verbatim bool
	// policy decides which tool calls need the person's approval;
	// unattended means no one can answer questions or approvals.
	policy     *tools.Policy
	unattended bool
	// recall answers a question the person already answered (see
	// tools.AskUserOptions.Recall); nil asks every time.
	recall func(question string) (string, bool)
	// budget is checked at the safe points: before a step, a replan and
	// the report.
	budget *BudgetGuard
	// mcp offers MCP servers' tools to the executor or the code agent.
	mcp *mcp.Toolset
	// sources are the databases the executor and the code agent query
	// with the SQL tools. Optional.
	sources *sqldb.Sources
	// outputs records every tool reply, for the answer check. Optional.
	outputs *ToolOutputs
	// ext are the embedding service's tools, sub-agents and house rules.
	ext Extensions
	// locale is the person's locale, e.g. "zh-CN". Optional.
	locale string
	// reportImages: the report writer's model accepts images.
	reportImages bool
	// streamReport: the report writer streams, its text reaching the
	// caller as it is written.
	streamReport bool
	// parallel bounds the plan steps run at the same time; 1 or less
	// runs one step after another.
	parallel int
	// offer leaves out the executor's optional tools the run cannot use;
	// the zero value offers them all.
	offer prompt.Offer
	// layout, when set, is the layout a resumed run keeps (LayoutDirect
	// or LayoutExecutor); "" decides from the configuration.
	layout string
}

// resolvedModels holds one ready model per agent role.
type resolvedModels struct {
	planner, executor, code, report model.ToolCallingChatModel
}

// buildTree composes Sequential[planner, Loop(executor, replanner), report].
func buildTree(ctx context.Context, cfg treeConfig) (adk.ResumableAgent, error) {
	newPlan := func(context.Context) planexecute.Plan { return &plans.Plan{} }
	planner, err := planexecute.NewPlanner(ctx, &planexecute.PlannerConfig{
		ToolCallingChatModel: cfg.models.planner,
		ToolInfo:             createPlanTool,
		NewPlan:              newPlan,
		GenInputFn: func(ctx context.Context, _ []adk.Message) ([]adk.Message, error) {
			return withHouseRules(prompt.Planner(viewOf(ctx), cfg.offer.Keeps(templates.ToolName)), cfg.promptTail(ctx)), nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("build planner: %w", err)
	}

	executor, codeAgent, err := buildExecutor(ctx, cfg)
	if err != nil {
		return nil, err
	}

	replanner, err := planexecute.NewReplanner(ctx, &planexecute.ReplannerConfig{
		ChatModel:   cfg.models.planner,
		PlanTool:    replanTool,
		RespondTool: submitResultTool,
		NewPlan:     newPlan,
		GenInputFn: func(ctx context.Context, _ *planexecute.ExecutionContext) ([]adk.Message, error) {
			return withHouseRules(prompt.Replanner(viewOf(ctx)), cfg.replannerTail()), nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("build replanner: %w", err)
	}

	plannerStage := &planStage{inner: planner, budget: cfg.budget}
	maxIter := cfg.maxIterations
	if maxIter <= 0 {
		maxIter = 10
	}
	loop, err := adk.NewLoopAgent(ctx, &adk.LoopAgentConfig{
		Name:          NameLoop,
		Description:   "executes plan steps and replans until the question is answered",
		SubAgents:     []adk.Agent{&stepTracker{inner: executor, quick: &directStep{code: codeAgent}, budget: cfg.budget, branches: newBranchRunner(cfg)}, &planStage{inner: replanner, replanner: true, budget: cfg.budget}},
		MaxIterations: maxIter,
	})
	if err != nil {
		return nil, fmt.Errorf("build execute/replan loop: %w", err)
	}
	return adk.NewSequentialAgent(ctx, &adk.SequentialAgentConfig{
		Name:        NameRoot,
		Description: "Sift data analysis: plan, execute and replan, report",
		SubAgents: []adk.Agent{plannerStage, &planReview{planner: plannerStage}, loop,
			&reportAgent{model: cfg.models.report, checker: cfg.models.planner, outputs: cfg.outputs, tail: cfg.promptTail, images: cfg.reportImages, stream: cfg.streamReport, budget: cfg.budget}},
	})
}

// buildExecutor makes the executor (and returns the code agent, which the
// quick path runs directly) over cfg's operator and models. Branches of a
// plan build one each, over their own kernel.
func buildExecutor(ctx context.Context, cfg treeConfig) (adk.Agent, adk.Agent, error) {
	executorTools, codeAgent, err := buildExecutorTools(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if cfg.directSteps() {
		step := &directStep{code: codeAgent}
		tpl, err := cfg.templateTools()
		if err != nil {
			return nil, nil, err
		}
		if len(tpl) > 0 {
			step.builtIn = tpl[0].(tool.InvokableTool)
		}
		return step, codeAgent, nil
	}
	names, err := checkToolNames(ctx, "executor", executorTools)
	if err != nil {
		return nil, nil, err
	}
	returnDirectly := map[string]bool{}
	if !cfg.classicExecutor {
		returnDirectly[NameCodeAgent] = true
		returnDirectly[NameWebAgent] = true
		returnDirectly[templates.ToolName] = true
	}
	executor, err := planexecute.NewExecutor(ctx, &planexecute.ExecutorConfig{
		Model: cfg.models.executor,
		ToolsConfig: adk.ToolsConfig{
			ToolsNodeConfig: compose.ToolsNodeConfig{
				Tools:                executorTools,
				UnknownToolsHandler:  tools.UnknownTool(names),
				ToolArgumentsHandler: tools.RepairArguments,
				ExecuteSequentially:  true,
			},
			ReturnDirectly:     returnDirectly,
			EmitInternalEvents: true,
		},
		MaxIterations: 8,
		GenInputFn: func(ctx context.Context, _ *planexecute.ExecutionContext) ([]adk.Message, error) {
			return withHouseRules(prompt.Executor(viewOf(ctx), cfg.offer), cfg.promptTail(ctx)), nil
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("build executor: %w", err)
	}

	return executor, codeAgent, nil
}

// buildExecutorTools makes the executor's tools: the code agent and the web
// researcher as agent tools, run_template with template_params, and
// ask_user, less those cfg.offer leaves out. It also returns the
// code agent, which the quick path runs directly.
func buildExecutorTools(ctx context.Context, cfg treeConfig) ([]tool.BaseTool, adk.Agent, error) {
	codeTools, err := cfg.codeAgentTools()
	if err != nil {
		return nil, nil, err
	}
	code, err := newToolAgent(ctx, NameCodeAgent,
		"Writes and runs Python (pandas, matplotlib) for one data task; answers with the results and files written. Give it one self-contained request.",
		cfg.models.code, codeTools, codeMaxIterations,
		func(ctx context.Context, msgs []adk.Message) []adk.Message {
			return withHouseRules(prompt.CodeAgent(operator.ModeOf(cfg.op), prompt.CodeContext(viewOf(ctx)), cfg.codeData(ctx), msgs), cfg.promptTail(ctx))
		}, cfg.freshCodeData())
	if err != nil {
		return nil, nil, err
	}
	webTools, err := cfg.webAgentTools()
	if err != nil {
		return nil, nil, err
	}
	webAgent, err := newToolAgent(ctx, NameWebAgent,
		"Searches the web and reads pages to find facts for one request; answers with the facts and their URLs.",
		cfg.models.code, webTools, 8,
		func(ctx context.Context, msgs []adk.Message) []adk.Message {
			return withHouseRules(append([]adk.Message{schema.SystemMessage(prompt.WebResearcherText)}, msgs...), cfg.promptTail(ctx))
		})
	if err != nil {
		return nil, nil, err
	}
	ask, err := tools.AskUserTool(tools.AskUserOptions{Unattended: cfg.unattended, Recall: cfg.recall})
	if err != nil {
		return nil, nil, err
	}
	// The executor delegates: files are the code agent's to read.
	out := []tool.BaseTool{agentTool(ctx, code)}
	if cfg.offer.Keeps(NameWebAgent) {
		out = append(out, agentTool(ctx, webAgent))
	}
	if !cfg.directSteps() {
		tpl, err := cfg.templateTools()
		if err != nil {
			return nil, nil, err
		}
		out = append(out, tpl...)
	}
	out = append(out, cfg.guard(ask))
	for _, sub := range cfg.ext.SubAgents {
		// The service vouches for its sub-agents: their replies are
		// evidence for the answer check, like tool replies.
		out = append(out, recorded{agentTool(ctx, sub).(tool.InvokableTool), cfg.outputs})
	}
	extra, err := cfg.extraTools(ctx, cfg.ext.ExecutorTools)
	if err != nil {
		return nil, nil, err
	}
	out = append(out, extra...)
	sqlTools, err := cfg.sqlTools()
	if err != nil {
		return nil, nil, err
	}
	out = append(out, sqlTools...)
	return append(out, cfg.mcpTools(mcp.AgentExecutor)...), code, nil
}

// mcpTools are the MCP tools for agent, each behind the approval policy
// and the same guard as the built-in tools.
func (cfg treeConfig) mcpTools(agent string) []tool.BaseTool {
	var out []tool.BaseTool
	for _, t := range cfg.mcp.Tools(agent) {
		out = append(out, cfg.guard(tools.RequireApproval(t.InvokableTool, cfg.policy)))
	}
	return out
}

// codeAgentTools are the code agent's own tools (tools.CodeAgentTools),
// then the databases', extensions' and MCP servers', each capped and
// turning errors into replies the model can act on.
func (cfg treeConfig) codeAgentTools() ([]tool.BaseTool, error) {
	own, err := tools.CodeAgentTools(cfg.op, tools.AskUserOptions{Unattended: cfg.unattended, Recall: cfg.recall}, cfg.policy)
	if err != nil {
		return nil, err
	}
	var out []tool.BaseTool
	for _, t := range own {
		out = append(out, cfg.guard(t))
	}
	sqlTools, err := cfg.sqlTools()
	if err != nil {
		return nil, err
	}
	extra, err := cfg.extraTools(context.Background(), cfg.ext.CodeTools)
	if err != nil {
		return nil, err
	}
	out = append(append(out, sqlTools...), extra...)
	return append(out, cfg.mcpTools(mcp.AgentCode)...), nil
}

// templateTools are run_template and template_params, guarded, when the
// run's offer keeps them; none otherwise.
func (cfg treeConfig) templateTools() ([]tool.BaseTool, error) {
	if !cfg.offer.Keeps(templates.ToolName) {
		return nil, nil
	}
	tpl, err := templates.Tool(cfg.op)
	if err != nil {
		return nil, err
	}
	params, err := templates.ParamsTool()
	if err != nil {
		return nil, err
	}
	return []tool.BaseTool{cfg.guard(tpl), cfg.guard(params)}, nil
}

// webAgentTools are web_search and web_fetch, each needing approval where
// the policy says so.
func (cfg treeConfig) webAgentTools() ([]tool.BaseTool, error) {
	searchTool, err := web.SearchTool(cfg.search)
	if err != nil {
		return nil, err
	}
	fetchTool, err := web.FetchTool(cfg.fetch)
	if err != nil {
		return nil, err
	}
	return []tool.BaseTool{cfg.guard(tools.RequireApproval(searchTool, cfg.policy)), cfg.guard(tools.RequireApproval(fetchTool, cfg.policy))}, nil
}

// guard makes a tool safe to hand to a model: its errors become replies
// with a fix hint (so a failing tool never ends the run), and long replies
// are capped with the full text saved to a file.
func (cfg treeConfig) guard(t tool.InvokableTool) tool.InvokableTool {
	t = traced{tools.Hint(recorded{t, cfg.outputs})}
	if cfg.verbatim {
		return t
	}
	return tools.CapOutput(t, cfg.op, ToolOutputCap)
}

// traced gives each tool call its own trace span.
type traced struct{ tool.InvokableTool }

func (t traced) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	name := "tool"
	if info, err := t.Info(ctx); err == nil {
		name = info.Name
	}
	ctx, end := llm.StartTool(ctx, name, compose.GetToolCallID(ctx))
	out, err := t.InvokableTool.InvokableRun(ctx, args, opts...)
	if line := tools.FailureLine(out); err == nil && line != "" {
		// A failed cell, or a tool error turned into a reply the model can
		// act on: the call still failed, and its span says so.
		end(errors.New(line))
	} else {
		end(err)
	}
	return out, err
}

// newToolAgent builds a ReAct agent meant to be called as a tool.
func newToolAgent(ctx context.Context, name, desc string, m model.ToolCallingChatModel, ts []tool.BaseTool, maxIter int,
	input func(context.Context, []adk.Message) []adk.Message, mw ...adk.AgentMiddleware) (adk.Agent, error) {
	names, err := checkToolNames(ctx, name, ts)
	if err != nil {
		return nil, err
	}
	a, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        name,
		Description: desc,
		Model:       m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools:                ts,
			UnknownToolsHandler:  tools.UnknownTool(names),
			ToolArgumentsHandler: tools.RepairArguments,
			ExecuteSequentially:  true,
		}},
		MaxIterations: maxIter,
		Middlewares:   append([]adk.AgentMiddleware{wrapUpNear(maxIter)}, mw...),
		GenModelInput: func(ctx context.Context, _ string, in *adk.AgentInput) ([]adk.Message, error) {
			return input(ctx, in.Messages), nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", name, err)
	}
	return a, nil
}

// codeData is what the code agent is told about the data of the session
// in ctx, now.
func (cfg treeConfig) codeData(ctx context.Context) prompt.CodeData {
	dc, _ := params.DataContext.Get(ctx)
	in, _ := params.Inputs.Get(ctx)
	d := prompt.CodeData{Context: dc, Inputs: in}
	if k, ok := cfg.op.(interface{ KernelState() string }); ok {
		d.Kernel = k.KernelState()
	}
	return d
}

// freshCodeData brings the code agent's data message up to date before
// each of its model calls while it still describes the files: once a
// python call has loaded data, the next call is told what the kernel holds
// instead of the files' description, which the call that only reads a
// cell's output does not need again. A message that already says what the
// kernel holds stays as it is for the rest of the request: what the
// agent's own cells added since is in its code and their output, which the
// model has, and the request's prefix up to the latest cell stays the same
// for providers' prefix caches, as the system message before it does.
func (cfg treeConfig) freshCodeData() adk.AgentMiddleware {
	return adk.AgentMiddleware{BeforeChatModel: func(ctx context.Context, st *adk.ChatModelAgentState) error {
		if len(st.Messages) < 2 || st.Messages[1].Role != schema.User || !strings.HasPrefix(st.Messages[1].Content, prompt.DataHeading) || prompt.ShowsKernel(st.Messages[1]) {
			return nil
		}
		if m := prompt.CodeDataMessage(operator.ModeOf(cfg.op), cfg.codeData(ctx)); m != nil && m.Content != st.Messages[1].Content {
			st.Messages[1] = m
		}
		return nil
	}}
}

// wrapUpNote is what an agent is told when it nears its bound of model
// calls.
const wrapUpNote = "You have %d model calls left. Stop exploring: answer now with what you have found. If the task is not done, start your answer with FAILED: and say what is missing."

// wrapUpNear tells a ReAct agent to wrap up two calls before its bound, so
// it ends with an answer rather than an iteration error.
func wrapUpNear(maxIter int) adk.AgentMiddleware {
	return adk.AgentMiddleware{BeforeChatModel: func(_ context.Context, st *adk.ChatModelAgentState) error {
		calls := 0
		for _, m := range st.Messages {
			if m.Role == schema.Assistant {
				calls++
			}
		}
		if left := maxIter - calls; left == 2 {
			st.Messages = append(st.Messages, schema.UserMessage(fmt.Sprintf(wrapUpNote, left)))
		}
		return nil
	}}
}

// viewOf gathers what prompts show from the session.
func viewOf(ctx context.Context) prompt.View {
	q, _ := params.Question.Get(ctx)
	dc, _ := params.DataContext.Get(ctx)
	in, _ := params.Inputs.Get(ctx)
	verbatim, _ := params.Verbatim.Get(ctx)
	feedback, _ := params.PlanFeedback.Get(ctx)
	step, _ := params.BranchStep.Get(ctx)
	remembered, _ := params.Remembered.Get(ctx)
	examples, _ := params.Examples.Get(ctx)
	return prompt.View{Question: q, DataContext: dc, Inputs: in, Plan: fullPlan(ctx), Verbatim: verbatim, Feedback: feedback, Step: step, Remembered: remembered, Examples: examples}
}

// sqlTools are the SQL tools over the run's databases, guarded like the
// others; none without databases.
func (cfg treeConfig) sqlTools() ([]tool.BaseTool, error) {
	if cfg.sources == nil || cfg.sources.Len() == 0 {
		return nil, nil
	}
	ts, err := sqldb.Tools(cfg.sources, cfg.op)
	if err != nil {
		return nil, err
	}
	out := make([]tool.BaseTool, 0, len(ts))
	for _, t := range ts {
		if it, ok := t.(tool.InvokableTool); ok {
			out = append(out, cfg.guard(it))
		}
	}
	return out, nil
}
