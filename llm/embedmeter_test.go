package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sift-agent/sift/llm/tokens"
)

// flakyEmbeddings is a scripted embeddings endpoint whose first `fail`
// requests answer 503; the others answer a vector per input and, when
// billed > 0, a usage of billed prompt tokens.
func flakyEmbeddings(t *testing.T, fail int32, billed int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= fail {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		var req struct {
			Input []string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		var data []map[string]any
		for i := range req.Input {
			data = append(data, map[string]any{"index": i, "embedding": []float64{1, float64(i)}})
		}
		out := map[string]any{"data": data}
		if billed > 0 {
			out["usage"] = map[string]any{"prompt_tokens": billed, "total_tokens": billed}
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// TestEmbeddingsRetryATransientFailure: a 503 then a 200 is retried by
// the model client's retry layer and metered as one call, with the
// tokens the endpoint's usage says.
func TestEmbeddingsRetryATransientFailure(t *testing.T) {
	srv, requests := flakyEmbeddings(t, 1, 7)
	e, err := NewEmbeddings(EmbeddingsConfig{BaseURL: srv.URL, Model: "embed-1", Sleep: noSleep})
	if err != nil {
		t.Fatal(err)
	}
	meter := &Meter{}
	emb := MeterEmbeddings(e, meter, nil, nil)
	vecs, err := emb.Embed(WithStep(context.Background(), 2), []string{"a", "b"})
	if err != nil || len(vecs) != 2 {
		t.Fatalf("Embed after a 503 = %v, %v; want it retried", vecs, err)
	}
	if got := requests.Load(); got != 2 {
		t.Errorf("the endpoint was asked %d times, want 2 (one 503, one retry)", got)
	}
	got := meter.ByAgentStep()[AgentStep{Agent: EmbeddingsAgent, Step: 2}]
	if got.Calls != 1 || got.PromptTokens != 7 || got.Errors != 0 || got.Estimated != 0 {
		t.Errorf("metered %+v, want 1 call of 7 billed tokens", got)
	}
}

// TestEmbeddingsMeteredWithoutUsage: an endpoint that says no usage has
// the texts sent counted offline, marked estimated; a refusal is an
// error call; MaxRetries < 0 does not retry.
func TestEmbeddingsMeteredWithoutUsage(t *testing.T) {
	srv, _ := flakyEmbeddings(t, 0, 0)
	e, _ := NewEmbeddings(EmbeddingsConfig{BaseURL: srv.URL, Model: "embed-1"})
	meter := &Meter{}
	texts := []string{"What is the total revenue?", "How much did we sell in all?"}
	if _, err := MeterEmbeddings(e, meter, nil, nil).Embed(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	want := tokens.Text("embed-1", texts[0]) + tokens.Text("embed-1", texts[1])
	got := meter.Snapshot()[EmbeddingsAgent]
	if got.Calls != 1 || got.PromptTokens != want || got.Estimated != 1 {
		t.Errorf("metered %+v, want 1 estimated call of %d tokens", got, want)
	}

	down, requests := flakyEmbeddings(t, 100, 7)
	e, _ = NewEmbeddings(EmbeddingsConfig{BaseURL: down.URL, Model: "embed-1", MaxRetries: -1})
	meter = &Meter{}
	if _, err := MeterEmbeddings(e, meter, nil, nil).Embed(context.Background(), texts); err == nil {
		t.Fatal("a 503 with no retries must fail")
	}
	if requests.Load() != 1 {
		t.Errorf("MaxRetries -1 asked %d times", requests.Load())
	}
	if got := meter.Snapshot()[EmbeddingsAgent]; got.Calls != 1 || got.Errors != 1 {
		t.Errorf("a failed call metered %+v", got)
	}
}
