package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// requestBody sends one request through New(ep) to a scripted server and
// returns the JSON body the server received.
func requestBody(t *testing.T, ep Endpoint) map[string]any {
	t.Helper()
	srv := scripted.NewServer(scripted.New(scripted.Reply{Message: scripted.Text("ok")}))
	defer srv.Close()
	var body []byte
	spy := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		return http.DefaultTransport.RoundTrip(r)
	})
	ep.BaseURL, ep.APIKey = srv.URL+"/v1", "k"
	m, err := New(context.Background(), ep, WithTransport(spy))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("q")}); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("request body %s: %v", body, err)
	}
	return got
}

// The per-agent settings of the config file reach the request body.
func TestAgentSettingsReachTheRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	conf := `{"base_url": "http://x/v1", "model": "qwen3-8b", "temperature": 0.7,
	  "agents": {"planner": {"temperature": 0, "max_tokens": 2048, "reasoning_effort": "low", "extra_body": {"enable_thinking": false}}}}`
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	planner := requestBody(t, cfg.For(AgentPlanner))
	if planner["temperature"] != 0.0 || planner["max_tokens"] != 2048.0 || planner["reasoning_effort"] != "low" || planner["enable_thinking"] != false {
		t.Errorf("planner request = %v; want temperature 0, max_tokens 2048, reasoning_effort low, enable_thinking false", planner)
	}
	code := requestBody(t, cfg.For(AgentCode))
	if code["temperature"] != 0.7 {
		t.Errorf("code request temperature = %v, want the default 0.7", code["temperature"])
	}
	for _, k := range []string{"max_tokens", "reasoning_effort", "enable_thinking"} {
		if _, ok := code[k]; ok {
			t.Errorf("code request must not carry the planner's %s: %v", k, code)
		}
	}
}

func TestConfigFileRejectsBadSettings(t *testing.T) {
	for _, conf := range []string{`{"reasoning_effort": "max"}`, `{"agents": {"code": {"max_tokens": 0}}}`} {
		path := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(path, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: want an error naming the file, got %v", conf, err)
		}
	}
}

func TestContextWindowPerModel(t *testing.T) {
	tests := []struct {
		ep   Endpoint
		want int
	}{
		{Endpoint{Model: "gpt-4o-mini"}, 128000},
		{Endpoint{Model: "openai/gpt-4.1-mini"}, 1047576},
		{Endpoint{Model: "qwen2.5:7b"}, 32768},
		{Endpoint{Model: "llama3:8b"}, 8192},
		{Endpoint{Model: "llama3.1:8b"}, 131072},
		{Endpoint{Model: "my-own-model"}, DefaultContextWindow},
		{Endpoint{Model: "llama3:8b", ContextWindow: 16384}, 16384},
		{Endpoint{Model: "gpt-4o", ContextWindow: -1}, -1},
	}
	for _, tt := range tests {
		if got := tt.ep.ContextWindowTokens(); got != tt.want {
			t.Errorf("%s: window %d, want %d", tt.ep.Model, got, tt.want)
		}
	}
}
