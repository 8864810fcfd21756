// Package refresh holds what a refresh of a finished analysis needs that
// is not running it: how the columns of the old data are found in the new
// (MapColumns), how an old report's numbers are recomputed from the new
// outputs of the same cells and queries (Recompute), what changed
// (WhatChanged), and the number check of the new report (Check). Package
// agents runs the refresh (Sift.Refresh) with no model.
package refresh
