package tree

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/adk"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
)

// planReview sits between the planner and the execute/replan loop. When the
// run asks for review it interrupts with the plan; resumed with a
// event.PlanDecision it approves the plan, replaces its steps, or sends
// the person's feedback back to the planner and asks again. (planexecute's
// planner is not resumable, so the review is its own resumable agent.)
type planReview struct {
	planner adk.Agent
}

// planReviewState is what the interrupt saves: nothing but a marker, since
// the plan itself lives in the session values.
type planReviewState struct {
	Round int
}

func (a *planReview) Name(context.Context) string { return NamePlanReview }
func (a *planReview) Description(context.Context) string {
	return "lets the person approve, edit or reject the plan before it runs"
}

func (a *planReview) Run(ctx context.Context, _ *adk.AgentInput, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		// The quick path's one-step plan is reviewed too: a person who asked
		// to review sees the plan before anything runs, whatever the route.
		if review, _ := params.ReviewPlan.Get(ctx); !review {
			return
		}
		a.ask(ctx, gen, 1)
	})
}

// ask interrupts with the current plan for the person to review.
func (a *planReview) ask(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], round int) {
	fp := fullPlan(ctx)
	info := &event.Interrupt{
		Kind:    event.InterruptPlanReview,
		Prompt:  "Review the plan: approve it, edit its steps, or reject it with feedback.",
		Choices: []string{event.PlanApprove, event.PlanEdit, event.PlanReject},
		Plan:    fp.Clone(),
	}
	gen.Send(adk.StatefulInterrupt(ctx, info, &planReviewState{Round: round}))
}

func (a *planReview) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		round := 1
		if st, ok := info.InterruptState.(*planReviewState); ok && st != nil {
			round = st.Round
		}
		decision, ok := info.ResumeData.(*event.PlanDecision)
		if !info.IsResumeTarget || !ok || decision == nil {
			// Resumed without an answer for the review: ask again.
			a.ask(ctx, gen, round)
			return
		}
		own := ownPlan(ctx, gen)
		switch decision.Action {
		case event.PlanApprove:
		case event.PlanEdit:
			var steps []plans.Step
			for _, s := range decision.Steps {
				if strings.TrimSpace(s) != "" {
					steps = append(steps, plans.Step{Description: strings.TrimSpace(s)})
				}
			}
			if len(steps) == 0 {
				gen.Send(&adk.AgentEvent{Err: fmt.Errorf("plan review: an edited plan needs at least one step")})
				return
			}
			// The new steps replace the planned ones; the steps earlier
			// questions finished stay. Several steps are more than the quick
			// path's one answer.
			if len(steps) > 1 {
				params.Quick.Set(ctx, false)
			}
			own.Replace(&plans.Plan{Steps: steps})
		case event.PlanReject:
			params.PlanFeedback.Set(ctx, decision.Feedback)
			own.Reject()
			// Plan again with the feedback, then ask again.
			if failed := relay(a.planner.Run(ctx, &adk.AgentInput{}, opts...), gen, nil); failed != nil {
				return
			}
			params.PlanFeedback.Set(ctx, "")
			a.ask(ctx, gen, round+1)
			return
		default:
			gen.Send(&adk.AgentEvent{Err: fmt.Errorf("plan review: unknown action %q: use approve, edit or reject", decision.Action)})
			return
		}
		said := map[string]string{event.PlanApprove: "plan approved", event.PlanEdit: "plan edited"}[decision.Action]
		_ = own.SaveAndPublish(said)
	})
}
