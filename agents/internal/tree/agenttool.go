package tree

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// softAgentTool is an agent exposed as a tool whose failures (an inner agent
// that ran out of iterations, say) come back as a FAILED answer the executor
// and replanner can act on, rather than ending the run. Fatal errors
// (cancellation, model failures) and interrupts pass through unchanged.
type softAgentTool struct {
	inner tool.InvokableTool
}

func agentTool(ctx context.Context, a adk.Agent) tool.BaseTool {
	return &softAgentTool{inner: adk.NewAgentTool(ctx, a).(tool.InvokableTool)}
}

func (t *softAgentTool) Info(ctx context.Context) (*schema.ToolInfo, error) { return t.inner.Info(ctx) }

func (t *softAgentTool) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	out, err := t.inner.InvokableRun(ctx, args, opts...)
	if err == nil {
		return out, nil
	}
	if _, isInterrupt := compose.IsInterruptRerunError(err); isInterrupt || fatal(ctx, err) {
		return "", err
	}
	return fmt.Sprintf("%s %v", failedPrefix, err), nil
}
