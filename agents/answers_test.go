package agents

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// TestAnswersAreTyped: every constructor answers the kind it says.
func TestAnswersAreTyped(t *testing.T) {
	for _, c := range []struct {
		a    Answer
		kind string
	}{
		{AnswerText("fiscal year"), event.InterruptQuestion},
		{AnswerChoice(2), event.InterruptQuestion},
		{AnswerReply("2", []string{"a", "b"}), event.InterruptQuestion},
		{Approve(), event.InterruptApproval},
		{Deny("too risky"), event.InterruptApproval},
		{ApprovePlan(), event.InterruptPlanReview},
		{EditPlan("one", "two"), event.InterruptPlanReview},
		{RejectPlan("use 2024"), event.InterruptPlanReview},
	} {
		if got := c.a.InterruptKind(); got != c.kind {
			t.Errorf("%T answers %s, want %s", c.a, got, c.kind)
		}
	}
	if a := AnswerReply("b", []string{"a", "b"}); a.Choice != 2 {
		t.Errorf("AnswerReply picked %+v, want choice 2", a)
	}
}

// TestResumeRefusesAnAnswerThatDoesNotFit: a session waiting on a question
// given an approval, or a bare string, is refused with ErrBadAnswer and
// stays waiting on the same question, so the right answer then finishes
// it; the done event names the session.
func TestResumeRefusesAnAnswerThatDoesNotFit(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Count the rows of the right sheet")),
		call("ask_user", map[string]any{"question": "Which sheet?", "choices": []string{"2023", "2024"}}),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			last := req.Messages[len(req.Messages)-1]
			if last.Role != schema.Tool || !strings.Contains(last.Content, "2024") {
				return scripted.Text("FAILED: no answer reached me: " + last.Content), nil
			}
			return scripted.ToolCall("python", `{"code": "print('rows in 2024: 12')"}`), nil
		}},
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "12 rows in 2024"}),
		text("# Rows\n\n12 [step 1]."),
	)
	first, second, root := twoSifts(t, script)
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "how many rows?"}))
	done := evs[len(evs)-1]
	id := strings.TrimPrefix(done.Path, root+"/")
	if done.Session != id {
		t.Errorf("done.Session = %q, want %q", done.Session, id)
	}
	before, err := second.Session(context.Background(), id)
	if err != nil || before.Pending == nil {
		t.Fatalf("not waiting: %+v %v", before, err)
	}
	for name, wrong := range map[string]any{"an approval": Approve(), "a string": "2024"} {
		evs = drain(t, second.Resume(context.Background(), id, map[string]any{before.Pending.ID: wrong}))
		done = evs[len(evs)-1]
		if !errors.Is(done.Err, ErrBadAnswer) {
			t.Fatalf("%s for a question: done.Err = %v, want ErrBadAnswer", name, done.Err)
		}
		after, err := second.Session(context.Background(), id)
		if err != nil || after.Status != session.StatusWaiting || after.Pending == nil || after.Pending.ID != before.Pending.ID {
			t.Fatalf("after %s the session changed: %+v %v", name, after, err)
		}
	}
	evs = drain(t, second.Resume(context.Background(), id, map[string]any{before.Pending.ID: AnswerChoice(2)}))
	done = evs[len(evs)-1]
	if done.Err != nil || done.Plan == nil || done.Plan.Steps[0].Status != plans.StatusDone || done.Session != id {
		t.Fatalf("the right answer did not finish the session: %v %+v", done.Err, done)
	}
}
