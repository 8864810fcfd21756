package vec

import (
	"math"
	"testing"
)

func TestCosine(t *testing.T) {
	for _, tt := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 0}, []float64{1, 0}, 1},
		{[]float64{1, 0}, []float64{0, 2}, 0},
		{[]float64{1, 1}, []float64{-1, -1}, -1},
		{[]float64{3, 4}, []float64{4, 3}, 24.0 / 25},
		{[]float64{0, 0}, []float64{1, 1}, 0},
		{[]float64{1}, []float64{1, 1}, 0},
	} {
		if got := Cosine(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Cosine(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
