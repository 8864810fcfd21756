package templates

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sift-agent/sift/preview"
)

// TestUnderstandRateOfAColumn: "X rate" names column X when X's values
// are fractions, and the rate is averaged, never summed; a column of
// whole counts is no rate. A file named for a column and its subject
// (countyhealth: county, health) lets the subject go unsaid.
func TestUnderstandRateOfAColumn(t *testing.T) {
	health := previewFile(t, "countyhealth.csv", []byte("county,obesity,smoking,deaths\nAdams,31.2,17.5,120\nBrown,28.4,15.1,340\nClark,35.9,21.3,95\nDane,25.1,12.8,410\n"))
	cn := previewFile(t, "县.csv", []byte("县,肥胖,死亡人数\n甲,31.2,120\n乙,28.4,340\n丙,35.9,95\n丁,25.1,410\n"))
	tests := []struct {
		file    *preview.FilePreview
		request string
		want    *Reading
	}{
		{health, "top 3 counties by obesity rate", &Reading{Analysis: TopN, Measures: []Measure{{"obesity", "mean"}}, GroupBy: []string{"county"}, Order: "desc", N: 3}},
		{health, "distribution of smoking rates", &Reading{Analysis: Distribution, Measures: []Measure{{Column: "smoking"}}, Columns: []string{"smoking"}}},
		{health, "profile the county health table", &Reading{Analysis: Profile}},
		{health, "counties with the highest death rate", nil},
		{cn, "肥胖率最高的3个县", &Reading{Analysis: TopN, Measures: []Measure{{"肥胖", "mean"}}, GroupBy: []string{"县"}, Order: "desc", N: 3}},
		{cn, "死亡率最高的县", nil},
	}
	opts := []cmp.Option{cmpopts.IgnoreFields(Reading{}, "File", "Span", "ByMean", "YearTime", "Unplaced"), cmpopts.EquateEmpty()}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, ok, why := Understand(tt.request, []*preview.FilePreview{tt.file})
			if tt.want == nil {
				if ok {
					t.Fatalf("answered %+v (%s); want a refusal", r, r.Text(LangOf(tt.request)))
				}
				return
			}
			if !ok {
				t.Fatalf("refused: %s (reading %+v)", why, r)
			}
			if diff := cmp.Diff(*tt.want, r, opts...); diff != "" {
				t.Errorf("reading (-want +got):\n%s", diff)
			}
			if tt.want.Analysis == TopN && len(r.ByMean) == 0 {
				t.Errorf("a rate is ranked by its mean, and the reading says so: ByMean empty")
			}
		})
	}
}
