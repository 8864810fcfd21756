package usage

import (
	"fmt"
	"sort"
	"strings"
)

// Markdown is the short usage summary that ends a report: model calls,
// tokens and cost in total, per agent and per step.
func Markdown(u *Usage) string { return MarkdownIn(u, false) }

// MarkdownIn is Markdown in Chinese when chinese is set (the report of a
// question asked in Chinese).
func MarkdownIn(u *Usage, chinese bool) string {
	say := func(en, zh string) string {
		if chinese {
			return zh
		}
		return en
	}
	var b strings.Builder
	b.WriteString(say("## Usage\n\n", "## 用量\n\n"))
	if u == nil || u.Calls == 0 {
		b.WriteString(say("No language model was called.\n", "没有调用语言模型。\n"))
		return b.String()
	}
	cached := ""
	if u.CachedTokens > 0 {
		cached = fmt.Sprintf(say(" (%d of them cached)", "（其中 %d 个来自缓存）"), u.CachedTokens)
	}
	calls := say("%d model calls", "调用模型 %d 次")
	if u.Calls == 1 && !chinese {
		calls = "%d model call"
	}
	fmt.Fprintf(&b, calls+say(", %d prompt%s + %d completion tokens%s.\n\n", "，提示 %d 个 token%s + 生成 %d 个 token%s。\n\n"),
		u.Calls, u.PromptTokens, cached, u.CompletionTokens, costText(u.AgentUsage, chinese))
	b.WriteString(say("| agent | calls | prompt tokens | completion tokens | cost |\n", "| 智能体 | 调用次数 | 提示 token | 生成 token | 费用 |\n") + "|---|---:|---:|---:|---:|\n")
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
		b.WriteString(say("\n| step | calls | prompt tokens | completion tokens | cost |\n", "\n| 步骤 | 调用次数 | 提示 token | 生成 token | 费用 |\n") + "|---|---:|---:|---:|---:|\n")
		steps := make([]int, 0, len(u.PerStep))
		for s := range u.PerStep {
			steps = append(steps, s)
		}
		sort.Ints(steps)
		for _, s := range steps {
			su := u.PerStep[s]
			name := fmt.Sprint(s)
			if s == 0 {
				name = say("outside steps", "步骤之外")
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", name, su.Calls, su.PromptTokens, su.CompletionTokens, money(su))
		}
	}
	if u.Estimated > 0 {
		fmt.Fprintf(&b, say("\n%d calls reported no usage; their tokens were counted offline.\n", "\n有 %d 次调用没有报告用量；其 token 数为离线估算。\n"), u.Estimated)
	}
	return b.String()
}

func costText(u AgentUsage, chinese bool) string {
	switch {
	case u.Cost > 0 && u.Unpriced > 0 && chinese:
		return fmt.Sprintf("，约 $%.4f（另有 %d 次调用的模型没有价格，未计入）", u.Cost, u.Unpriced)
	case u.Cost > 0 && u.Unpriced > 0:
		return fmt.Sprintf(", about $%.4f (%d calls of unpriced models not counted)", u.Cost, u.Unpriced)
	case u.Cost > 0 && chinese:
		return fmt.Sprintf("，约 $%.4f", u.Cost)
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

// SessionMarkdown is Markdown for a whole session, with a line per
// question when it was asked more than one.
func SessionMarkdown(u *SessionUsage) string {
	if u == nil {
		return Markdown(nil)
	}
	var b strings.Builder
	b.WriteString(Markdown(&u.Usage))
	if u.Unreadable > 0 {
		fmt.Fprintf(&b, "\n%d recorded calls could not be read (cut short by a crash) and are not counted.\n", u.Unreadable)
	}
	if len(u.Questions) < 2 {
		return b.String()
	}
	b.WriteString("\n| question | calls | prompt tokens | completion tokens | cost |\n|---:|---:|---:|---:|---:|\n")
	for _, q := range u.Questions {
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %s |\n", q.Question, q.Calls, q.PromptTokens, q.CompletionTokens, money(&q.AgentUsage))
	}
	return b.String()
}
