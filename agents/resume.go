package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"github.com/dustin/go-humanize/english"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/session"
)

// ErrNothingToResume: the session is finished, or has no state to go on
// from.
var ErrNothingToResume = errors.New("nothing to resume")

// Resume goes on with a session, in this process or a new one. A session
// waiting for the person is resumed from its checkpoint with answers, keyed
// by interrupt ID (event.Interrupt.ID), each an Answer made for the
// interrupt's kind: AnswerText, AnswerChoice or AnswerReply for a
// question, Approve or Deny for an approval, ApprovePlan, EditPlan or
// RejectPlan for a plan review. An answer of another type, or for another
// kind of interrupt, is refused (ErrBadAnswer) and the session stays as it
// was. Answers are nil for a session that waits for nothing. A paused session, or one
// whose process died, is recovered from its recorded plan: finished steps
// are kept and not run again, a step that was in progress runs again, and
// the Python kernel's state is rebuilt from cells.jsonl; the events say
// which. The events end, as for Run, with event.Done. Options change how
// the resumed run goes on (see ResumeParallel).
func (s *Sift) Resume(ctx context.Context, sessionID string, answers map[string]any, opts ...ResumeOption) iter.Seq[event.Event] {
	var o resumeOptions
	for _, opt := range opts {
		opt(&o)
	}
	return func(yield func(event.Event) bool) {
		s.start(ctx, s.newRun(Request{}, yield), func(r *run, ctx context.Context) { r.resume(ctx, sessionID, answers, o) })
	}
}

// refuse ends a resume that could not start (a database that does not
// open): the session is left as it was, still waiting for its answer or
// ready to go on, so the same resume works once the cause is fixed.
func (r *run) refuse(err error) {
	r.emit(event.Event{Kind: event.Error, Err: err})
	r.close(event.Event{Kind: event.Done, Err: err, Path: r.ws.Root})
}

// ResumeOption changes how Sift.Resume goes on with a session.
type ResumeOption func(*resumeOptions)

// resumeOptions are what ResumeOptions set.
type resumeOptions struct {
	// parallel overrides the session's recorded Request.Parallel when
	// positive.
	parallel int
	// budget replaces the session's recorded budget when set.
	budget *Budget
	// databases replace the session's recorded databases when given.
	databases []string
}

// ResumeDatabases opens these databases (as Request.Databases) instead of
// those the session recorded: a database whose password the session does
// not keep is given again this way.
func ResumeDatabases(dbs []string) ResumeOption {
	return func(o *resumeOptions) { o.databases = dbs }
}

// ResumeBudget bounds the resumed run by b instead of the budget the
// session was started with (Budget{} lifts every bound). Without it a
// resume is bound by the session's budget again, counted from zero.
func ResumeBudget(b Budget) ResumeOption {
	return func(o *resumeOptions) { o.budget = &b }
}

// ResumeParallel runs up to n plan steps at the same time in the resumed
// run, instead of the number the session was started with (n <= 0 keeps
// the session's).
func ResumeParallel(n int) ResumeOption {
	return func(o *resumeOptions) { o.parallel = n }
}

// resume goes on with session id: prepareResume reopens it, routeResume
// takes the answer to a template route's review, and driveResume runs
// the agents from the checkpoint (a waiting session) or from the
// recorded plan (a paused or crashed one). Each stage ends the run
// itself when it cannot go on.
func (r *run) resume(ctx context.Context, id string, answers map[string]any, opts resumeOptions) {
	ctx, st, ok := r.prepareResume(ctx, id, opts)
	if !ok {
		return
	}
	if err := checkAnswers(st.meta.Pending, answers); err != nil {
		r.refuse(err)
		return
	}
	r.rememberFacts(ctx, st.meta, answers)
	r.loadForkAnswer()
	r.recallFacts(ctx, st.inputs)
	if r.forkAnswer != nil {
		r.remembered = r.forkAnswer.line() + "\n" + r.remembered
	}
	r.recallExamples(ctx, st.inputs)
	if r.routeResume(ctx, st, answers) {
		return
	}
	r.driveResume(ctx, st, answers)
}

// resumed is what prepareResume learnt of the session, and how the
// agents go on with it.
type resumed struct {
	meta session.Meta
	// inputs are the session's files (workspace-relative); adopted is the
	// number of earlier cells the operator replayed.
	inputs  []string
	adopted int
	// feedback and replan: a rejected template plan goes to the planner
	// with the person's feedback.
	feedback string
	replan   bool
	// planAgain: the run stopped before its plan was recorded (its
	// process died while planning), so the planner plans again.
	planAgain bool
}

