package templates

import "fmt"

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

// wholeSum is exactSum of a double expression v whose values are whole
// numbers (a column of integers made doubles): their fractions are all
// zero, so exactSum's sum of the fractions, a third of its work, adds
// nothing, and this is the same double without it.
func wholeSum(v string) string {
	whole := "TRY_CAST(trunc(" + v + ") AS BIGINT)"
	return fmt.Sprintf("(CASE WHEN count(%s) < count(%s) THEN sum(%s) ELSE CAST(sum(%s) AS DOUBLE) END)", whole, v, v, whole)
}
