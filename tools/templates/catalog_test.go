package templates

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sift-agent/sift/preview"
)

func TestCatalogIsComplete(t *testing.T) {
	want := []string{Cohort, ComparePeriods, Correlation, Distribution, Funnel, Outliers, Pivot, Profile, TopN, Trend}
	if diff := cmp.Diff(want, Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	for _, tpl := range Catalog() {
		if tpl.Title == "" || tpl.Description == "" || tpl.Example == "" || len(tpl.Params) == 0 {
			t.Errorf("%s: incomplete entry %+v", tpl.Name, tpl)
		}
		src, err := cellSource(tpl)
		if err != nil {
			t.Fatalf("%s: %v", tpl.Name, err)
		}
		if !strings.Contains(src, "run_template(main)") || !strings.Contains(src, "def load()") {
			t.Errorf("%s: cell lacks the prelude or the run_template(main) call", tpl.Name)
		}
		// The example phrase routes to its own template.
		if m := MatchRequest(tpl.Example, exampleFiles(tpl.Name)); m.Template != tpl.Name {
			t.Errorf("example %q matched %q (%v), want %s", tpl.Example, m.Template, m.Reasons, tpl.Name)
		}
	}
	c := Catalog()
	c[0].Name = "changed"
	if Catalog()[0].Name == "changed" {
		t.Error("Catalog returned its own slice")
	}
}

// exampleFiles is a preview a catalog example can run on.
func exampleFiles(name string) []*preview.FilePreview {
	switch name {
	case Correlation:
		return []*preview.FilePreview{previewSheet("input/m.csv", "price:float", "quantity:float")}
	case Distribution, Outliers:
		return []*preview.FilePreview{previewSheet("input/o.csv", "order_value:float", "amount:float")}
	case Cohort:
		return []*preview.FilePreview{visitsPreview}
	case Funnel:
		return []*preview.FilePreview{eventsPreview}
	}
	return []*preview.FilePreview{salesPreview}
}

func TestLookup(t *testing.T) {
	for in, want := range map[string]string{"trend": Trend, " TopN ": TopN, "top-n": TopN, "group by": TopN, "yoy": ComparePeriods, "compare-periods": ComparePeriods, "retention": Cohort} {
		got, err := Lookup(in)
		if err != nil || got.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, got.Name, err, want)
		}
	}
	if _, err := Lookup("forecast"); !errors.Is(err, ErrUnknownTemplate) || !strings.Contains(err.Error(), "cohort") {
		t.Errorf("Lookup(forecast) = %v, want ErrUnknownTemplate listing the names", err)
	}
}

func TestCatalogText(t *testing.T) {
	text := CatalogText()
	if n := strings.Count(text, "\n") + 1; n != len(Catalog()) {
		t.Errorf("%d lines, want one per template (%d)", n, len(Catalog()))
	}
	if !strings.HasPrefix(text, "- profile: ") {
		t.Errorf("text starts %q", text[:min(40, len(text))])
	}
}
