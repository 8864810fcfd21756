// Package usage is what a run's model calls cost, counted and written
// down: the counts (AgentUsage; Usage per agent and per plan step;
// SessionUsage per question) that events carry and usage.json keeps, and
// their Markdown (Markdown, MarkdownIn, SessionMarkdown), the usage
// section that ends a report. It imports nothing of Sift, so that both
// package event (whose events carry the counts, as event.Usage) and
// package report (which writes the section, as report.UsageMarkdown) can
// use it.
package usage

// Usage counts model calls, tokens and cost, in total, per agent and per
// plan step.
type Usage struct {
	AgentUsage
	PerAgent map[string]*AgentUsage `json:"per_agent,omitempty"`
	// PerStep is keyed by plan step index; 0 holds calls outside any step
	// (the planner, the report).
	PerStep map[int]*AgentUsage `json:"per_step,omitempty"`
}

// AgentUsage counts the model calls of one agent (or step, or all).
type AgentUsage struct {
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	// Estimated counts calls whose tokens were counted offline because the
	// provider reported none.
	Estimated int `json:"estimated,omitempty"`
	// Cost is in US dollars, from the price table; Unpriced counts calls
	// whose model had no price.
	Cost     float64 `json:"cost,omitempty"`
	Unpriced int     `json:"unpriced,omitempty"`
	// LatencyMS is the total time spent in model calls.
	LatencyMS int64 `json:"latency_ms,omitempty"`
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
