package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/templates"
)

// The layouts of a run's plan steps, as session.Meta.Layout records them.
const (
	LayoutDirect   = "direct"
	LayoutExecutor = "executor"
)

// directSteps reports whether plan steps go straight to the code agent.
// The executor's one job on a step is to choose a tool and write it a
// request; when the code agent is all it could choose (no web researcher,
// no sub-agent or tool of the embedding service or of an MCP server of its
// own), that call only copies the step, so it is skipped: a step costs the
// code agent's calls and the replanner's, one model call fewer. The
// classic layout keeps the executor, to measure the difference. A resumed
// run that waited inside a step keeps the layout it ran in (cfg.layout).
func (cfg treeConfig) directSteps() bool {
	switch cfg.layout {
	case LayoutDirect:
		return !cfg.classicExecutor
	case LayoutExecutor:
		return false
	}
	return !cfg.classicExecutor && !cfg.offer.Keeps(prompt.WebResearcher) &&
		len(cfg.ext.SubAgents) == 0 && len(cfg.ext.ExecutorTools) == 0 &&
		len(cfg.mcp.Tools(mcp.AgentExecutor)) == 0
}

// directStep is the executor of a run whose steps go straight to the code
// agent: it gives the code agent the current step as its task and leaves
// the code agent's answer, as it is, as the step's result. A step the
// planner wrote as a built-in analysis runs that analysis, with no model.
type directStep struct {
	code adk.Agent
	// builtIn is run_template, guarded; nil when the run offers no
	// built-in analysis.
	builtIn tool.InvokableTool
}

func (a *directStep) Name(context.Context) string { return NameExecutor }
func (a *directStep) Description(context.Context) string {
	return "gives each plan step to the code agent"
}

func (a *directStep) Run(ctx context.Context, _ *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	v := viewOf(ctx)
	if cur := v.Current(); cur != nil && a.builtIn != nil {
		if args, ok := builtInStep(cur.Description, v.Question); ok {
			return a.runBuiltIn(ctx, cur.Index, args)
		}
	}
	return a.runTask(ctx, stepRequest(v), opts...)
}

// runTask gives the code agent task and leaves its answer as the step's
// result.
func (a *directStep) runTask(ctx context.Context, task string, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	request := []adk.Message{schema.UserMessage(task)}
	return a.relay(ctx, func() *adk.AsyncIterator[*adk.AgentEvent] {
		return a.code.Run(ctx, &adk.AgentInput{Messages: request}, opts...)
	})
}

// Resume goes on with the code agent where it waited for the person.
func (a *directStep) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return a.relay(ctx, func() *adk.AsyncIterator[*adk.AgentEvent] {
		resumable, ok := a.code.(adk.ResumableAgent)
		if !ok {
			return Once(&adk.AgentEvent{Err: fmt.Errorf("executor: %s cannot be resumed", a.code.Name(ctx))})
		}
		return resumable.Resume(ctx, info, opts...)
	})
}

// relay passes the code agent's events on and, when it answered, leaves
// its answer where the executor's would be: the step's result, which the
// step tracker records and the replanner reads.
func (a *directStep) relay(ctx context.Context, start func() *adk.AsyncIterator[*adk.AgentEvent]) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		var answer string
		interrupted := false
		failed := relay(start(), gen, func(ev *adk.AgentEvent) bool {
			if ev.Action != nil && ev.Action.Interrupted != nil {
				interrupted = true
			}
			if m := eventMessage(ev); m != nil && m.Role == schema.Assistant && len(m.ToolCalls) == 0 {
				answer = m.Content
			}
			return true
		})
		if failed == nil && !interrupted {
			params.ExecutedStep.Set(ctx, answer)
		}
	})
}

// stepRequest is the code agent's task on a direct step: the step. The
// question is in the code agent's system message, and what finished steps
// found reaches it through the step itself, which the replanner revises in
// their light, and through the kernel, whose variables its data message
// names.
func stepRequest(v prompt.View) string {
	cur := v.Current()
	if cur == nil {
		return "Answer the question."
	}
	return fmt.Sprintf("Step %d of the plan: %s", cur.Index, cur.Description)
}

// builtInRe is a step the planner wrote to run a built-in analysis (see
// prompt.PlannerTemplateRule).
var builtInRe = regexp.MustCompile(`(?is)^\s*run the built-in ([a-z_]+) analysis on ([^\s:]+?)[.,]?(?:\s*:\s*(.*?))?\s*\.?\s*$`)

// builtInStep reads a step written as a built-in analysis: run_template's
// arguments, with what to compute (or else the question) as the request
// that fills the parameters. ok is false for any other step, or one that
// names no built-in analysis there is.
func builtInStep(description, question string) (args string, ok bool) {
	m := builtInRe.FindStringSubmatch(description)
	if m == nil {
		return "", false
	}
	name := strings.ToLower(m[1])
	if _, err := templates.Lookup(name); err != nil {
		return "", false
	}
	request := strings.TrimSpace(m[3])
	if request == "" {
		request = question
	}
	b, err := json.Marshal(templates.ToolArgs{Template: name, File: m[2], Request: request})
	if err != nil {
		return "", false
	}
	return string(b), true
}

// runBuiltIn runs the step's built-in analysis: its call and its result
// reach the caller as a tool call and its reply, and the result is the
// step's (a failure, "Error: …", fails the step).
func (a *directStep) runBuiltIn(ctx context.Context, step int, args string) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		id := fmt.Sprintf("builtin_step_%d", step)
		call := schema.AssistantMessage("", []schema.ToolCall{{ID: id, Type: "function", Function: schema.FunctionCall{Name: templates.ToolName, Arguments: args}}})
		gen.Send(adk.EventFromMessage(call, nil, schema.Assistant, ""))
		out, err := a.builtIn.InvokableRun(ctx, args)
		if err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
			return
		}
		gen.Send(adk.EventFromMessage(schema.ToolMessage(out, id), nil, schema.Tool, templates.ToolName))
		params.ExecutedStep.Set(ctx, out)
	})
}
