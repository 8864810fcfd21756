package event

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
	cached := ""
	if u.CachedTokens > 0 {
		cached = fmt.Sprintf(" (%d of them cached)", u.CachedTokens)
	}
	fmt.Fprintf(&b, "%d model calls, %d prompt%s + %d completion tokens%s.\n\n", u.Calls, u.PromptTokens, cached, u.CompletionTokens, costText(u.AgentUsage))
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

// SessionUsage is the usage of a whole session: every question asked in
// it and every run (a resume is a run of its own), summed.
type SessionUsage struct {
	// Usage sums all of them.
	Usage
	// Questions is each question's part, in order from question 1. It is
	// empty when the record names no questions.
	Questions []QuestionUsage `json:"questions,omitempty"`
	// Unreadable counts records that could not be read (cut short by a
	// crash); their calls are not in the sums.
	Unreadable int `json:"unreadable_records,omitempty"`
}

// QuestionUsage is the usage of one question of a session, over all the
// runs that worked on it.
type QuestionUsage struct {
	// Question is the question's place in the session, from 1.
	Question int `json:"question"`
	AgentUsage
}

// RenderSessionUsageMarkdown is RenderUsageMarkdown for a whole session,
// with a line per question when it was asked more than one.
func RenderSessionUsageMarkdown(u *SessionUsage) string {
	if u == nil {
		return RenderUsageMarkdown(nil)
	}
	var b strings.Builder
	b.WriteString(RenderUsageMarkdown(&u.Usage))
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
