package agents

import (
	"context"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/mcp"
)

// connectMCP starts or reaches the configured MCP servers for this run:
// their stderr goes to the session's work/, binary results to out/mcp/,
// their tools not marked read-only join the policy's writing tools, and a
// server that cannot be used is reported to the person (the run goes on
// without its tools).
func (r *run) connectMCP(ctx context.Context, op operator.Operator, policy *tools.Policy) {
	if len(r.sift.cfg.MCPServers) == 0 || r.mcp != nil {
		return
	}
	r.mcp = mcp.Connect(ctx, r.sift.cfg.MCPServers, mcp.Options{
		LogDir: r.ws.Path(operator.WorkDir),
		Save:   op.WriteFile,
	})
	policy.Writing = append(policy.Writing, r.mcp.Writing()...)
	for _, err := range r.mcp.Problems() {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: " + err.Error() + ". The run goes on without its tools."})
	}
}
