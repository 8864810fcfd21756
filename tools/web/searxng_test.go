package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSearXNGSearch(t *testing.T) {
	const reply = `{"query":"go generics","results":[
		{"title":"Generics  tutorial","url":"https://go.dev/doc/tutorial/generics","content":"Get started\nwith generics.","engine":"ddg"},
		{"title":"No URL","url":"","content":"dropped"},
		{"title":"Proposal","url":"https://go.dev/design/43651","content":"Type parameters &amp; constraints"},
		{"title":"Third","url":"https://example.org/3","content":"beyond n"}
	]}`
	srv, seen := newProviderServer(t, http.StatusOK, reply)
	p, err := NewSearXNG(SearXNGConfig{BaseURL: srv.URL + "/searx/"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Search(context.Background(), "go generics", 2)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	want := []Result{
		{Title: "Generics tutorial", URL: "https://go.dev/doc/tutorial/generics", Snippet: "Get started with generics."},
		{Title: "Proposal", URL: "https://go.dev/design/43651", Snippet: "Type parameters & constraints"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}

	req := receive(t, seen)
	if diff := cmp.Diff(
		capturedRequest{Method: http.MethodGet, Path: "/searx/search", Query: map[string][]string{"q": {"go generics"}, "format": {"json"}}},
		capturedRequest{Method: req.Method, Path: req.Path, Query: req.Query},
	); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if got := req.Header.Get("Accept"); got != "application/json" {
		t.Errorf("Accept = %q, want application/json", got)
	}
}

func TestSearXNGSearchErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		sentinel error
		mention  []string
	}{
		{name: "json format disabled", status: http.StatusForbidden, body: "Forbidden", sentinel: ErrUnauthorized,
			mention: []string{"searxng", "403", "settings.yml", EnvSearXNGURL}},
		{name: "wrong base URL", status: http.StatusNotFound, body: "not found", sentinel: ErrProviderStatus,
			mention: []string{"searxng", "404", EnvSearXNGURL}},
		{name: "server failing, body echoes password", status: http.StatusInternalServerError, body: "boom for hunter2", sentinel: ErrProviderStatus,
			mention: []string{"searxng", "500", "[redacted]"}},
		{name: "malformed body", status: http.StatusOK, body: "<html>not json</html>", sentinel: ErrMalformedResponse,
			mention: []string{"searxng", EnvSearXNGURL}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newProviderServer(t, tt.status, tt.body)
			u, _ := url.Parse(srv.URL)
			u.User = url.UserPassword("sift", "hunter2")
			p, err := NewSearXNG(SearXNGConfig{BaseURL: u.String()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Search(context.Background(), "q", 5)
			checkSearchError(t, err, tt.sentinel, tt.mention, "hunter2")
		})
	}
}

func TestNewSearXNGRejectsBadURL(t *testing.T) {
	for _, base := range []string{"", "searx.local", "ftp://searx.local"} {
		if _, err := NewSearXNG(SearXNGConfig{BaseURL: base}); err == nil || !strings.Contains(err.Error(), EnvSearXNGURL) {
			t.Errorf("NewSearXNG(%q) error = %v, want one naming %s", base, err, EnvSearXNGURL)
		}
	}
}
