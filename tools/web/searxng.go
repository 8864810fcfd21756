package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// SearXNGConfig configures a SearXNG provider.
type SearXNGConfig struct {
	// BaseURL is the instance's base URL, e.g. "https://searx.example.org" or
	// "http://localhost:8888/searx". Required. The instance must allow JSON
	// output ("json" under search.formats in its settings.yml).
	BaseURL string
	// Client sends the requests. Optional; default: a client with a 30s timeout.
	Client *http.Client
}

// SearXNG searches through a SearXNG metasearch instance
// (GET <BaseURL>/search?q=...&format=json).
type SearXNG struct {
	endpoint string
	secret   string
	client   *http.Client
}

// NewSearXNG returns a SearXNG provider for cfg.
func NewSearXNG(cfg SearXNGConfig) (*SearXNG, error) {
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		return nil, fmt.Errorf("new searxng provider: %w: set %s to the instance's base URL", ErrNotConfigured, EnvSearXNGURL)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("new searxng provider: base URL %q is not an http(s) URL: check %s", redactURL(base), EnvSearXNGURL)
	}
	secret, _ := u.User.Password()
	endpoint := u.JoinPath("search")
	endpoint.RawQuery = ""
	endpoint.Fragment = ""
	client := cfg.Client
	if client == nil {
		client = defaultSearchClient()
	}
	return &SearXNG{endpoint: endpoint.String(), secret: secret, client: client}, nil
}

// Name returns "searxng".
func (s *SearXNG) Name() string { return "searxng" }

// searxngReply is the part of SearXNG's JSON reply that Search reads.
type searxngReply struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

// Search queries the instance and returns at most n results. SearXNG has no
// result-count parameter, so the first page is trimmed to n.
func (s *SearXNG) Search(ctx context.Context, query string, n int) ([]Result, error) {
	n = resultCount(n)
	q := url.Values{"q": {query}, "format": {"json"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.endpoint+"?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("searxng search: build request: %s: check %s", redact(err.Error(), s.secret), EnvSearXNGURL)
	}
	req.Header.Set("Accept", "application/json")
	body, err := doProviderRequest(s.client, req, s.Name(), s.secret, statusHints{
		auth:     "the instance refused the request: enable \"json\" under search.formats in its settings.yml and check " + EnvSearXNGURL,
		notFound: "no search endpoint there: check that " + EnvSearXNGURL + " is the instance's base URL",
		other:    "check " + EnvSearXNGURL,
	})
	if err != nil {
		return nil, err
	}
	var reply searxngReply
	if err := json.Unmarshal(body, &reply); err != nil {
		return nil, malformed(s.Name(), err, "check that "+EnvSearXNGURL+" points at a SearXNG instance with JSON output enabled")
	}
	rs := make([]Result, 0, len(reply.Results))
	for _, r := range reply.Results {
		rs = append(rs, Result{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return limitResults(rs, n), nil
}

// redactURL hides the password in a URL string, if it parses.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable)"
	}
	return u.Redacted()
}
