package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"github.com/dustin/go-humanize/english"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/templates"
)

// Run starts an analysis and yields its events; the last is always
// event.Done, whose Err is nil on success. Breaking out of the loop cancels
// the run. Everything is also written to the session's events.jsonl.
func (s *Sift) Run(ctx context.Context, req Request) iter.Seq[event.Event] {
	return func(yield func(event.Event) bool) {
		s.start(ctx, s.newRun(req, yield), (*run).execute)
	}
}

// newRun is the state of one request, before it starts.
func (s *Sift) newRun(req Request, yield func(event.Event) bool) *run {
	return &run{sift: s, req: req, yield: yield, meter: &llm.Meter{}, outputs: &tree.ToolOutputs{}}
}

// start is the one way a request runs: Run, Resume and a conversation's
// data analyst (and so the server, the MCP server and eval, which call
// them) all come through it. It runs stage (prepare → route → drive for
// a new question, resume for an old one) and then releases what the run
// started — its MCP servers, databases and operator — however it ended:
// done, failed, waiting for the person, paused, or abandoned by a caller
// that stopped listening.
func (s *Sift) start(ctx context.Context, r *run, stage func(*run, context.Context)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer r.release()
	defer r.endEvents()
	ctx = llm.WithCallObserver(ctx, r.observeModelCall)
	stage(r, ctx)
}

// release stops what the run started and leaves what it was lent (see
// lent) open for its owner.
func (r *run) release() {
	if r.mcp != nil {
		_ = r.mcp.Close()
		r.mcp = nil
	}
	r.closeDatabases()
	if r.op != nil && (r.lent == nil || r.lent.op == nil) {
		_ = r.op.Close()
	}
	r.op = nil
	if r.pooled != nil { // taken, but the run ended before it ran code
		_ = r.pooled.Close()
		r.pooled = nil
	}
}

// run is the state of one Run call.
type run struct {
	// pooled is the kernel taken from Config.KernelPool for this run's
	// new workspace (its slot), until newOperator makes it the run's.
	pooled *operator.KernelOperator
	// readingHint is what the built-ins' parse understood of a request
	// they did not answer, for the planner (templateHint).
	readingHint string
	sift        *Sift
	req         Request
	yield       func(event.Event) bool
	stopped     bool
	ws          *session.Workspace
	log         *session.EventLog
	meter       *llm.Meter
	// plan is the FullPlan the agents update through the session; read
	// it only once the agents have stopped.
	plan    *plans.FullPlan
	current *plans.StepState
	// direct: plan steps go straight to the code agent, whose events
	// then reach the caller under the executor's name (see directStep).
	direct bool
	// layout is the recorded session.Meta.Layout a resumed run keeps, or
	// the one its tree took.
	layout     string
	trajectory *trajectory.Writer
	// sources are the run's databases and its files source, or nil;
	// fileViews are the files source's views; bigFiles names the inputs
	// too large to load whole.
	sources   *sqldb.Sources
	fileViews []sqldb.FileView
	bigFiles  []string
	// endSpan ends the run's trace span.
	endSpan func(error)
	// outputs are the tool replies of this process, for the answer check.
	outputs *tree.ToolOutputs
	// previews and ran (the built-in analysis that answered, if one did)
	// ground the suggested next questions.
	previews []*preview.FilePreview
	ran      templates.Match
	// inputPreviews are the inputs' previews made so far, by
	// workspace-relative path (inputPreview).
	inputPreviews map[string]preview.Previewed
	// builtin names the built-in analysis the run is, recorded in the
	// session (Meta.Template) so that a resume needs no model.
	builtin string
	// keptSteps are the steps of a resumed built-in that finished before
	// it stopped, by description, with their results: they are not run
	// again (see resumeBuiltin).
	keptSteps map[string]keptStep
	// failure is why the run failed, recorded in the session (Meta.Error).
	failure string
	// mcp holds the run's MCP servers; nil until the agents are built.
	mcp *mcp.Toolset
	// emitMu serialises emit; ended is set once Run or Resume has
	// returned, after which nothing more may be yielded.
	emitMu sync.Mutex
	ended  bool
	// op runs the generated code; nil until prepared.
	op operator.Operator
	// lent, when set, is what a conversation lends the run of its data
	// analyst; nil for a run of its own.
	lent *lent
	// memSources are the identities of the run's data, once worked out
	// (dataSources); fromMemory is the session whose answer the run gave
	// (answerFromMemory); remembered and facts are what the person said
	// in earlier sessions on the same data (recallFacts).
	memSources memory.Sources
	fromMemory string
	remembered string
	// forkAnswer is the answer the fork that made the session gave to its
	// parent's question (loadForkAnswer), or nil.
	forkAnswer *forkAnswer
	facts      []memory.Entry
	// examples is the code that worked in earlier sessions on the same
	// data, for the code agent (recallExamples).
	examples string
	// used are the facts the question used, for plan.md and the report
	// (keepRemembered); usedMu guards it: ask_user recalls from the
	// tree's goroutines.
	usedMu sync.Mutex
	used   []plans.Remembered
	// parent and origin are the session a refresh or a fork was made
	// from, and which of the two it is (session.Meta.Parent, Origin).
	parent, origin string
	// reportPath is where this question's report was last published:
	// report.md, or its own report-NN.md when it did not replace an
	// earlier question's report.md.
	reportPath string
}

