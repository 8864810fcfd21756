package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// waitsForReview fails the test unless the run ended waiting for a plan
// review of wantSteps steps, with nothing run: no report, no artifact.
func waitsForReview(t *testing.T, s *Sift, evs []event.Event, wantSteps int) (id string) {
	t.Helper()
	done := evs[len(evs)-1]
	if done.Err != nil || done.Interrupt == nil || done.Interrupt.Kind != event.InterruptPlanReview || done.Interrupt.Plan == nil {
		t.Fatalf("want the run to wait for a plan review, got interrupt %+v, err %v", done.Interrupt, done.Err)
	}
	if n := len(done.Interrupt.Plan.Steps); n != wantSteps {
		t.Errorf("the plan under review has %d steps, want %d", n, wantSteps)
	}
	for _, e := range evs {
		if e.Kind == event.StepStarted || e.Kind == event.Report || e.Kind == event.Artifact {
			t.Errorf("nothing may run before the review, got a %s event", e.Kind)
		}
	}
	if _, err := os.Stat(filepath.Join(done.Path, "report.md")); err == nil {
		t.Error("report.md written before the review")
	}
	id = filepath.Base(done.Path)
	if meta, err := s.store.Sessions.Get(context.Background(), id); err != nil || meta.Status != session.StatusWaiting || meta.Pending == nil || meta.Pending.Kind != session.PendingPlanReview {
		t.Fatalf("the registry must say the session waits for a plan review: %+v %v", meta, err)
	}
	return id
}

// TestReviewBuiltInAnalysis: with ReviewPlan, a request a built-in
// analysis matches shows its one-step plan and waits; approved (in a new
// process) it runs; without a model, edit and reject keep it waiting.
func TestReviewBuiltInAnalysis(t *testing.T) {
	py := pythonOrSkip(t)
	root := t.TempDir()
	mk := func() *Sift {
		s, err := New(Config{SessionsRoot: root, Python: py, CodeTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first, second := mk(), mk()
	evs := collect(t, first, Request{Question: "Which region sells most?", Files: []string{salesCSV(t)}, ReviewPlan: true})
	id := waitsForReview(t, first, evs, 1)
	in := evs[len(evs)-1].Interrupt
	if !strings.Contains(in.Plan.Steps[0].Description, "Built-in analysis") {
		t.Errorf("the plan must be the built-in analysis: %+v", in.Plan.Steps)
	}

	evs = drain(t, second.Resume(context.Background(), id, map[string]any{in.ID: &event.PlanDecision{Action: event.PlanReject, Feedback: "by month"}}))
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrNoModel) || done.Interrupt == nil {
		t.Fatalf("rejecting without a model must say a model is needed and keep waiting, got err %v, interrupt %+v", done.Err, done.Interrupt)
	}
	if meta, _ := second.store.Sessions.Get(context.Background(), id); meta.Status != session.StatusWaiting || meta.Pending == nil || meta.Pending.ID != in.ID {
		t.Fatalf("the session must still wait for its review: %+v", meta)
	}

	evs = drain(t, second.Resume(context.Background(), id, map[string]any{in.ID: &event.PlanDecision{Action: event.PlanApprove}}))
	done = evs[len(evs)-1]
	if done.Err != nil || done.Interrupt != nil {
		t.Fatalf("approved, the analysis must run: err %v, interrupt %+v", done.Err, done.Interrupt)
	}
	if len(done.Plan.Steps) != 1 || done.Plan.Steps[0].Status != plans.StatusDone {
		t.Errorf("plan: %+v", done.Plan.Steps)
	}
	if r := readWS(t, done, "report.md"); !strings.Contains(r, "North") {
		t.Errorf("report.md must hold the analysis:\n%s", r)
	}
	if meta, _ := second.store.Sessions.Get(context.Background(), id); meta.Status != session.StatusDone {
		t.Errorf("status = %s, want done", meta.Status)
	}
}

// TestReviewQuickPath: the quick path's one-step plan is reviewed too.
func TestReviewQuickPath(t *testing.T) {
	script := scripted.New(
		call("python", map[string]string{"code": "print(6*7)"}), echoToolResult("Result: "), text("# Result\n\n42 [step 1]."),
	)
	first, second, _ := twoSifts(t, script)
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModeQuick, Question: "What is 6*7?", ReviewPlan: true}))
	id := waitsForReview(t, first, evs, 1)
	if script.Remaining() != 3 {
		t.Errorf("the code agent ran before the review (%d replies left)", script.Remaining())
	}
	in := evs[len(evs)-1].Interrupt
	evs = drain(t, second.Resume(context.Background(), id, map[string]any{in.ID: &event.PlanDecision{Action: event.PlanApprove}}))
	done := evs[len(evs)-1]
	if done.Err != nil || done.Interrupt != nil || done.Plan.Result == nil || !strings.Contains(done.Plan.Result.Answer, "42") {
		t.Fatalf("approved, the quick path must answer: err %v, interrupt %+v, result %+v", done.Err, done.Interrupt, done.Plan.Result)
	}
}

// TestOfflineHelpCatalogueOncePerSession: without a model, the first
// unmatched question of a session lists the built-in analyses; later ones
// point to that list instead of printing it again.
func TestOfflineHelpCatalogueOncePerSession(t *testing.T) {
	s, err := New(Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(id string) (string, error) {
		evs := collect(t, s, Request{Question: "what happened here?", Files: []string{salesCSV(t)}, SessionID: id})
		done := evs[len(evs)-1]
		return filepath.Base(done.Path), done.Err
	}
	id, first := ask("")
	if !errors.Is(first, ErrNoModel) || !strings.Contains(first.Error(), "SIFT_BASE_URL") {
		t.Fatalf("first: want the no-model help, got %v", first)
	}
	_, second := ask(id)
	if !errors.Is(second, ErrNoModel) || !strings.Contains(second.Error(), "SIFT_BASE_URL") || !strings.Contains(second.Error(), "listed in full") {
		t.Fatalf("second: want the short no-model help, got %v", second)
	}
	if len(second.Error()) > len(first.Error())/2 {
		t.Errorf("the second help repeats the catalogue (%d bytes, the first %d):\n%s", len(second.Error()), len(first.Error()), second)
	}
}
