package plans

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlanDecodesAsModelsWrite: numbers as strings, one value or "1, 2"
// for a list, null for nothing, a list inside a string.
func TestPlanDecodesAsModelsWrite(t *testing.T) {
	tests := []struct {
		in   string
		want []Step
	}{
		{`{"steps":[{"index":"2","description":"a","needs":"1"}]}`, []Step{{Index: 2, Description: "a", Needs: []int{1}}}},
		{`{"steps":[{"index":"3","description":"a","needs":"1, 2"}]}`, []Step{{Index: 3, Description: "a", Needs: []int{1, 2}}}},
		{`{"steps":[{"index":1,"description":"a","needs":null}]}`, []Step{{Index: 1, Description: "a"}}},
		{`{"steps":[{"index":"step 4","description":"a","needs":2}]}`, []Step{{Index: 4, Description: "a", Needs: []int{2}}}},
		{`{"steps":[{"index":1.0,"description":"a","needs":["1"]}]}`, []Step{{Index: 1, Description: "a", Needs: []int{1}}}},
		{`{"steps":"[{\"index\": 1, \"description\": \"a\"}]"}`, []Step{{Index: 1, Description: "a"}}},
		{`{"steps":{"index":1,"description":"a"}}`, []Step{{Index: 1, Description: "a"}}},
		{`{"steps":[{"index":"","description":"a","depends_on":"1"}]}`, []Step{{Description: "a", Needs: []int{1}}}},
	}
	for _, tt := range tests {
		var p Plan
		if err := json.Unmarshal([]byte(tt.in), &p); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, p.Steps); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
	}
	// What has no clear meaning is refused, saying where.
	for in, want := range map[string]string{
		`{"steps":[{"index":"two","description":"a"}]}`:            `index: "two" is not a number`,
		`{"steps":[{"index":1,"description":"a","needs":"none"}]}`: `needs: "none" is not a number`,
		`{"steps":[{"index":1.5,"description":"a"}]}`:              "not a whole number",
	} {
		var p Plan
		if err := json.Unmarshal([]byte(in), &p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", in, err, want)
		}
	}
}

func TestSubmitResultDecodesAsModelsWrite(t *testing.T) {
	var r SubmitResult
	if err := json.Unmarshal([]byte(`{"answer":"a","findings":"one","files":"out/x.csv","next_questions":null}`), &r); err != nil {
		t.Fatal(err)
	}
	want := SubmitResult{Answer: "a", Findings: []string{"one"}, Files: []string{"out/x.csv"}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
