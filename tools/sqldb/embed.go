package sqldb

import (
	"context"
	"fmt"
	"slices"

	"github.com/sift-agent/sift/internal/vec"
)

// Embedder turns texts into vectors, one per text in order: an
// OpenAI-compatible embeddings endpoint (llm.Embeddings). With one on the
// context (WithEmbedder), a schema too large to show whole ranks its
// tables by meaning too, not only by the words they share with the
// request.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

type embedderKey struct{}

// WithEmbedder returns ctx whose schema contexts (Source.Context) rank
// tables by emb too.
func WithEmbedder(ctx context.Context, emb Embedder) context.Context {
	if emb == nil {
		return ctx
	}
	return context.WithValue(ctx, embedderKey{}, emb)
}

func embedderOf(ctx context.Context) Embedder {
	emb, _ := ctx.Value(embedderKey{}).(Embedder)
	return emb
}

// meaningWeight is what the table closest in meaning to the request adds
// to its words' score (a table matching one rare word scores about 1).
const meaningWeight = 2.0

// meaningScores are each table's closeness in meaning to the request,
// from one embeddings call over the request and each table's short
// description: the closest table scores meaningWeight, those in the lower
// half of the range 0.
func meaningScores(ctx context.Context, emb Embedder, sc *Schema, request string) ([]float64, error) {
	texts := []string{request}
	for _, t := range sc.Tables {
		texts = append(texts, renderTable(t, true))
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embeddings: %d vectors for %d texts", len(vecs), len(texts))
	}
	cos := make([]float64, len(sc.Tables))
	for i := range sc.Tables {
		cos[i] = vec.Cosine(vecs[0], vecs[i+1])
	}
	lo, hi := slices.Min(cos), slices.Max(cos)
	out := make([]float64, len(cos))
	if hi-lo < 1e-9 {
		return out, nil
	}
	for i, c := range cos {
		if n := (c - lo) / (hi - lo); n >= 0.5 {
			out[i] = meaningWeight * n
		}
	}
	return out, nil
}

// fits reports whether the whole schema fits in budget tokens, as
// renderContext counts them.
func fits(name string, sc *Schema, budget int) bool {
	total := EstimateTokens(fmt.Sprintf("Database %q (%s), %d tables.\n", name, sc.Dialect, len(sc.Tables)))
	for _, t := range sc.Tables {
		total += EstimateTokens(renderTable(t, false)) + 1
		if total > budget {
			return false
		}
	}
	return true
}
