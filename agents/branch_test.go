package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
)

// branchPlan is a plan of three independent two-step branches (load one
// region's rows, then sum them) and a summary step that needs all three:
// the summary reads the branches' DataFrames and sums from the kernel.
var branchPlan = []struct {
	desc  string
	needs []int
	code  string
}{
	{"Load the North rows", []int{}, "import pandas as pd\nnorth = pd.read_csv('input/sales.csv')\nnorth = north[north.region == 'North']\nnorth.to_csv('out/north.csv')\nprint('north rows', len(north))"},
	{"Sum North revenue", []int{1}, "north_rev = int(north.revenue.sum())\nprint(f'NORTH={north_rev}')"},
	{"Load the South rows", []int{}, "import pandas as pd\nsouth = pd.read_csv('input/sales.csv')\nsouth = south[south.region == 'South']\nsouth.to_csv('out/south.csv')\nprint('south rows', len(south))"},
	{"Sum South revenue", []int{3}, "south_rev = int(south.revenue.sum())\nprint(f'SOUTH={south_rev}')"},
	{"Load the East rows", []int{}, "import pandas as pd\neast = pd.read_csv('input/sales.csv')\neast = east[east.region == 'East']\neast.to_csv('out/east.csv')\nprint('east rows', len(east))"},
	{"Sum East revenue", []int{5}, "east_rev = int(east.revenue.sum())\nprint(f'EAST={east_rev}')"},
	{"Summary of all regions", []int{2, 4, 6}, "total = north_rev + south_rev + east_rev\npd.Series({'North': north_rev, 'South': south_rev, 'East': east_rev}).to_csv('out/summary.csv')\nprint(f'TOTAL={total} from {len(north) + len(south) + len(east)} rows')"},
}

var (
	planLine    = regexp.MustCompile(`(?m)^(\d+)\. \[(\w+)\] (.+)$`)
	currentStep = regexp.MustCompile(`(?m)^Step (\d+): (.+)$`)
	figureLine  = regexp.MustCompile(`[A-Z]+=\d+[^\n]*`)
)

// branchResponder answers as a model would for branchPlan, from what each
// request shows, so it plays the same run whatever order the steps' calls
// arrive in.
func branchResponder(req scripted.Request) (*schema.Message, error) {
	return slowBranchResponder(nil)(req)
}

// slowBranchResponder is branchResponder with the steps in slow sleeping
// for minutes before their work.
func slowBranchResponder(slow map[int]bool) func(scripted.Request) (*schema.Message, error) {
	return func(req scripted.Request) (*schema.Message, error) { return respondBranch(req, slow) }
}

func respondBranch(req scripted.Request, slow map[int]bool) (*schema.Message, error) {
	last := req.Messages[len(req.Messages)-1]
	toolMsg := func(name string, args any) *schema.Message {
		b, _ := json.Marshal(args)
		return scripted.ToolCall(name, string(b))
	}
	has := func(tool string) bool {
		for _, t := range req.Tools {
			if t.Name == tool {
				return true
			}
		}
		return false
	}
	switch req.Agent {
	case "planner":
		if !has(toolSubmitResult) {
			var steps []map[string]any
			for i, s := range branchPlan {
				steps = append(steps, map[string]any{"index": i + 1, "description": s.desc, "needs": s.needs})
			}
			return toolMsg(toolCreatePlan, map[string]any{"steps": steps}), nil
		}
		var steps []map[string]any
		for _, m := range planLine.FindAllStringSubmatch(last.Content, -1) {
			if m[2] != "todo" {
				continue
			}
			for i, s := range branchPlan {
				if s.desc == m[3] {
					steps = append(steps, map[string]any{"index": i + 1, "description": s.desc, "needs": s.needs})
				}
			}
		}
		if len(steps) > 0 {
			return toolMsg(toolCreatePlan, map[string]any{"steps": steps}), nil
		}
		total := figureLine.FindAllString(last.Content, -1)
		return toolMsg(toolSubmitResult, map[string]any{"answer": "Revenue by region: " + strings.Join(total, "; ")}), nil
	case "executor":
		m := currentStep.FindStringSubmatch(last.Content)
		if m == nil {
			return nil, fmt.Errorf("executor request without a current step: %q", last.Content)
		}
		return toolMsg(tree.NameCodeAgent, map[string]string{"request": m[2]}), nil
	case "code":
		if last.Role == schema.Tool {
			return scripted.Text("Done. Output:\n" + last.Content), nil
		}
		for i, s := range branchPlan {
			if strings.Contains(last.Content, s.desc) {
				code := s.code
				if slow[i+1] {
					code = "import time\ntime.sleep(300)\n" + code
				}
				return toolMsg("python", map[string]string{"code": code}), nil
			}
		}
		return nil, fmt.Errorf("code request for no known step: %q", last.Content)
	case "report":
		figures := figureLine.FindAllString(last.Content, -1)
		sort.Strings(figures)
		return scripted.Text("# Revenue by region\n\n" + strings.Join(dedupe(figures), "\n") + "\n"), nil
	}
	return nil, fmt.Errorf("unexpected request from %q", req.Agent)
}

