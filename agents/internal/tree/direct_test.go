package tree

import "testing"

// TestBuiltInStepsRead checks which step descriptions run a built-in
// analysis, and with what arguments.
func TestBuiltInStepsRead(t *testing.T) {
	for _, tt := range []struct{ desc, want string }{
		{"Run the built-in topn analysis on input/sales.csv: top 2 regions by revenue", `{"template":"topn","file":"input/sales.csv","request":"top 2 regions by revenue"}`},
		{"run the built-in Trend analysis on input/sales.csv.", `{"template":"trend","file":"input/sales.csv","request":"How did sales go?"}`},
		{"Run the built-in trend analysis on input/sales.csv", `{"template":"trend","file":"input/sales.csv","request":"How did sales go?"}`},
		{"Run the built-in magic analysis on input/sales.csv", ""},
		{"Total revenue by region to out/by_region.csv", ""},
		{"First run the built-in topn analysis on input/sales.csv, then chart it", ""},
	} {
		got, ok := builtInStep(tt.desc, "How did sales go?")
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("builtInStep(%q) = %s, %v; want %s", tt.desc, got, ok, tt.want)
		}
	}
}
