package usage

import "time"

// Counts is the usage of one agent's model calls (or of all agents', or of
// one step's).
type Counts struct {
	// Calls is the number of Generate and Stream calls.
	Calls int
	// Errors is how many of those calls failed.
	Errors int
	// PromptTokens is the sum of the replies' reported prompt tokens, or of
	// their estimates (see Estimated).
	PromptTokens int
	// CompletionTokens is the sum of the replies' reported completion
	// tokens, or of their estimates (see Estimated).
	CompletionTokens int
	// CachedTokens is the part of PromptTokens the provider served from its
	// prompt cache (usually billed at a lower price).
	CachedTokens int
	// ReasoningTokens is the part of CompletionTokens a reasoning model
	// spent thinking.
	ReasoningTokens int
	// Estimated is how many calls had their prompt and completion tokens
	// counted with the offline tokenizer (llm.CountTokens) because the
	// provider reported no usage.
	Estimated int
	// Cost is the price of the calls in US dollars, from the price table
	// given to llm.Wrap (llm.WithPrices); 0 without one.
	Cost float64
	// Unpriced is how many calls had no price because their model is not
	// in the price table; Cost leaves them out.
	Unpriced int
	// Latency is the total time spent in calls, up to the end of each stream.
	Latency time.Duration
}

// Add returns the field-by-field sum of c and o.
func (c Counts) Add(o Counts) Counts {
	return Counts{
		Calls:            c.Calls + o.Calls,
		Errors:           c.Errors + o.Errors,
		PromptTokens:     c.PromptTokens + o.PromptTokens,
		CompletionTokens: c.CompletionTokens + o.CompletionTokens,
		CachedTokens:     c.CachedTokens + o.CachedTokens,
		ReasoningTokens:  c.ReasoningTokens + o.ReasoningTokens,
		Estimated:        c.Estimated + o.Estimated,
		Cost:             c.Cost + o.Cost,
		Unpriced:         c.Unpriced + o.Unpriced,
		Latency:          c.Latency + o.Latency,
	}
}

// TotalTokens is PromptTokens plus CompletionTokens.
func (c Counts) TotalTokens() int { return c.PromptTokens + c.CompletionTokens }
