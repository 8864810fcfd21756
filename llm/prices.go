package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sift-agent/sift/internal/jsonpos"
	"github.com/sift-agent/sift/llm/tokens"
)

// ErrBadPrices means a price file could not be used; the error says why.
var ErrBadPrices = errors.New("bad price file")

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	// Input is the price of a million prompt tokens not served from the
	// provider's cache.
	Input float64 `json:"input"`
	// CachedInput is the price of a million prompt tokens served from the
	// provider's cache. Optional; 0 bills cached tokens at Input.
	CachedInput float64 `json:"cached_input,omitempty"`
	// Output is the price of a million completion tokens (reasoning
	// included).
	Output float64 `json:"output"`
	// Source says where the price comes from and when, e.g. "list price,
	// 2025-08". Optional; informational.
	Source string `json:"source,omitempty"`
}

// PriceTable maps model-name prefixes to prices. A model takes the price of
// the longest prefix its name starts with, compared case-insensitively after
// any provider prefix ("openai/gpt-4o-mini" is gpt-4o-mini), so "gpt-4o"
// prices "gpt-4o-2024-08-06" while "gpt-4o-mini" has its own entry.
type PriceTable map[string]Price

// Sources of the default prices. They are list prices recalled by the
// author on the date given, not fetched; vendors change them often, so
// check them and override them with a price file (see PricesFromEnv).
const (
	// sourceOpenAI: platform.openai.com/docs/pricing, standard tier.
	sourceOpenAI = "OpenAI list price, standard tier, as of 2025-08; may be out of date"
	// sourceDeepSeek: api-docs.deepseek.com, after the V3.2-Exp price cut
	// (cache miss / cache hit / output).
	sourceDeepSeek = "DeepSeek list price, as of 2025-09; may be out of date"
	// sourceQwen: Alibaba Cloud Model Studio, international (Singapore)
	// list price, lowest input tier; implicit cache hits at 20% of input.
	sourceQwen = "Alibaba Cloud Model Studio international list price, as of 2025-08; may be out of date"
	// sourceDoubao: Volcengine Ark list price in CNY for the lowest input
	// tier (0-32K), converted at 7.2 CNY per USD.
	sourceDoubao = "Volcengine Ark list price in CNY converted at 7.2 CNY/USD, as of 2025-08; may be out of date"
)

// cny converts a price in yuan per million tokens at 7.2 CNY per USD.
func cny(yuan float64) float64 { return yuan / 7.2 }

// DefaultPrices returns a fresh copy of the built-in price table: list
// prices of common models, each marked with its source and date in
// Price.Source. They may be out of date: override them with a price file
// (see PricesFromEnv). Ark endpoint IDs ("ep-...") name no model and so
// have no price; give one in a price file under the endpoint ID.
func DefaultPrices() PriceTable {
	return PriceTable{
		"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10.00, Source: sourceOpenAI},
		"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60, Source: sourceOpenAI},
		"gpt-4.1":      {Input: 2.00, CachedInput: 0.50, Output: 8.00, Source: sourceOpenAI},
		"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60, Source: sourceOpenAI},
		"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40, Source: sourceOpenAI},
		"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10.00, Source: sourceOpenAI},
		"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2.00, Source: sourceOpenAI},
		"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40, Source: sourceOpenAI},
		"o3":           {Input: 2.00, CachedInput: 0.50, Output: 8.00, Source: sourceOpenAI},
		"o3-mini":      {Input: 1.10, CachedInput: 0.55, Output: 4.40, Source: sourceOpenAI},
		"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40, Source: sourceOpenAI},

		"deepseek-chat":     {Input: 0.28, CachedInput: 0.028, Output: 0.42, Source: sourceDeepSeek},
		"deepseek-reasoner": {Input: 0.28, CachedInput: 0.028, Output: 0.42, Source: sourceDeepSeek},

		"qwen-turbo": {Input: 0.05, CachedInput: 0.01, Output: 0.20, Source: sourceQwen},
		"qwen-plus":  {Input: 0.40, CachedInput: 0.08, Output: 1.20, Source: sourceQwen},
		"qwen-max":   {Input: 1.60, CachedInput: 0.32, Output: 6.40, Source: sourceQwen},

		"doubao-seed-1-6":       {Input: cny(0.8), CachedInput: cny(0.16), Output: cny(8), Source: sourceDoubao},
		"doubao-seed-1-6-flash": {Input: cny(0.15), CachedInput: cny(0.03), Output: cny(1.5), Source: sourceDoubao},
		"doubao-1-5-pro-32k":    {Input: cny(0.8), CachedInput: cny(0.16), Output: cny(2), Source: sourceDoubao},
		"doubao-1-5-pro-256k":   {Input: cny(5), CachedInput: cny(1), Output: cny(9), Source: sourceDoubao},
		"doubao-1-5-lite-32k":   {Input: cny(0.3), CachedInput: cny(0.06), Output: cny(0.6), Source: sourceDoubao},
	}
}