// mostAtOnce is the most steps that ran at the same time in evs.
func mostAtOnce(evs []event.Event) int {
	open, most := 0, 0
	for _, e := range kinds(evs, event.StepStarted, event.StepFinished) {
		if e.Kind == event.StepStarted {
			open++
		} else {
			open--
		}
		most = max(most, open)
	}
	return most
}

func dedupe(ss []string) []string {
	var out []string
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// branchSift is a Sift whose every role plays branchResponder, replying
// after delay.
func branchSift(t testing.TB, delay time.Duration) (*Sift, *scripted.Script) {
	t.Helper()
	script := scripted.NewResponder(branchResponder)
	script.SetDelay(delay)
	s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s, script
}

// runBranchPlan runs branchPlan with parallel and returns its events and
// the done event.
func runBranchPlan(t testing.TB, s *Sift, parallel int, budget Budget) ([]event.Event, event.Event) {
	t.Helper()
	var evs []event.Event
	for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: "Revenue by region, and the total?", Files: []string{salesCSV(t)}, Parallel: parallel, Budget: budget}) {
		evs = append(evs, e)
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != event.Done {
		t.Fatalf("the last event must be done; got %d events", len(evs))
	}
	return evs, evs[len(evs)-1]
}

func TestParallelStepsGiveTheSameReport(t *testing.T) {
	reports := map[int]string{}
	for _, parallel := range []int{1, 3} {
		s, _ := branchSift(t, 0)
		evs, done := runBranchPlan(t, s, parallel, Budget{})
		if done.Err != nil {
			t.Fatalf("parallel %d: %v", parallel, done.Err)
		}
		report := readWS(t, done, "report.md")
		// The usage section differs: fewer replans run in parallel.
		reports[parallel], _, _ = strings.Cut(report, "## Usage")
		// Steps ran side by side only with parallel 3: two steps started
		// before the first of them finished.
		if most, want := mostAtOnce(evs), map[int]int{1: 1, 3: 3}[parallel]; most != want {
			t.Errorf("parallel %d: at most %d steps ran at once, want %d", parallel, most, want)
		}
		// A step that starts while no other runs is not said to run
		// side by side.
		for _, e := range kinds(evs, event.StepStarted) {
			if e.Text != "" && !strings.Contains(e.Text, " and ") {
				t.Errorf("parallel %d: step %d started with %q", parallel, e.Step.Index, e.Text)
			}
		}
		plan := done.Plan
		// Each step lists the files it wrote, not those of the steps
		// beside it.
		wantFiles := map[int]string{1: "out/north.csv", 3: "out/south.csv", 5: "out/east.csv", 7: "out/summary.csv"}
		for _, st := range plan.Steps {
			if got := strings.Join(st.Files, ","); got != wantFiles[st.Index] {
				t.Errorf("parallel %d: step %d lists files %q, want %q", parallel, st.Index, got, wantFiles[st.Index])
			}
		}
		for _, e := range kinds(evs, event.StepStarted, event.StepFinished, event.Plan) {
			if e.Step != nil {
				t.Logf("parallel %d: %s step %d %s", parallel, e.Kind, e.Step.Index, e.Step.Status)
			} else if e.Plan != nil {
				t.Logf("parallel %d: plan %d steps, revisions %d", parallel, len(e.Plan.Steps), e.Plan.Revisions)
			}
		}
		for _, st := range plan.Steps {
			if st.Status != plans.StatusDone {
				t.Errorf("parallel %d: step %d is %s: %s", parallel, st.Index, st.Status, st.Summary)
			}
		}
		// Tool events of a branch carry its step.
		for _, e := range kinds(evs, event.ToolCall) {
			if e.Tool != "python" {
				continue
			}
			if e.Step == nil || !strings.Contains(e.Args, strings.Split(branchPlan[e.Step.Index-1].code, "\n")[0]) {
				t.Errorf("parallel %d: python call %s is not tagged with its step (%v)", parallel, e.Args, e.Step)
			}
		}
	}
	for _, want := range []string{"NORTH=150", "SOUTH=70", "EAST=30", "TOTAL=250 from 4 rows"} {
		if !strings.Contains(reports[3], want) {
			t.Errorf("the parallel report lacks %q:\n%s", want, reports[3])
		}
	}
	if reports[1] != reports[3] {
		t.Errorf("the reports differ:\n--- parallel 1\n%s\n--- parallel 3\n%s", reports[1], reports[3])
	}
}

