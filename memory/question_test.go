package memory

import "testing"

func TestNormalize(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Which region grew fastest?", "which  region grew FASTEST"},
		{" Total revenue, by month. ", "total revenue by month"},
		{"哪个地区增长最快？", "哪个地区增长最快"},
	}
	for _, tt := range tests {
		if Normalize(tt.a) != Normalize(tt.b) {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q; want the same", tt.a, Normalize(tt.a), tt.b, Normalize(tt.b))
		}
	}
	for _, pair := range [][2]string{
		{"Which region grew fastest?", "Which region grew slowest?"},
		{"revenue in $", "revenue in €"},
		{"What is the total revenue?", "How much revenue in total?"}, // a paraphrase
	} {
		if Normalize(pair[0]) == Normalize(pair[1]) {
			t.Errorf("%q and %q must differ", pair[0], pair[1])
		}
	}
}

func TestSimilarity(t *testing.T) {
	if s := Similarity("Which region grew fastest in 2024?", "which region grew fastest in 2023"); s < SimilarAt || s >= 1 {
		t.Errorf("near question: %.2f", s)
	}
	if s := Similarity("Which region grew fastest?", "Plot the monthly refunds"); s >= SimilarAt {
		t.Errorf("other question: %.2f", s)
	}
	if s := Similarity("", "x"); s != 0 {
		t.Errorf("empty: %.2f", s)
	}
}
