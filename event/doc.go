// Package event holds what a Sift run tells the outside while it runs:
// the Event values every entry point streams (CLI, library, HTTP service,
// MCP server) and the session log records, the kinds of event in the order
// a person meets them, and the model calls and token usage a run
// accumulates (Usage, per agent and per question).
//
// The usage section of a report is written by package report
// (report.UsageMarkdown, UsageMarkdownIn, SessionUsageMarkdown). Its
// release-1 names here (RenderUsageMarkdown, RenderUsageMarkdownIn,
// RenderSessionUsageMarkdown) are gone without an alias: report imports
// event for these types, so event cannot import report to forward them.
package event
