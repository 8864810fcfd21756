package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// The classes of wrong answers a review of the reading parser found by
// asking it as a demanding user would, each tested on tables of its own.
// A want of nil is a refusal (runNovelCases).

// reviewTables are a daily table of wind by weather and a table of one
// row per state.
func reviewTables(t *testing.T) (daily, states *preview.FilePreview) {
	var db strings.Builder
	db.WriteString("date,wind,weather\n")
	for d := 0; d < 60; d++ {
		fmt.Fprintf(&db, "2021-%02d-%02d,%d.5,%s\n", 1+d/28, 1+d%28, d%9, []string{"rain", "sun", "fog"}[d%3])
	}
	daily = previewFile(t, "weather.csv", []byte(db.String()))
	var sb strings.Builder
	sb.WriteString("state,poverty\n")
	for i, s := range []string{"Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado"} {
		fmt.Fprintf(&sb, "%s,%d.5\n", s, 10+i)
	}
	states = previewFile(t, "states.csv", []byte(sb.String()))
	return
}

// TestReviewDistributionPerGroupIsRefused: "histogram of wind by weather"
// was answered with one distribution of all the wind values under a first
// line saying "per weather"; the distribution never splits by a category,
// so a distribution per group is refused. Groups of one row each (a state
// in a table of states) are still the values distributed.
func TestReviewDistributionPerGroupIsRefused(t *testing.T) {
	daily, states := reviewTables(t)
	wind := &Reading{Analysis: Distribution, Measures: []Measure{{"wind", ""}}, Columns: []string{"wind"}}
	runNovelCases(t, []novelCase{
		{daily, "histogram of wind by weather", nil},
		{daily, "distribution of wind per weather", nil},
		{daily, "各天气的风速分布", nil},
		{daily, "histogram of wind", wind},
		{daily, "风速的分布", wind},
		{states, "distribution of poverty across states", &Reading{Analysis: Distribution, Measures: []Measure{{"poverty", ""}}, Columns: []string{"poverty"}}},
	})
}
