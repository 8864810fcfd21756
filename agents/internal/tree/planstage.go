package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
)

// planStage wraps the planner or the replanner (neither of which knows about
// statuses): after the inner agent has set a new plan, it merges that plan
// into the run's FullPlan, or records the submitted result, then rewrites
// plan.md and reports the plan as an event.
type planStage struct {
	inner     adk.Agent
	replanner bool
	budget    *BudgetGuard
}

func (a *planStage) Name(ctx context.Context) string        { return a.inner.Name(ctx) }
func (a *planStage) Description(ctx context.Context) string { return a.inner.Description(ctx) }

func (a *planStage) Run(ctx context.Context, input *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		if a.replanner {
			// The replan after a step is part of that step's cost.
			if last := lastFinished(fullPlan(ctx)); last > 0 {
				ctx = llm.WithStep(ctx, last)
			}
		}
		ctx, endSpan := llm.StartAgent(ctx, a.inner.Name(ctx))
		defer endSpan(nil)
		var lastContent string
		broke := false
		if handled := a.shortcut(ctx, gen); handled {
			return
		}
		failed := relay(a.inner.Run(ctx, input, opts...), gen, func(ev *adk.AgentEvent) bool {
			if ev.Action != nil && ev.Action.BreakLoop != nil {
				broke = true
			}
			if m := eventMessage(ev); m != nil && ev.Err == nil {
				lastContent = m.Content
			}
			return true
		})
		if failed != nil {
			return
		}
		own := ownPlan(ctx, gen)
		if broke {
			var res plans.SubmitResult
			if err := json.Unmarshal([]byte(lastContent), &res); err != nil {
				res = plans.SubmitResult{Answer: lastContent}
			}
			own.Answer(&res)
		} else {
			raw, ok := params.Plan.Get(ctx)
			plan, isOurs := raw.(*plans.Plan)
			if !ok || !isOurs {
				gen.Send(&adk.AgentEvent{Err: fmt.Errorf("%s: no plan was produced (got %T)", a.inner.Name(ctx), raw)})
				return
			}
			if len(plan.Steps) == 0 {
				gen.Send(&adk.AgentEvent{Err: fmt.Errorf("%s: the plan has no steps; the model must call create_plan with at least one step, or submit_result", a.inner.Name(ctx))})
				return
			}
			own.Plan(plan)
			if mode, _ := params.Mode.Get(ctx); !a.replanner && mode == params.ModeAuto && plan.Complexity == plans.ComplexityTrivial && len(plan.Steps) == 1 {
				params.Quick.Set(ctx, true)
			}
		}
		_ = own.SaveAndPublish("")
	})
}

// shortcut does the stage's work without a model where the route allows:
// on the quick path the question itself is the one-step plan, and the
// code agent's answer is the result. It reports whether it did.
func (a *planStage) shortcut(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent]) bool {
	mode, _ := params.Mode.Get(ctx)
	quick, _ := params.Quick.Get(ctx)
	own := ownPlan(ctx, gen)
	fp := own.fp
	if a.replanner {
		if err := a.budget.check(false); err != nil {
			stopForBudget(gen, own, err, a.inner.Name(ctx))
			return true
		}
		if next := fp.Current(); next != nil && PauseRequested(ctx) {
			// A safe point before the next step, reached without another
			// model call: the resumed run starts that step, and the
			// replanner sees its result with this one's.
			params.Paused.Set(ctx, true)
			gen.Send(siftEvent(event.Event{Kind: event.Paused, Text: fmt.Sprintf("paused before step %d", next.Index)}))
			gen.Send(&adk.AgentEvent{Action: adk.NewBreakLoopAction(a.inner.Name(ctx))})
			return true
		}
	}
	resumed, _ := params.Resumed.Get(ctx)
	if !a.replanner {
		// The executor and replanner read the question where planexecute's
		// planner would have put it.
		q, _ := params.Question.Get(ctx)
		params.UserInput.Set(ctx, []adk.Message{schema.UserMessage(q)})
	}
	switch {
	case !a.replanner && resumed && (fp.Current() != nil || AllStepsDone(fp)):
		own.Resumed()
	case !a.replanner && mode == params.ModeQuick:
		q, _ := params.Question.Get(ctx)
		own.Plan(&plans.Plan{Steps: []plans.Step{{Description: q}}, Complexity: plans.ComplexityTrivial})
		params.Quick.Set(ctx, true)
	case a.replanner && resumed && fp.Result != nil && fp.Current() == nil:
		// A run resumed after its answer was given (it stopped while the
		// report was written): no model call, on to the report.
		gen.Send(&adk.AgentEvent{Action: adk.NewBreakLoopAction(a.inner.Name(ctx))})
	case a.replanner && quick && a.escalate(ctx, gen, fp):
		return false
	case a.replanner && quick:
		var answer string
		for i := len(fp.Steps) - 1; i >= 0; i-- {
			if fp.Steps[i].Status == plans.StatusDone || fp.Steps[i].Status == plans.StatusFailed {
				answer = fp.Steps[i].Summary
				break
			}
		}
		own.Answer(&plans.SubmitResult{Answer: answer})
		gen.Send(&adk.AgentEvent{Action: adk.NewBreakLoopAction(a.inner.Name(ctx))})
	default:
		return false
	}
	_ = own.SaveAndPublish("")
	return true
}

// escalate hands a failed quick answer in auto mode to the full
// plan-execute loop, once: the replanner then plans with the failed
// attempt's summary in front of it. It reports whether it did.
func (a *planStage) escalate(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], fp *plans.FullPlan) bool {
	mode, _ := params.Mode.Get(ctx)
	if mode != params.ModeAuto {
		return false
	}
	if done, _ := escalated.Get(ctx); done {
		return false
	}
	failed := false
	for _, st := range fp.Steps {
		if st.Status == plans.StatusDone || st.Status == plans.StatusFailed {
			failed = st.Status == plans.StatusFailed
		}
	}
	if !failed {
		return false
	}
	params.Quick.Set(ctx, false)
	escalated.Set(ctx, true)
	gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: a.inner.Name(ctx),
		Text: "The quick answer failed; the request goes to the planner with what the attempt found."}))
	return true
}

// lastFinished is the index of the last step done or failed, or 0.
func lastFinished(fp *plans.FullPlan) int {
	last := 0
	for _, s := range fp.Steps {
		if s.Status == plans.StatusDone || s.Status == plans.StatusFailed {
			last = s.Index
		}
	}
	return last
}

// siftEvent carries one of Sift's own events through the ADK event stream,
// so it reaches the caller in order with the agents' events.
func siftEvent(e event.Event) *adk.AgentEvent {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	return &adk.AgentEvent{Output: &adk.AgentOutput{CustomizedOutput: &e}}
}

// recoverInto turns a panic in a wrapper agent into an error event instead
// of a crashed process.
func recoverInto(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
	if r := recover(); r != nil {
		gen.Send(&adk.AgentEvent{Err: fmt.Errorf("internal error: %v\n%s", r, debug.Stack())})
	}
}
