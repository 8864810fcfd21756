package templates

import (
	"context"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// TestAnswerStartsWithTheReading checks that a built-in's answer says
// first what was computed, in the request's language: the reading's Text
// is the answer's first line, on the pandas cells and on the reading
// engine alone (a filtered reading), for an aggregate and for outliers.
func TestAnswerStartsWithTheReading(t *testing.T) {
	data := weatherCSV()
	op := workspace(t, map[string][]byte{"seattle-weather.csv": data})
	fp := previewFile(t, "seattle-weather.csv", data)
	for _, q := range []string{"average wind per month", "total precipitation in 2014 by month", "outliers in wind", "每年的平均最高气温"} {
		t.Run(q, func(t *testing.T) {
			m := MatchRequest(q, []*preview.FilePreview{fp})
			if !m.OK() {
				t.Fatalf("refused: %s", m.AbsentNote())
			}
			res, err := RunWith(context.Background(), op, "input/seattle-weather.csv", m, RunOptions{Lang: LangOf(q)})
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(res.Answer, "\n")
			if want := m.Reading.Text(LangOf(q)); want == "" || first != want {
				t.Errorf("answer's first line %q, want the reading %q", first, want)
			}
			if md := res.Markdown(); !strings.HasPrefix(md, m.Reading.Text(LangOf(q))) {
				t.Errorf("markdown does not start with the reading:\n%s", md)
			}
		})
	}
}
