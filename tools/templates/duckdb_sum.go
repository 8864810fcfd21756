package templates

import "fmt"

// Sums of doubles that are the same in every run. DuckDB adds a column's
// values in partial sums, one per thread, and combines them in whatever
// order the threads finish: the last bit of a sum of fractions (0.1 +
// 0.2 + ...) changes from run to run. exactSum adds integers instead,
// whose sum does not depend on the order: each value is split into its
// whole part and its fraction scaled by 2⁹⁶ (exact for every double from
// 2⁻⁴⁴ up, and within 2⁻⁹⁶ below), both summed as HUGEINTs, and the two
// totals made one double at the end. The result is the exact sum rounded
// to a double (twice at worst: the fraction's total, then the sum), as
// pandas' compensated sums nearly always give.

// exactSumScale is 2⁹⁶: the fraction of a value times it stays below
// 2⁹⁶, so 2³¹ rows sum within a HUGEINT's 2¹²⁷.
const exactSumScale = "79228162514264337593543950336"

// exactSumBound is 2⁶²: values at least this large (or infinite) are
// summed as doubles, in the order DuckDB picks.
const exactSumBound = "4611686018427387904.0"

// exactSum is the SQL of the sum of the double expression v, NULL when it
// has no values: exact (see above) when every value is below
// exactSumBound, else DuckDB's sum of doubles.
func exactSum(v string) string {
	small := "abs(" + v + ") < " + exactSumBound
	whole := "sum(CASE WHEN " + small + " THEN CAST(trunc(" + v + ") AS HUGEINT) END)"
	frac := "sum(CASE WHEN " + small + " THEN CAST((" + v + " - trunc(" + v + ")) * " + exactSumScale + ".0 AS HUGEINT) END)"
	// The fraction's whole units move to the whole part first, so that
	// the double of each is rounded once.
	carry := "(" + frac + " // " + exactSumScale + ")"
	return fmt.Sprintf("(CASE WHEN count_if(NOT (%[1]s)) > 0 THEN sum(%[2]s) ELSE CAST(%[3]s + %[4]s AS DOUBLE) + CAST(%[5]s - %[4]s * %[6]s AS DOUBLE) / %[6]s.0 END)",
		small, v, whole, carry, frac, exactSumScale)
}
