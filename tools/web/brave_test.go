package web

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBraveSearch(t *testing.T) {
	const reply = `{"type":"search","web":{"type":"search","results":[
		{"title":"Polars &amp; pandas","url":"https://pola.rs/","description":"<strong>Polars</strong> is a fast DataFrame library."},
		{"title":"pandas","url":"https://pandas.pydata.org/","description":"Python data analysis."}
	]}}`
	srv, seen := newProviderServer(t, http.StatusOK, reply)
	p, err := NewBrave(BraveConfig{APIKey: "brave-secret", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Search(context.Background(), "polars vs pandas", 4)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	want := []Result{
		{Title: "Polars & pandas", URL: "https://pola.rs/", Snippet: "Polars is a fast DataFrame library."},
		{Title: "pandas", URL: "https://pandas.pydata.org/", Snippet: "Python data analysis."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}

	req := receive(t, seen)
	if diff := cmp.Diff(
		capturedRequest{Method: http.MethodGet, Path: "/res/v1/web/search", Query: map[string][]string{"q": {"polars vs pandas"}, "count": {"4"}}},
		capturedRequest{Method: req.Method, Path: req.Path, Query: req.Query},
	); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if got := req.Header.Get("X-Subscription-Token"); got != "brave-secret" {
		t.Errorf("X-Subscription-Token = %q, want the key", got)
	}
}

func TestBraveSearchNoWebResults(t *testing.T) {
	srv, _ := newProviderServer(t, http.StatusOK, `{"type":"search","query":{"original":"zzz"}}`)
	p, err := NewBrave(BraveConfig{APIKey: "k", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Search(context.Background(), "zzz", 5)
	if err != nil || len(got) != 0 {
		t.Errorf("Search = %v, %v; want no results and no error", got, err)
	}
}

func TestBraveSearchErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		sentinel error
		mention  []string
	}{
		{name: "bad token", status: http.StatusUnauthorized, body: `{"error":{"detail":"token brave-secret is invalid"}}`,
			sentinel: ErrUnauthorized, mention: []string{"brave", "401", EnvBraveKey}},
		{name: "rate limited", status: http.StatusTooManyRequests, body: `{}`,
			sentinel: ErrRateLimited, mention: []string{"brave", "429"}},
		{name: "upstream failure", status: http.StatusServiceUnavailable, body: `down`,
			sentinel: ErrProviderStatus, mention: []string{"brave", "503", "try again"}},
		{name: "malformed body", status: http.StatusOK, body: `{"web":{"results":"nope"}}`,
			sentinel: ErrMalformedResponse, mention: []string{"brave"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newProviderServer(t, tt.status, tt.body)
			p, err := NewBrave(BraveConfig{APIKey: "brave-secret", BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Search(context.Background(), "q", 5)
			checkSearchError(t, err, tt.sentinel, tt.mention, "brave-secret")
		})
	}
}
