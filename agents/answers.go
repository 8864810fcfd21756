package agents

import (
	"errors"
	"fmt"
	"sort"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
)

// Answer is the answer to one interrupt a waiting session stopped at
// (event.Interrupt), for Sift.Resume. Make one with the function for the
// interrupt's Kind:
//
//	event.InterruptQuestion   AnswerText, AnswerChoice, AnswerReply
//	event.InterruptApproval   Approve, Deny
//	event.InterruptPlanReview ApprovePlan, EditPlan, RejectPlan
//
// and key it by the interrupt's ID:
//
//	sift.Resume(ctx, id, map[string]any{in.ID: agents.AnswerText("fiscal year")})
//
// InterruptKind names the kind of interrupt the value answers.
type Answer interface {
	InterruptKind() string
}

// The concrete answers, one type per kind of interrupt.
var (
	_ Answer = (*tools.Answer)(nil)
	_ Answer = (*tools.ApprovalDecision)(nil)
	_ Answer = (*event.PlanDecision)(nil)
)

// AnswerText answers a question in the person's words.
func AnswerText(text string) *tools.Answer { return &tools.Answer{Text: text} }

// AnswerChoice answers a question by picking its n-th choice (from 1, as
// event.Interrupt.Choices lists them).
func AnswerChoice(n int) *tools.Answer { return &tools.Answer{Choice: n} }

// AnswerReply answers a question with what a person typed: a choice's
// number ("2") or its text in any case picks that choice; anything else is
// the answer in their words.
func AnswerReply(reply string, choices []string) *tools.Answer {
	return tools.ParseAnswer(reply, choices)
}

// Approve allows the action an approval asks about.
func Approve() *tools.ApprovalDecision {
	return &tools.ApprovalDecision{Action: tools.ApprovalApprove}
}

// Deny refuses the action an approval asks about; reason (optional) tells
// the model why.
func Deny(reason string) *tools.ApprovalDecision {
	return &tools.ApprovalDecision{Action: tools.ApprovalDeny, Reason: reason}
}

// ApprovePlan approves the plan under review as it is.
func ApprovePlan() *event.PlanDecision { return &event.PlanDecision{Action: event.PlanApprove} }

// EditPlan replaces the steps of the plan under review and approves it.
func EditPlan(steps ...string) *event.PlanDecision {
	return &event.PlanDecision{Action: event.PlanEdit, Steps: steps}
}

// RejectPlan sends the plan back to the planner with the person's
// feedback.
func RejectPlan(feedback string) *event.PlanDecision {
	return &event.PlanDecision{Action: event.PlanReject, Feedback: feedback}
}

// ErrBadAnswer is wrapped when an answer given to Resume is not an Answer,
// or answers another kind of interrupt than the one pending.
var ErrBadAnswer = errors.New("bad answer")

// checkAnswers refuses answers that cannot answer what the session waits
// for, before anything of the session changes: a value that is not an
// Answer, or one for another kind of interrupt than the pending one.
func checkAnswers(pending *session.Pending, answers map[string]any) error {
	ids := make([]string, 0, len(answers))
	for id := range answers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		a, ok := answers[id].(Answer)
		if !ok {
			return fmt.Errorf("%w: the answer to %s is a %T; give an agents.Answer (AnswerText, AnswerChoice, Approve, Deny, ApprovePlan, EditPlan or RejectPlan)", ErrBadAnswer, id, answers[id])
		}
		if pending != nil && id == pending.ID && a.InterruptKind() != string(pending.Kind) {
			return fmt.Errorf("%w: %s is a %s, and the answer given is for a %s; %s", ErrBadAnswer, id, pending.Kind, a.InterruptKind(), answerHint(string(pending.Kind)))
		}
	}
	return nil
}

// answerHint names the constructors for an interrupt kind.
func answerHint(kind string) string {
	switch kind {
	case event.InterruptQuestion:
		return "answer it with agents.AnswerText, AnswerChoice or AnswerReply"
	case event.InterruptApproval:
		return "answer it with agents.Approve or agents.Deny"
	case event.InterruptPlanReview:
		return "answer it with agents.ApprovePlan, EditPlan or RejectPlan"
	}
	return "see agents.Answer"
}

// AnswerFor builds the answer to a pending question or approval from plain
// values, for callers such as the CLI that hold a person's flags: a
// question is answered with text (a choice's number or text picks it); an
// approval is approved, or denied with a reason. A Go program rather calls
// the constructor for the interrupt's kind (see Answer).
func AnswerFor(kind string, choices []string, approve bool, answer, deny string) (Answer, error) {
	switch kind {
	case event.InterruptQuestion:
		if answer == "" {
			return nil, errors.New("the session asks a question: give --answer TEXT")
		}
		return AnswerReply(answer, choices), nil
	case event.InterruptApproval:
		switch {
		case approve:
			return Approve(), nil
		case deny != "":
			return Deny(deny), nil
		}
		return nil, errors.New("the session waits for an approval: give --approve or --deny REASON")
	}
	return nil, fmt.Errorf("cannot answer a pending %q here", kind)
}
