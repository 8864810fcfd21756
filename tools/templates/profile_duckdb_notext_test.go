package templates

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// TestProfileDuckDBWithoutTextColumns: the DuckDB engine profiles a table
// whose columns are a date and numbers only (us-employment.csv of the
// understanding evaluation failed: "'NoneType' object is not iterable").
func TestProfileDuckDBWithoutTextColumns(t *testing.T) {
	var b strings.Builder
	b.WriteString("month,nonfarm,construction\n")
	for m := 0; m < 24; m++ {
		fmt.Fprintf(&b, "%d-%02d-01,%d,%d\n", 2006+m/12, 1+m%12, 130000+m, 7000-m)
	}
	op := workspace(t, map[string][]byte{"jobs.csv": []byte(b.String())})
	m := MatchRequest("profile this dataset", []*preview.FilePreview{previewOf(t, op, "input/jobs.csv")})
	if !m.OK() {
		t.Fatalf("profile not matched: %v", m.Reasons)
	}
	for _, e := range []Engine{EnginePandas, EngineDuckDB} {
		res, err := RunWith(context.Background(), op, "input/jobs.csv", m, RunOptions{Engine: e})
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		if res.Table == nil || len(res.Table.Rows) != 3 {
			t.Errorf("%s: table %+v, want one row per column", e, res.Table)
		}
	}
}
