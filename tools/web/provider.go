// Package web gives Sift's agents the open web as Eino tools: web_search over
// a pluggable search Provider (SearXNG, Tavily or Brave, chosen from the
// environment) and web_fetch, which reads one page as plain text and refuses
// loopback, private and link-local targets unless told otherwise.
//
// Both tools answer problems the model can act on (a bad URL, an HTTP error,
// search not configured) in their reply rather than as an error, so a run is
// not ended by them; only cancellation of the context is returned as an error.
package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Result is one web search hit.
type Result struct {
	// Title is the page title as the provider reports it.
	Title string
	// URL is the page address.
	URL string
	// Snippet is a short plain-text excerpt of the page.
	Snippet string
}

// Provider is a web search backend.
type Provider interface {
	// Name is the provider's short lower-case name, as used in
	// SIFT_SEARCH_PROVIDER ("searxng", "tavily", "brave").
	Name() string
	// Search returns at most n results for query, best first; n < 1 means
	// DefaultMaxResults.
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// Environment variables read by FromEnv and SelectFromEnv.
const (
	// EnvProvider names the provider to use when several are configured.
	EnvProvider = "SIFT_SEARCH_PROVIDER"
	// EnvSearXNGURL is the base URL of a SearXNG instance.
	EnvSearXNGURL = "SEARXNG_URL"
	// EnvTavilyKey is a Tavily API key.
	EnvTavilyKey = "TAVILY_API_KEY"
	// EnvBraveKey is a Brave Search API subscription token.
	EnvBraveKey = "BRAVE_API_KEY"
)

// Sentinel errors callers can branch on with errors.Is.
var (
	// ErrNotConfigured means no search provider is configured in the environment.
	ErrNotConfigured = errors.New("web search is not configured")
	// ErrUnknownProvider means SIFT_SEARCH_PROVIDER names no known provider.
	ErrUnknownProvider = errors.New("unknown search provider")
	// ErrUnauthorized means the provider refused the credentials (HTTP 401/403).
	ErrUnauthorized = errors.New("search provider refused the request")
	// ErrRateLimited means the provider throttled the request or the quota is used up (HTTP 429).
	ErrRateLimited = errors.New("search provider rate limit reached")
	// ErrProviderStatus means the provider answered with another non-2xx status.
	ErrProviderStatus = errors.New("search provider returned an error status")
	// ErrMalformedResponse means the provider's reply could not be decoded.
	ErrMalformedResponse = errors.New("search provider reply is malformed")
)

// providerNames lists the providers in FromEnv's order of preference.
var providerNames = []string{"searxng", "tavily", "brave"}

// FromEnv returns the search provider configured by getenv (usually
// os.Getenv), or nil when none is configured or SIFT_SEARCH_PROVIDER names an
// unknown or unconfigured provider. SelectFromEnv says which of those it was.
func FromEnv(getenv func(string) string) Provider {
	p, err := SelectFromEnv(getenv)
	if err != nil {
		return nil
	}
	return p
}

// SelectFromEnv chooses a search provider from the environment read by
// getenv: the one named by SIFT_SEARCH_PROVIDER if set, else the first
// configured of SearXNG (SEARXNG_URL), Tavily (TAVILY_API_KEY) and Brave
// (BRAVE_API_KEY). It fails with ErrNotConfigured when the chosen provider
// (or every provider) lacks its variable, and ErrUnknownProvider when the
// override names no known provider.
func SelectFromEnv(getenv func(string) string) (Provider, error) {
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }
	build := func(name string) (Provider, error) {
		switch name {
		case "searxng":
			if env(EnvSearXNGURL) == "" {
				return nil, fmt.Errorf("select searxng: %w: set %s to the instance's base URL", ErrNotConfigured, EnvSearXNGURL)
			}
			return NewSearXNG(SearXNGConfig{BaseURL: env(EnvSearXNGURL)})
		case "tavily":
			if env(EnvTavilyKey) == "" {
				return nil, fmt.Errorf("select tavily: %w: set %s", ErrNotConfigured, EnvTavilyKey)
			}
			return NewTavily(TavilyConfig{APIKey: env(EnvTavilyKey)})
		case "brave":
			if env(EnvBraveKey) == "" {
				return nil, fmt.Errorf("select brave: %w: set %s", ErrNotConfigured, EnvBraveKey)
			}
			return NewBrave(BraveConfig{APIKey: env(EnvBraveKey)})
		}
		return nil, fmt.Errorf("select %q: %w: set %s to one of %s", name, ErrUnknownProvider, EnvProvider, strings.Join(providerNames, ", "))
	}

	if name := strings.ToLower(env(EnvProvider)); name != "" {
		return build(name)
	}
	for _, name := range providerNames {
		p, err := build(name)
		if errors.Is(err, ErrNotConfigured) {
			continue
		}
		return p, err
	}
	return nil, fmt.Errorf("select search provider: %w: set %s, %s or %s", ErrNotConfigured, EnvSearXNGURL, EnvTavilyKey, EnvBraveKey)
}

