package chat

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/plans"
)

func TestEditStepsChangesTheExistingSteps(t *testing.T) {
	// A follow-up's plan: step 1 was finished by an earlier question, 2-4
	// are new and editable.
	plan := &plans.FullPlan{Question: "q", Steps: []plans.StepState{{Step: plans.Step{Index: 1, Description: "Load"}, Status: plans.StatusDone}}}
	plan.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Sum"}, {Description: "Chart"}, {Description: "Table"}}})
	tests := []struct {
		name, input string
		want        []string
		wantHint    string
	}{
		{name: "rewrite one", input: "3: Chart by month\n\n", want: []string{"Sum", "Chart by month", "Table"}},
		{name: "drop one", input: "drop 2\n\n", want: []string{"Chart", "Table"}},
		{name: "add after one", input: "add after 2: Clean\n\n", want: []string{"Sum", "Clean", "Chart", "Table"}},
		{name: "add first, after the finished step", input: "add after 1: Check\n\n", want: []string{"Check", "Sum", "Chart", "Table"}},
		{name: "add last", input: "add: Export\n\n", want: []string{"Sum", "Chart", "Table", "Export"}},
		{name: "numbers follow the list as last shown", input: "drop 2\n2: Chart by month\n\n", want: []string{"Chart by month", "Table"}},
		{name: "a finished step cannot be changed", input: "1: Reload\n4. Final table\n\n", want: []string{"Sum", "Chart", "Final table"}, wantHint: "there is no step 1 to change: give a number from 2 to 4"},
		{name: "not a command", input: "make it faster\ndrop 4\n\n", want: []string{"Sum", "Chart"}, wantHint: `"make it faster" is not an edit command`},
		{name: "cancel", input: "drop 2\ncancel\n", wantHint: "The plan is as it was."},
		{name: "no change", input: "\n", wantHint: "No change"},
		{name: "nothing left", input: "drop 2\ndrop 2\ndrop 2\n\n", wantHint: "No step left to run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prompts, hints bytes.Buffer
			got, err := editSteps(newPlainLines(strings.NewReader(tt.input), &prompts), &hints, plan)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("steps (-want +got):\n%s\nhints:\n%s", diff, hints.String())
			}
			if !strings.Contains(hints.String(), tt.wantHint) {
				t.Errorf("hints lack %q:\n%s", tt.wantHint, hints.String())
			}
			if !strings.Contains(hints.String(), "  2. Sum\n  3. Chart\n  4. Table\n") {
				t.Errorf("the steps to edit must be shown with their numbers:\n%s", hints.String())
			}
		})
	}
}
