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
