package agents

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/templates"
)

// resumeBuiltin goes on with a built-in analysis that stopped (paused,
// or its process died, as a worker killed mid-run): it needs no model,
// because the built-in's steps are known without one. The analysis is
// matched again over the session's inputs and runs again from its start;
// its steps are deterministic computations over the data, so the answer
// is the one the first run would have given, and its stopped steps are
// replaced rather than listed twice. It reports false when the session
// is not a built-in's, or waits for the person (a template's plan review
// is answered by routeResume).
func (r *run) resumeBuiltin(ctx context.Context, st *resumed) bool {
	name := st.meta.Template
	if name == "" || st.meta.Status == session.StatusWaiting {
		return false
	}
	// Matched as the first run was (route): the request's own match when
	// it names this built-in, so the answer carries the same reading
	// line; the built-in by name only when the request alone no longer
	// picks it (a run that named its built-in, or changed inputs).
	m, err := templates.MatchRequest(r.req.Question, r.previews), error(nil)
	if r.req.Template != "" || m.Template != name || !m.OK() {
		m, err = templates.MatchTemplate(name, r.req.Question, r.previews)
	}
	if err != nil || !m.OK() {
		why := "its inputs no longer fit it"
		if err != nil {
			why = err.Error()
		} else if len(m.Reasons) > 0 {
			why = strings.Join(m.Reasons, "; ")
		}
		r.refuse(fmt.Errorf("%w: session %s ran the built-in analysis %q, which cannot run again: %s", ErrNothingToResume, r.ws.ID, name, why))
		return true
	}
	r.dropBuiltinSteps(name)
	r.builtin = name
	r.putMeta(ctx, session.StatusRunning, nil)
	r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: fmt.Sprintf("Resumed: the built-in analysis %q runs again from its start, with no model; its steps compute the same results from the same data.", name)})
	ok, err := r.runTemplate(ctx, r.op, m)
	if ctx.Err() != nil {
		r.stopBuiltin(ctx, err)
		return true
	}
	if !ok || err != nil {
		r.fail(fmt.Errorf("%w: %w", ErrRunFailed, err))
		return true
	}
	r.ran = m
	r.emit(event.Event{Kind: event.UsageSoFar, Usage: r.usage()})
	r.done(nil)
	return true
}

// stopBuiltin ends a built-in analysis stopped at once (a cancelled
// context: Ctrl-C twice, a worker shutting down) as the agents' runs
// end: paused, its step to run again when resumed, not failed.
func (r *run) stopBuiltin(ctx context.Context, cause error) {
	own := r.ownPlan(ctx)
	for i := range r.plan.Steps {
		if s := &r.plan.Steps[i]; s.Status == plans.StatusDoing || (s.Status == plans.StatusFailed && r.plan.Result == nil) {
			own.Again(s)
		}
	}
	_ = own.Save()
	err := fmt.Errorf("%w: %w", ErrRunFailed, cmpErr(cause, ctx.Err()))
	r.emit(event.Event{Kind: event.Error, Err: err})
	r.putMeta(context.WithoutCancel(ctx), session.StatusPaused, nil)
	r.close(event.Event{Kind: event.Done, Err: err, Plan: r.plan.Clone(), Usage: r.usage(), Path: r.ws.Root})
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// dropBuiltinSteps removes the current question's steps of the built-in
// analysis name (any status) from the plan, so that its run again lists
// them once; steps of earlier questions stay.
func (r *run) dropBuiltinSteps(name string) {
	t, err := templates.Lookup(name)
	if err != nil {
		return
	}
	ours := func(s plans.StepState) bool {
		return strings.HasPrefix(s.Description, fmt.Sprintf("Built-in analysis %q", t.Name)) ||
			strings.HasPrefix(s.Description, fmt.Sprintf("内置分析“%s”", t.Name))
	}
	// The current question has no answer yet: its built-in steps, done
	// or not, are the ones that run again. (A step of an earlier question
	// of the same built-in is dropped with them; its answer stays in the
	// earlier exchange.)
	r.plan.Steps = slices.DeleteFunc(r.plan.Steps, func(s plans.StepState) bool {
		return ours(s) && (s.Status == plans.StatusTodo || s.Status == plans.StatusDoing || r.plan.Result == nil)
	})
}
