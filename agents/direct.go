package agents

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/prebuilt/planexecute"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/tools/mcp"
)

// nameExecutor is the executor's name (planexecute's); a direct step
// takes it, so that the tree's shape, checkpoints and events name the same
// stage whichever way a step runs.
const nameExecutor = "executor"

// directSteps reports whether plan steps go straight to the code agent.
// The executor's one job on a step is to choose a tool and write it a
// request; when the code agent is all it could choose (no web researcher,
// no sub-agent or tool of the embedding service or of an MCP server of its
// own), that call only copies the step, so it is skipped: a step costs the
// code agent's calls and the replanner's, one model call fewer. The
// classic layout keeps the executor, to measure the difference.
func (cfg treeConfig) directSteps() bool {
	return !cfg.classicExecutor && cfg.offer.noWeb &&
		len(cfg.ext.SubAgents) == 0 && len(cfg.ext.ExecutorTools) == 0 &&
		len(cfg.mcp.Tools(mcp.AgentExecutor)) == 0
}

// directStep is the executor of a run whose steps go straight to the code
// agent: it gives the code agent the current step as its task and leaves
// the code agent's answer, as it is, as the step's result.
type directStep struct{ code adk.Agent }

func (a *directStep) Name(context.Context) string { return nameExecutor }
func (a *directStep) Description(context.Context) string {
	return "gives each plan step to the code agent"
}

func (a *directStep) Run(ctx context.Context, _ *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	request := []adk.Message{schema.UserMessage(stepRequest(viewOf(ctx)))}
	return a.relay(ctx, func() *adk.AsyncIterator[*adk.AgentEvent] {
		return a.code.Run(ctx, &adk.AgentInput{Messages: request}, opts...)
	})
}

// Resume goes on with the code agent where it waited for the person.
func (a *directStep) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return a.relay(ctx, func() *adk.AsyncIterator[*adk.AgentEvent] {
		resumable, ok := a.code.(adk.ResumableAgent)
		if !ok {
			return once(&adk.AgentEvent{Err: fmt.Errorf("executor: %s cannot be resumed", a.code.Name(ctx))})
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
			adk.AddSessionValue(ctx, planexecute.ExecutedStepSessionKey, answer)
		}
	})
}

// stepRequest is the code agent's task on a direct step: the step. The
// question is in the code agent's system message, and what finished steps
// found reaches it through the step itself, which the replanner revises in
// their light, and through the kernel, whose variables its data message
// names.
func stepRequest(v taskView) string {
	cur := v.current()
	if cur == nil {
		return "Answer the question."
	}
	return fmt.Sprintf("Step %d of the plan: %s", cur.Index, cur.Description)
}