// prepareResume reopens session id: its record, request and budget,
// databases, inputs, plan and operator.
func (r *run) prepareResume(ctx context.Context, id string, opts resumeOptions) (context.Context, *resumed, bool) {
	ws, err := session.Open(r.sift.cfg.SessionsRoot, id)
	if r.lent != nil {
		// A conversation goes on with its own session: its workspace,
		// operator and databases.
		ws, err = r.lent.ws, nil
	}
	if err != nil {
		r.fail(fmt.Errorf("%w: %w", ErrNothingToResume, err))
		return ctx, nil, false
	}
	meta, err := r.sift.store.Sessions.Get(ctx, id)
	if err != nil {
		r.fail(fmt.Errorf("%w: session %s: %w", ErrNothingToResume, id, err))
		return ctx, nil, false
	}
	if meta.Status.Finished() {
		r.fail(fmt.Errorf("%w: session %s is %s; ask a follow-up question instead", ErrNothingToResume, id, meta.Status))
		return ctx, nil, false
	}
	r.ws = ws
	// The session's own bound on steps side by side, unless the caller
	// gives another.
	r.req = Request{Question: meta.Question, Mode: Mode(meta.Mode), SessionID: id, Parallel: cmp.Or(max(opts.parallel, 0), meta.Parallel)}
	if meta.Status == session.StatusWaiting {
		// Its checkpoint is inside a step: the answer goes to the agent
		// that asked, in the layout the step ran in.
		r.layout = meta.Layout
	}
	switch {
	case opts.budget != nil:
		r.req.Budget = *opts.budget
	case meta.Budget != nil:
		r.req.Budget = *meta.Budget
	}
	if ctx, err = r.open(ctx); err != nil {
		r.refuse(err)
		return ctx, nil, false
	}
	switch {
	case r.lent != nil:
		r.sources = r.lent.sources
	case len(opts.databases) > 0:
		if r.sources, err = openDatabases(ctx, opts.databases); err != nil {
			r.refuse(err)
			return ctx, nil, false
		}
	}
	if err := r.useDatabases(ctx, true); err != nil {
		r.refuse(err)
		return ctx, nil, false
	}
	if r.lent == nil && !r.sift.hasModel() && needsAgents(meta) {
		// Refused before the kernel starts and replays the session's
		// cells (and after the databases, whose refusal prints a command
		// with every flag the resume needs): nothing has changed, and the
		// same resume works with a model.
		r.refuse(noModelToResume(id))
		return ctx, nil, false
	}
	if r.lent == nil {
		r.noteChangedInputs(ctx)
	}
	inputs, _ := ws.Inputs()
	r.addFilesSource(ctx, inputs)
	// The executor's tools depend on the data (see prompt.OfferFor): the
	// resumed run is offered the same ones as before.
	r.previews = previewed(r.previewInputs(ctx, inputs))
	var note string
	if r.plan, note, err = resumePlan(ws.Root, meta.Question); err != nil {
		r.refuse(err)
		return ctx, nil, false
	}
	if note != "" {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: note})
	}
	ctx = llm.WithTurn(ctx, len(r.plan.Earlier)+1)
	if r.lent != nil && r.lent.op != nil {
		r.op = r.lent.op
		return ctx, &resumed{meta: meta, inputs: inputs}, true
	}
	op, adopted, err := r.newOperator(ctx, true)
	if err != nil {
		r.refuse(err)
		return ctx, nil, false
	}
	r.op = op
	r.warmKernel(ctx)
	return ctx, &resumed{meta: meta, inputs: inputs, adopted: adopted}, true
}

// needsAgents reports whether resuming meta's session runs the agents,
// which need a model: not a built-in analysis going on (resumeBuiltin),
// nor the answer to a built-in's plan review (routeResume, which asks for
// a model itself when the answer sends the plan to the agents).
func needsAgents(meta session.Meta) bool {
	switch {
	case meta.Template != "" && meta.Status != session.StatusWaiting:
		return false
	case meta.Status == session.StatusWaiting && pendingID(meta) == templateReviewID:
		return false
	}
	return true
}