// emit records an event and hands it to the caller; it reports false once
// the caller stopped listening.
func (r *run) emit(e event.Event) bool {
	// Model calls report themselves from the goroutines that make them
	// (see observeModelCall): one event at a time reaches the log and
	// the caller.
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	if r.ended {
		return false
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if e.Err != nil && e.Text == "" {
		e.Text = e.Err.Error()
	}
	if e.Kind == event.Report {
		r.reportPath = e.Path
	}
	if e.Kind == event.Done && e.Session == "" && r.ws != nil {
		e.Session = r.ws.ID
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
	r.emit(event.Event{Kind: event.Error, Err: err})
	r.done(err)
}

func (r *run) done(err error) {
	if err == nil {
		err = report.AnswerOnFailedSteps(r.plan)
	}
	r.keepRemembered()
	r.suggest()
	e := event.Event{Kind: event.Done, Err: err, Plan: r.plan.Clone(), Usage: r.usage()}
	// What the run started stops before its status reads done: stopping
	// the kernel can take a while (a session's disk is copied back), and
	// a process killed between a done status and the done event leaves a
	// session no worker takes over whose log never ends.
	r.release()
	if r.ws != nil {
		e.Path = r.ws.Root
		answered := r.questionReport()
		r.finishFiles(e.Usage)
		status := session.StatusDone
		if err != nil {
			status, r.failure = session.StatusFailed, err.Error()
		}
		r.putMeta(context.Background(), status, nil)
		if err == nil {
			r.rememberAnswer(context.Background(), answered)
			r.rememberExamples(context.Background())
		}
	}
	r.close(e)
}

// doneWaiting ends a run that waits for the person: its checkpoint holds
// everything, and Sift.Resume goes on with the answer.
func (r *run) doneWaiting(in *event.Interrupt) {
	r.keepRemembered()
	r.close(event.Event{Kind: event.Done, Plan: r.plan.Clone(), Usage: r.usage(), Path: r.ws.Root, Interrupt: in})
}

func (r *run) close(e event.Event) {
	// What the run started stops before the caller hears that it ended:
	// a caller that removes or reads the workspace on done finds nothing
	// still writing to it (the kernel, an MCP server).
	r.release()
	// The run's span ends before the done event too, so a caller that
	// reads the trace on done finds the run in it.
	if r.endSpan != nil {
		r.endSpan(e.Err)
		r.endSpan = nil
	}
	r.emit(e)
	if r.log != nil {
		_ = r.log.Close()
	}
	if r.trajectory != nil {
		_ = r.trajectory.Close()
	}
}

// putMeta records the session's status in the registry; a registry that
// fails is reported but does not stop the run.
func (r *run) putMeta(ctx context.Context, status session.Status, pending *event.Interrupt) {
	if r.ws == nil || r.sift.store == nil {
		return
	}
	m := session.Meta{ID: r.ws.ID, Question: r.req.Question, Status: status, Mode: string(r.mode()), Workspace: r.ws.Root, Parallel: r.parallel(), Layout: r.layout, Template: r.builtin}
	if status == session.StatusFailed {
		m.Error = r.failure
	}
	if r.req.Budget != (Budget{}) {
		b := r.req.Budget
		m.Budget = &b
	}
	m.Parent, m.Origin = r.parent, r.origin
	if old, err := r.sift.store.Sessions.Get(ctx, r.ws.ID); err == nil {
		m.Created, m.Inputs, m.Labels, m.Sources = old.Created, old.Inputs, old.Labels, old.Sources
		if m.Parent == "" {
			m.Parent, m.Origin = old.Parent, old.Origin
		}
		if m.Question == "" {
			m.Question = old.Question
		}
		// A question that fails before its plan is loaded keeps the
		// counts of the earlier ones.
		m.Questions, m.Answered = old.Questions, old.Answered
	}
	if len(r.req.Labels) > 0 {
		labels := maps.Clone(m.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		maps.Copy(labels, r.req.Labels)
		m.Labels = labels
	}
	if in, err := r.ws.Inputs(); err == nil {
		m.Inputs = in
	}
	if len(r.memSources) > 0 {
		m.Sources = r.memSources.IDs()
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
		case event.InterruptPlanReview:
			kind = session.PendingPlanReview
		case event.InterruptApproval:
			kind = session.PendingApproval
		}
		m.Pending = &session.Pending{ID: pending.ID, Kind: kind, Prompt: pending.Prompt, Choices: pending.Choices}
	}
	var err error
	for i, wait := range putMetaRetries {
		if err = r.sift.store.Sessions.Put(context.WithoutCancel(ctx), m); err == nil || errors.Is(err, session.ErrInvalidID) || errors.Is(err, session.ErrInvalidMeta) {
			break
		}
		if i < len(putMetaRetries)-1 {
			time.Sleep(wait)
		}
	}
	if err != nil {
		// The log keeps the cause: a session left "running" reads as
		// stopped once this process ends, and its log says why.
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: fmt.Sprintf("warning: could not record the session's status (%s) after %d tries: %v", status, len(putMetaRetries), err)})
	}
}

