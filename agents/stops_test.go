package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// TestHardStopLeavesTheRunningStepToRunAgain: a context cancelled while
// step 1 runs (Ctrl-C twice, SIGTERM) leaves step 1 to do, never failed,
// in plan.md and the plan state; Resume runs it again.
func TestHardStopLeavesTheRunningStepToRunAgain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	save := call("python", map[string]string{"code": "x = 20\nprint(x)"})
	replies := []scripted.Reply{
		call(toolCreatePlan, steps("Save x", "Print x")),
		{Func: func(scripted.Request) (*schema.Message, error) {
			cancel() // stopped while step 1 runs
			return save.Message, nil
		}},
	}
	replies = append(replies, oneStep("x = 20\nprint(x)")...)
	replies = append(replies, call(toolCreatePlan, steps("Print x")))
	replies = append(replies, oneStep("print(x + 1)")...)
	replies = append(replies, call(toolSubmitResult, map[string]any{"answer": "21"}), text("# Report\n\n21 [step 2]."))
	first, second, root := twoSifts(t, scripted.New(replies...))

	evs := drain(t, first.Run(ctx, Request{Mode: ModePlan, Question: "x things"}))
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, context.Canceled) {
		t.Fatalf("the done event must carry the interruption, got %v", done.Err)
	}
	fp, err := tree.LoadPlanState(done.Path)
	if err != nil {
		t.Fatal(err)
	}
	if s := fp.Steps[0]; s.Status != plans.StatusTodo {
		t.Errorf("step 1 was running when stopped: status %s (%s), want todo", s.Status, s.Summary)
	}
	plan, _ := os.ReadFile(filepath.Join(done.Path, "plan.md"))
	if !strings.Contains(string(plan), "[ ] **1.") || strings.Contains(string(plan), "[!]") {
		t.Errorf("plan.md must show step 1 to do, not failed:\n%s", plan)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	if meta, _ := first.Session(context.Background(), id); meta.Status != session.StatusPaused {
		t.Errorf("status = %s, want paused", meta.Status)
	}

	evs = drain(t, second.Resume(context.Background(), id, nil))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("resume failed: %v", done.Err)
	}
	var started []int
	for _, e := range kinds(evs, event.StepStarted) {
		started = append(started, e.Step.Index)
	}
	if len(started) != 2 || started[0] != 1 || started[1] != 2 {
		t.Errorf("the resumed run started steps %v, want [1 2]", started)
	}
	var said string
	for _, e := range kinds(evs, event.Message) {
		said += e.Text
	}
	if !strings.Contains(said, "Step 1 was in progress and runs again") {
		t.Errorf("the resume must say step 1 runs again: %q", said)
	}
}

// TestPausedRunEndsWithErrPaused: the done event of a paused run carries
// ErrPaused, so a caller cannot take it for a finished run.
func TestPausedRunEndsWithErrPaused(t *testing.T) {
	pause := make(chan struct{})
	replies := []scripted.Reply{
		call(toolCreatePlan, steps("Save x", "Print x")),
		call("python", map[string]string{"code": "x = 20\nprint(x)"}),
		{Func: func(scripted.Request) (*schema.Message, error) {
			close(pause)
			return scripted.Text("Saved x = 20."), nil
		}},
	}
	first, _, _ := twoSifts(t, scripted.New(replies...))
	evs := drain(t, first.Run(WithPause(context.Background(), pause), Request{Mode: ModePlan, Question: "x things"}))
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrPaused) || done.Text != "paused" {
		t.Fatalf("want a done event carrying ErrPaused, got %q, %v", done.Text, done.Err)
	}
}

// TestStopWhilePlanningPlansAgain: a run stopped before its plan was
// recorded (its process died, or a worker of the run queue did, while
// the planner was asked) resumes by planning again, rather than ending
// with nothing to resume.
func TestStopWhilePlanningPlansAgain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	replies := []scripted.Reply{
		{Func: func(scripted.Request) (*schema.Message, error) {
			cancel() // stopped while planning
			return nil, context.Canceled
		}},
		call(toolCreatePlan, steps("Print x")),
	}
	replies = append(replies, oneStep("print(20 + 1)")...)
	replies = append(replies, call(toolSubmitResult, map[string]any{"answer": "21"}), text("# Report\n\n21 [step 1]."))
	first, second, root := twoSifts(t, scripted.New(replies...))

	evs := drain(t, first.Run(ctx, Request{Mode: ModePlan, Question: "x things"}))
	done := evs[len(evs)-1]
	if done.Err == nil {
		t.Fatal("the stopped run ended without an error")
	}
	if fp, err := tree.LoadPlanState(done.Path); err == nil && len(fp.Steps) > 0 {
		t.Fatal("the run stopped while planning recorded a plan; the test needs one that did not")
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	evs = drain(t, second.Resume(context.Background(), id, nil))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("resume failed: %v", done.Err)
	}
	var said string
	for _, e := range kinds(evs, event.Message) {
		said += e.Text
	}
	if !strings.Contains(said, "plans again") {
		t.Errorf("the resume must say it plans again: %q", said)
	}
	if got := kinds(evs, event.StepFinished); len(got) != 1 {
		t.Errorf("the resumed run finished %d steps, want 1", len(got))
	}
}

