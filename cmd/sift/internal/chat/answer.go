package chat

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/cmd/sift/internal/termui"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/termsafe"
	"github.com/sift-agent/sift/plans"
)

// answer shows what the session waits for and reads the person's answer
// at the prompt (see answerAt). It returns errChatInputEnded when the
// input ends first.
func (c *sessionChat) answer(in *event.Interrupt) (any, error) {
	return answerAt(c.console.lines, c.io.ErrOut, in, c.showReviewPlan)
}

// answerAt shows what a turn waits for on out and reads the person's
// answer from lines: a *event.PlanDecision for a plan review (showPlan
// shows the plan first), the tools' answer types (through
// agents.AnswerFor) for questions and approvals. It returns
// errChatInputEnded when the input ends first.
func answerAt(lines lineReader, out io.Writer, in *event.Interrupt, showPlan func(*event.Interrupt)) (any, error) {
	var (
		a   any
		err error
	)
	switch in.Kind {
	case event.InterruptPlanReview:
		showPlan(in)
		a, err = reviewPlan(lines, out, in.Plan)
	case event.InterruptApproval:
		fmt.Fprintln(out, termui.Linef("Approval needed: %s", in.Prompt))
		a, err = decideApproval(lines, out)
	default:
		fmt.Fprintln(out, termui.Linef("Question: %s", in.Prompt))
		for i, ch := range in.Choices {
			fmt.Fprintln(out, termui.Linef("  %d. %s", i+1, ch))
		}
		a, err = answerQuestion(lines, out, in.Choices)
	}
	if errors.Is(err, io.EOF) {
		return nil, errChatInputEnded
	}
	return a, err
}

// showReviewPlan shows the plan under review once: it points at the plan
// the turn just printed, or prints it as a checklist from the interrupt,
// or from plan.md when the session was left waiting by an earlier process.
func (c *sessionChat) showReviewPlan(in *event.Interrupt) {
	if c.r.PrintedLast(in.Plan) {
		c.status("The plan above waits for your review.")
		return
	}
	if in.Plan != nil && len(in.Plan.Steps) > 0 {
		c.status("The plan waits for your review:")
		for _, s := range in.Plan.Steps {
			c.status("  %s %d. %s", c.r.Mark(string(s.Status)), s.Index, termui.OneLine(s.Description, 160))
		}
		return
	}
	if b, err := os.ReadFile(filepath.Join(c.workdir, "plan.md")); err == nil {
		c.status("The plan waits for your review:\n%s", termui.Shown(termsafe.Text(strings.TrimRight(string(b), "\n"))))
		return
	}
	c.status("The plan waits for your review (%s).", in.Prompt)
}

// reviewPlan reads approve, edit (then changes to plan's steps still to
// run, see editSteps) or reject (then the feedback).
func reviewPlan(lines lineReader, hint io.Writer, plan *plans.FullPlan) (*event.PlanDecision, error) {
	for {
		line, err := lines.readLine("approve / edit / reject? ")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "approve", "y", "yes", "ok":
			return &event.PlanDecision{Action: event.PlanApprove}, nil
		case "e", "edit":
			steps, err := editSteps(lines, hint, plan)
			if err != nil {
				return nil, err
			}
			if steps == nil {
				continue
			}
			return &event.PlanDecision{Action: event.PlanEdit, Steps: steps}, nil
		case "r", "reject", "n", "no":
			for {
				fb, err := lines.readLine("what should change? ")
				if err != nil {
					return nil, err
				}
				if fb = strings.TrimSpace(fb); fb != "" {
					return &event.PlanDecision{Action: event.PlanReject, Feedback: fb}, nil
				}
				fmt.Fprintln(hint, "Say what the planner should do differently.")
			}
		default:
			fmt.Fprintln(hint, "Type approve, edit or reject.")
		}
	}
}

// answerQuestion reads the answer to a question: a choice's number or
// text picks it, anything else is the answer in the person's words.
func answerQuestion(lines lineReader, hint io.Writer, choices []string) (any, error) {
	for {
		line, err := lines.readLine("answer: ")
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(line) == "" {
			fmt.Fprintln(hint, "Type your answer (or a choice's number).")
			continue
		}
		return agents.AnswerFor(event.InterruptQuestion, choices, false, strings.TrimSpace(line), "")
	}
}

// decideApproval reads approve or deny (then the reason).
func decideApproval(lines lineReader, hint io.Writer) (any, error) {
	for {
		line, err := lines.readLine("approve / deny? ")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "approve", "y", "yes":
			return agents.AnswerFor(event.InterruptApproval, nil, true, "", "")
		case "d", "deny", "n", "no":
			reason, err := lines.readLine("why? ")
			if err != nil {
				return nil, err
			}
			if reason = strings.TrimSpace(reason); reason == "" {
				reason = "the person denied it without giving a reason"
			}
			return agents.AnswerFor(event.InterruptApproval, nil, false, "", reason)
		default:
			fmt.Fprintln(hint, "Type approve or deny.")
		}
	}
}
