package understanding

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/preview"
)

// TestKeptValuesWritesAnExclusionAsTheValuesLeft: "excluding Japan" is
// compared as the expected readings write it (Origin = Europe, USA), but
// not on a column with a missing value, where the two keep different rows.
func TestKeptValuesWritesAnExclusionAsTheValuesLeft(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cars.csv")
	if err := os.WriteFile(p, []byte("origin,maker,mpg\nUSA,Ford,20\nJapan,Honda,30\nEurope,VW,25\nUSA,,18\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fp, err := preview.File(context.Background(), p, preview.Options{BaseDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r := Reading{Filters: []Filter{{Column: "origin", Op: "!=", Values: []string{"Japan"}}, {Column: "maker", Op: "!=", Values: []string{"VW"}}}}
	got := keptValues(r, fp).Filters
	want := []Filter{{Column: "origin", Op: "=", Values: []string{"Europe", "USA"}}, {Column: "maker", Op: "!=", Values: []string{"VW"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("filters (-want +got):\n%s", diff)
	}
	if r.Filters[0].Op != "!=" {
		t.Errorf("keptValues changed the reading it was given: %+v", r.Filters)
	}
}
