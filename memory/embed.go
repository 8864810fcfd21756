package memory

import (
	"context"
	"fmt"
	"slices"

	"github.com/sift-agent/sift/internal/vec"
)

// Embedder turns texts into vectors, one per text in order: an
// OpenAI-compatible embeddings endpoint (llm.Embeddings), when one is
// configured. Without one, questions are compared lexically (Similarity).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// SimilarEmbeddedAt is the least cosine similarity of two questions'
// embeddings at which an earlier answer is suggested.
const SimilarEmbeddedAt = 0.85

// SimilarEmbedded is Similar with the questions compared by their
// embeddings (cosine similarity at least SimilarEmbeddedAt), so a
// paraphrase is found too: still a suggestion to show, never an answer
// to give. It makes one call to emb.
func SimilarEmbedded(ctx context.Context, emb Embedder, entries []Entry, question string, sources Sources, settings Settings) (Entry, bool, error) {
	ids, key, q := sources.IDs(), settings.Key(), Normalize(question)
	var cands []Entry
	for _, e := range entries {
		if e.Kind == KindAnswer && e.Settings == key && slices.Equal(e.Sources, ids) && Normalize(e.Question) != q {
			cands = append(cands, e)
		}
	}
	if len(cands) == 0 {
		return Entry{}, false, nil
	}
	texts := []string{question}
	for _, c := range cands {
		texts = append(texts, c.Question)
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return Entry{}, false, err
	}
	if len(vecs) != len(texts) {
		return Entry{}, false, fmt.Errorf("embeddings: %d vectors for %d texts", len(vecs), len(texts))
	}
	best, score := Entry{}, 0.0
	for i, c := range cands {
		if s := vec.Cosine(vecs[0], vecs[i+1]); s >= SimilarEmbeddedAt && s > score {
			best, score = c, s
		}
	}
	return best, score > 0, nil
}
