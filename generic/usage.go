package generic

import (
	"fmt"
	"sort"
	"strings"
)

// RenderUsageMarkdown is the short usage summary that ends a report: model
// calls, tokens and cost in total, per agent and per step.
func RenderUsageMarkdown(u *Usage) string {
	var b strings.Builder
	b.WriteString("## Usage\n\n")
	if u == nil || u.Calls == 0 {
		b.WriteString("No language model was called.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%d model calls, %d prompt + %d completion tokens%s.\n\n", u.Calls, u.PromptTokens, u.CompletionTokens, costText(u.AgentUsage))
	b.WriteString("| agent | calls | prompt tokens | completion tokens | cost |\n|---|---:|---:|---:|---:|\n")
	agents := make([]string, 0, len(u.PerAgent))
	for a := range u.PerAgent {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		au := u.PerAgent[a]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", a, au.Calls, au.PromptTokens, au.CompletionTokens, money(au))
	}
	if len(u.PerStep) > 1 {
		b.WriteString("\n| step | calls | prompt tokens | completion tokens | cost |\n|---|---:|---:|---:|---:|\n")
		steps := make([]int, 0, len(u.PerStep))
		for s := range u.PerStep {
			steps = append(steps, s)
		}
		sort.Ints(steps)
		for _, s := range steps {
			su := u.PerStep[s]
			name := fmt.Sprint(s)
			if s == 0 {
				name = "outside steps"
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", name, su.Calls, su.PromptTokens, su.CompletionTokens, money(su))
		}
	}
	if u.Estimated > 0 {
		fmt.Fprintf(&b, "\n%d calls reported no usage; their tokens were counted offline.\n", u.Estimated)
	}
	return b.String()
}

func costText(u AgentUsage) string {
	switch {
	case u.Cost > 0 && u.Unpriced > 0:
		return fmt.Sprintf(", about $%.4f (%d calls of unpriced models not counted)", u.Cost, u.Unpriced)
	case u.Cost > 0:
		return fmt.Sprintf(", about $%.4f", u.Cost)
	default:
		return ""
	}
}

func money(u *AgentUsage) string {
	if u.Cost == 0 {
		return "–"
	}
	return fmt.Sprintf("$%.4f", u.Cost)
}
