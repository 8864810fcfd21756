package agents

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/memory"
)

// TestSimilarQuestionByEmbeddings: with an embeddings endpoint (the real
// client against a scripted server), a paraphrase of a question answered
// on the same data, which shares too few words to be found lexically, is
// suggested, and computed all the same.
func TestSimilarQuestionByEmbeddings(t *testing.T) {
	const asked, paraphrase = "What is the total revenue?", "How much did we sell in all?"
	vecs := map[string][]float64{asked: {1, 0.05, 0}, paraphrase: {0.95, 0.1, 0}}
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		var req struct {
			Input []string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		var data []map[string]any
		for i, in := range req.Input {
			v, ok := vecs[in]
			if !ok {
				http.Error(w, "no vector for "+in, http.StatusBadRequest)
				return
			}
			data = append(data, map[string]any{"index": i, "embedding": v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	defer srv.Close()
	emb, err := llm.NewEmbeddings(llm.EmbeddingsConfig{BaseURL: srv.URL, Model: "embed-1"})
	if err != nil {
		t.Fatal(err)
	}
	if memory.Similarity(asked, paraphrase) >= memory.SimilarAt {
		t.Fatal("the paraphrase must be one the lexical similarity misses")
	}
	script := scripted.New()
	s, err := New(Config{Models: Models{Default: script.Model(), Names: map[string]string{"default": "m1"}}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	csv := salesCSV(t)
	script.Push(computed("250")...)
	drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: asked, Files: []string{csv}}))
	script.Push(computed("250")...)
	before := script.Calls()
	evs := drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: paraphrase, Files: []string{csv}}))
	if script.Calls() == before {
		t.Error("a similar question must be computed, not answered from memory")
	}
	said := strings.Join(messagesOf(evs, MemoryAgent), "\n")
	if !strings.Contains(said, "A similar question was answered on the same data") || !strings.Contains(said, asked) {
		t.Errorf("the paraphrase must be suggested: %q", said)
	}
	if calls == 0 {
		t.Error("the embeddings endpoint was not asked")
	}
}

// TestEmbeddingsInTheUsage: the embeddings calls of a run (the similar
// question's lookup, against a scripted endpoint that first answers 503)
// are retried and appear in its usage as the provider billed them, under
// their own agent: usage.json, the report's usage section, the
// trajectory's session usage.
func TestEmbeddingsInTheUsage(t *testing.T) {
	const asked, paraphrase = "What is the total revenue?", "How much did we sell in all?"
	vecs := map[string][]float64{asked: {1, 0.05, 0}, paraphrase: {0.95, 0.1, 0}}
	var requests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		if requests == 1 {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		var req struct {
			Input []string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		var data []map[string]any
		for i, in := range req.Input {
			data = append(data, map[string]any{"index": i, "embedding": vecs[in]})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data, "usage": map[string]any{"prompt_tokens": 13, "total_tokens": 13}})
	}))
	defer srv.Close()
	emb, err := llm.NewEmbeddings(llm.EmbeddingsConfig{BaseURL: srv.URL, Model: "embed-1", Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	script := scripted.New()
	s, err := New(Config{Models: Models{Default: script.Model(), Names: map[string]string{"default": "m1"}}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	csv := salesCSV(t)
	script.Push(computed("250")...)
	drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: asked, Files: []string{csv}}))
	if requests != 0 {
		t.Fatalf("the first question has nothing to compare with, yet the endpoint was asked %d times", requests)
	}
	script.Push(computed("250")...)
	before := script.Calls()
	evs := drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: paraphrase, Files: []string{csv}}))
	done := evs[len(evs)-1]
	if done.Err != nil || done.Usage == nil {
		t.Fatalf("the run: %v, usage %v", done.Err, done.Usage)
	}
	if requests != 2 {
		t.Errorf("the endpoint was asked %d times, want 2 (a 503, then its retry)", requests)
	}
	modelCalls := script.Calls() - before
	var file struct {
		Calls    int `json:"calls"`
		PerAgent map[string]struct {
			Calls        int `json:"calls"`
			PromptTokens int `json:"prompt_tokens"`
		} `json:"per_agent"`
	}
	if err := json.Unmarshal([]byte(readWS(t, done, "usage.json")), &file); err != nil {
		t.Fatal(err)
	}
	if e := file.PerAgent[llm.EmbeddingsAgent]; e.Calls != 1 || e.PromptTokens != 13 {
		t.Errorf("usage.json's embeddings: %+v, want 1 call of 13 tokens; all: %+v", e, file.PerAgent)
	}
	if file.Calls != modelCalls+1 {
		t.Errorf("usage.json counts %d calls, want the %d model calls and the embeddings call", file.Calls, modelCalls)
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "| embeddings | 1 | 13 |") {
		t.Errorf("the report's usage must list the embeddings call:\n%s", r)
	}
	su, err := SessionUsage(done.Path)
	if err != nil {
		t.Fatal(err)
	}
	if e := su.PerAgent[llm.EmbeddingsAgent]; e == nil || e.Calls != 1 || e.PromptTokens != 13 {
		t.Errorf("the session's usage (trajectory) has embeddings %+v, want 1 call of 13 tokens", e)
	}
}