// putMetaRetries are the waits between tries of a status write that fails
// (a store restarting, a disk briefly full): a failed write is tried
// again before the run goes on without it.
var putMetaRetries = []time.Duration{100 * time.Millisecond, 500 * time.Millisecond, 0}

// parallel is the most plan steps the run runs at the same time.
func (r *run) parallel() int { return cmp.Or(r.req.Parallel, DefaultParallel) }

// execute runs a new question: prepare → route → drive.
func (r *run) execute(ctx context.Context) {
	ctx, in, err := r.prepare(ctx)
	if err != nil {
		r.fail(err)
		return
	}
	if in.cachedFrom {
		r.answerFromMemory(ctx, in.cached)
		return
	}
	if r.route(ctx, in) {
		return
	}
	r.runAgents(ctx, in)
}

// prepared is what prepare learnt of the question's data: the inputs
// (workspace-relative), their previews and the data context the agents
// are shown.
type prepared struct {
	// cached is the earlier answer the run gives (the answer cache),
	// when cachedFrom is set; nothing else is prepared then.
	cached      memory.Entry
	cachedFrom  bool
	inputs      []string
	previews    []preview.Previewed
	dataContext string
}

// prepare checks the request, opens its session (a new one, a follow-up
// in a finished one, or the workspace a conversation lends), copies the
// inputs, opens the databases, starts the operator and previews the data.
func (r *run) prepare(ctx context.Context) (context.Context, prepared, error) {
	var in prepared
	if r.req.Template != "" {
		t, err := templates.Lookup(r.req.Template)
		if err != nil {
			return ctx, in, err
		}
		if strings.TrimSpace(r.req.Question) == "" {
			r.req.Question = t.Title
		}
	}
	if strings.TrimSpace(r.req.Question) == "" {
		return ctx, in, fmt.Errorf("%w: say what you want to know, e.g. \"which product sells best?\"", ErrNoQuestion)
	}
	if err := checkInputs(r.req); err != nil {
		return ctx, in, err
	}
	if len(r.req.Databases) > 0 {
		var err error
		if r.sources, err = openDatabases(ctx, r.req.Databases); err != nil {
			return ctx, in, err
		}
	}
	ws, followUp, err := r.openWorkspace(ctx)
	if err != nil {
		return ctx, in, err
	}
	r.ws = ws
	if ctx, err = r.open(ctx); err != nil {
		return ctx, in, err
	}
	r.plan = &plans.FullPlan{Question: r.req.Question}
	if followUp {
		if fp, err := tree.LoadPlanState(ws.Root); err == nil {
			r.plan = fp
			// From now on the session's state is this question's, so a
			// follow-up that stops before its first plan is not taken
			// for the earlier question.
			if err := r.ownPlan(ctx).FollowUp(r.req.Question); err != nil {
				return ctx, in, err
			}
		}
	}
	// The trajectory names each question's calls, so a replay of the
	// session answers each question from its own.
	ctx = llm.WithTurn(ctx, len(r.plan.Earlier)+1)
	// What is written before the first model request (the session's
	// record, the input copies and their record) is flushed to disk in the
	// background, not before the request: the plan's first durable write
	// waits for it (see session.SyncSoon).
	soon := session.SyncSoon(ctx)
	r.putMeta(soon, session.StatusRunning, nil)
	if err := r.useDatabases(ctx, followUp); err != nil {
		return ctx, in, err
	}
	if followUp && r.lent == nil {
		r.noteChangedInputs(ctx)
	}
	var sniff chan []sqldb.SniffInput
	if mode := r.mode(); r.lent == nil && (mode == ModeAuto || mode == ModeTemplate) {
		// A built-in reads the CSV inputs in DuckDB with the dialect and
		// types sniffed here (most of what opening them costs), by a
		// DuckDB that opens while they are copied in, and sniffs them
		// while they are fingerprinted and previewed.
		sniff = make(chan []sqldb.SniffInput, 1)
		defer close(sniff)
		go sniffInputs(ctx, ws.Root, sniff)
	}
	for _, f := range r.req.Files {
		if _, err := ws.AddInput(soon, f); err != nil {
			return ctx, in, err
		}
	}
	for _, d := range r.req.Dirs {
		if _, err := ws.AddInputDir(soon, d); err != nil {
			return ctx, in, fmt.Errorf("add input directory: %w", err)
		}
	}
	if in.inputs, err = ws.Inputs(); err != nil {
		return ctx, in, err
	}
	if sniff != nil {
		// With the sums the copies were made with: the sniff cache's key.
		sums := r.inputSums()
		send := make([]sqldb.SniffInput, len(in.inputs))
		for i, p := range in.inputs {
			send[i] = sqldb.SniffInput{Path: p, SHA256: sums[p]}
		}
		sniff <- send
	}
	if in.cached, in.cachedFrom = r.cachedAnswer(ctx, in.inputs); in.cachedFrom {
		// No kernel, no preview: the answer is already known.
		return ctx, in, nil
	}
	if r.lent != nil && r.lent.op != nil {
		r.op = r.lent.op
	} else {
		op, adopted, err := r.newOperator(ctx, followUp)
		if err != nil {
			return ctx, in, err
		}
		r.op = op
		if followUp {
			r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: fmt.Sprintf("Follow-up in session %s keeps %s; the Python state is rebuilt by replaying %s.", ws.ID, english.Plural(len(r.plan.Steps), "earlier step", ""), english.Plural(adopted, "earlier cell", ""))})
		}
	}
	r.addFilesSource(ctx, in.inputs)
	in.previews = r.previewInputs(ctx, in.inputs)
	popts := r.sift.cfg.Preview
	popts.BaseDir = ws.Root
	in.dataContext = r.describeInputs(in.previews, popts) + r.databaseContext(ctx, r.req.Question)
	r.previews = previewed(in.previews)
	return ctx, in, nil
}

