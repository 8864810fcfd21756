package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// EmbeddingsConfig names an OpenAI-compatible embeddings endpoint
// (POST {BaseURL}/embeddings).
type EmbeddingsConfig struct {
	// BaseURL is the endpoint's base, e.g. https://api.openai.com/v1.
	// Required.
	BaseURL string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Model is the embeddings model, e.g. text-embedding-3-small.
	// Required.
	Model string
	// HTTPClient makes the requests; http.DefaultClient when nil. Its
	// transport is wrapped in a RetryTransport, as the model client's is.
	HTTPClient *http.Client
	// MaxRetries is how many times a request that failed with 429, a 5xx
	// status, a timeout or a dropped connection is retried, as for model
	// calls (Endpoint.MaxRetries). Optional; 0 means DefaultMaxRetries, a
	// negative value no retries.
	MaxRetries int
	// Sleep replaces how the retry layer waits between attempts (see
	// WithSleep). Optional; tests use it to avoid waiting.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Embeddings is an OpenAI-compatible embeddings endpoint: it turns texts
// into vectors (memory.Embedder).
type Embeddings struct {
	cfg EmbeddingsConfig
}

// NewEmbeddings checks cfg and returns its endpoint.
func NewEmbeddings(cfg EmbeddingsConfig) (*Embeddings, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" || strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("embeddings: give the endpoint's base URL and the embeddings model's name")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	// The retry layer is the model client's (see New): an embeddings call
	// that meets a 503 or a dropped connection is tried again.
	client := *cfg.HTTPClient
	client.Transport = &RetryTransport{Base: cfg.HTTPClient.Transport, MaxRetries: cfg.MaxRetries, Sleep: cfg.Sleep}
	cfg.HTTPClient = &client
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Embeddings{cfg: cfg}, nil
}

// maxEmbeddingsBody bounds the answer read from the endpoint.
const maxEmbeddingsBody = 64 << 20

// Model is the embeddings model's name.
func (e *Embeddings) Model() string { return e.cfg.Model }

// Embed returns one vector per text, in order, from one request.
func (e *Embeddings) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	vecs, _, err := e.EmbedCounted(ctx, texts)
	return vecs, err
}

// EmbedCounted is Embed, also returning the prompt tokens the endpoint
// says it billed (its answer's usage), or 0 when it says none.
func (e *Embeddings) EmbedCounted(ctx context.Context, texts []string) ([][]float64, int, error) {
	if len(texts) == 0 {
		return nil, 0, nil
	}
	body, err := json.Marshal(map[string]any{"model": e.cfg.Model, "input": texts})
	if err != nil {
		return nil, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.cfg.BaseURL+"/embeddings", bytes.NewReader(body))
	if err != nil {
		return nil, 0, fmt.Errorf("embeddings: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	res, err := e.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("embeddings: %w", err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxEmbeddingsBody))
	if err != nil {
		return nil, 0, fmt.Errorf("embeddings: read the answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		head := string(data)
		if len(head) > 300 {
			head = head[:300] + "…"
		}
		return nil, 0, fmt.Errorf("embeddings: %s answered %s: %s", e.cfg.BaseURL, res.Status, strings.TrimSpace(head))
	}
	var out struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		} `json:"data"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, 0, fmt.Errorf("embeddings: the answer is not an embeddings list: %w", err)
	}
	vecs := make([][]float64, len(texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, 0, fmt.Errorf("embeddings: the answer has an embedding for input %d of %d", d.Index, len(texts))
		}
		vecs[d.Index] = d.Embedding
	}
	for i, v := range vecs {
		if v == nil {
			return nil, 0, fmt.Errorf("embeddings: the answer has no embedding for input %d of %d", i, len(texts))
		}
	}
	return vecs, out.Usage.PromptTokens, nil
}

// EmbeddingsFromEnv is the embeddings endpoint the environment names:
// SIFT_EMBEDDINGS_MODEL, at SIFT_EMBEDDINGS_BASE_URL (else SIFT_BASE_URL)
// with SIFT_EMBEDDINGS_API_KEY (else SIFT_API_KEY). nil when no model is
// named: questions are then compared word by word.
func EmbeddingsFromEnv(getenv func(string) string) (*Embeddings, error) {
	model := strings.TrimSpace(getenv("SIFT_EMBEDDINGS_MODEL"))
	if model == "" {
		return nil, nil
	}
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := strings.TrimSpace(getenv(k)); v != "" {
				return v
			}
		}
		return ""
	}
	base := first("SIFT_EMBEDDINGS_BASE_URL", "SIFT_BASE_URL")
	if base == "" {
		return nil, errors.New("embeddings: SIFT_EMBEDDINGS_MODEL is set but no endpoint is: set SIFT_EMBEDDINGS_BASE_URL (or SIFT_BASE_URL), e.g. https://api.openai.com/v1")
	}
	return NewEmbeddings(EmbeddingsConfig{BaseURL: base, APIKey: first("SIFT_EMBEDDINGS_API_KEY", "SIFT_API_KEY"), Model: model})
}
