package web

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
)

// SearchToolName is the name the search tool is offered to models under.
const SearchToolName = "web_search"

// Result counts for web_search.
const (
	// DefaultMaxResults is how many results a search returns when the caller
	// does not say.
	DefaultMaxResults = 5
	// MaxResultsLimit is the most results web_search returns.
	MaxResultsLimit = 10
)

// maxSnippetChars caps each snippet in a web_search reply.
const maxSnippetChars = 300

// NotConfiguredReply is web_search's reply when no provider is configured.
const NotConfiguredReply = "Web search is not configured: set SEARXNG_URL, TAVILY_API_KEY or BRAVE_API_KEY " +
	"(and SIFT_SEARCH_PROVIDER to choose among several) to enable it. " +
	"Tell the person that web search is unavailable instead of retrying."

// SearchArgs are the arguments of the web_search tool.
type SearchArgs struct {
	// Query is what to search for.
	Query string `json:"query" jsonschema:"description=What to search the web for"`
	// MaxResults is how many results to return: default 5, at most 10.
	MaxResults int `json:"max_results,omitempty" jsonschema:"description=How many results to return (default 5; at most 10)"`
}

// searchToolDesc tells the model what web_search does.
const searchToolDesc = "Search the web. Returns a numbered list of results, each with title, URL and a short snippet. " +
	"Read a result in full with web_fetch, and cite the URLs you use."

// SearchTool returns the web_search tool over p. With p nil the tool still
// exists and replies NotConfiguredReply, so an agent can tell the person
// rather than fail.
func SearchTool(p Provider) (tool.InvokableTool, error) {
	s := &searcher{provider: p}
	t, err := utils.InferTool(SearchToolName, searchToolDesc, s.run)
	if err != nil {
		return nil, fmt.Errorf("build %s tool: %w", SearchToolName, err)
	}
	return t, nil
}

// searcher runs web_search calls.
type searcher struct {
	provider Provider
}

// run is the web_search tool body. Provider failures come back as the
// reply, so the model can tell the person or carry on; only cancellation of
// ctx is an error.
func (s *searcher) run(ctx context.Context, args SearchArgs) (string, error) {
	if s.provider == nil {
		return NotConfiguredReply, nil
	}
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return "web_search needs a query: say what to search for.", nil
	}
	n := args.MaxResults
	switch {
	case n <= 0:
		n = DefaultMaxResults
	case n > MaxResultsLimit:
		n = MaxResultsLimit
	}
	results, err := s.provider.Search(ctx, query, n)
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s %q: %w", SearchToolName, query, ctx.Err())
		}
		return fmt.Sprintf("Web search failed: %v. Try again, or tell the person if it keeps failing.", err), nil
	}
	return formatResults(s.provider.Name(), query, results, n), nil
}

// formatResults renders results as a compact numbered list.
func formatResults(provider, query string, results []Result, n int) string {
	if len(results) > n {
		results = results[:n]
	}
	if len(results) == 0 {
		return fmt.Sprintf("No results for %q (%s). Try other words.", query, provider)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Results for %q (%s):\n", query, provider)
	for i, r := range results {
		title := collapseSpace(r.Title)
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, title, strings.TrimSpace(r.URL))
		if snippet := truncateRunes(collapseSpace(r.Snippet), maxSnippetChars); snippet != "" {
			fmt.Fprintf(&b, "   %s\n", snippet)
		}
	}
	return b.String()
}

// truncateRunes cuts s to at most n characters, marking the cut with "…".
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
