package tree

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/tools"
)

// Extensions are what a service that embeds Sift adds to its agents
// without forking: its own tools and sub-agents, and the house rules every
// agent follows.
type Extensions struct {
	// ExecutorTools are offered to the executor beside the built-in tools
	// (e.g. a client for an internal API). Each must be a
	// tool.InvokableTool; it goes through the same wrappers as the
	// built-ins (errors become replies with a hint, long replies are
	// capped, every call is traced) and the same approval policy (name it
	// in the policy file to make it ask). Optional.
	ExecutorTools []tool.BaseTool
	// CodeTools are offered to the code agent beside python and the file
	// tools, with the same wrappers and policy. Optional.
	CodeTools []tool.BaseTool
	// SubAgents are offered to the executor as tools, beside the code
	// agent and the web researcher; each needs a Name and a Description
	// (the executor reads it to decide when to call it). Their replies
	// count as the run's outputs for the answer check, like tool replies.
	// Optional.
	SubAgents []adk.Agent
	// Instructions are standing instructions every agent follows, e.g.
	// "Revenue means net of refunds". Optional.
	Instructions string
	// Glossary maps the domain's terms to what they mean, e.g. "GMV":
	// "gross merchandise value, before refunds". Optional.
	Glossary map[string]string
}

// houseRules is the part of every agent's system prompt that Extensions
// add: standing instructions and the glossary, in a fixed order so the
// prompt prefix stays the same from call to call (and cacheable).
func (e Extensions) houseRules() string {
	var b strings.Builder
	if s := strings.TrimSpace(e.Instructions); s != "" {
		b.WriteString("\n\n## Standing instructions\n" + s)
	}
	if len(e.Glossary) > 0 {
		terms := make([]string, 0, len(e.Glossary))
		for t := range e.Glossary {
			terms = append(terms, t)
		}
		sort.Strings(terms)
		b.WriteString("\n\n## Glossary\n")
		for _, t := range terms {
			fmt.Fprintf(&b, "- %s: %s\n", t, strings.TrimSpace(e.Glossary[t]))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// withHouseRules appends rules to the first system message of msgs (or
// puts one first), so they sit in the stable part of the prompt.
func withHouseRules(msgs []*schema.Message, rules string) []*schema.Message {
	if rules == "" {
		return msgs
	}
	out := append([]*schema.Message(nil), msgs...)
	for i, m := range out {
		if m.Role == schema.System {
			c := *m
			c.Content += rules
			out[i] = &c
			return out
		}
	}
	return append([]*schema.Message{schema.SystemMessage(strings.TrimSpace(rules))}, out...)
}

// extraTools wraps the service's tools like the built-ins: approval
// policy, hints, caps and tracing. A tool that cannot be invoked is an
// error naming it.
func (cfg treeConfig) extraTools(ctx context.Context, ts []tool.BaseTool) ([]tool.BaseTool, error) {
	out := make([]tool.BaseTool, 0, len(ts))
	for i, t := range ts {
		it, ok := t.(tool.InvokableTool)
		if !ok {
			name := fmt.Sprintf("#%d", i+1)
			if info, err := t.Info(ctx); err == nil {
				name = info.Name
			}
			return nil, fmt.Errorf("extension tool %s: it must implement tool.InvokableTool (InvokableRun); streaming-only tools are not supported", name)
		}
		out = append(out, cfg.guard(tools.RequireApproval(it, cfg.policy)))
	}
	return out, nil
}

// checkToolNames refuses two tools of one agent with the same name, which
// the model could not tell apart.
func checkToolNames(ctx context.Context, agent string, ts []tool.BaseTool) ([]string, error) {
	seen := map[string]bool{}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		info, err := t.Info(ctx)
		if err != nil {
			return nil, err
		}
		if seen[info.Name] {
			return nil, fmt.Errorf("%s: two tools are named %q; rename the extension tool or sub-agent", agent, info.Name)
		}
		seen[info.Name] = true
		names = append(names, info.Name)
	}
	return names, nil
}
