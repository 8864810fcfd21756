package report

import (
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/usage"
)

// UsageMarkdown is the short usage summary that ends a report: model
// calls, tokens and cost in total, per agent and per step. Package usage
// writes it (usage.Markdown), below event, whose release-1 names forward
// to it too.
func UsageMarkdown(u *event.Usage) string { return usage.Markdown(u) }

// UsageMarkdownIn is UsageMarkdown in Chinese when chinese is set (the
// report of a question asked in Chinese).
func UsageMarkdownIn(u *event.Usage, chinese bool) string { return usage.MarkdownIn(u, chinese) }

// SessionUsageMarkdown is UsageMarkdown for a whole session, with a line
// per question when it was asked more than one.
func SessionUsageMarkdown(u *event.SessionUsage) string { return usage.SessionMarkdown(u) }
