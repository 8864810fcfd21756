// Package vec holds what Sift computes on embedding vectors, in one place
// for the memory's similar questions and the schema search's tables.
package vec

import "math"

// Cosine is the cosine similarity of a and b; 0 when either is zero or
// their lengths differ.
func Cosine(a, b []float64) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
