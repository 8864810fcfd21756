package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"github.com/sift-agent/sift/generic"
	siftmodel "github.com/sift-agent/sift/model"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/templates"
)

// Run starts an analysis and yields its events; the last is always
// EventDone, whose Err is nil on success. Breaking out of the loop cancels
// the run. Everything is also written to the session's events.jsonl.
func (s *Sift) Run(ctx context.Context, req Request) iter.Seq[generic.Event] {
	return func(yield func(generic.Event) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		r := &run{sift: s, req: req, yield: yield, meter: &siftmodel.Meter{}, outputs: &toolOutputs{}}
		defer r.mcp.Close()
		r.execute(ctx)
	}
}

// run is the state of one Run call.
type run struct {
	sift    *Sift
	req     Request
	yield   func(generic.Event) bool
	stopped bool
	ws      *session.Workspace
	log     *session.EventLog
	meter   *siftmodel.Meter
	// plan is the FullPlan the agents update through the session; read
	// it only once the agents have stopped.
	plan       *generic.FullPlan
	current    *generic.StepState
	trajectory *siftmodel.Trajectory
	// sources are the run's databases and its files source, or nil;
	// fileViews are the files source's views; bigFiles names the inputs
	// too large to load whole.
	sources   *sqldb.Sources
	fileViews []sqldb.FileView
	bigFiles  []string
	// endSpan ends the run's trace span.
	endSpan func(error)
	// outputs are the tool replies of this process, for the answer check.
	outputs *toolOutputs
	// previews and ran (the built-in analysis that answered, if one did)
	// ground the suggested next questions.
	previews []*generic.FilePreview
	ran      templates.Match
	// mcp holds the run's MCP servers; nil until the agents are built.
	mcp *mcp.Toolset
	// reportPath is where this question's report was last published:
	// report.md, or its own report-NN.md when it did not replace an
	// earlier question's report.md.
	reportPath string
}

// emit records an event and hands it to the caller; it reports false once
// the caller stopped listening.
func (r *run) emit(e generic.Event) bool {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if e.Err != nil && e.Text == "" {
		e.Text = e.Err.Error()
	}
	if e.Kind == generic.EventReport {
		r.reportPath = e.Path
	}
	if r.log != nil {
		// The caller sees the event as logged, numbered (Seq).
		if logged, err := r.log.Record(e); err == nil {
			e = logged
		}
	}
	if r.stopped {
		return false
	}
	if !r.yield(e) {
		r.stopped = true
	}
	return !r.stopped
}

func (r *run) fail(err error) {
	r.emit(generic.Event{Kind: generic.EventError, Err: err})
	r.done(err)
}

func (r *run) done(err error) {
	r.suggest()
	e := generic.Event{Kind: generic.EventDone, Err: err, Plan: r.plan.Clone(), Usage: r.usage()}
	if r.ws != nil {
		e.Path = r.ws.Root
		r.finishFiles(e.Usage)
		status := session.StatusDone
		if err != nil {
			status = session.StatusFailed
		}
		r.putMeta(context.Background(), status, nil)
	}
	r.close(e)
}

// doneWaiting ends a run that waits for the person: its checkpoint holds
// everything, and Sift.Resume goes on with the answer.
func (r *run) doneWaiting(in *generic.Interrupt) {
	r.close(generic.Event{Kind: generic.EventDone, Plan: r.plan.Clone(), Usage: r.usage(), Path: r.ws.Root, Interrupt: in})
}

func (r *run) close(e generic.Event) {
	r.emit(e)
	if r.log != nil {
		_ = r.log.Close()
	}
	if r.trajectory != nil {
		_ = r.trajectory.Close()
	}
	if r.endSpan != nil {
		r.endSpan(e.Err)
	}
}