// StatusError is a non-2xx answer from a search provider. It unwraps to
// ErrUnauthorized, ErrRateLimited or ErrProviderStatus.
type StatusError struct {
	// Provider is the provider's name.
	Provider string
	// StatusCode is the HTTP status code.
	StatusCode int
	// Detail is the start of the reply body, with any API key removed.
	Detail string
	// Hint says what to check.
	Hint string
}

// Error names the provider, the status and what to check.
func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s search: HTTP %d %s", e.Provider, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Detail != "" {
		fmt.Fprintf(&b, " (%s)", e.Detail)
	}
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// Unwrap returns the sentinel for the status class.
func (e *StatusError) Unwrap() error {
	switch e.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return ErrUnauthorized
	case http.StatusTooManyRequests:
		return ErrRateLimited
	}
	return ErrProviderStatus
}

// defaultSearchTimeout bounds one provider call when no client is given.
const defaultSearchTimeout = 30 * time.Second

// maxProviderBody caps how much of a provider reply is read.
const maxProviderBody = 4 << 20

// defaultSearchClient is the HTTP client providers use when none is given.
func defaultSearchClient() *http.Client {
	return &http.Client{Timeout: defaultSearchTimeout}
}

// statusHints says what to check, per provider, for a failing status.
type statusHints struct {
	// auth is given for 401 and 403.
	auth string
	// notFound is given for 404.
	notFound string
	// other is given for every other status.
	other string
}

// doProviderRequest sends req for the provider named name, and returns the
// body of a 2xx reply (capped at maxProviderBody). Non-2xx replies become a
// *StatusError; secret is scrubbed from everything it reports.
func doProviderRequest(client *http.Client, req *http.Request, name, secret string, hints statusHints) ([]byte, error) {
	resp, err := client.Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s search: %w", name, ctxErr)
		}
		return nil, fmt.Errorf("%s search: request failed: %s: check the network and the provider URL", name, redact(err.Error(), secret))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProviderBody))
	if err != nil {
		return nil, fmt.Errorf("%s search: read reply: %s", name, redact(err.Error(), secret))
	}
	if resp.StatusCode/100 == 2 {
		return body, nil
	}
	se := &StatusError{Provider: name, StatusCode: resp.StatusCode, Detail: redact(bodyDetail(body), secret)}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		se.Hint = hints.auth
	case resp.StatusCode == http.StatusNotFound:
		se.Hint = hints.notFound
	case resp.StatusCode == http.StatusTooManyRequests:
		se.Hint = "rate limit or quota reached; wait a moment or check the plan's quota"
	case resp.StatusCode >= 500:
		se.Hint = "the provider is failing; try again later"
	default:
		se.Hint = hints.other
	}
	return nil, se
}

// malformed reports a reply that could not be decoded.
func malformed(name string, err error, hint string) error {
	return fmt.Errorf("%s search: %w: %v: %s", name, ErrMalformedResponse, err, hint)
}

// bodyDetail is the first line of an error body, short enough for a message.
func bodyDetail(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	const maxDetail = 200
	if r := []rune(s); len(r) > maxDetail {
		s = string(r[:maxDetail]) + "…"
	}
	return s
}

// redact removes secret from s, so that keys are never echoed.
func redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}

// resultCount is n, or DefaultMaxResults when n < 1.
func resultCount(n int) int {
	if n < 1 {
		return DefaultMaxResults
	}
	return n
}

// limitResults trims rs to at most n entries and drops hits without a URL.
func limitResults(rs []Result, n int) []Result {
	out := make([]Result, 0, min(len(rs), max(n, 0)))
	for _, r := range rs {
		if len(out) >= n {
			break
		}
		if strings.TrimSpace(r.URL) == "" {
			continue
		}
		out = append(out, Result{
			Title:   plainSnippet(r.Title),
			URL:     strings.TrimSpace(r.URL),
			Snippet: plainSnippet(r.Snippet),
		})
	}
	return out
}
