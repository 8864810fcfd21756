package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dustin/go-humanize/english"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/templates"
)

// resumeBuiltin goes on with a built-in analysis that stopped (paused,
// or its process died, as a worker killed mid-run): it needs no model,
// because the built-in's steps are known without one. The analysis is
// matched again over the session's inputs; the tables whose steps had
// finished (their results kept in builtinStepsFile) are not run again,
// the others run from their start. Its steps are deterministic
// computations over the data, so the answer is the one the first run
// would have given, and its stopped steps are replaced rather than
// listed twice. It reports false when the session
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
	r.keptSteps = r.keptBuiltinSteps(name)
	r.dropBuiltinSteps(name)
	r.builtin = name
	r.putMeta(ctx, session.StatusRunning, nil)
	what := fmt.Sprintf("Resumed: the built-in analysis %q runs again from its start, with no model; its steps compute the same results from the same data.", name)
	if n := len(r.keptSteps); n > 0 {
		what = fmt.Sprintf("Resumed: the built-in analysis %q goes on with no model; the %s it had finished %s kept, the others run again and compute what they would have.", name, english.Plural(n, "table", ""), map[bool]string{true: "is", false: "are"}[n == 1])
	}
	r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: what})
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

// builtinStepsFile keeps the results of a built-in's finished steps (one
// per table), so that a resume runs only the tables not done. It lives in
// the workspace's root, which generated code cannot write.
const builtinStepsFile = "builtin-steps.json"

// builtinSteps is builtinStepsFile's content: the finished steps of one
// question's built-in analysis, by description.
type builtinSteps struct {
	// Question is the question's place in its session
	// (plans.FullPlan.QuestionNumber) and Template the built-in's name:
	// steps of another question or built-in are not kept.
	Question int                 `json:"question"`
	Template string              `json:"template"`
	Steps    map[string]keptStep `json:"steps"`
}

// keptStep is one finished step of a built-in and what it computed.
type keptStep struct {
	State  plans.StepState   `json:"state"`
	Result *templates.Result `json:"result"`
}

// keepBuiltinStep records that step of built-in name finished with res,
// durably, before the run goes on to the next table. A record that
// cannot be written only costs a resume that step again.
func (r *run) keepBuiltinStep(name string, step plans.StepState, res *templates.Result) {
	kept := builtinSteps{Question: r.plan.QuestionNumber(), Template: name, Steps: map[string]keptStep{}}
	if old, err := readBuiltinSteps(r.ws.Root); err == nil && old.Question == kept.Question && old.Template == name {
		kept.Steps = old.Steps
	}
	kept.Steps[step.Description] = keptStep{State: step, Result: res}
	b, err := json.Marshal(kept)
	if err == nil {
		err = r.ws.WriteFile(builtinStepsFile, b, session.Durable)
	}
	if err != nil {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: fmt.Sprintf("warning: could not keep step %d's result for a resume (%v); a resume would run it again", step.Index, err)})
	}
}

func readBuiltinSteps(root string) (builtinSteps, error) {
	var kept builtinSteps
	b, err := os.ReadFile(filepath.Join(root, builtinStepsFile))
	if err != nil {
		return kept, err
	}
	if err := json.Unmarshal(b, &kept); err != nil {
		return kept, fmt.Errorf("read %s: %w", builtinStepsFile, err)
	}
	return kept, nil
}

// keptBuiltinSteps are the steps of the current question's built-in
// analysis name that the session's plan records done and whose results
// were kept: a resume does not run them again.
func (r *run) keptBuiltinSteps(name string) map[string]keptStep {
	kept, err := readBuiltinSteps(r.ws.Root)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: fmt.Sprintf("warning: the kept results of the built-in's finished steps could not be read (%v); every step runs again", err)})
		}
		return nil
	}
	if kept.Question != r.plan.QuestionNumber() || kept.Template != name || r.plan.Result != nil {
		return nil
	}
	out := map[string]keptStep{}
	for _, s := range r.plan.Steps {
		k, ok := kept.Steps[s.Description]
		if s.Status != plans.StatusDone || !ok || k.Result == nil || k.State.Status != plans.StatusDone {
			continue
		}
		out[s.Description] = k
	}
	return out
}
