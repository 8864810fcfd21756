package tools

import (
	"context"

	"github.com/cloudwego/eino/components/tool"

	"github.com/sift-agent/sift/operator"
)

// CodeAgentTools are the code agent's own tools, in the order it is
// offered them: python, ask_user and preview (python reads, lists and
// writes files itself). Those that run on the person's behalf need
// approval where policy says so (ask_user interrupts by itself). A new
// tool for the code agent is added here, beside its own file: the agent
// tree offers what this returns, with its databases', extensions' and MCP
// servers' tools after them.
func CodeAgentTools(op operator.Operator, ask AskUserOptions, policy *Policy) ([]tool.InvokableTool, error) {
	py, err := PythonTool(op)
	if err != nil {
		return nil, err
	}
	files, err := FileTools(op)
	if err != nil {
		return nil, err
	}
	askTool, err := AskUserTool(ask)
	if err != nil {
		return nil, err
	}
	out := []tool.InvokableTool{RequireApproval(py, policy), askTool}
	for _, t := range files {
		info, err := t.Info(context.Background())
		if err != nil {
			return nil, err
		}
		if it, ok := t.(tool.InvokableTool); ok && info.Name == PreviewName {
			out = append(out, RequireApproval(it, policy))
		}
	}
	return out, nil
}
