package chat

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
)

func TestReviewPlanReadsTheDecision(t *testing.T) {
	tests := []struct {
		name, input string
		want        *event.PlanDecision
		wantErr     error
		wantHint    string
	}{
		{name: "approve", input: "approve\n", want: &event.PlanDecision{Action: event.PlanApprove}},
		{name: "short approve after a wrong word", input: "maybe\na\n", want: &event.PlanDecision{Action: event.PlanApprove}, wantHint: "Type approve, edit or reject."},
		{name: "edit: one step changed, the others kept", input: "edit\n2:  Chart revenue by month  \n\n", want: &event.PlanDecision{Action: event.PlanEdit, Steps: []string{"Load the data", "Chart revenue by month", "Write the table"}}},
		{name: "edit without a change asks again", input: "edit\n\nreject\nuse 2023 only\n", want: &event.PlanDecision{Action: event.PlanReject, Feedback: "use 2023 only"}, wantHint: "No change"},
		{name: "reject needs feedback", input: "reject\n\nfewer steps\n", want: &event.PlanDecision{Action: event.PlanReject, Feedback: "fewer steps"}, wantHint: "Say what the planner should do differently."},
		{name: "the input ends", input: "edit\n1: Load\n", wantErr: io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prompts, hints bytes.Buffer
			plan := &plans.FullPlan{Question: "q"}
			plan.SetRemaining(&plans.Plan{Steps: []plans.Step{{Description: "Load the data"}, {Description: "Chart revenue"}, {Description: "Write the table"}}})
			got, err := reviewPlan(newPlainLines(strings.NewReader(tt.input), &prompts), &hints, plan)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
			if !strings.Contains(hints.String(), tt.wantHint) {
				t.Errorf("hints lack %q:\n%s", tt.wantHint, hints.String())
			}
			if !strings.HasPrefix(prompts.String(), "approve / edit / reject? ") {
				t.Errorf("prompts: %q", prompts.String())
			}
		})
	}
}

func TestAnswerQuestionAndApproval(t *testing.T) {
	choices := []string{"revenue", "units"}
	tests := []struct {
		name, input string
		read        func(lineReader, io.Writer) (any, error)
		want        any
	}{
		{"a choice by number", "\n2\n", func(l lineReader, w io.Writer) (any, error) { return answerQuestion(l, w, choices) }, &tools.Answer{Choice: 2}},
		{"a choice by its text", "Revenue\n", func(l lineReader, w io.Writer) (any, error) { return answerQuestion(l, w, choices) }, &tools.Answer{Choice: 1}},
		{"words", "the fiscal year\n", func(l lineReader, w io.Writer) (any, error) { return answerQuestion(l, w, choices) }, &tools.Answer{Text: "the fiscal year"}},
		{"approve", "what?\nyes\n", decideApproval, &tools.ApprovalDecision{Action: tools.ApprovalApprove}},
		{"deny with a reason", "deny\nno web access\n", decideApproval, &tools.ApprovalDecision{Action: tools.ApprovalDeny, Reason: "no web access"}},
		{"deny without a reason", "n\n\n", decideApproval, &tools.ApprovalDecision{Action: tools.ApprovalDeny, Reason: "the person denied it without giving a reason"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prompts, hints bytes.Buffer
			got, err := tt.read(newPlainLines(strings.NewReader(tt.input), &prompts), &hints)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := decideApproval(newPlainLines(strings.NewReader(""), io.Discard), io.Discard); !errors.Is(err, io.EOF) {
		t.Errorf("the input ending must end the approval: %v", err)
	}
}