// noModelToResume is the refusal of a resume that needs a model and has none.
func noModelToResume(id string) error {
	return fmt.Errorf("%w: resuming session %s needs the model its agents use; set one (SIFT_API_KEY and SIFT_MODEL, or --model and --base-url) and run the resume again", ErrNoModel, id)
}

// routeResume takes the answer to a template route's plan review: an
// approved plan runs without the agents (it reports true); an edited or
// rejected one goes to the agents, from the edited steps or from a new
// plan made with the feedback.
func (r *run) routeResume(ctx context.Context, st *resumed, answers map[string]any) bool {
	if st.meta.Status != session.StatusWaiting || pendingID(st.meta) != templateReviewID {
		return false
	}
	steps, fb, handled := r.resumeTemplateReview(ctx, r.op, answers[templateReviewID])
	if handled {
		return true
	}
	own := r.ownPlan(ctx)
	own.Drop()
	if steps != nil {
		own.Remaining(&plans.Plan{Steps: steps})
	}
	st.meta.Status, st.feedback, st.replan = session.StatusPaused, fb, steps == nil
	return false
}

// driveResume runs the agents again: a session waiting for the person
// from its checkpoint with the answers, another from its recorded plan.
func (r *run) driveResume(ctx context.Context, st *resumed, answers map[string]any) {
	id := r.ws.ID
	if r.resumeBuiltin(ctx, st) {
		return
	}
	if !r.sift.hasModel() {
		// Nothing has changed yet: the same resume works with a model.
		r.refuse(noModelToResume(id))
		return
	}
	guard := tree.NewBudgetGuard(r.req.Budget, r.meter, nil)
	runner, err := r.newRunner(ctx, r.op, guard)
	if err != nil {
		r.refuse(err)
		return
	}
	r.putMeta(ctx, session.StatusRunning, nil)

	if st.meta.Status == session.StatusWaiting {
		if len(answers) == 0 {
			r.fail(fmt.Errorf("%w: session %s waits for an answer to %q (interrupt %s)", ErrNothingToResume, id, pendingPrompt(st.meta), pendingID(st.meta)))
			return
		}
		events, err := runner.ResumeWithParams(ctx, id, &adk.ResumeParams{Targets: answers})
		if err == nil {
			r.drive(ctx, events, guard)
			return
		}
		if !r.withoutCheckpoint(ctx, st, answers, err) {
			return
		}
	}

	// Paused, or its process died: start the tree again from the recorded
	// plan. The planner stage sees the plan and does not plan again.
	waits, ok := r.recover(ctx, st)
	if !ok {
		return
	}
	ws := r.ws
	abs := make([]string, len(st.inputs))
	for i, in := range st.inputs {
		abs[i] = ws.Path(in)
	}
	popts := r.sift.cfg.Preview
	popts.BaseDir = ws.Root
	q := st.meta.Question
	values := treeValues(treeInput{
		question: q, dataContext: r.describeInputs(preview.Files(ctx, abs, popts), popts) + r.databaseContext(ctx, q),
		inputs: st.inputs, workdir: ws.Root, mode: r.mode(), verbatim: r.sift.cfg.Verbatim,
		resumed: !st.replan && !st.planAgain, reviewPlan: st.replan, feedback: st.feedback, plan: r.plan, waits: waits,
		remembered: r.remembered, examples: r.examples,
	})
	events := runner.Run(ctx, []adk.Message{schema.UserMessage(q)}, adk.WithCheckPointID(id), adk.WithSessionValues(values))
	r.drive(ctx, events, guard)
}

// withoutCheckpoint readies a waiting session whose checkpoint cannot be
// loaded (damaged or lost: cause) to go on from its recorded plan, as a
// paused one does: the finished steps are kept; a plan review's answer is
// applied to the recorded plan; the step that asked a question or an
// approval runs again from its start, and says that the answer could not
// be delivered. It reports false when it ended the run instead.
func (r *run) withoutCheckpoint(ctx context.Context, st *resumed, answers map[string]any, cause error) bool {
	note := fmt.Sprintf("Session %s's checkpoint cannot be read (%v), so Sift cannot go on from inside the step that waited for you. It goes on from the recorded plan instead, keeping every finished step", r.ws.ID, cause)
	if p := st.meta.Pending; p != nil && p.Kind == session.PendingPlanReview {
		d, _ := answers[p.ID].(*event.PlanDecision)
		if d == nil {
			r.fail(fmt.Errorf("%w: session %s waits for the review of its plan (interrupt %s): approve, edit or reject it", ErrBadAnswer, r.ws.ID, p.ID))
			return false
		}
		switch d.Action {
		case event.PlanEdit:
			var steps []plans.Step
			for _, s := range d.Steps {
				if s = strings.TrimSpace(s); s != "" {
					steps = append(steps, plans.Step{Description: s})
				}
			}
			if len(steps) == 0 {
				r.fail(fmt.Errorf("%w: an edited plan needs at least one step", ErrBadAnswer))
				return false
			}
			own := r.ownPlan(ctx)
			own.Drop()
			own.Remaining(&plans.Plan{Steps: steps})
		case event.PlanReject:
			st.replan, st.feedback = true, d.Feedback
		}
		note += "; your review of the plan is applied to it."
	} else {
		note += "; the step that asked runs again from its start and may ask again: the answer you gave could not be delivered to it."
	}
	r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: note})
	st.meta.Status = session.StatusPaused
	return true
}

