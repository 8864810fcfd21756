package agents

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
)

// step3Starts counts the times step 3's code agent started afresh in
// reqs (a continued run sends more than the task).
func step3Starts(reqs []scripted.Request) int {
	n := 0
	for _, req := range reqs {
		if task, first := codeTask(req); req.Agent == "code" && strings.Contains(task, "Load the South rows") && first {
			n++
		}
	}
	return n
}

// probeRuns counts the times step 3's first cell ran as a step's own
// cell (not replayed to rebuild a kernel's state) in the session at root.
func probeRuns(t *testing.T, root string) int {
	t.Helper()
	records, err := operator.ReadCells(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rec := range records {
		if strings.Contains(rec.Code, "south_probe = 'kept'") && !rec.Replayed {
			n++
		}
	}
	return n
}

// answerStep3 resumes the session id, which must wait for step 3's
// question, with an answer, and checks the run then finishes with every
// step done, step 3 with what it ran before asking.
func answerStep3(t *testing.T, s *Sift, id string, waiting event.Event) event.Event {
	t.Helper()
	if waiting.Interrupt == nil || !strings.Contains(waiting.Interrupt.Prompt, "Which currency") {
		t.Fatalf("the run must wait for step 3's question; ended with %v, %+v", waiting.Err, waiting.Interrupt)
	}
	var last event.Event
	for e := range s.Resume(context.Background(), id, map[string]any{waiting.Interrupt.ID: tools.ParseAnswer("USD", nil)}) {
		last = e
	}
	if last.Err != nil || last.Interrupt != nil {
		t.Fatalf("resume with the answer: %v %+v", last.Err, last.Interrupt)
	}
	for _, st := range last.Plan.Steps {
		if st.Status != plans.StatusDone {
			t.Errorf("step %d is %s: %s", st.Index, st.Status, st.Summary)
		}
		if st.Index == 3 && !strings.Contains(st.Summary, "PROBE=kept") {
			t.Errorf("step 3 lost what it ran before asking: %q", st.Summary)
		}
	}
	if report := readWS(t, last, "report.md"); !strings.Contains(report, "TOTAL=250 from 4 rows") {
		t.Errorf("the report lacks the total:\n%s", report)
	}
	return last
}

// afterStep3Asks is askingBranchResponder, closing asked once step 3's
// code agent asks the person; the code agents of the steps described as
// in held wait for that.
func afterStep3Asks(asked chan struct{}, held ...string) func(scripted.Request) (*schema.Message, error) {
	var once sync.Once
	return func(req scripted.Request) (*schema.Message, error) {
		task, _ := codeTask(req)
		if req.Agent == "code" && slices.ContainsFunc(held, func(h string) bool { return strings.Contains(task, h) }) {
			<-asked
		}
		m, err := askingBranchResponder(req)
		if err == nil && len(m.ToolCalls) > 0 && m.ToolCalls[0].Function.Name == "ask_user" {
			once.Do(func() { close(asked) })
		}
		return m, err
	}
}

// A pause asked while a branch step waits for the person keeps the step
// waiting: resumed, the run asks the person again and the answer takes
// the step on from where it asked. It does not start again, so what it
// ran before asking does not run twice.
func TestPauseWhileABranchWaitsThenResume(t *testing.T) {
	// Step 1 ends after step 3 asked, so step 2 is still to start when the
	// pause is asked.
	pause := make(chan struct{})
	script := scripted.NewResponder(afterStep3Asks(pause, "Load the North rows"))
	s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var done event.Event
	for e := range s.Run(WithPause(context.Background(), pause), Request{Mode: ModePlan, Question: "Revenue by region, and the total?", Files: []string{salesCSV(t)}, Parallel: 3}) {
		done = e
	}
	if !errors.Is(done.Err, ErrPaused) {
		t.Fatalf("want a paused run, got %v %+v", done.Err, done.Interrupt)
	}
	id := filepath.Base(done.Path)
	var notes []string
	var waiting event.Event
	for e := range s.Resume(context.Background(), id, nil) {
		if e.Kind == event.Message && e.Agent == "sift" {
			notes = append(notes, e.Text)
		}
		waiting = e
	}
	if note := strings.Join(notes, "\n"); !strings.Contains(note, "Step 3 waits for your answer") || strings.Contains(note, "3 was in progress") {
		t.Errorf("the resume must say step 3 waits, not that it runs again: %q", notes)
	}
	answerStep3(t, s, id, waiting)
	if n := step3Starts(script.Requests()); n != 1 {
		t.Errorf("step 3's code agent started %d times, want once", n)
	}
	if n := probeRuns(t, done.Path); n != 1 {
		t.Errorf("step 3's first cell ran %d times as its own, want once", n)
	}
}

// TestKillDashNineWhileABranchWaitsThenResume kills a run (this test
// binary, run again as the child) while step 3 waits for the person and
// steps 2 and 6 are mid-step, then resumes it: 2 and 6 run again, step 3
// asks again and goes on from where it asked, not from the start.
func TestKillDashNineWhileABranchWaitsThenResume(t *testing.T) {
	py := pythonOrSkip(t)
	// The child: steps 2 and 6 hang until the parent kills it.
	root, cmd := startBranchCrashChild(t, "TestKillDashNineWhileABranchWaitsThenResume", "SIFT_TEST_BRANCH_WAIT_CRASH", askingOver(slowBranchResponder(map[int]bool{2: true, 6: true})))
	ws := filepath.Join(root, "crash")
	// Wait until step 3's wait is recorded and 2 and 6 run their hanging
	// cells (steps 1 and 5 are then done).
	deadline := time.Now().Add(time.Minute)
	for {
		w, _ := tree.RecordedWait(ws, 1, 3)
		if w != nil && hangingCells(root) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never reached the crash point (step 3's wait recorded: %v, hanging cells: %d)", w != nil, hangingCells(root))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	script := scripted.NewResponder(askingBranchResponder)
	s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: root, Python: py, CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	var waiting event.Event
	for e := range s.Resume(context.Background(), "crash", nil) {
		if e.Kind == event.Message && e.Agent == "sift" {
			notes = append(notes, e.Text)
		}
		waiting = e
	}
	note := strings.Join(notes, "\n")
	if !strings.Contains(note, "Steps 2 and 6 were in progress and run again.") || !strings.Contains(note, "Step 3 waits for your answer") {
		t.Errorf("the resume must say which steps run again and which waits: %q", notes)
	}
	answerStep3(t, s, "crash", waiting)
	if n := step3Starts(script.Requests()); n != 0 {
		t.Errorf("step 3's code agent started again %d times after the crash, want none", n)
	}
	if n := probeRuns(t, ws); n != 1 {
		t.Errorf("step 3's first cell ran %d times as its own, want once", n)
	}
}

// A budget reached while a branch step waits for the person ends the
// run: the waiting step is skipped with the steps not run, saying why,
// and the session is over (a resume has nothing to go on with).
func TestBudgetReachedWhileABranchWaits(t *testing.T) {
	// Steps 1, 3 and 5 start; no other may. Steps 1 and 5 go on once step
	// 3 asked: the first to finish reaches the budget, which stops the
	// other's next model call.
	script := scripted.NewResponder(afterStep3Asks(make(chan struct{}), "Load the North rows", "Load the East rows"))
	s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	_, done := runBranchPlan(t, s, 3, Budget{MaxSteps: 3})
	if !errors.Is(done.Err, ErrBudgetExceeded) || done.Interrupt != nil {
		t.Fatalf("the run ended with %v %+v, want the budget error", done.Err, done.Interrupt)
	}
	finished := 0
	for _, st := range done.Plan.Steps {
		switch {
		case (st.Index == 1 || st.Index == 5) && st.Status == plans.StatusDone:
			finished++
		case st.Status != plans.StatusSkipped || !strings.Contains(st.Summary, "budget"):
			t.Errorf("step %d is %s (%q), want skipped for the budget", st.Index, st.Status, st.Summary)
		}
	}
	if finished == 0 {
		t.Error("neither step 1 nor step 5 finished")
	}
	if plan := readWS(t, done, "plan.md"); strings.Contains(plan, "— doing") {
		t.Errorf("plan.md shows a step in progress:\n%s", plan)
	}
	var last event.Event
	for e := range s.Resume(context.Background(), filepath.Base(done.Path), nil) {
		last = e
	}
	if !errors.Is(last.Err, ErrNothingToResume) {
		t.Errorf("resume after the budget ended the run: %v, want nothing to resume", last.Err)
	}
	if n := step3Starts(script.Requests()); n != 1 {
		t.Errorf("step 3's code agent started %d times, want once", n)
	}
}