// putMeta records the session's status in the registry; a registry that
// fails is reported but does not stop the run.
func (r *run) putMeta(ctx context.Context, status session.Status, pending *generic.Interrupt) {
	if r.ws == nil || r.sift.store == nil {
		return
	}
	m := session.Meta{ID: r.ws.ID, Question: r.req.Question, Status: status, Mode: string(r.mode()), Workspace: r.ws.Root, Parallel: r.parallel()}
	if r.req.Budget != (Budget{}) {
		b := r.req.Budget
		m.Budget = &b
	}
	if old, err := r.sift.store.Sessions.Get(ctx, r.ws.ID); err == nil {
		m.Created, m.Inputs = old.Created, old.Inputs
		if m.Question == "" {
			m.Question = old.Question
		}
		// A question that fails before its plan is loaded keeps the
		// counts of the earlier ones.
		m.Questions, m.Answered = old.Questions, old.Answered
	}
	if in, err := r.ws.Inputs(); err == nil {
		m.Inputs = in
	}
	if status == session.StatusRunning {
		m.Owner = session.ThisProcess()
	}
	if r.plan != nil {
		if cur := r.plan.Current(); cur != nil {
			step := cur.Step
			m.Step = &step
		}
		m.Questions, m.Answered = r.plan.QuestionNumber(), r.plan.Answered()
	}
	if pending != nil {
		kind := session.PendingQuestion
		switch pending.Kind {
		case generic.InterruptPlanReview:
			kind = session.PendingPlanReview
		case generic.InterruptApproval:
			kind = session.PendingApproval
		}
		m.Pending = &session.Pending{ID: pending.ID, Kind: kind, Prompt: pending.Prompt, Choices: pending.Choices}
	}
	if err := r.sift.store.Sessions.Put(context.WithoutCancel(ctx), m); err != nil {
		r.emit(generic.Event{Kind: generic.EventMessage, Agent: "sift", Text: "warning: could not record the session's status: " + err.Error()})
	}
}

// parallel is the most plan steps the run runs at the same time.
func (r *run) parallel() int { return cmp.Or(r.req.Parallel, DefaultParallel) }

