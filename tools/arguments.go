package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/kaptinlin/jsonrepair"
)

// RepairArguments returns a tool call's arguments as valid JSON: valid input
// unchanged, empty input as "{}", and malformed input (single quotes,
// unquoted keys, trailing commas, Markdown fences, truncation, Python
// constants) repaired with jsonrepair into a JSON object. It fits
// compose.ToolsNodeConfig.ToolArgumentsHandler. Input that cannot be
// repaired is returned unchanged with a nil error, so the tool's own
// argument error reaches the model as a reply (through Hint) instead of
// ending the run.
func RepairArguments(ctx context.Context, name, args string) (string, error) {
	trimmed := strings.TrimSpace(args)
	if trimmed == "" {
		return "{}", nil
	}
	if json.Valid([]byte(trimmed)) {
		return args, nil
	}
	repaired, err := jsonrepair.JSONRepair(trimmed)
	if err != nil {
		return args, nil
	}
	// Tool arguments are an object; a repair into anything else ("hello"
	// into a JSON string) guessed wrong.
	var obj map[string]any
	if json.Unmarshal([]byte(repaired), &obj) != nil {
		return args, nil
	}
	return strings.TrimSpace(repaired), nil
}

// UnknownTool returns a handler for calls to tools that do not exist, fit
// for compose.ToolsNodeConfig.UnknownToolsHandler. Its reply names the
// nearest known tool by edit distance, when one is close, and lists the
// available ones, so the model can retry instead of the run ending.
func UnknownTool(known []string) func(ctx context.Context, name, input string) (string, error) {
	names := append([]string(nil), known...)
	sort.Strings(names)
	return func(ctx context.Context, name, input string) (string, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "Error: there is no tool %q", name)
		if best := nearestName(name, names); best != "" {
			fmt.Fprintf(&b, "; did you mean %q?", best)
		} else {
			b.WriteString(".")
		}
		if len(names) > 0 {
			b.WriteString(" Available tools: " + strings.Join(names, ", ") + ".")
		}
		return b.String(), nil
	}
}

// nearestName returns the name in names closest to name by edit distance
// (ignoring case, and treating - and space as _), or "" when none is close:
// within a third of the longer name's length, and at least 2 edits allowed.
func nearestName(name string, names []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
	}
	target := []rune(norm(name))
	best, bestDist := "", -1
	for _, n := range names {
		cand := []rune(norm(n))
		d := EditDistance(target, cand)
		limit := max(2, max(len(target), len(cand))/3)
		// A name that contains the other (read → read_file) is close too.
		contained := min(len(target), len(cand)) >= 3 &&
			(strings.Contains(string(cand), string(target)) || strings.Contains(string(target), string(cand)))
		if d > limit && !contained {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b: how the tools
// find the nearest name to one that does not exist.
func EditDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