// A budget reached while branches run stops them within one model call
// each, ends the run as over budget, and leaves no step half-done in
// plan.md.
func TestBudgetReachedWhileBranchesRun(t *testing.T) {
	s, script := branchSift(t, 0)
	const limit = 5 // the planner's call, then a few of the branches'
	_, done := runBranchPlan(t, s, 3, Budget{MaxModelCalls: limit})
	if !errors.Is(done.Err, ErrBudgetExceeded) {
		t.Fatalf("the run ended with %v, want the budget error", done.Err)
	}
	if calls := script.Calls(); calls > limit+3 {
		t.Errorf("%d model calls for a budget of %d with 3 branches running, want at most %d", calls, limit, limit+3)
	}
	plan := readWS(t, done, "plan.md")
	if strings.Contains(plan, "— doing") {
		t.Errorf("plan.md shows a step still in progress:\n%s", plan)
	}
	for _, st := range done.Plan.Steps {
		if st.Status == plans.StatusSkipped && !strings.Contains(st.Summary, "budget") {
			t.Errorf("step %d skipped without saying why: %q", st.Index, st.Summary)
		}
		if st.Status == plans.StatusTodo || st.Status == plans.StatusDoing {
			t.Errorf("step %d left %s", st.Index, st.Status)
		}
	}
}

// BenchmarkParallelSteps runs branchPlan with a model that answers after a
// second, as a provider would, one step at a time and three at a time:
// wall time per run, and the peak memory of the kernels (sampled).
//
//	go test ./agents -run '^$' -bench BenchmarkParallelSteps -benchtime 1x
func BenchmarkParallelSteps(b *testing.B) {
	for _, parallel := range []int{1, 3} {
		b.Run(fmt.Sprintf("parallel=%d", parallel), func(b *testing.B) {
			var peak atomic.Int64
			stop := make(chan struct{})
			sampled := make(chan struct{})
			go func() {
				defer close(sampled)
				for {
					peak.Store(max(peak.Load(), operator.ChildrenPeakMemory(os.Getpid())))
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
				}
			}()
			var answer string
			for b.Loop() {
				s, _ := branchSift(b, time.Second)
				_, done := runBranchPlan(b, s, parallel, Budget{})
				if done.Err != nil {
					b.Fatal(done.Err)
				}
				answer = done.Plan.Result.Answer
			}
			close(stop)
			<-sampled
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-kernel-MB")
			b.Logf("parallel %d: %s", parallel, answer)
		})
	}
}

// startBranchCrashChild runs, in a child process of this test binary, the
// branching plan with respond as its model in session "crash" under a new
// sessions root, until the test kills it; it returns the root and the
// child. Called again inside the child (env set), it runs the plan there
// and never returns.
func startBranchCrashChild(t *testing.T, test, env string, respond func(scripted.Request) (*schema.Message, error)) (string, *exec.Cmd) {
	t.Helper()
	if root := os.Getenv(env); root != "" {
		script := scripted.NewResponder(respond)
		s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
			Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: root, Python: pythonOrSkip(t), CodeTimeout: 10 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		for range s.Run(context.Background(), Request{Mode: ModePlan, Question: "Revenue by region, and the total?", Files: []string{salesCSV(t)}, Parallel: 3, SessionID: "crash"}) {
		}
		t.Fatal("the run ended before it was killed")
	}
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return root, cmd
}

