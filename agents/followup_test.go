package agents

import (
	"context"
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

// firstQuestion is the scripted work of a session's first question: one
// step computes x = 20, and the report says so.
func firstQuestion() []scripted.Reply {
	return []scripted.Reply{
		call(toolCreatePlan, steps("Compute x")),
		call("python", map[string]string{"code": "x = 20\nprint(x)"}),
		echoToolResult("x is "),
		call(toolSubmitResult, map[string]any{"answer": "x is 20"}),
		text("# x\n\nx is 20 [step 1]."),
	}
}

// askFirst runs firstQuestion and returns the session id.
func askFirst(t *testing.T, s *Sift, root string) string {
	t.Helper()
	evs := drain(t, s.Run(context.Background(), Request{Mode: ModePlan, Question: "what is x?"}))
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("the first question failed: %v", done.Err)
	} else {
		return strings.TrimPrefix(done.Path, root+"/")
	}
	return ""
}

// TestFollowUpPlanReviewKeepsFinishedSteps: whatever the person decides
// on a follow-up's plan, the step the first question finished stays done,
// in the review, in plan.md and in the state a later run starts from.
func TestFollowUpPlanReviewKeepsFinishedSteps(t *testing.T) {
	finish := append(oneStep("print(x + 1)"), call(toolSubmitResult, map[string]any{"answer": "21"}), text("# x+1\n\n21 [step 2]."))
	tests := []struct {
		name      string
		plans     []scripted.Reply
		decisions []*event.PlanDecision
		wantStep  string
	}{
		{"approve", []scripted.Reply{call(toolCreatePlan, steps("Add one to x"))},
			[]*event.PlanDecision{{Action: event.PlanApprove}}, "Add one to x"},
		{"edit", []scripted.Reply{call(toolCreatePlan, steps("Add two to x"))},
			[]*event.PlanDecision{{Action: event.PlanEdit, Steps: []string{"Add one to x, printed"}}}, "Add one to x, printed"},
		{"reject", []scripted.Reply{call(toolCreatePlan, steps("Add two to x")), call(toolCreatePlan, steps("Add one to x instead"))},
			[]*event.PlanDecision{{Action: event.PlanReject, Feedback: "one, not two"}, {Action: event.PlanApprove}}, "Add one to x instead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replies := append(append(firstQuestion(), tt.plans...), finish...)
			script := scripted.New(replies...)
			first, second, root := twoSifts(t, script)
			id := askFirst(t, first, root)
			evs := drain(t, second.Run(context.Background(), Request{Mode: ModePlan, SessionID: id, Question: "and x+1?", ReviewPlan: true}))
			for i, d := range tt.decisions {
				done := evs[len(evs)-1]
				if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptPlanReview {
					t.Fatalf("round %d: want a plan review, got %+v (err %v)", i+1, done.Interrupt, done.Err)
				}
				if p := done.Interrupt.Plan; len(p.Steps) < 2 || p.Steps[0].Description != "Compute x" || p.Steps[0].Status != plans.StatusDone {
					t.Fatalf("round %d: the review must show step 1 done, got %+v", i+1, p.Steps)
				}
				evs = drain(t, first.Resume(context.Background(), id, map[string]any{done.Interrupt.ID: d}))
			}
			done := evs[len(evs)-1]
			if done.Err != nil || done.Interrupt != nil {
				t.Fatalf("the follow-up must finish: err %v, interrupt %+v", done.Err, done.Interrupt)
			}
			if script.Remaining() != 0 {
				t.Errorf("%d replies unused", script.Remaining())
			}
			var got []string
			for _, s := range done.Plan.Steps {
				got = append(got, s.Description+" "+string(s.Status))
			}
			want := []string{"Compute x done", tt.wantStep + " done"}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("steps = %v, want %v", got, want)
			}
			plan := readWS(t, done, "plan.md")
			for _, w := range []string{"[x] **1. Compute x**", "[x] **2. " + tt.wantStep + "**"} {
				if !strings.Contains(plan, w) {
					t.Errorf("plan.md lacks %q:\n%s", w, plan)
				}
			}
			state, err := tree.LoadPlanState(done.Path)
			if err != nil || len(state.Steps) != 2 || state.Steps[0].Description != "Compute x" {
				t.Errorf("state.json must keep step 1: %+v %v", state, err)
			}
		})
	}
}

// TestStoppedFollowUpKeepsTheReport: a follow-up that is interrupted, or
// fails, writes its own report-02.md; report.md and report-01.md still
// hold the first question's answer.
func TestStoppedFollowUpKeepsTheReport(t *testing.T) {
	tests := []struct {
		name  string
		reply func(cancel context.CancelFunc) scripted.Reply
		note  string
	}{
		{"interrupted", func(cancel context.CancelFunc) scripted.Reply {
			return scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
				cancel()
				return scripted.ToolCall(toolCreatePlan, `{"steps":[{"index":1,"description":"Add one to x"}]}`), nil
			}}
		}, "The run was stopped"},
		{"failed", func(context.CancelFunc) scripted.Reply {
			return scripted.Reply{Status: 400}
		}, "The run stopped early"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			script := scripted.New(append(firstQuestion(), tt.reply(cancel))...)
			first, second, root := twoSifts(t, script)
			id := askFirst(t, first, root)
			evs := drain(t, second.Run(ctx, Request{Mode: ModePlan, SessionID: id, Question: "and x+1?"}))
			done := evs[len(evs)-1]
			if done.Err == nil {
				t.Fatal("the follow-up must end with an error")
			}
			for _, f := range []string{session.ReportFile, "report-01.md"} {
				if got := readWS(t, done, f); !strings.Contains(got, "x is 20 [step 1]") || strings.Contains(got, tt.note) {
					t.Errorf("%s must still hold the first answer:\n%s", f, got)
				}
			}
			if html := readWS(t, done, "report.html"); !strings.Contains(html, "x is 20") {
				t.Error("report.html must still hold the first answer")
			}
			if got := readWS(t, done, "report-02.md"); !strings.Contains(got, tt.note) {
				t.Errorf("report-02.md must hold the stopped follow-up's report:\n%s", got)
			}
			rep := kinds(evs, event.Report)
			if len(rep) != 1 || rep[0].Path != "report-02.md" {
				t.Errorf("the report event must name report-02.md, got %+v", rep)
			}
			if _, err := os.Stat(filepath.Join(done.Path, "report-02.html")); err != nil {
				t.Error(err)
			}
			// The registry keeps the first answer in sight too: the
			// status is the follow-up's, the counts the session's.
			b, err := session.OpenFileBackend(root)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			m, err := b.Sessions.Get(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if m.Questions != 2 || m.Answered != 1 || m.Owner != nil {
				t.Errorf("meta: %d questions, %d answered, owner %v; want 2, 1 and none once the run ended", m.Questions, m.Answered, m.Owner)
			}
		})
	}
}
