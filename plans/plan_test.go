package plans

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanNeedsResolveToRunIndexes(t *testing.T) {
	tests := []struct {
		name     string
		plan     string
		finished []StepState
		want     [][]int
		ready    []int // step indexes ready at once
	}{{
		name:  "a plan without needs is a chain",
		plan:  `{"steps":[{"index":1,"description":"a"},{"index":2,"description":"b"},{"index":3,"description":"c"}]}`,
		want:  [][]int{nil, {1}, {2}},
		ready: []int{1},
	}, {
		name:  "three branches and a summary",
		plan:  `{"steps":[{"index":1,"description":"a","needs":[]},{"index":2,"description":"b","needs":[1]},{"index":3,"description":"c","needs":[]},{"index":4,"description":"d","needs":[3]},{"index":5,"description":"e"},{"index":6,"description":"f","needs":[2,4,5]}]}`,
		want:  [][]int{nil, {1}, nil, {3}, nil, {2, 4, 5}},
		ready: []int{1, 3, 5},
	}, {
		name:     "a replan numbers on and keeps needs on finished steps",
		plan:     `{"steps":[{"index":1,"description":"x","needs":[2]},{"index":2,"description":"y","needs":[1, 2, 9]}]}`,
		finished: []StepState{{Step: Step{Index: 1, Description: "old"}, Status: StatusDone}, {Step: Step{Index: 2, Description: "old2"}, Status: StatusDone}},
		// "2" is this plan's own step 2 (the step itself: dropped for x, since it is not earlier)
		want:  [][]int{nil, {3}},
		ready: []int{3},
	}, {
		name:     "a need on a finished step that the plan does not number",
		plan:     `{"steps":[{"index":5,"description":"x","needs":[1]},{"index":6,"description":"y","needs":[1]}]}`,
		finished: []StepState{{Step: Step{Index: 1, Description: "old"}, Status: StatusDone}},
		want:     [][]int{{1}, {1}},
		ready:    []int{2, 3},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Plan
			if err := json.Unmarshal([]byte(tt.plan), &p); err != nil {
				t.Fatal(err)
			}
			fp := &FullPlan{Steps: tt.finished}
			fp.SetRemaining(&p)
			var got [][]int
			for i, s := range fp.Steps[len(tt.finished):] {
				got = append(got, fp.NeedsOf(len(tt.finished)+i))
				if diff := cmp.Diff(s.Needs, fp.NeedsOf(len(tt.finished)+i)); diff != "" {
					t.Errorf("NeedsOf differs from Needs (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("needs (-want +got):\n%s", diff)
			}
			var ready []int
			for _, i := range fp.Ready() {
				ready = append(ready, fp.Steps[i].Index)
			}
			if diff := cmp.Diff(tt.ready, ready); diff != "" {
				t.Errorf("ready (-want +got):\n%s", diff)
			}
		})
	}
}

// A plan recorded before steps had needs (state.json of an older Sift)
// still runs one step after another.
func TestRecordedPlanWithoutNeedsIsAChain(t *testing.T) {
	var fp FullPlan
	if err := json.Unmarshal([]byte(`{"question":"q","steps":[{"index":1,"description":"a","status":"done"},{"index":2,"description":"b","status":"todo"},{"index":3,"description":"c","status":"todo"}]}`), &fp); err != nil {
		t.Fatal(err)
	}
	if got := fp.Ready(); len(got) != 1 || fp.Steps[got[0]].Index != 2 {
		t.Fatalf("ready = %v, want only step 2", got)
	}
	fp.Steps[1].Status = StatusDoing
	if got := fp.Ready(); len(got) != 0 {
		t.Fatalf("ready while step 2 runs = %v, want none", got)
	}
	if md := RenderPlanMarkdown(&fp); strings.Contains(md, "needs") {
		t.Errorf("an old plan's plan.md shows needs it never had:\n%s", md)
	}
}

func TestPlanMarkdownShowsNeedsAndRunningSteps(t *testing.T) {
	var p Plan
	if err := json.Unmarshal([]byte(`{"steps":[{"description":"a","needs":[]},{"description":"b","needs":[]},{"description":"c","needs":[1,2]}]}`), &p); err != nil {
		t.Fatal(err)
	}
	fp := &FullPlan{Question: "q"}
	fp.SetRemaining(&p)
	fp.Steps[0].Status, fp.Steps[1].Status = StatusDoing, StatusDoing
	md := RenderPlanMarkdown(fp)
	for _, want := range []string{
		"Running now, side by side: steps 1, 2.",
		"**1. a** — doing (needs no other step)",
		"**3. c** — todo (needs 1, 2)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("plan.md lacks %q:\n%s", want, md)
		}
	}
	// The needs survive state.json.
	b, _ := json.Marshal(fp)
	var back FullPlan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fp.Ready(), back.Ready()); diff != "" || !back.ExplicitNeeds {
		t.Errorf("needs lost through JSON (-want +got):\n%s", diff)
	}
}