// TestKillDashNineWhileBranchesRunThenResume kills a run (this test
// binary, run again as the child) while two branches are mid-step, then
// resumes it: the finished steps are not run again, and the report has
// the numbers of every step.
func TestKillDashNineWhileBranchesRunThenResume(t *testing.T) {
	py := pythonOrSkip(t)
	// The child: steps 2 and 6 hang until the parent kills it.
	root, cmd := startBranchCrashChild(t, "TestKillDashNineWhileBranchesRunThenResume", "SIFT_TEST_BRANCH_CRASH", slowBranchResponder(map[int]bool{2: true, 6: true}))
	statusOf := func() map[int]plans.StepStatus {
		fp, err := tree.LoadPlanState(filepath.Join(root, "crash"))
		if err != nil {
			return nil
		}
		out := map[int]plans.StepStatus{}
		for _, st := range fp.Steps {
			out[st.Index] = st.Status
		}
		return out
	}
	// Wait (no fixed sleep decides anything) until steps 1, 3, 4 and 5 are
	// done and 2 and 6 run their hanging cells.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		st := statusOf()
		if st[1] == plans.StatusDone && st[3] == plans.StatusDone && st[4] == plans.StatusDone && st[5] == plans.StatusDone &&
			st[2] == plans.StatusDoing && st[6] == plans.StatusDoing && hangingCells(root) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the branches never reached the crash point; steps: %v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	script := scripted.NewResponder(branchResponder)
	s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: root, Python: py, CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var done event.Event
	var notes []string
	for e := range s.Resume(context.Background(), "crash", nil) {
		done = e
		if e.Kind == event.Message && e.Agent == "sift" {
			notes = append(notes, e.Text)
		}
	}
	if !strings.Contains(strings.Join(notes, "\n"), "Steps 2 and 6 were in progress and run again.") {
		t.Errorf("the resume must say which steps run again: %q", notes)
	}
	if done.Err != nil {
		t.Fatalf("resume: %v", done.Err)
	}
	for _, req := range script.Requests() {
		if req.Agent != "executor" {
			continue
		}
		if m := currentStep.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content); m != nil && m[1] != "2" && m[1] != "6" && m[1] != "7" {
			t.Errorf("step %s was finished before the crash but ran again", m[1])
		}
	}
	report := readWS(t, done, "report.md")
	for _, want := range []string{"NORTH=150", "SOUTH=70", "EAST=30", "TOTAL=250 from 4 rows"} {
		if !strings.Contains(report, want) {
			t.Errorf("the resumed report lacks %q:\n%s", want, report)
		}
	}
}

// hangingCells counts the cells of the crash session that hang: the
// kernel saves a cell's code before it runs it.
func hangingCells(root string) int {
	files, _ := filepath.Glob(filepath.Join(root, "crash", operator.CellsDir, "cell-*.py"))
	n := 0
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "time.sleep(300)") {
			n++
		}
	}
	return n
}

// A pause asked while branches run stops them at their next safe point:
// the running steps finish, no new one starts, plan.md has no step in
// progress; resumed, the run does only what was left.
func TestPauseWhileBranchesRunThenResume(t *testing.T) {
	s, script := branchSift(t, 0)
	pause := make(chan struct{})
	ctx := WithPause(context.Background(), pause)
	var evs []event.Event
	paused, startedAfter := false, 0
	for e := range s.Run(ctx, Request{Mode: ModePlan, Question: "Revenue by region, and the total?", Files: []string{salesCSV(t)}, Parallel: 3}) {
		evs = append(evs, e)
		switch {
		case e.Kind == event.StepFinished && !paused:
			close(pause)
			paused = true
		case e.Kind == event.StepStarted && paused:
			startedAfter++
		}
	}
	// The batch may have launched one step as it reported the finish;
	// after that, none.
	if startedAfter > 1 {
		t.Errorf("%d steps started after the pause was asked, want at most 1", startedAfter)
	}
	done := evs[len(evs)-1]
	if !errors.Is(done.Err, ErrPaused) || len(kinds(evs, event.Paused)) != 1 {
		t.Fatalf("want a paused run, got %v (%d paused events)", done.Err, len(kinds(evs, event.Paused)))
	}
	before := map[int]bool{}
	for _, st := range done.Plan.Steps {
		switch st.Status {
		case plans.StatusDone:
			before[st.Index] = true
		case plans.StatusDoing:
			t.Errorf("step %d is left in progress by the pause", st.Index)
		}
	}
	if before[7] || len(before) == 7 {
		t.Fatalf("the pause stopped nothing: %v", before)
	}
	if plan := readWS(t, done, "plan.md"); strings.Contains(plan, "— doing") {
		t.Errorf("plan.md shows a step in progress after the pause:\n%s", plan)
	}
	id := filepath.Base(done.Path)
	calls := len(script.Requests())
	var last event.Event
	for e := range s.Resume(context.Background(), id, nil) {
		last = e
	}
	if last.Err != nil {
		t.Fatalf("resume: %v", last.Err)
	}
	for _, req := range script.Requests()[calls:] {
		if m := currentStep.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content); req.Agent == "executor" && m != nil {
			var n int
			fmt.Sscan(m[1], &n)
			if before[n] {
				t.Errorf("step %d finished before the pause but ran again", n)
			}
		}
	}
	if report := readWS(t, last, "report.md"); !strings.Contains(report, "TOTAL=250 from 4 rows") {
		t.Errorf("the resumed report lacks the total:\n%s", report)
	}
}

