package agents

import (
	"context"
	"errors"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// TestResumeKeepsTheSessionsBudget: a budget given to the run is saved
// with the session and bounds the resumed run again; ResumeBudget
// replaces it.
func TestResumeKeepsTheSessionsBudget(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     []ResumeOption
		wantDone int
	}{
		{"the session's budget", nil, 1},
		{"replaced by the resume", []ResumeOption{ResumeBudget(Budget{})}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := httpSift(t, scripted.New(threeStepScript(false)...), nil)
			evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, ReviewPlan: true, Budget: Budget{MaxSteps: 1}})
			id := waitsForReview(t, s, evs, 3)
			in := evs[len(evs)-1].Interrupt
			evs = drain(t, s.Resume(context.Background(), id, map[string]any{in.ID: &event.PlanDecision{Action: event.PlanApprove}}, tc.opts...))
			done := evs[len(evs)-1]
			if stopped := errors.Is(done.Err, ErrBudgetExceeded); stopped != (tc.wantDone < 3) {
				t.Fatalf("resumed run ended with %v; budget reached: %v, want %v", done.Err, stopped, tc.wantDone < 3)
			}
			n := 0
			for _, st := range done.Plan.Steps {
				if st.Status == plans.StatusDone {
					n++
				}
			}
			if n != tc.wantDone {
				t.Errorf("%d steps done, want %d", n, tc.wantDone)
			}
		})
	}
}
