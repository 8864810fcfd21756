package web

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// capturedRequest is what a test server saw of one request.
type capturedRequest struct {
	Method string
	Path   string
	Query  map[string][]string
	Header http.Header
	Body   string
}

// newProviderServer starts a server that answers every request with status
// and body, and hands each request it saw to the returned channel.
func newProviderServer(t *testing.T, status int, body string) (*httptest.Server, <-chan capturedRequest) {
	t.Helper()
	seen := make(chan capturedRequest, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen <- capturedRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: string(b)}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

// receive returns the one request the server saw.
func receive(t *testing.T, seen <-chan capturedRequest) capturedRequest {
	t.Helper()
	select {
	case r := <-seen:
		return r
	default:
		t.Fatal("the server saw no request")
		return capturedRequest{}
	}
}

// checkSearchError checks err against the sentinel and the words its message
// must and must not hold.
func checkSearchError(t *testing.T, err, sentinel error, mustHave []string, secret string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("error = %v, want one wrapping %v", err, sentinel)
	}
	for _, w := range mustHave {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if secret != "" && strings.Contains(err.Error(), secret) {
		t.Errorf("error %q echoes the secret", err)
	}
}

func TestSelectFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string // provider name; "" for none
		wantErr error
	}{
		{name: "nothing configured", env: nil, wantErr: ErrNotConfigured},
		{name: "blank values are unset", env: map[string]string{EnvSearXNGURL: "  ", EnvTavilyKey: ""}, wantErr: ErrNotConfigured},
		{name: "searxng only", env: map[string]string{EnvSearXNGURL: "http://searx.local"}, want: "searxng"},
		{name: "tavily only", env: map[string]string{EnvTavilyKey: "tvly-k"}, want: "tavily"},
		{name: "brave only", env: map[string]string{EnvBraveKey: "b-k"}, want: "brave"},
		{name: "all: searxng first", env: map[string]string{EnvSearXNGURL: "http://searx.local", EnvTavilyKey: "tvly-k", EnvBraveKey: "b-k"}, want: "searxng"},
		{name: "tavily before brave", env: map[string]string{EnvTavilyKey: "tvly-k", EnvBraveKey: "b-k"}, want: "tavily"},
		{name: "override picks brave", env: map[string]string{EnvProvider: "brave", EnvSearXNGURL: "http://searx.local", EnvTavilyKey: "tvly-k", EnvBraveKey: "b-k"}, want: "brave"},
		{name: "override is case and space insensitive", env: map[string]string{EnvProvider: " Tavily ", EnvSearXNGURL: "http://searx.local", EnvTavilyKey: "tvly-k"}, want: "tavily"},
		{name: "override names an unconfigured provider", env: map[string]string{EnvProvider: "brave", EnvTavilyKey: "tvly-k"}, wantErr: ErrNotConfigured},
		{name: "override names an unknown provider", env: map[string]string{EnvProvider: "google", EnvTavilyKey: "tvly-k"}, wantErr: ErrUnknownProvider},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			p, err := SelectFromEnv(getenv)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("SelectFromEnv error = %v, want %v", err, tt.wantErr)
			}
			got := ""
			if p != nil {
				got = p.Name()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SelectFromEnv provider (-want +got):\n%s", diff)
			}
			fromEnv := FromEnv(getenv)
			if (fromEnv == nil) != (tt.want == "") {
				t.Fatalf("FromEnv = %v, want a provider: %v", fromEnv, tt.want != "")
			}
			if fromEnv != nil && fromEnv.Name() != tt.want {
				t.Errorf("FromEnv name = %q, want %q", fromEnv.Name(), tt.want)
			}
		})
	}
}

func TestSelectFromEnvErrorNamesVariables(t *testing.T) {
	_, err := SelectFromEnv(func(string) string { return "" })
	for _, v := range []string{EnvSearXNGURL, EnvTavilyKey, EnvBraveKey} {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("error %q does not name %s", err, v)
		}
	}
}

func TestStatusErrorUnwrap(t *testing.T) {
	tests := []struct {
		status int
		want   error
	}{
		{http.StatusUnauthorized, ErrUnauthorized},
		{http.StatusForbidden, ErrUnauthorized},
		{http.StatusTooManyRequests, ErrRateLimited},
		{http.StatusBadRequest, ErrProviderStatus},
		{http.StatusBadGateway, ErrProviderStatus},
	}
	for _, tt := range tests {
		err := error(&StatusError{Provider: "p", StatusCode: tt.status})
		if !errors.Is(err, tt.want) {
			t.Errorf("StatusError{%d} does not unwrap to %v", tt.status, tt.want)
		}
	}
}

func TestLimitResults(t *testing.T) {
	in := []Result{
		{Title: "A &amp; B", URL: " https://a.example ", Snippet: "one\n two"},
		{Title: "no url", URL: ""},
		{Title: "C", URL: "https://c.example", Snippet: "<b>bold</b> text"},
		{Title: "D", URL: "https://d.example"},
	}
	want := []Result{
		{Title: "A & B", URL: "https://a.example", Snippet: "one two"},
		{Title: "C", URL: "https://c.example", Snippet: "bold text"},
	}
	if diff := cmp.Diff(want, limitResults(in, 2)); diff != "" {
		t.Errorf("limitResults (-want +got):\n%s", diff)
	}
}

func TestSelectFromEnvReportsBadSearXNGURL(t *testing.T) {
	env := map[string]string{EnvSearXNGURL: "searx.local", EnvTavilyKey: "tvly-k"}
	getenv := func(k string) string { return env[k] }
	p, err := SelectFromEnv(getenv)
	if err == nil || !strings.Contains(err.Error(), EnvSearXNGURL) {
		t.Fatalf("SelectFromEnv = %v, %v; want an error naming %s", p, err, EnvSearXNGURL)
	}
	if FromEnv(getenv) != nil {
		t.Error("FromEnv returned a provider for a broken configuration")
	}
}
