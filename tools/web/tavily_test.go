package web

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTavilySearch(t *testing.T) {
	const reply = `{"query":"duckdb","response_time":0.5,"results":[
		{"title":"DuckDB","url":"https://duckdb.org/","content":"An in-process SQL OLAP database.","score":0.9},
		{"title":"DuckDB on GitHub","url":"https://github.com/duckdb/duckdb","content":"Source code.","score":0.8}
	]}`
	srv, seen := newProviderServer(t, http.StatusOK, reply)
	p, err := NewTavily(TavilyConfig{APIKey: "tvly-secret", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Search(context.Background(), "duckdb", 3)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	want := []Result{
		{Title: "DuckDB", URL: "https://duckdb.org/", Snippet: "An in-process SQL OLAP database."},
		{Title: "DuckDB on GitHub", URL: "https://github.com/duckdb/duckdb", Snippet: "Source code."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}

	req := receive(t, seen)
	if req.Method != http.MethodPost || req.Path != "/search" {
		t.Errorf("request = %s %s, want POST /search", req.Method, req.Path)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer tvly-secret" {
		t.Errorf("Authorization = %q, want the bearer key", got)
	}
	if got := req.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", got)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(req.Body), &body); err != nil {
		t.Fatalf("request body %q: %v", req.Body, err)
	}
	if diff := cmp.Diff(map[string]any{"query": "duckdb", "max_results": float64(3)}, body); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
}

func TestTavilySearchErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		sentinel error
		mention  []string
	}{
		{name: "bad key, echoed by the server", status: http.StatusUnauthorized, body: `{"detail":{"error":"Unauthorized: invalid key tvly-secret"}}`,
			sentinel: ErrUnauthorized, mention: []string{"tavily", "401", EnvTavilyKey}},
		{name: "quota used up", status: http.StatusTooManyRequests, body: `{}`,
			sentinel: ErrRateLimited, mention: []string{"tavily", "429", "quota"}},
		{name: "malformed body", status: http.StatusOK, body: `{"results": [`,
			sentinel: ErrMalformedResponse, mention: []string{"tavily"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newProviderServer(t, tt.status, tt.body)
			p, err := NewTavily(TavilyConfig{APIKey: "tvly-secret", BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Search(context.Background(), "q", 5)
			checkSearchError(t, err, tt.sentinel, tt.mention, "tvly-secret")
		})
	}
}

func TestNewTavilyNeedsKey(t *testing.T) {
	_, err := NewTavily(TavilyConfig{})
	checkSearchError(t, err, ErrNotConfigured, []string{EnvTavilyKey}, "")
}
