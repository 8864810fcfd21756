package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents/internal/tree"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// stopAtFirstStep runs req on s and stops it (as a worker killed, or a
// hard stop) the moment its first plan step starts; it returns the
// session's id.
func stopAtFirstStep(t *testing.T, s *Sift, req Request) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var id string
	for ev := range s.Run(ctx, req) {
		if ev.Kind == event.StepStarted {
			cancel()
		}
		if ev.Kind == event.Done {
			id = ev.Path[strings.LastIndex(ev.Path, "/")+1:]
		}
	}
	if id == "" {
		t.Fatal("the run ended without a done event")
	}
	return id
}

// TestBuiltinResumesWithoutModel: a built-in analysis stopped during its
// step resumes with no model (a takeover of it on a worker without one),
// and answers as a run that was never stopped.
func TestBuiltinResumesWithoutModel(t *testing.T) {
	py := pythonOrSkip(t)
	s := offlineSift(t, py)
	req := Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}}
	id := stopAtFirstStep(t, s, req)
	if meta, err := s.Session(context.Background(), id); err != nil || meta.Template == "" || meta.Status.Finished() {
		t.Fatalf("the stopped built-in's record: %+v %v; want it unfinished, naming its built-in", meta, err)
	}
	evs := drain(t, s.Resume(context.Background(), id, nil))
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("the resume of a built-in with no model failed: %v", done.Err)
	}
	clean := collect(t, offlineSift(t, py), req)
	want := clean[len(clean)-1].Plan.Result.Answer
	if got := done.Plan.Result.Answer; got != want {
		t.Errorf("the resumed built-in answered %q, want a clean run's %q", got, want)
	}
	if n := len(done.Plan.Steps); n != len(clean[len(clean)-1].Plan.Steps) {
		t.Errorf("the resumed plan has %d steps, want the clean run's %d: %+v", n, len(clean[len(clean)-1].Plan.Steps), done.Plan.Steps)
	}
	if meta, _ := s.Session(context.Background(), id); meta.Status != session.StatusDone {
		t.Errorf("status after the resume: %s, want done", meta.Status)
	}
}

// TestResumeWithoutModelLeavesTheSession: resuming an agent run with no
// model (a new shell without the API key) is refused at once and leaves
// the session as it was, so the resume works once a model is given.
func TestResumeWithoutModelLeavesTheSession(t *testing.T) {
	replies := []scripted.Reply{call(toolCreatePlan, steps("Print x")), {Func: func(scripted.Request) (*schema.Message, error) {
		time.Sleep(time.Millisecond)
		return call("python", map[string]string{"code": "print(20)"}).Message, nil
	}}}
	replies = append(replies, oneStep("print(20)")...)
	replies = append(replies, call(toolSubmitResult, map[string]any{"answer": "20"}), text("# Report\n\n20 [step 1]."))
	first, second, root := twoSifts(t, scripted.New(replies...))
	id := stopAtFirstStep(t, first, Request{Mode: ModePlan, Question: "print x"})
	before, err := first.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	// The refusal comes before the kernel starts (and replays the
	// session's cells, seconds of work): it names the missing model even
	// where no sandbox, and so no kernel, could start.
	offline, err := New(Config{SessionsRoot: root, Python: pythonOrSkip(t), Sandbox: operator.SandboxConfig{Mode: "no-such-sandbox"}})
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, offline.Resume(context.Background(), id, nil))
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrNoModel) || !strings.Contains(done.Err.Error(), "run the resume again") {
		t.Fatalf("a resume with no model ended with %v; want ErrNoModel saying what to do", done.Err)
	}
	after, _ := first.Session(context.Background(), id)
	if after.Status != before.Status || after.Error != "" {
		t.Fatalf("the refused resume changed the session from %s to %s (%q)", before.Status, after.Status, after.Error)
	}
	evs = drain(t, second.Resume(context.Background(), id, nil))
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("the resume with the model, after the refused one: %v", done.Err)
	}
}

// TestFailedSessionCarriesItsError: a run that fails records why in the
// session (Meta.Error), which the API's GET shows.
func TestFailedSessionCarriesItsError(t *testing.T) {
	s := offlineSift(t, pythonOrSkip(t))
	evs := collect(t, s, Request{Mode: ModePlan, Question: "what is in the data?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err == nil {
		t.Fatal("a plan run with no model did not fail")
	}
	id := done.Path[strings.LastIndex(done.Path, "/")+1:]
	meta, err := s.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Status != session.StatusFailed || meta.Error != done.Err.Error() {
		t.Fatalf("the failed session's record: status %s, error %q; want failed with %q", meta.Status, meta.Error, done.Err)
	}
}

// TestDamagedPlanIsRecoveredFromTheLog: a resume whose state.json cannot
// be read does not take the session for one never planned (running its
// finished steps again): it recovers the plan from the event log and
// says so; with no plan in the log either, it refuses and leaves the
// session as it was.
func TestDamagedPlanIsRecoveredFromTheLog(t *testing.T) {
	replies := []scripted.Reply{call(toolCreatePlan, steps("Save x", "Print x"))}
	replies = append(replies, oneStep("x = 20\nprint(x)")...)
	replies = append(replies, call(toolCreatePlan, steps("Print x")), call("python", map[string]string{"code": "print(x)"}))
	first, _, root := twoSifts(t, scripted.New(replies...))
	ctx, cancel := context.WithCancel(context.Background())
	var id string
	started := 0
	for ev := range first.Run(ctx, Request{Mode: ModePlan, Question: "x things"}) {
		if ev.Kind == event.StepStarted {
			if started++; started == 2 {
				cancel() // stopped during step 2, step 1 done
			}
		}
		if ev.Kind == event.Done {
			id = ev.Path[strings.LastIndex(ev.Path, "/")+1:]
		}
	}
	cancel()
	state := filepath.Join(root, id, tree.PlanStateFile)
	if err := os.WriteFile(state, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	fp, note, err := resumePlan(filepath.Join(root, id), "x things")
	if err != nil {
		t.Fatalf("recover the plan from the log: %v", err)
	}
	if len(fp.Steps) == 0 || fp.Steps[0].Status != plans.StatusDone || !strings.Contains(note, "recovered") {
		t.Fatalf("recovered plan %+v, note %q; want step 1 done and a note", fp.Steps, note)
	}

	if err := os.WriteFile(filepath.Join(root, id, session.EventsFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := first.Session(context.Background(), id)
	evs := drain(t, first.Resume(context.Background(), id, nil))
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrDamagedState) {
		t.Fatalf("resume with a damaged plan and no log: %v, want ErrDamagedState", done.Err)
	}
	if after, _ := first.Session(context.Background(), id); after.Status != before.Status {
		t.Fatalf("the refused resume changed the session from %s to %s", before.Status, after.Status)
	}
}
