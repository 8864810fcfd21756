package memory

import (
	"context"
	"errors"
	"testing"
)

// vectors is an Embedder from a table.
type vectors map[string][]float64

func (v vectors) Embed(_ context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i, t := range texts {
		vec, ok := v[t]
		if !ok {
			return nil, errors.New("no vector for " + t)
		}
		out[i] = vec
	}
	return out, nil
}

func TestSimilarEmbeddedFindsAParaphrase(t *testing.T) {
	s := Sources{{ID: "a", Content: "1"}}
	set := Settings{Route: "auto"}
	e := NewAnswer("What is the total revenue?", "250", "", s, set, "s1", day)
	emb := vectors{
		"How much did we sell in all?": {0.9, 0.1, 0},
		"What is the total revenue?":   {1, 0, 0},
		"Plot the refunds by month":    {0, 0, 1},
	}
	if Similarity("How much did we sell in all?", e.Question) >= SimilarAt {
		t.Fatal("the paraphrase must be one the lexical similarity misses")
	}
	got, ok, err := SimilarEmbedded(context.Background(), emb, []Entry{e}, "How much did we sell in all?", s, set)
	if err != nil || !ok || got.ID != e.ID {
		t.Errorf("paraphrase: %v %v %v", got.ID, ok, err)
	}
	if _, ok, _ := SimilarEmbedded(context.Background(), emb, []Entry{e}, "Plot the refunds by month", s, set); ok {
		t.Error("another question must not be suggested")
	}
	if _, ok, _ := SimilarEmbedded(context.Background(), emb, []Entry{e}, "How much did we sell in all?", Sources{{ID: "b", Content: "2"}}, set); ok {
		t.Error("other data must not be suggested")
	}
	if _, _, err := SimilarEmbedded(context.Background(), vectors{}, []Entry{e}, "x", s, set); err == nil {
		t.Error("an embedder's failure must be said")
	}
}
