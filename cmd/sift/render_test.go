package main

import (
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/tools"
)

func TestRendererShowsAskUserOnlyAsTheQuestion(t *testing.T) {
	args := `{"choices":["n","m"],"question":"Which column?"}`
	t.Run("asked", func(t *testing.T) {
		io, _, errOut := testIO()
		r := newRenderer(io, false, time.Now)
		r.event(event.Event{Kind: event.ToolCall, Tool: tools.AskUserName, ToolCallID: "c1", Args: args})
		r.event(event.Event{Kind: event.Interrupted, Interrupt: &event.Interrupt{ID: "i1", Kind: event.InterruptQuestion, Prompt: "Which column?", Choices: []string{"n", "m"}}})
		got := errOut.String()
		if strings.Contains(got, "{") || strings.Contains(got, tools.AskUserName) {
			t.Errorf("the question must show without its raw arguments:\n%s", got)
		}
		if strings.Count(got, "Which column?") != 1 || !strings.Contains(got, "Question: Which column?\n  1. n\n  2. m\n") {
			t.Errorf("want the formatted question once:\n%s", got)
		}
	})
	t.Run("no one answers", func(t *testing.T) {
		io, _, errOut := testIO()
		r := newRenderer(io, false, time.Now)
		r.event(event.Event{Kind: event.ToolCall, Tool: tools.AskUserName, ToolCallID: "c1", Args: args})
		r.event(event.Event{Kind: event.ToolResult, Tool: tools.AskUserName, ToolCallID: "c1", Text: tools.UnattendedReply})
		got := errOut.String()
		if strings.Contains(got, "{") || !strings.Contains(got, "Question: Which column? (n / m)") || !strings.Contains(got, "no one can answer") {
			t.Errorf("an unanswered question must still show, formatted:\n%s", got)
		}
	})
}

func TestDescribeCallCountsCodeLines(t *testing.T) {
	for args, want := range map[string]string{
		`{"code":"print(x)"}`:                     "print(x) (1 line)",
		`{"code":"import pandas as pd\n\nx = 1"}`: "import pandas as pd (2 lines)",
	} {
		if got := describeCall("python", args); got != want {
			t.Errorf("describeCall(%s) = %q, want %q", args, got, want)
		}
	}
}

func TestSummaryLineJoinsTheReadingToTheAnswer(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Total of revenue per month, from input/sales.csv\nMonthly total revenue peaked in 2024-07.", "Total of revenue per month, from input/sales.csv — Monthly total revenue peaked in 2024-07."},
		{"North sold most.\nSouth sold least.", "North sold most. South sold least."},
		{"  one   line  ", "one line"},
		{"a heading\n\n\nits text\nmore", "a heading — its text more"},
		{"stdout:\nregion\nNorth 76349.0", "stdout: region North 76349.0"},
	} {
		if got := summaryLine(c.in, 200); got != c.want {
			t.Errorf("summaryLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRendererSaysTheEmbeddingsCalls: the closing line's figures include
// the embeddings calls, and says how many of them there were.
func TestRendererSaysTheEmbeddingsCalls(t *testing.T) {
	io, _, errOut := testIO()
	r := newRenderer(io, false, time.Now)
	r.event(event.Event{Kind: event.Done, Usage: &event.Usage{
		AgentUsage: event.AgentUsage{Calls: 6, PromptTokens: 1213, CompletionTokens: 300},
		PerAgent:   map[string]*event.AgentUsage{"planner": {Calls: 5, PromptTokens: 1200, CompletionTokens: 300}, llm.EmbeddingsAgent: {Calls: 1, PromptTokens: 13}},
	}})
	if got := errOut.String(); !strings.Contains(got, " · 6 model calls · 1213 prompt + 300 completion tokens (of which 1 embeddings call, 13 tokens).") {
		t.Errorf("the closing line must say the embeddings call:\n%s", got)
	}
}
