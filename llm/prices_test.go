package llm

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPriceLookup(t *testing.T) {
	prices := DefaultPrices()
	tests := []struct {
		model  string
		want   string // the entry expected, "" for none
		wantOK bool
	}{
		{"gpt-4o", "gpt-4o", true},
		{"gpt-4o-2024-08-06", "gpt-4o", true},
		{"gpt-4o-mini", "gpt-4o-mini", true},
		{"gpt-4o-mini-2024-07-18", "gpt-4o-mini", true},
		{"GPT-4.1-Mini", "gpt-4.1-mini", true},
		{"openai/gpt-4.1-nano", "gpt-4.1-nano", true},
		{"o3-mini", "o3-mini", true},
		{"o3-2025-04-16", "o3", true},
		{"o4-mini", "o4-mini", true},
		{"deepseek-reasoner", "deepseek-reasoner", true},
		{"qwen-plus-latest", "qwen-plus", true},
		{"qwen-max", "qwen-max", true},
		{"doubao-seed-1-6-250615", "doubao-seed-1-6", true},
		{"doubao-seed-1-6-flash-250615", "doubao-seed-1-6-flash", true},
		{"doubao-1-5-pro-32k-250115", "doubao-1-5-pro-32k", true},
		{"ep-20250101-abcd", "", false},
		{"llama3.1:8b", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := prices.Lookup(tt.model)
		if ok != tt.wantOK {
			t.Errorf("Lookup(%q) ok = %v, want %v", tt.model, ok, tt.wantOK)
			continue
		}
		if ok && got != prices[tt.want] {
			t.Errorf("Lookup(%q) = %+v, want the %s entry %+v", tt.model, got, tt.want, prices[tt.want])
		}
	}
}

func TestDefaultPricesAreMarked(t *testing.T) {
	for name, p := range DefaultPrices() {
		if p.Source == "" || p.Input <= 0 || p.Output <= 0 || p.CachedInput < 0 || p.CachedInput > p.Input {
			t.Errorf("%s = %+v: want a source and positive prices, cached at most input", name, p)
		}
	}
}

func TestPriceCost(t *testing.T) {
	table := PriceTable{
		"m":        {Input: 2, CachedInput: 0.5, Output: 8},
		"no-cache": {Input: 1, Output: 2},
	}
	tests := []struct {
		name   string
		model  string
		c      Counts
		want   float64
		wantOK bool
	}{
		{"uncached", "m", Counts{PromptTokens: 1_000_000, CompletionTokens: 500_000}, 2 + 4, true},
		{"part cached", "m", Counts{PromptTokens: 1_000_000, CachedTokens: 400_000, CompletionTokens: 0}, 0.6*2 + 0.4*0.5, true},
		{"cached at input price when no cached price", "no-cache", Counts{PromptTokens: 1_000_000, CachedTokens: 1_000_000}, 1, true},
		{"cached beyond prompt is capped", "m", Counts{PromptTokens: 100, CachedTokens: 1000}, 100 * 0.5 / 1e6, true},
		{"unknown model", "other", Counts{PromptTokens: 1000}, 0, false},
	}
	for _, tt := range tests {
		got, ok := table.Cost(tt.model, tt.c)
		if ok != tt.wantOK || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: Cost = %g, %v; want %g, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestPricesFromEnv(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "prices.json", `{"gpt-4o": {"input": 1, "cached_input": 0.5, "output": 4}, "EP-Mine": {"input": 0.1, "output": 0.2}}`)

	t.Run("defaults without SIFT_PRICES", func(t *testing.T) {
		got, err := PricesFromEnv(envFunc(nil))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(DefaultPrices(), got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("file overrides entry by entry", func(t *testing.T) {
		got, err := PricesFromEnv(envFunc(map[string]string{"SIFT_PRICES": good}))
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := got.Lookup("gpt-4o-2024-08-06"); p != (Price{Input: 1, CachedInput: 0.5, Output: 4}) {
			t.Errorf("gpt-4o = %+v, want the file's price", p)
		}
		if p, ok := got.Lookup("ep-mine"); !ok || p.Input != 0.1 {
			t.Errorf("ep-mine = %+v, %v; want the file's price", p, ok)
		}
		if _, ok := got.Lookup("gpt-4o-mini"); !ok {
			t.Error("gpt-4o-mini lost its default price")
		}
	})

	bad := []struct{ name, content string }{
		{"not JSON", `{"gpt-4o": `},
		{"unknown field", `{"gpt-4o": {"input": 1, "ouput": 2}}`},
		{"negative", `{"gpt-4o": {"input": -1, "output": 2}}`},
		{"empty name", `{" ": {"input": 1, "output": 2}}`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, dir, tt.name+".json", tt.content)
			_, err := PricesFromEnv(envFunc(map[string]string{"SIFT_PRICES": path}))
			if !errors.Is(err, ErrBadPrices) {
				t.Errorf("error = %v, want ErrBadPrices", err)
			}
		})
	}
	if _, err := ReadPriceFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing price file was accepted")
	}
}
