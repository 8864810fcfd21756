package templates

import (
	"context"
	"fmt"
	"math"
)

// Sums of doubles that are the same in every run. DuckDB adds a column's
// values in partial sums, one per thread, and combines them in whatever
// order the threads finish: a sum of fractions (0.1 + 0.2 + ...) changes
// in its last digits from run to run (TestExactSumSameEveryRun saw 13
// different sums of 2 million values in 25 runs; fsum, DuckDB's Kahan
// sum, 2). exactSum adds integers instead, whose sum does not depend on
// the order: each value is split into its whole part and its fraction
// scaled by 2⁶², each a BIGINT summed exactly, and the two totals made
// one double at the end. That is exact for every value of at least 2⁻¹⁰
// in size (whose fraction has no bits below 2⁻⁶²), and smaller values
// are rounded to a multiple of 2⁻⁶² first; the total is rounded to a
// double once for the fraction and once for the sum, which gives what
// pandas' compensated sums give on the built-ins' tests. It costs about
// 6 times DuckDB's own sum (BenchmarkSumMillion: 88 ms against 14 ms for
// a million values on 2 cores), small beside reading the values.

// exactSumScale is 2⁶²: a fraction times it is a BIGINT.
const exactSumScale = "4611686018427387904"

// exactSum is the SQL of the sum of the double expression v, NULL when it
// has no values: exact (see above) when every value's whole part is a
// BIGINT, else (a value past 2⁶³, or infinite) DuckDB's sum of doubles.
func exactSum(v string) string {
	whole := "TRY_CAST(trunc(" + v + ") AS BIGINT)"
	wholes := "sum(" + whole + ")"
	fracs := "sum(TRY_CAST((" + v + " - trunc(" + v + ")) * " + exactSumScale + ".0 AS BIGINT))"
	// The fractions' whole units move to the whole part; what is left,
	// below 2⁶², becomes a double as two halves of 31 bits, each exact,
	// so that it is rounded once.
	carry := "(" + fracs + " // " + exactSumScale + ")"
	rest := "(" + fracs + " - " + carry + " * " + exactSumScale + ")"
	high := "(" + rest + " // 2147483648)"
	low := "(" + rest + " - " + high + " * 2147483648)"
	return fmt.Sprintf("(CASE WHEN count(%s) < count(%s) THEN sum(%s) ELSE CAST(%s + %s AS DOUBLE) + (CAST(%s AS DOUBLE) / 2147483648.0 + CAST(%s AS DOUBLE) / %s.0) END)",
		whole, v, v, wholes, carry, high, low, exactSumScale)
}

// A column's mean and sample standard deviation are made exact and the
// same in every run the same way, as pandas computes them (nanops'
// nanvar, two passes): the mean is the exact sum over the count; the
// variance the exact sum of the squared deviations from that mean over
// the count less one. Each sum adds its values scaled by a power of two
// that brings the largest to just under 2⁶², an exact multiplication, so
// that no value is too small for exactSum's 2⁻⁶² (a column of values
// about 10⁻⁶, or the squared deviations of values close to their mean,
// lose no digits). The two sums take a scan of the values each, beside
// the scan that counts them (BenchmarkMeanStdMillion).

// scaleFor is the power of two that brings m, the largest magnitude of a
// sum's values, to below 2⁶¹; 1 for 0, NaN for an infinite or missing m
// (exactSum cannot add such values as integers).
func scaleFor(m float64) float64 {
	switch {
	case math.IsNaN(m) || math.IsInf(m, 0):
		return math.NaN()
	case m == 0:
		return 1
	}
	_, e := math.Frexp(m) // m < 2^e
	return math.Ldexp(1, max(-1000, min(1000, 61-e)))
}

// scaledSum is the exact sum of the double expression v over view, whose
// values are at most m in magnitude; NaN when it has none.
func (d *duckTable) scaledSum(ctx context.Context, v, view string, m float64) (float64, error) {
	s := scaleFor(m)
	q := "SELECT " + exactSum("("+v+") * "+double(s)) + " FROM " + view
	if math.IsNaN(s) {
		q, s = "SELECT sum("+v+") FROM "+view, 1
	}
	res, err := d.query(ctx, q)
	if err != nil {
		return 0, err
	}
	return toFloat(res[0][0]) / s, nil
}

// meanStd is the mean and sample standard deviation of v over d.view, of
// n values from lo to hi, exact and the same in every run (see above);
// NaN where pandas' are NaN (no values; one value for the deviation).
func (d *duckTable) meanStd(ctx context.Context, v string, n int64, lo, hi float64) (mean, std float64, err error) {
	if n == 0 {
		return math.NaN(), math.NaN(), nil
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		// pandas: an infinite mean, and no deviation.
		res, err := d.query(ctx, "SELECT sum("+v+") FROM "+d.view)
		if err != nil {
			return 0, 0, err
		}
		return toFloat(res[0][0]) / float64(n), math.NaN(), nil
	}
	total, err := d.scaledSum(ctx, v, d.view, math.Max(math.Abs(lo), math.Abs(hi)))
	if err != nil {
		return 0, 0, err
	}
	mean = total / float64(n)
	if n < 2 {
		return mean, math.NaN(), nil
	}
	dev := "((" + v + ") - " + double(mean) + ")"
	far := math.Max((hi-mean)*(hi-mean), (lo-mean)*(lo-mean))
	squares, err := d.scaledSum(ctx, dev+" * "+dev, d.view, far)
	if err != nil {
		return 0, 0, err
	}
	return mean, math.Sqrt(squares / float64(n-1)), nil
}

// wholeSum is exactSum of a double expression v whose values are whole
// numbers (a column of integers made doubles): their fractions are all
// zero, so exactSum's sum of the fractions, a third of its work, adds
// nothing, and this is the same double without it.
func wholeSum(v string) string {
	whole := "TRY_CAST(trunc(" + v + ") AS BIGINT)"
	return fmt.Sprintf("(CASE WHEN count(%s) < count(%s) THEN sum(%s) ELSE CAST(sum(%s) AS DOUBLE) END)", whole, v, v, whole)
}