func (r *run) execute(ctx context.Context) {
	if r.req.Template != "" {
		t, err := templates.Lookup(r.req.Template)
		if err != nil {
			r.fail(err)
			return
		}
		if strings.TrimSpace(r.req.Question) == "" {
			r.req.Question = t.Title
		}
	}
	if strings.TrimSpace(r.req.Question) == "" {
		r.fail(fmt.Errorf("%w: say what you want to know, e.g. \"which product sells best?\"", ErrNoQuestion))
		return
	}
	if err := checkInputs(r.req); err != nil {
		r.fail(err)
		return
	}
	defer r.closeDatabases()
	if len(r.req.Databases) > 0 {
		var err error
		if r.sources, err = openDatabases(ctx, r.req.Databases); err != nil {
			r.fail(err)
			return
		}
	}
	id := r.req.SessionID
	if id == "" {
		id = session.NewID()
	}
	followUp := false
	ws, err := session.Create(ctx, r.sift.cfg.SessionsRoot, id)
	if errors.Is(err, session.ErrWorkspaceExists) {
		// A follow-up question in an existing session.
		if ws, err = r.followUp(ctx, id); err != nil {
			r.fail(err)
			return
		}
		followUp = true
	} else if err != nil {
		r.fail(fmt.Errorf("create session workspace: %w", err))
		return
	}
	r.ws = ws
	if ctx, err = r.open(ctx); err != nil {
		r.fail(err)
		return
	}
	r.plan = &generic.FullPlan{Question: r.req.Question}
	if followUp {
		if fp, err := loadPlanState(ws.Root); err == nil {
			fp.FollowUp(r.req.Question)
			r.plan = fp
			// From now on the session's state is this question's, so a
			// follow-up that stops before its first plan is not taken
			// for the earlier question.
			if err := writePlanFileAt(ws.Root, r.plan); err != nil {
				r.fail(err)
				return
			}
		}
	}
	// The trajectory names each question's calls, so a replay of the
	// session answers each question from its own.
	ctx = siftmodel.WithTurn(ctx, len(r.plan.Earlier)+1)
	r.putMeta(ctx, session.StatusRunning, nil)
	if err := r.useDatabases(ctx, followUp); err != nil {
		r.fail(err)
		return
	}
	if followUp {
		r.noteChangedInputs(ctx)
	}
	for _, f := range r.req.Files {
		if _, err := ws.AddInput(ctx, f); err != nil {
			r.fail(fmt.Errorf("add input file: %w", err))
			return
		}
	}
	for _, d := range r.req.Dirs {
		if _, err := ws.AddInputDir(ctx, d); err != nil {
			r.fail(fmt.Errorf("add input directory: %w", err))
			return
		}
	}
	inputs, err := ws.Inputs()
	if err != nil {
		r.fail(err)
		return
	}
	op, adopted, err := r.newOperator(ctx, followUp)
	if err != nil {
		r.fail(err)
		return
	}
	defer op.Close()
	if followUp {
		r.emit(generic.Event{Kind: generic.EventMessage, Agent: "sift", Text: fmt.Sprintf("Follow-up in session %s keeps %s; the Python state is rebuilt by replaying %s.", id, generic.Plural(len(r.plan.Steps), "earlier step"), generic.Plural(adopted, "earlier cell"))})
	}

	abs := make([]string, len(inputs))
	for i, in := range inputs {
		abs[i] = ws.Path(in)
	}
	r.addFilesSource(ctx, inputs)
	popts := r.sift.cfg.Preview
	popts.BaseDir = ws.Root
	previews := generic.PreviewFiles(ctx, abs, popts)
	dataContext := demoteHeadings(generic.CompactAll(previews, popts)) + r.databaseContext(ctx, r.req.Question)
	r.previews = previewed(previews)

	mode := r.mode()
	var match templates.Match
	if mode == ModeAuto || mode == ModeTemplate {
		match = templates.MatchRequest(r.req.Question, previewed(previews))
		if r.req.Template != "" {
			// The name was checked when the run began.
			match, _ = templates.MatchTemplate(r.req.Template, r.req.Question, previewed(previews))
			if match.FileIndex < 0 {
				r.fail(fmt.Errorf("%w: the built-in analysis %q needs a table (CSV, TSV, Excel, JSON lines) among the files; give one", ErrNoTemplateMatch, match.Template))
				return
			}
		}
		switch {
		case match.OK() && r.req.ReviewPlan:
			r.reviewTemplate(ctx, match)
			return
		case match.OK():
			ok, err := r.runTemplate(ctx, op, match)
			if ok {
				r.ran = match
				if err != nil {
					r.fail(fmt.Errorf("%w: %w", ErrRunFailed, err))
					return
				}
				r.emit(generic.Event{Kind: generic.EventUsage, Usage: r.usage()})
				r.done(nil)
				return
			}
			if mode == ModeTemplate || !r.sift.hasModel() {
				r.fail(fmt.Errorf("%w: %w", ErrRunFailed, err))
				return
			}
			// With a model, the agents take over from the failed template.
		case mode == ModeTemplate:
			r.fail(fmt.Errorf("%w. %s", ErrNoTemplateMatch, r.offlineHelp(match, previews)))
			return
		}
	}
	if !r.sift.hasModel() {
		r.fail(fmt.Errorf("%w. %s", ErrNoModel, r.offlineHelp(match, previews)))
		return
	}
	guard := newBudgetGuard(r.req.Budget, r.meter, nil)
	runner, err := r.newRunner(ctx, op, guard)
	if err != nil {
		r.fail(err)
		return
	}
	events := runner.Run(ctx, []adk.Message{schema.UserMessage(r.req.Question)}, adk.WithCheckPointID(ws.ID), adk.WithSessionValues(map[string]any{
		params.Question.Name():     r.req.Question,
		params.DataContext.Name():  dataContext,
		params.Inputs.Name():       inputs,
		params.Workdir.Name():      ws.Root,
		params.Mode.Name():         string(r.mode()),
		params.Verbatim.Name():     r.sift.cfg.Verbatim,
		params.ReviewPlan.Name():   r.req.ReviewPlan,
		generic.FullPlanKey.Name(): r.plan,
	}))
	r.drive(ctx, events, guard)
}

func (r *run) mode() Mode {
	if r.req.Template != "" {
		return ModeTemplate
	}
	if r.req.Mode == "" {
		return ModeAuto
	}
	return r.req.Mode
}

// plainError replaces the framework's layered error text with what a
// person needs: an interruption, the failing model call, or the error.
func plainError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
	var me *ModelError
	if errors.As(err, &me) {
		return me
	}
	return err
}