// normalModelName lowercases a model name and drops any provider prefix.
func normalModelName(name string) string { return tokens.NormalModelName(name) }

// Lookup returns the price of model: the entry with the longest prefix of
// its name (see PriceTable).
func (t PriceTable) Lookup(model string) (Price, bool) {
	name := normalModelName(model)
	if name == "" {
		return Price{}, false
	}
	best, found := "", false
	var price Price
	for prefix, p := range t {
		k := normalModelName(prefix)
		if k == "" || !strings.HasPrefix(name, k) {
			continue
		}
		if !found || len(k) > len(best) || (len(k) == len(best) && k < best) {
			best, price, found = k, p, true
		}
	}
	return price, found
}

// Cost returns what the calls counted in c cost in US dollars on model: the
// uncached prompt tokens at Input, the cached ones at CachedInput (or Input
// when that is 0) and the completion tokens at Output. It reports false
// when the table has no price for model.
func (t PriceTable) Cost(model string, c Counts) (float64, bool) {
	p, ok := t.Lookup(model)
	if !ok {
		return 0, false
	}
	cached := min(max(c.CachedTokens, 0), c.PromptTokens)
	cachedPrice := p.CachedInput
	if cachedPrice == 0 {
		cachedPrice = p.Input
	}
	cost := (float64(c.PromptTokens-cached)*p.Input + float64(cached)*cachedPrice + float64(c.CompletionTokens)*p.Output) / 1e6
	return cost, true
}

// Merge returns a new table with o's entries added to t's, replacing t's
// entry for the same prefix.
func (t PriceTable) Merge(o PriceTable) PriceTable {
	out := make(PriceTable, len(t)+len(o))
	for k, p := range t {
		out[normalModelName(k)] = p
	}
	for k, p := range o {
		out[normalModelName(k)] = p
	}
	return out
}

// ReadPriceFile reads a price table from a JSON file mapping model-name
// prefixes to prices in US dollars per million tokens, e.g.
//
//	{"gpt-4o": {"input": 2.5, "cached_input": 1.25, "output": 10},
//	 "ep-20250101-abcd": {"input": 0.11, "output": 0.28}}
//
// Prices must not be negative.
func ReadPriceFile(path string) (PriceTable, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("model: read price file %s: %w", path, err)
	}
	var t PriceTable
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("model: %w %s: %s; expected JSON like {\"gpt-4o\": {\"input\": 2.5, \"cached_input\": 1.25, \"output\": 10}}",
			ErrBadPrices, path, jsonpos.Describe(data, err))
	}
	for k, p := range t {
		if strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("model: %w %s: an entry has an empty model name", ErrBadPrices, path)
		}
		if p.Input < 0 || p.CachedInput < 0 || p.Output < 0 {
			return nil, fmt.Errorf("model: %w %s: %q has a negative price", ErrBadPrices, path, k)
		}
	}
	return t, nil
}

// PricesFromEnv returns DefaultPrices overridden, entry by entry, by the
// price file named by $SIFT_PRICES when it is set (see ReadPriceFile).
// getenv reads the environment; nil means os.Getenv.
func PricesFromEnv(getenv func(string) string) (PriceTable, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	t := DefaultPrices()
	path := getenv("SIFT_PRICES")
	if path == "" {
		return t, nil
	}
	o, err := ReadPriceFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (named by SIFT_PRICES)", err)
	}
	return t.Merge(o), nil
}