// A session keeps its --parallel: paused, it is resumed one step at a
// time as it was started; ResumeParallel overrides it.
func TestResumeKeepsTheSessionsParallel(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []ResumeOption
		want int
	}{
		{"the session's", nil, 1},
		{"overridden", []ResumeOption{ResumeParallel(3)}, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := branchSift(t, 0)
			pause := make(chan struct{})
			var done event.Event
			for e := range s.Run(WithPause(context.Background(), pause), Request{Mode: ModePlan, Question: "Revenue by region, and the total?", Files: []string{salesCSV(t)}, Parallel: 1}) {
				if e.Kind == event.StepStarted {
					close(pause)
				}
				done = e
			}
			if !errors.Is(done.Err, ErrPaused) {
				t.Fatalf("want a paused run, got %v", done.Err)
			}
			id := filepath.Base(done.Path)
			if meta, err := s.Session(context.Background(), id); err != nil || meta.Parallel != 1 {
				t.Fatalf("the session records parallel %d (%v), want 1", meta.Parallel, err)
			}
			var evs []event.Event
			for e := range s.Resume(context.Background(), id, nil, tt.opts...) {
				evs = append(evs, e)
			}
			if last := evs[len(evs)-1]; last.Err != nil {
				t.Fatalf("resume: %v", last.Err)
			}
			if most := mostAtOnce(evs); most != tt.want {
				t.Errorf("the resumed run ran %d steps at once, want %d", most, tt.want)
			}
		})
	}
}

// askingBranchResponder is branchResponder, except that step 3's code
// agent first runs a cell, then asks the person which currency, and only
// then does its work, printing what its first cell defined.
func askingBranchResponder(req scripted.Request) (*schema.Message, error) {
	return askingOver(branchResponder)(req)
}

// askingOver is askingBranchResponder over base: step 3's code agent
// asks, every other call is base's.
func askingOver(base func(scripted.Request) (*schema.Message, error)) func(scripted.Request) (*schema.Message, error) {
	return func(req scripted.Request) (*schema.Message, error) { return askingStep3(req, base) }
}

// codeTask is the executor's request in a code agent's request (the first
// user message after the data message), and whether the request is the
// code agent's first call of the task (no answer of its own yet).
func codeTask(req scripted.Request) (task string, first bool) {
	first = true
	for _, m := range req.Messages {
		switch {
		case m.Role == schema.Assistant:
			first = false
		case m.Role == schema.User && task == "" && !strings.HasPrefix(m.Content, prompt.DataHeading):
			task = m.Content
		}
	}
	return task, first
}

func askingStep3(req scripted.Request, base func(scripted.Request) (*schema.Message, error)) (*schema.Message, error) {
	if task, _ := codeTask(req); req.Agent != "code" || !strings.Contains(task, "Load the South rows") {
		return base(req)
	}
	var tools []string
	for _, m := range req.Messages {
		if m.Role == schema.Tool {
			tools = append(tools, m.ToolName)
		}
	}
	last := req.Messages[len(req.Messages)-1]
	switch len(tools) {
	case 0:
		return scripted.ToolCall("python", `{"code": "south_probe = 'kept'\nprint('probe')"}`), nil
	case 1:
		return scripted.ToolCall("ask_user", `{"question": "Which currency are the South rows in?"}`), nil
	case 2:
		if tools[1] != "ask_user" || !strings.Contains(last.Content, "USD") {
			return nil, fmt.Errorf("step 3 went on without the answer: %q", last.Content)
		}
		b, _ := json.Marshal(map[string]string{"code": branchPlan[2].code + "\nprint('PROBE=' + south_probe)"})
		return scripted.ToolCall("python", string(b)), nil
	}
	return scripted.Text("Done. Output:\n" + last.Content), nil
}

