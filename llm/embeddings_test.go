package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// embeddingsServer is a scripted OpenAI-compatible embeddings endpoint:
// each input's vector is vecs[input], answered in reverse order (the
// index says which is which).
func embeddingsServer(t *testing.T, vecs map[string][]float64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, `{"error":{"message":"wrong path or key"}}`, http.StatusUnauthorized)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "embed-1" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			data = append(data, item{i, vecs[req.Input[i]]})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestEmbeddingsAgainstAScriptedEndpoint(t *testing.T) {
	srv := embeddingsServer(t, map[string][]float64{"a": {1, 0}, "b": {0, 1}})
	e, err := NewEmbeddings(EmbeddingsConfig{BaseURL: srv.URL + "/v1/", APIKey: "k", Model: "embed-1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Embed(context.Background(), []string{"a", "b"})
	if err != nil || len(got) != 2 || got[0][0] != 1 || got[1][1] != 1 {
		t.Fatalf("Embed = %v, %v", got, err)
	}
	if _, err := e.Embed(context.Background(), []string{"unknown"}); err == nil || !strings.Contains(err.Error(), "has an embedding for input") {
		t.Errorf("an input without a vector: %v", err)
	}
	bad, _ := NewEmbeddings(EmbeddingsConfig{BaseURL: srv.URL + "/v1", APIKey: "wrong", Model: "embed-1"})
	if _, err := bad.Embed(context.Background(), []string{"a"}); err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "wrong path or key") {
		t.Errorf("a refused key: %v", err)
	}
	if _, err := NewEmbeddings(EmbeddingsConfig{BaseURL: srv.URL}); err == nil {
		t.Error("a model name is required")
	}
}

func TestEmbeddingsFromEnv(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if e, err := EmbeddingsFromEnv(env(nil)); e != nil || err != nil {
		t.Errorf("no model named: %v %v", e, err)
	}
	if _, err := EmbeddingsFromEnv(env(map[string]string{"SIFT_EMBEDDINGS_MODEL": "m"})); err == nil || !strings.Contains(err.Error(), "SIFT_EMBEDDINGS_BASE_URL") {
		t.Errorf("no endpoint: %v", err)
	}
	e, err := EmbeddingsFromEnv(env(map[string]string{"SIFT_EMBEDDINGS_MODEL": "m", "SIFT_BASE_URL": "http://chat/v1/", "SIFT_API_KEY": "chat-key", "SIFT_EMBEDDINGS_API_KEY": "embed-key"}))
	if err != nil || e.cfg.BaseURL != "http://chat/v1" || e.cfg.APIKey != "embed-key" || e.cfg.Model != "m" {
		t.Errorf("from the environment: %+v %v", e, err)
	}
}