// TestStopAfterLastStepFinishesOnResume: a run stopped after its last
// step finished, while the replanner was asked for the answer, resumes by
// asking the replanner again and writing the report: no step runs again.
func TestStopAfterLastStepFinishesOnResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	replies := []scripted.Reply{call(toolCreatePlan, steps("Print x"))}
	replies = append(replies, oneStep("print(20 + 1)")...)
	replies = append(replies,
		scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
			cancel() // stopped while the replanner is asked for the answer
			return nil, context.Canceled
		}},
		call(toolSubmitResult, map[string]any{"answer": "21"}), text("# Report\n\n21 [step 1]."))
	first, second, root := twoSifts(t, scripted.New(replies...))

	evs := drain(t, first.Run(ctx, Request{Mode: ModePlan, Question: "x things"}))
	done := evs[len(evs)-1]
	if done.Err == nil {
		t.Fatal("the stopped run ended without an error")
	}
	if fp, err := tree.LoadPlanState(done.Path); err != nil || fp.Current() != nil {
		t.Fatalf("the test needs a run stopped with every step done: %v %+v", err, fp)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	evs = drain(t, second.Resume(context.Background(), id, nil))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("resume failed: %v", done.Err)
	}
	if got := kinds(evs, event.StepStarted); len(got) != 0 {
		t.Errorf("the resumed run started %d steps; every step had finished", len(got))
	}
	report, err := os.ReadFile(filepath.Join(done.Path, "report.md"))
	if err != nil || !strings.Contains(string(report), "21") {
		t.Errorf("the resumed run's report: %v\n%s", err, report)
	}
}

// TestStopWhileWritingTheReportWritesItOnResume stops a run while its
// report is written, after the replanner gave the answer (as a worker
// killed then would): the resume runs no step and asks the replanner
// nothing again; it writes the report from the recorded answer.
func TestStopWhileWritingTheReportWritesItOnResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	replies := []scripted.Reply{call(toolCreatePlan, steps("Print x"))}
	replies = append(replies, oneStep("print(20 + 1)")...)
	replies = append(replies,
		call(toolSubmitResult, map[string]any{"answer": "x is 21"}),
		scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
			cancel() // stopped while the report is written
			return nil, context.Canceled
		}},
		text("# Report\n\nx is 21 [step 1]."))
	script := scripted.New(replies...)
	first, second, root := twoSifts(t, script)

	evs := drain(t, first.Run(ctx, Request{Mode: ModePlan, Question: "x things"}))
	done := evs[len(evs)-1]
	if done.Err == nil {
		t.Fatal("the stopped run ended without an error")
	}
	if fp, err := tree.LoadPlanState(done.Path); err != nil || fp.Current() != nil || fp.Result == nil {
		t.Fatalf("the test needs a run stopped with every step done and the answer given: %v %+v", err, fp)
	}
	before := script.Calls()
	id := strings.TrimPrefix(done.Path, root+"/")
	evs = drain(t, second.Resume(context.Background(), id, nil))
	done = evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("resume failed: %v", done.Err)
	}
	if got := kinds(evs, event.StepStarted); len(got) != 0 {
		t.Errorf("the resumed run started %d steps; every step had finished", len(got))
	}
	if n := script.Calls() - before; n != 1 {
		t.Errorf("the resumed run made %d model calls, want 1: the report's", n)
	}
	report, err := os.ReadFile(filepath.Join(done.Path, "report.md"))
	if err != nil || !strings.Contains(string(report), "# Report") || !strings.Contains(string(report), "x is 21") {
		t.Errorf("the resumed run's report: %v\n%s", err, report)
	}
}