// A branch step that asks the person waits alone: the other branches
// finish, the question reaches the person as the run's interrupt, and the
// answer takes the step on from where it asked, with what it ran before
// asking still in the kernel: it is not run again from the start.
func TestBranchAsksThePersonAndGoesOnWhereItStopped(t *testing.T) {
	script := scripted.NewResponder(askingBranchResponder)
	s, err := New(Config{Models: Models{Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
		Code: script.ModelFor("code"), Report: script.ModelFor("report")}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	evs, done := runBranchPlan(t, s, 3, Budget{})
	if done.Err != nil || done.Interrupt == nil || !strings.Contains(done.Interrupt.Prompt, "Which currency") {
		t.Fatalf("the run must wait for the question of step 3; ended with %v, %+v", done.Err, done.Interrupt)
	}
	status := map[int]plans.StepStatus{}
	for _, st := range done.Plan.Steps {
		status[st.Index] = st.Status
	}
	want := map[int]plans.StepStatus{1: plans.StatusDone, 2: plans.StatusDone, 3: plans.StatusDoing, 4: plans.StatusTodo,
		5: plans.StatusDone, 6: plans.StatusDone, 7: plans.StatusTodo}
	if fmt.Sprint(status) != fmt.Sprint(want) {
		t.Errorf("while step 3 waits, the steps are %v, want %v", status, want)
	}
	if n := len(kinds(evs, event.Interrupted)); n != 1 {
		t.Errorf("%d interrupt events, want 1", n)
	}
	var last event.Event
	for e := range s.Resume(context.Background(), filepath.Base(done.Path), map[string]any{done.Interrupt.ID: tools.ParseAnswer("USD", nil)}) {
		last = e
	}
	if last.Err != nil || last.Interrupt != nil {
		t.Fatalf("resume: %v %+v", last.Err, last.Interrupt)
	}
	starts := 0
	for _, req := range script.Requests() {
		if task, first := codeTask(req); req.Agent == "code" && strings.Contains(task, "Load the South rows") && first {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("step 3's code agent started %d times, want once", starts)
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
}

// Every span of a run with steps side by side nests under the run's span,
// and the calls of a branch's step nest under that step's span.
func TestBranchSpansNestUnderTheRun(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	ctx, root := tp.Tracer("test").Start(context.Background(), "test")
	s, _ := branchSift(t, 0)
	var done event.Event
	for e := range s.Run(ctx, Request{Mode: ModePlan, Question: "Revenue by region, and the total?", Files: []string{salesCSV(t)}, Parallel: 3}) {
		done = e
	}
	root.End()
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	spans := exp.GetSpans()
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, sp := range spans {
		byID[sp.SpanContext.SpanID()] = sp
	}
	// ancestor returns the nearest ancestor of sp named like prefix.
	ancestor := func(sp tracetest.SpanStub, prefix string) (tracetest.SpanStub, bool) {
		for p, ok := byID[sp.Parent.SpanID()]; ok; p, ok = byID[p.Parent.SpanID()] {
			if strings.HasPrefix(p.Name, prefix) {
				return p, true
			}
		}
		return tracetest.SpanStub{}, false
	}
	steps := map[int]bool{}
	for _, sp := range spans {
		if sp.Name == "test" || sp.Name == "sift.run" {
			continue
		}
		if _, ok := ancestor(sp, "sift.run"); !ok {
			t.Errorf("span %q is not under the run's span", sp.Name)
		}
		var step int64 = -1
		agent := ""
		for _, kv := range sp.Attributes {
			switch kv.Key {
			case llm.AttrStep:
				step = kv.Value.AsInt64()
			case llm.AttrAgent:
				agent = kv.Value.AsString()
			}
		}
		if sp.Name == fmt.Sprintf("invoke_agent step %d", step) {
			steps[int(step)] = true
			continue
		}
		// The replanner's call that closes a step is metered under it, but
		// runs after it.
		if step > 0 && strings.HasPrefix(sp.Name, "chat") && (agent == "executor" || agent == "code") {
			if a, ok := ancestor(sp, "invoke_agent step"); !ok || a.Name != fmt.Sprintf("invoke_agent step %d", step) {
				t.Errorf("a model call of step %d is under %q, want its step's span", step, a.Name)
			}
		}
	}
	if len(steps) != len(branchPlan) {
		t.Errorf("spans of steps %v, want one for each of the %d steps", steps, len(branchPlan))
	}
}
