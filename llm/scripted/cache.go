package scripted

import "github.com/sift-agent/sift/llm/tokens"

// Prefix caching as OpenAI documents it ("Prompt caching"): a request of at
// least CacheMinTokens tokens is served from the cache for the longest
// prefix it shares with a recent request, counted in CacheIncrement steps
// above CacheMinTokens. DeepSeek, Qwen and Anthropic-compatible gateways
// behave alike with other thresholds.
const (
	// CacheMinTokens is the shortest shared prefix the cache serves.
	CacheMinTokens = 1024
	// CacheIncrement is the granularity of cached tokens above
	// CacheMinTokens.
	CacheIncrement = 128
	// cacheKept is how many recent requests per agent the cache compares
	// a request with.
	cacheKept = 32
)

// prefixCache simulates a provider's prompt cache: the cached tokens of a
// request are the longest token prefix it shares with a recent request of
// the same agent (all requests through the server, which knows no agents,
// share one pool, as they would at a provider).
type prefixCache struct {
	recent map[string][][]tokens.Segment
}

// serve returns the tokens of segs the cache serves and remembers segs.
func (c *prefixCache) serve(modelName, agent string, segs []tokens.Segment) int {
	best := 0
	for _, prev := range c.recent[agent] {
		best = max(best, tokens.CommonPrefix(modelName, prev, segs))
	}
	if c.recent == nil {
		c.recent = map[string][][]tokens.Segment{}
	}
	kept := append(c.recent[agent], segs)
	if len(kept) > cacheKept {
		kept = kept[len(kept)-cacheKept:]
	}
	c.recent[agent] = kept
	if best < CacheMinTokens {
		return 0
	}
	return CacheMinTokens + (best-CacheMinTokens)/CacheIncrement*CacheIncrement
}