// openWorkspace opens the request's session: the workspace a
// conversation lends, a new one, or (an existing ID) a follow-up in a
// finished one.
func (r *run) openWorkspace(ctx context.Context) (ws *session.Workspace, followUp bool, err error) {
	if r.lent != nil {
		_, err := os.Stat(r.lent.ws.Path(tree.PlanStateFile))
		return r.lent.ws, err == nil, nil
	}
	id := r.req.SessionID
	if id == "" {
		id = session.NewID()
	}
	if ws, ok := r.adoptPooled(ctx, id); ok {
		return ws, false, nil
	}
	ws, err = session.Create(ctx, r.sift.cfg.SessionsRoot, id)
	if errors.Is(err, session.ErrWorkspaceExists) {
		// A follow-up question in an existing session.
		ws, err = r.followUp(ctx, id)
		return ws, true, err
	} else if err != nil {
		return nil, false, fmt.Errorf("create session workspace: %w", err)
	}
	return ws, false, nil
}

// route runs the question on a path chosen before the agents: a built-in
// analysis that matches, a plan review of one, or a refusal when neither
// the analyses nor a model can answer. It reports whether the run ended
// there; otherwise the agents answer.
func (r *run) route(ctx context.Context, in prepared) bool {
	mode := r.mode()
	var match templates.Match
	if r.lent == nil && (mode == ModeAuto || mode == ModeTemplate) {
		match = templates.MatchRequest(r.req.Question, r.previews)
		if r.req.Template != "" {
			// The name was checked when the run began.
			match, _ = templates.MatchTemplate(r.req.Template, r.req.Question, r.previews)
			if match.FileIndex < 0 {
				r.fail(fmt.Errorf("%w: the built-in analysis %q needs a table (%s) among the files; give one", ErrNoTemplateMatch, match.Template, tableFormats))
				return true
			}
		}
		switch {
		case match.OK() && r.req.ReviewPlan:
			r.reviewTemplate(ctx, match)
			return true
		case match.OK():
			// Recorded before it runs: a worker that dies during it
			// leaves a session another resumes with no model.
			r.builtin = match.Template
			r.putMeta(ctx, session.StatusRunning, nil)
			ok, err := r.runTemplate(ctx, r.op, match)
			if ctx.Err() != nil {
				r.stopBuiltin(ctx, err)
				return true
			}
			if ok {
				r.ran = match
				if err != nil {
					r.fail(fmt.Errorf("%w: %w", ErrRunFailed, err))
					return true
				}
				r.emit(event.Event{Kind: event.UsageSoFar, Usage: r.usage()})
				r.done(nil)
				return true
			}
			if mode == ModeTemplate || !r.sift.hasModel() {
				r.fail(fmt.Errorf("%w: %w", ErrRunFailed, err))
				return true
			}
			r.builtin = ""
			// With a model, the agents take over from the failed template.
		case mode == ModeTemplate:
			r.fail(fmt.Errorf("%w. %s", ErrNoTemplateMatch, r.offlineHelp(match, in.previews)))
			return true
		}
	}
	if !r.sift.hasModel() {
		r.fail(notUnderstoodError{r.offlineHelp(match, in.previews)})
		return true
	}
	r.readingHint = templateHint(match)
	// The agents will run code: the kernel warms up while the planner
	// thinks.
	r.warmKernel(ctx)
	return false
}

