package agents

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/templates"
)

// A request the built-ins read only in part reaches the planner with the
// partial reading and the words they could not place, kept short.
func TestTemplateHintCarriesThePartialReading(t *testing.T) {
	weather := &preview.FilePreview{Path: "input/w.csv", Name: "input/w.csv", Kind: preview.KindCSV,
		Sheets: []preview.SheetPreview{{Name: "w", Columns: []preview.Column{{Name: "date", Type: "date"}, {Name: "temp_max", Type: "float"}, {Name: "wind", Type: "float"}}}}}
	m := templates.MatchRequest("average humidity by month", []*preview.FilePreview{weather})
	if m.OK() {
		t.Fatalf("matched %s: there is no humidity column", m.Template)
	}
	hint := templateHint(m)
	for _, want := range []string{"humidity", "per month", "hint"} {
		if !strings.Contains(hint, want) {
			t.Errorf("hint %q lacks %q", hint, want)
		}
	}
	if n := len([]rune(hint)); n > 400 {
		t.Errorf("hint is %d characters long", n)
	}
	if h := templateHint(templates.Match{}); h != "" {
		t.Errorf("hint %q for a request not parsed", h)
	}
}
