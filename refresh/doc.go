// Package refresh holds what a refresh of a finished analysis needs that
// is not running it: how the columns of the old data are found in the new
// (MapColumns by name and type, and WithModel to apply a model's mapping
// when that is not sure, refusing one to a column that is not there), how
// an old report's numbers are recomputed from the new outputs of the same
// cells and queries (Recompute), what changed (WhatChanged), the number
// check of the new report (Check), and the side-by-side diff of any two
// reports' numbers (Compare). Package agents runs the refresh
// (Sift.Refresh), asking the model for a mapping only when one is needed.
package refresh
