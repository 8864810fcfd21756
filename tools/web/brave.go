package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// DefaultBraveBaseURL is the Brave Search API root.
const DefaultBraveBaseURL = "https://api.search.brave.com"

// braveMaxCount is the most results Brave returns per request.
const braveMaxCount = 20

// BraveConfig configures a Brave provider.
type BraveConfig struct {
	// APIKey is the Brave Search API subscription token. Required.
	APIKey string
	// BaseURL is the API root. Optional; default DefaultBraveBaseURL.
	// Tests point it at a local server.
	BaseURL string
	// Client sends the requests. Optional; default: a client with a 30s timeout.
	Client *http.Client
}

// Brave searches with the Brave Search API
// (GET <BaseURL>/res/v1/web/search?q=..., key in X-Subscription-Token).
type Brave struct {
	endpoint string
	apiKey   string
	client   *http.Client
}

// NewBrave returns a Brave provider for cfg.
func NewBrave(cfg BraveConfig) (*Brave, error) {
	key := strings.TrimSpace(cfg.APIKey)
	if key == "" {
		return nil, fmt.Errorf("new brave provider: %w: set %s", ErrNotConfigured, EnvBraveKey)
	}
	endpoint, err := apiEndpoint(cfg.BaseURL, DefaultBraveBaseURL, "res/v1/web/search")
	if err != nil {
		return nil, fmt.Errorf("new brave provider: %w", err)
	}
	client := cfg.Client
	if client == nil {
		client = defaultSearchClient()
	}
	return &Brave{endpoint: endpoint, apiKey: key, client: client}, nil
}

// Name returns "brave".
func (b *Brave) Name() string { return "brave" }

// braveReply is the part of Brave's JSON reply that Search reads.
type braveReply struct {
	Web struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
		} `json:"results"`
	} `json:"web"`
}

// Search asks Brave for at most n web results.
func (b *Brave) Search(ctx context.Context, query string, n int) ([]Result, error) {
	n = resultCount(n)
	q := url.Values{"q": {query}, "count": {strconv.Itoa(min(n, braveMaxCount))}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.endpoint+"?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("brave search: build request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", b.apiKey)
	body, err := doProviderRequest(b.client, req, b.Name(), b.apiKey, statusHints{
		auth:     "check " + EnvBraveKey + " (missing, mistyped or revoked token, or no plan for web search)",
		notFound: "check the Brave base URL",
		other:    "check the query and " + EnvBraveKey,
	})
	if err != nil {
		return nil, err
	}
	var reply braveReply
	if err := json.Unmarshal(body, &reply); err != nil {
		return nil, malformed(b.Name(), err, "check the Brave base URL")
	}
	rs := make([]Result, 0, len(reply.Web.Results))
	for _, r := range reply.Web.Results {
		rs = append(rs, Result{Title: r.Title, URL: r.URL, Snippet: r.Description})
	}
	return limitResults(rs, n), nil
}
