// Package event holds what a Sift run tells the outside while it runs:
// the Event values every entry point streams (CLI, library, HTTP service,
// MCP server) and the session log records, the kinds of event in the order
// a person meets them, and the model calls and token usage a run
// accumulates (Usage, per agent and per question).
//
// The counts are package usage's (event.Usage is usage.Usage), and so is
// the Markdown of the usage section of a report, below both event and
// report: report.UsageMarkdown, UsageMarkdownIn and SessionUsageMarkdown
// name it, and the release-1 names here (RenderUsageMarkdown,
// RenderUsageMarkdownIn, RenderSessionUsageMarkdown) are deprecated
// forms of the same functions.
package event
