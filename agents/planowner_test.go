package agents

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// TestBuiltInAnalysisStepsGoThroughThePlanOwner: a built-in analysis's
// steps change like the agents' steps do. Each change is saved before it
// is announced (when an event says a step started or finished, state.json
// already says so), and a step records when it started.
func TestBuiltInAnalysisStepsGoThroughThePlanOwner(t *testing.T) {
	py := pythonOrSkip(t)
	root := t.TempDir()
	s, err := New(Config{SessionsRoot: root, Python: py})
	if err != nil {
		t.Fatal(err)
	}
	// The plan as state.json holds it when each event arrives.
	saved := func() *plans.FullPlan {
		var found string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == tree.PlanStateFile {
				found = p
			}
			return nil
		})
		if found == "" {
			return nil
		}
		b, err := os.ReadFile(found)
		if err != nil {
			t.Fatal(err)
		}
		var fp plans.FullPlan
		if err := json.Unmarshal(b, &fp); err != nil {
			t.Fatal(err)
		}
		return &fp
	}
	var done event.Event
	var started, finished int
	for e := range s.Run(context.Background(), Request{Question: "Top 3 regions by revenue", Files: []string{salesCSV(t)}}) {
		switch e.Kind {
		case event.Plan:
			if fp := saved(); fp == nil || len(fp.Steps) != len(e.Plan.Steps) {
				t.Errorf("the plan was announced before state.json held its steps: %+v", fp)
			}
		case event.StepStarted, event.StepFinished:
			if e.Kind == event.StepStarted {
				started++
			} else {
				finished++
			}
			if e.Step.Started.IsZero() {
				t.Errorf("%s event: the step has no start time", e.Kind)
			}
			fp := saved()
			if fp == nil || len(fp.Steps) < e.Step.Index || fp.Steps[e.Step.Index-1].Status != e.Step.Status {
				t.Errorf("%s event for step %d (%s) came before state.json said so: %+v", e.Kind, e.Step.Index, e.Step.Status, fp)
			}
		case event.Done:
			done = e
		}
	}
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if started != 1 || finished != 1 {
		t.Fatalf("want one step started and finished, got %d and %d", started, finished)
	}
	fp := saved()
	if len(fp.Steps) != 1 || fp.Steps[0].Status != plans.StatusDone || fp.Steps[0].Started.IsZero() {
		t.Fatalf("state.json must hold the done step with its start time: %+v", fp.Steps)
	}
}
