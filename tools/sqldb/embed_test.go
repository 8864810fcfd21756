package sqldb

import (
	"context"
	"strings"
	"testing"
)

// closeTo is an Embedder that puts the request and the tables whose
// description starts with one of prefixes at one point, every other
// table at another.
type closeTo struct {
	request  string
	prefixes []string
	calls    int
}

func (c *closeTo) Embed(_ context.Context, texts []string) ([][]float64, error) {
	c.calls++
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = []float64{0, 1}
		if t == c.request {
			out[i] = []float64{1, 0}
		}
		for _, p := range c.prefixes {
			if strings.HasPrefix(t, p) {
				out[i] = []float64{0.98, 0.2}
			}
		}
	}
	return out, nil
}

func TestContextRanksTablesByMeaningWithAnEmbedder(t *testing.T) {
	path := newWideDB(t)
	s, err := Open(context.Background(), "sqlite:"+path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// No word of it names the table that holds the answer.
	const request = "Where does the money come from?"
	described := func(text string) bool { return strings.Contains(text, "table order_items (") }
	plain, err := s.Context(context.Background(), request, 1500)
	if err != nil {
		t.Fatal(err)
	}
	if described(plain) {
		t.Fatalf("the words alone must miss order_items for this request:\n%s", plain)
	}
	emb := &closeTo{request: request, prefixes: []string{"table order_items ("}}
	text, err := s.Context(WithEmbedder(context.Background(), emb), request, 1500)
	if err != nil {
		t.Fatal(err)
	}
	if !described(text) || emb.calls != 1 {
		t.Errorf("with embeddings order_items must be described (%d calls):\n%s", emb.calls, text)
	}
	// A schema that fits is shown whole, with no call.
	small, _, _ := openShop(t, Options{})
	if _, err := small.Context(WithEmbedder(context.Background(), emb), request, 0); err != nil || emb.calls != 1 {
		t.Errorf("a schema that fits must not be embedded: %d calls, %v", emb.calls, err)
	}
}
