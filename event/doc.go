// Package event holds what a Sift run tells the outside while it runs:
// the Event values every entry point streams (CLI, library, HTTP service,
// MCP server) and the session log records, the kinds of event in the order
// a person meets them, the model calls and token usage a run accumulates
// (Usage, per agent and per question), and the usage section of a report.
package event
