package memory

import (
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/llm/tokens"
)

func TestExamplesStayWithTheirDataAndAreBounded(t *testing.T) {
	a, b := Source{ID: "a"}, Source{ID: "b"}
	monthly := NewExample(LanguagePython, "Sum the revenue by month", "df.groupby('month')['revenue'].sum()", Sources{a}, "s1", day)
	region := NewExample(LanguagePython, "Revenue by region", "df.groupby('region')['revenue'].sum()", Sources{a}, "s2", day.Add(time.Hour))
	other := NewExample(LanguagePython, "Sum the revenue by month", "x", Sources{b}, "s3", day)
	fact := NewFact(OriginQuestion, "Fiscal year?", "April", Sources{a}, "s1", day)
	all := []Entry{region, monthly, other, fact}

	text, shown := Examples(all, LanguagePython, Sources{a}, "What is the revenue by month?", "", ExampleTokens)
	if len(shown) != 2 || shown[0].ID != monthly.ID || shown[1].ID != region.ID {
		t.Fatalf("shown %+v; want the monthly example first (most like the question), then the region one, not other data's", shown)
	}
	if !strings.Contains(text, "Step \"Sum the revenue by month\" (session s1, 2026-11-30; memory entry "+monthly.ID+"):\n```python\ndf.groupby('month')['revenue'].sum()\n```") {
		t.Errorf("rendered:\n%s", text)
	}
	if _, shown := Examples(all, LanguagePython, Sources{a}, "q", "s1", ExampleTokens); len(shown) != 1 || shown[0].ID != region.ID {
		t.Errorf("a session's own examples are left out: %+v", shown)
	}
	if text, shown := Examples(all, LanguagePython, Sources{}, "q", "", ExampleTokens); text != "" || len(shown) != 0 {
		t.Errorf("no data, no examples: %q", text)
	}
	if NewExample(LanguagePython, "sum the revenue by month.", "y", Sources{a}, "s9", day).ID != monthly.ID {
		t.Error("the same task on the same data must replace the older example")
	}
	if err := ValidateID(monthly.ID); err != nil {
		t.Error(err)
	}

	var many []Entry
	for i := range 40 {
		many = append(many, NewExample(LanguagePython, "step "+string(rune('a'+i%26))+string(rune('a'+i/26)), strings.Repeat("x = 1\n", 40), Sources{a}, "s1", day))
	}
	text, shown = Examples(many, LanguagePython, Sources{a}, "q", "", ExampleTokens)
	if n := tokens.Text("", text); n > ExampleTokens || len(shown) == 0 || len(shown) == len(many) {
		t.Errorf("%d tokens for %d of %d examples; want at most %d", n, len(shown), len(many), ExampleTokens)
	}
}