// recover readies the recorded plan of a paused or crashed session: a
// branch step that waited for the person goes on from where it asked
// (see branchCheckpoints.wait); other steps in progress run again. It
// says so, saves the plan and returns the waiting steps; with nothing
// left to run it ends the run.
func (r *run) recover(ctx context.Context, st *resumed) ([]*tree.BranchWait, bool) {
	own := r.ownPlan(ctx)
	waits := tree.RecoveredWaits(r.ws.Root, r.plan)
	waiting := map[int]bool{}
	for _, w := range waits {
		waiting[w.Step] = true
	}
	var redo []int
	for i := range r.plan.Steps {
		s := &r.plan.Steps[i]
		if !waiting[s.Index] && (s.Status == plans.StatusDoing || (s.Status == plans.StatusTodo && s.Summary == tree.StoppedSummary)) {
			own.Again(s)
			redo = append(redo, s.Index)
		}
	}
	if len(r.plan.Steps) == 0 && !st.replan && st.meta.Status != session.StatusWaiting {
		// Stopped while planning: nothing was done yet but the plan.
		st.planAgain = true
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "Resumed: the run stopped before its plan was made, so it plans again."})
		return waits, true
	}
	if r.plan.Current() == nil && !st.replan && tree.AllStepsDone(r.plan) {
		// Stopped after its last step, while the answer was asked for:
		// the replanner is asked again, and the report written. Stopped
		// with the answer given, while the report was written: the
		// report is written (see planStage.shortcut).
		text := "Resumed: every step had finished and is kept; the answer and report are written now."
		if r.plan.Result != nil {
			text = "Resumed: every step had finished and the answer was given; the report is written now."
		}
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: text})
		return waits, true
	}
	if r.plan.Current() == nil && !st.replan {
		r.fail(fmt.Errorf("%w: session %s has no step left to run", ErrNothingToResume, r.ws.ID))
		return nil, false
	}
	if !st.replan {
		note := "Resumed: finished steps are kept and not run again."
		switch len(redo) {
		case 0:
		case 1:
			note += fmt.Sprintf(" Step %d was in progress and runs again.", redo[0])
		default:
			note += fmt.Sprintf(" Steps %s were in progress and run again.", tree.JoinSteps(redo))
		}
		for _, w := range waits {
			note += fmt.Sprintf(" Step %d waits for your answer to %q and goes on from where it asked.", w.Step, w.Ask.Prompt)
		}
		if st.adopted > 0 {
			note += fmt.Sprintf(" The Python state is rebuilt by replaying %s from cells.jsonl.", english.Plural(st.adopted, "earlier cell", ""))
		}
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: note})
	}
	_ = own.Save()
	return waits, true
}

func pendingPrompt(m session.Meta) string {
	if m.Pending == nil {
		return ""
	}
	return m.Pending.Prompt
}

func pendingID(m session.Meta) string {
	if m.Pending == nil {
		return ""
	}
	return m.Pending.ID
}

// WithPause returns a context under which a run stops at its next safe
// point (before a plan step) once pause is closed: the session is then
// paused, keeps everything done so far, and goes on with Sift.Resume.
// Cancelling the context instead stops the run at once.
func WithPause(ctx context.Context, pause <-chan struct{}) context.Context {
	return tree.WithPause(ctx, pause)
}

// Session returns what the session registry knows of a session: its
// status, question, current step and pending interrupt.
func (s *Sift) Session(ctx context.Context, id string) (session.Meta, error) {
	return s.store.Sessions.Get(ctx, id)
}