// runAgents runs the agent tree on the question and drives it to the end.
func (r *run) runAgents(ctx context.Context, in prepared) {
	r.recallFacts(ctx, in.inputs)
	r.recallExamples(ctx, in.inputs)
	guard := tree.NewBudgetGuard(r.req.Budget, r.meter, nil)
	runner, err := r.newRunner(ctx, r.op, guard)
	if err != nil {
		r.fail(err)
		return
	}
	values := r.sessionValues(r.req.Question, in.inputs, in.dataContext+r.readingHint)
	events := runner.Run(ctx, []adk.Message{schema.UserMessage(r.req.Question)}, adk.WithCheckPointID(r.ws.ID), adk.WithSessionValues(values))
	r.drive(ctx, events, guard)
}

// sessionValues are the session values the agent tree reads (see
// params): the one place they are filled, for new questions, resumes and
// embedders.
func (r *run) sessionValues(question string, inputs []string, dataContext string) map[string]any {
	return treeValues(treeInput{
		question: question, dataContext: dataContext, inputs: inputs, workdir: r.ws.Root,
		mode: r.mode(), verbatim: r.sift.cfg.Verbatim, reviewPlan: r.req.ReviewPlan, plan: r.plan,
		remembered: r.remembered, examples: r.examples,
	})
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

// ownPlan returns the owner of the run's own plan (r.plan, outside the
// agent tree): it saves the plan in the run's workspace and speaks through
// the run's events. Ask again after r.plan is replaced.
func (r *run) ownPlan(ctx context.Context) *tree.PlanOwner {
	fp := r.plan
	return tree.NewPlanOwner(ctx, fp, func() error { return tree.WritePlanFileAt(r.ws.Root, fp) }, func(e event.Event) { r.emit(e) })
}
