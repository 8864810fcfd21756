package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// damageCheckpoint overwrites session id's checkpoint with bytes that do
// not decode, as a torn write or a bad disk leaves it.
func damageCheckpoint(t *testing.T, root, id string) {
	t.Helper()
	p := filepath.Join(root, id, session.CheckpointFile)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no checkpoint to damage: %v", err)
	}
	if err := os.WriteFile(p, []byte("\x00\x13not a checkpoint at all\xff"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestWaitingSessionGoesOnWhenItsCheckpointIsDamaged: a session waiting
// for the person whose checkpoint no longer decodes does not fail with the
// decoder's message: it goes on from its recorded plan, says why, and
// keeps what was done. A plan review's answer is applied to the recorded
// plan (approved, edited, rejected with feedback); a question's step runs
// again from its start, and the person is told the answer did not reach it.
func TestWaitingSessionGoesOnWhenItsCheckpointIsDamaged(t *testing.T) {
	finish := []scripted.Reply{call(toolSubmitResult, map[string]any{"answer": "done"}), text("# Report\n\ndone [step 1].")}
	for _, tt := range []struct {
		name     string
		replies  []scripted.Reply
		decision *event.PlanDecision
		wantStep string
		wantSaid string
	}{
		{
			name:     "approved",
			replies:  append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7"))}, oneStep("print(6*7)")...), finish...),
			decision: ApprovePlan(),
			wantStep: "Print 6*7",
		},
		{
			name:     "edited",
			replies:  append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7"))}, oneStep("print(7*7)")...), finish...),
			decision: EditPlan("Print 7*7 instead"),
			wantStep: "Print 7*7 instead",
			wantSaid: "Step 1 of the plan: Print 7*7 instead",
		},
		{
			name: "rejected",
			replies: append(append([]scripted.Reply{call(toolCreatePlan, steps("Print 6*7")), call(toolCreatePlan, steps("Print 8*8"))},
				oneStep("print(8*8)")...), finish...),
			decision: RejectPlan("use eight, not six"),
			wantStep: "Print 8*8",
			wantSaid: "use eight, not six",
		},
	} {
		t.Run("plan review "+tt.name, func(t *testing.T) {
			script := scripted.New(tt.replies...)
			first, second, root := twoSifts(t, script)
			evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "a number", ReviewPlan: true}))
			done := evs[len(evs)-1]
			if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptPlanReview {
				t.Fatalf("want a plan review, got %+v (err %v)", done.Interrupt, done.Err)
			}
			id := filepath.Base(done.Path)
			damageCheckpoint(t, root, id)
			evs = drain(t, second.Resume(context.Background(), id, map[string]any{done.Interrupt.ID: tt.decision}))
			all := evs
			if tt.decision.Action == event.PlanReject {
				// The new plan is reviewed again, from the recorded plan.
				done = evs[len(evs)-1]
				if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptPlanReview {
					t.Fatalf("rejected: want the new plan reviewed, got %+v (err %v)", done.Interrupt, done.Err)
				}
				evs = drain(t, second.Resume(context.Background(), id, map[string]any{done.Interrupt.ID: ApprovePlan()}))
				all = append(all, evs...)
			}
			done = evs[len(evs)-1]
			if done.Err != nil || done.Interrupt != nil {
				t.Fatalf("want the run finished from the recorded plan, got err %v, interrupt %+v", done.Err, done.Interrupt)
			}
			said := false
			for _, e := range kinds(all, event.Message) {
				if strings.Contains(e.Text, "checkpoint cannot be read") && strings.Contains(e.Text, "recorded plan") {
					said = true
				}
			}
			if !said {
				t.Error("the person is not told the checkpoint was damaged and the run went on from the recorded plan")
			}
			if len(done.Plan.Steps) != 1 || done.Plan.Steps[0].Description != tt.wantStep || done.Plan.Steps[0].Status != plans.StatusDone {
				t.Errorf("plan: %+v; want the one step %q done", done.Plan.Steps, tt.wantStep)
			}
			if tt.wantSaid != "" && !requestSaid(script, tt.wantSaid) {
				t.Errorf("the model was not given %q", tt.wantSaid)
			}
			if script.Remaining() != 0 {
				t.Errorf("%d replies unused", script.Remaining())
			}
		})
	}

	t.Run("question", func(t *testing.T) {
		ask := call("ask_user", map[string]any{"question": "Which sheet?", "choices": []string{"2023", "2024"}})
		replies := []scripted.Reply{
			call(toolCreatePlan, steps("Count the rows of the right sheet")),
			ask,
			// The damaged checkpoint: the step starts again and asks again.
			ask,
		}
		script := scripted.New(replies...)
		first, second, root := twoSifts(t, script)
		evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "how many rows?"}))
		done := evs[len(evs)-1]
		if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion {
			t.Fatalf("want the run to wait on the question, got %+v (err %v)", done.Interrupt, done.Err)
		}
		id := filepath.Base(done.Path)
		damageCheckpoint(t, root, id)
		evs = drain(t, second.Resume(context.Background(), id, map[string]any{done.Interrupt.ID: AnswerText("2024")}))
		done = evs[len(evs)-1]
		if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion || done.Interrupt.Prompt != "Which sheet?" {
			t.Fatalf("want the step run again and asking again, got %+v (err %v)", done.Interrupt, done.Err)
		}
		said := false
		for _, e := range kinds(evs, event.Message) {
			said = said || strings.Contains(e.Text, "could not be delivered")
		}
		if !said {
			t.Error("the person is not told the answer could not reach the step")
		}
		if meta, _ := second.store.Sessions.Get(context.Background(), id); meta.Status != session.StatusWaiting {
			t.Errorf("status = %s; want waiting again", meta.Status)
		}
	})
}
