package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// DefaultTavilyBaseURL is Tavily's API root.
const DefaultTavilyBaseURL = "https://api.tavily.com"

// tavilyMaxResults is the most results Tavily returns per request.
const tavilyMaxResults = 20

// TavilyConfig configures a Tavily provider.
type TavilyConfig struct {
	// APIKey is the Tavily API key ("tvly-..."). Required.
	APIKey string
	// BaseURL is the API root. Optional; default DefaultTavilyBaseURL.
	// Tests point it at a local server.
	BaseURL string
	// Client sends the requests. Optional; default: a client with a 30s timeout.
	Client *http.Client
}

// Tavily searches with the Tavily search API (POST <BaseURL>/search).
type Tavily struct {
	endpoint string
	apiKey   string
	client   *http.Client
}

// NewTavily returns a Tavily provider for cfg.
func NewTavily(cfg TavilyConfig) (*Tavily, error) {
	key := strings.TrimSpace(cfg.APIKey)
	if key == "" {
		return nil, fmt.Errorf("new tavily provider: %w: set %s", ErrNotConfigured, EnvTavilyKey)
	}
	endpoint, err := apiEndpoint(cfg.BaseURL, DefaultTavilyBaseURL, "search")
	if err != nil {
		return nil, fmt.Errorf("new tavily provider: %w", err)
	}
	client := cfg.Client
	if client == nil {
		client = defaultSearchClient()
	}
	return &Tavily{endpoint: endpoint, apiKey: key, client: client}, nil
}

// Name returns "tavily".
func (t *Tavily) Name() string { return "tavily" }

// tavilyRequest is the JSON body Search sends.
type tavilyRequest struct {
	Query      string `json:"query"`
	MaxResults int    `json:"max_results"`
}

// tavilyReply is the part of Tavily's JSON reply that Search reads.
type tavilyReply struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

// Search asks Tavily for at most n results.
func (t *Tavily) Search(ctx context.Context, query string, n int) ([]Result, error) {
	n = resultCount(n)
	payload, err := json.Marshal(tavilyRequest{Query: query, MaxResults: min(n, tavilyMaxResults)})
	if err != nil {
		return nil, fmt.Errorf("tavily search: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint, bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("tavily search: build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.apiKey)
	body, err := doProviderRequest(t.client, req, t.Name(), t.apiKey, statusHints{
		auth:     "check " + EnvTavilyKey + " (missing, mistyped or revoked key)",
		notFound: "check the Tavily base URL",
		other:    "check the query and " + EnvTavilyKey,
	})
	if err != nil {
		return nil, err
	}
	var reply tavilyReply
	if err := json.Unmarshal(body, &reply); err != nil {
		return nil, malformed(t.Name(), err, "check the Tavily base URL")
	}
	rs := make([]Result, 0, len(reply.Results))
	for _, r := range reply.Results {
		rs = append(rs, Result{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return limitResults(rs, n), nil
}

// apiEndpoint joins path onto base (or def when base is empty) and checks
// that the result is an http(s) URL.
func apiEndpoint(base, def, path string) (string, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		base = def
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("base URL %q is not an http(s) URL", redactURL(base))
	}
	u = u.JoinPath(path)
	u.RawQuery = ""
	u.Fragment = ""
	return u.String(), nil
}
