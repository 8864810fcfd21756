// Package agents builds Sift's agent tree (planner, execute/replan loop,
// report) and runs it: the library API that the sift command and the
// examples call.
package agents

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/generic"
	siftmodel "github.com/sift-agent/sift/model"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/templates"
	"github.com/sift-agent/sift/tools/web"
)

// Errors callers branch on.
var (
	// ErrNoModel: no chat model was given; configure an endpoint.
	ErrNoModel = errors.New("no model configured")
	// ErrNoQuestion: the request has no question.
	ErrNoQuestion = errors.New("no question given")
	// ErrRunFailed: the run ended without a complete result; the report
	// holds what was found.
	ErrRunFailed = errors.New("run failed")
	// ErrPaused: the run paused at a safe point, as asked through
	// WithPause; the session keeps everything done so far and goes on
	// with Sift.Resume. The final done event of a paused run carries it.
	ErrPaused = errors.New("run paused")
)

// Models are the chat models of each agent role. Default serves every role
// left nil.
type Models struct {
	Default  model.ToolCallingChatModel
	Planner  model.ToolCallingChatModel // planner and replanner
	Executor model.ToolCallingChatModel
	Code     model.ToolCallingChatModel // code agent and web researcher
	Report   model.ToolCallingChatModel
	// Names are the model names by role ("default", "planner", ...), for
	// prices, offline token estimates and known context windows. Optional.
	Names map[string]string
	// Windows are the context windows in tokens by role ("default",
	// "planner", ...), overriding the known window of the role's model.
	// Optional; see Config.ContextWindow.
	Windows map[string]int
	// Images marks the roles ("default", "report", ...) whose model
	// accepts images: the report writer is then shown the run's charts to
	// check the ones it cites. Optional.
	Images map[string]bool
}

// ModelsFromConfig connects each role to its endpoint from cfg.
func ModelsFromConfig(ctx context.Context, cfg siftmodel.Config) (Models, error) {
	var ms Models
	for _, r := range []struct {
		role string
		dst  *model.ToolCallingChatModel
	}{{"planner", &ms.Planner}, {"executor", &ms.Executor}, {"code", &ms.Code}, {"report", &ms.Report}} {
		m, err := siftmodel.New(ctx, cfg.For(r.role))
		if err != nil {
			return Models{}, fmt.Errorf("model for %s: %w", r.role, err)
		}
		*r.dst = m
		if ms.Names == nil {
			ms.Names, ms.Windows, ms.Images = map[string]string{}, map[string]int{}, map[string]bool{}
		}
		ep := cfg.For(r.role)
		ms.Names[r.role] = ep.Model
		ms.Windows[r.role] = ep.ContextWindowTokens()
		ms.Images[r.role] = ep.Images
	}
	return ms, nil
}

// Config configures a Sift instance; one instance serves many runs.
type Config struct {
	// Models are required: at least Default, or every role.
	Models Models
	// SessionsRoot is where session workspaces are created.
	// Optional; defaults to session.DefaultRoot().
	SessionsRoot string
	// Python is the interpreter for generated code. Optional; by default
	// operator.FindPython looks for one that has pandas and matplotlib.
	Python string
	// CodeTimeout bounds one Python run. Optional; defaults to 2 minutes.
	CodeTimeout time.Duration
	// Search is the web search provider. Optional; nil makes the web
	// researcher say that search is not configured.
	Search web.Provider
	// Fetch configures web page fetching. Optional; safe defaults.
	Fetch web.FetchConfig
	// MaxIterations bounds execute/replan rounds. Optional; defaults to 10.
	MaxIterations int
	// ClassicExecutor makes the executor summarise each step itself (one
	// more model call per step). Optional; for comparisons only.
	ClassicExecutor bool
	// Preview bounds the data previews given to the models. Optional.
	Preview generic.PreviewOptions
	// PythonMode runs generated code in one stateful kernel per session
	// (operator.PythonKernel, the default) or a fresh process per call
	// (operator.PythonProcess).
	PythonMode operator.PythonMode
	// Sandbox configures the sandbox generated code runs in. Optional;
	// the zero value is "auto": bubblewrap, refusing to run code without it
	// unless Sandbox.AllowUnsandboxed is set.
	Sandbox operator.SandboxConfig
	// Prices price each model call. Optional; defaults to
	// model.DefaultPrices() (list prices that may be out of date).
	Prices siftmodel.PriceTable
	// ContextWindow is the models' context window in tokens: each request
	// is trimmed to fit it less an output reserve, never separating a tool
	// call from its result. Optional; 0 takes each role's window from
	// Models.Windows, else from the table of known models by the role's
	// model name (model.KnownContextWindow), else 128000; negative turns
	// trimming off.
	ContextWindow int
	// Verbatim turns context management off: no tool-output caps, no
	// shortening of earlier results, no trimming, wide previews. For
	// measuring what context management saves.
	Verbatim bool
	// PolicyFile names a JSON approval policy (see tools.LoadPolicy): which
	// tool calls wait for the person's approval. Optional; default
	// tools.DefaultPolicy() (fetching a URL not seen in the session asks).
	PolicyFile string
	// Store keeps checkpoints and the session registry. Optional; defaults
	// to the file store under SessionsRoot.
	Store *session.Backend
	// Locale is the person's locale (e.g. "zh-CN"), stated in every
	// agent's prompt beside today's date. Optional; default from LC_ALL,
	// LC_MESSAGES or LANG; "C" states none.
	Locale string
	// Extensions add the embedding service's own tools, sub-agents,
	// standing instructions and glossary to the agents. Optional.
	Extensions Extensions
	// Stream asks the models to stream, so text reaches the caller as
	// EventMessage deltas while it is written. Optional; default off.
	Stream bool
	// MCPServers are MCP servers whose tools the agents may use (see
	// package tools/mcp). Each run starts or reaches them, and stops them
	// when it ends; a tool not marked read-only waits for approval.
	// Optional.
	MCPServers []mcp.ServerConfig
}

// Sift runs analyses. Create it with New.
type Sift struct {
	cfg   Config
	store *session.Backend
}

// New validates cfg and fills its defaults. Models may be left empty:
// such an instance answers only requests that a built-in analysis matches.
func New(cfg Config) (*Sift, error) {
	m := cfg.Models
	partial := m.Planner != nil || m.Executor != nil || m.Code != nil || m.Report != nil
	if m.Default == nil && partial && (m.Planner == nil || m.Executor == nil || m.Code == nil || m.Report == nil) {
		return nil, fmt.Errorf("%w: agents.Config.Models sets some roles but not all, and no Default: give a Default model for the others", ErrNoModel)
	}
	if cfg.SessionsRoot == "" {
		cfg.SessionsRoot = session.DefaultRoot()
	}
	if cfg.Locale == "" {
		cfg.Locale = localeFromEnv(os.Getenv)
	}
	if cfg.CodeTimeout <= 0 {
		cfg.CodeTimeout = 2 * time.Minute
	}
	if cfg.Prices == nil {
		cfg.Prices = siftmodel.DefaultPrices()
	}
	if cfg.Verbatim {
		cfg.Preview.MaxChars, cfg.Preview.MaxTotalChars = 1<<20, 1<<22
		cfg.Preview.MaxColumns, cfg.Preview.MaxCellChars = 1<<12, 1<<10
	}
	store := cfg.Store
	if store == nil {
		var err error
		if store, err = session.OpenFileBackend(cfg.SessionsRoot); err != nil {
			return nil, fmt.Errorf("open the session store: %w", err)
		}
	}
	return &Sift{cfg: cfg, store: store}, nil
}

// Mode chooses the route a request takes.
type Mode string

// The routes.
const (
	// ModeAuto lets the planner rate the request: a trivial one takes the
	// quick path, others the full plan-execute-replan loop.
	ModeAuto Mode = "auto"
	// ModeQuick skips planning: one code-agent loop answers the request.
	ModeQuick Mode = "quick"
	// ModePlan always plans, executes and replans.
	ModePlan Mode = "plan"
	// ModeTemplate only runs a built-in analysis, never a model.
	ModeTemplate Mode = "template"
)

// ParseMode checks a mode name; empty means ModeAuto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeQuick, ModePlan, ModeTemplate:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q: use auto, template, quick or plan", s)
}

// Request is one analysis to run.
type Request struct {
	// Mode is the route. Optional; ModeAuto by default.
	Mode Mode
	// Template names the built-in analysis to run (see templates.Names),
	// its parameters inferred from Question and the files; it implies
	// ModeTemplate, and Question defaults to the analysis's title.
	// Optional.
	Template string
	// Budget bounds what the run may spend. Optional; no bounds.
	Budget Budget
	// Yes runs unattended: approvals the policy allows are given, the rest
	// refused, and questions are answered "no one can answer; assume".
	Yes bool
	// ReviewPlan makes the run wait, after planning, for the person to
	// approve, edit or reject the plan (see Sift.Resume).
	ReviewPlan bool
	// Question is what the person asks, in any language.
	Question string
	// Files are copied into the session's input/.
	Files []string
	// Dirs are copied, recursively, into the session's input/.
	Dirs []string
	// Databases are SQL databases the executor and the code agent may
	// query, read-only, with the SQL tools: each a URL (sqlite:shop.db,
	// postgres://…, mysql://…) or "name=url". Optional. The session
	// records them (without passwords), so resume and follow-ups open them
	// again; a follow-up without Databases uses the session's.
	Databases []string
	// SessionID names the new session. Optional; generated when empty.
	SessionID string
	// Parallel bounds the plan steps run at the same time, each in a
	// Python kernel of its own (see DefaultParallel, used when 0); 1 runs
	// one step after another.
	Parallel int
}

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
	if err == nil {
		err = answerOnFailedSteps(r.plan)
	}
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

// interruptOf returns what an interrupt event asks of the person, or nil.
func interruptOf(ev *adk.AgentEvent) *generic.Interrupt {
	if ev.Action == nil || ev.Action.Interrupted == nil {
		return nil
	}
	var root *adk.InterruptCtx
	for _, ic := range ev.Action.Interrupted.InterruptContexts {
		if ic.IsRootCause {
			root = ic
			break
		}
	}
	if root == nil {
		return nil
	}
	in := describeInterrupt(root.Info)
	in.ID = root.ID
	return &in
}

// describeInterrupt turns an interrupt's info into what the person sees.
func describeInterrupt(info any) generic.Interrupt {
	switch v := info.(type) {
	case *generic.Interrupt:
		return *v
	case interface{ SiftInterrupt() generic.Interrupt }:
		return v.SiftInterrupt()
	default:
		return generic.Interrupt{Kind: generic.InterruptQuestion, Prompt: fmt.Sprint(info)}
	}
}

// finishFiles writes usage.json and ends the report with the usage
// summary, once the last model call is counted.
func (r *run) finishFiles(u *generic.Usage) {
	if b, err := json.MarshalIndent(u, "", "  "); err == nil {
		_ = r.ws.WriteFileAtomic(usageFile, b)
	}
	if r.reportPath == "" {
		return
	}
	n := r.plan.QuestionNumber()
	md, err := os.ReadFile(r.ws.Path(generic.QuestionReportFile(n)))
	if err != nil {
		return
	}
	text := strings.TrimRight(string(md), "\n") + "\n\n"
	if r.plan != nil && r.plan.Result != nil && len(r.plan.Result.NextQuestions) > 0 {
		text += "## Next questions\n\n- " + strings.Join(r.plan.Result.NextQuestions, "\n- ") + "\n\n"
	}
	_, _ = saveReport(r.ws.Root, n, text+generic.RenderUsageMarkdown(u), r.reportPath == session.ReportFile)
}

// saveStopReport writes the report of a run that stopped before its report
// agent did; it never replaces an earlier question's report.md.
func (r *run) saveStopReport(note string) {
	md := fallbackReport(r.plan, listArtifacts(r.ws.Root), note)
	if path, err := saveReport(r.ws.Root, r.plan.QuestionNumber(), md, false); err == nil {
		r.emit(generic.Event{Kind: generic.EventReport, Path: path, Text: md})
	}
}

// suggest gives a run that has an answer its next questions: the model's
// when it gave some, else the built-in analyses' rules over the data's
// columns (at most three either way).
func (r *run) suggest() {
	if r.plan == nil || r.plan.Result == nil {
		return
	}
	res := r.plan.Result
	if len(res.NextQuestions) == 0 {
		// The answer names what was found, so the questions build on it.
		res.NextQuestions = templates.Suggest(r.req.Question+"\n"+resultText(res), r.ran.Template, r.ran.Params, r.previews)
	}
	if len(res.NextQuestions) > 3 {
		res.NextQuestions = res.NextQuestions[:3]
	}
	if r.ws != nil && len(res.NextQuestions) > 0 {
		_ = writePlanFileAt(r.ws.Root, r.plan)
	}
}

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

// open opens the session's event log and trajectory and starts the run's
// trace span; it returns the context carrying that span.
func (r *run) open(ctx context.Context) (context.Context, error) {
	var err error
	if r.log, err = session.OpenEventLog(r.ws.Path("events.jsonl")); err != nil {
		return ctx, err
	}
	if r.trajectory, err = siftmodel.OpenTrajectory(r.ws.Path(trajectoryFile), siftmodel.TrajectoryConfig{}); err != nil {
		return ctx, err
	}
	ctx, r.endSpan = siftmodel.StartRun(ctx, r.ws.ID)
	r.emit(generic.Event{Kind: generic.EventSession, Text: r.ws.ID, Path: r.ws.Root})
	return ctx, nil
}

// noSandboxWarning is said where generated code runs with no sandbox:
// once per run (a CLI shows it once per process, a chat once).
const noSandboxWarning = "WARNING: generated code runs WITHOUT a sandbox (only path checks confine it): it can read your files and use the network. Install bubblewrap to sandbox it."

// newOperator finds Python, builds the sandbox and the operator, and starts
// the kernel warming up while the planner thinks. With adopt, a kernel
// first takes over the workspace's cell log, so its first cell rebuilds the
// state an earlier process left; adopted says how many cells that replays.
func (r *run) newOperator(ctx context.Context, adopt bool) (op operator.Operator, adopted int, err error) {
	python, err := operator.FindPython(ctx, r.sift.cfg.Python)
	if err != nil {
		return nil, 0, err
	}
	sb, err := operator.NewSandbox(r.sift.cfg.Sandbox)
	if err != nil {
		return nil, 0, err
	}
	if sb.Name() == "none" {
		r.emit(generic.Event{Kind: generic.EventMessage, Agent: "sift", Text: noSandboxWarning})
	}
	cacheEnv, cacheDirs := sharedCacheEnv()
	op, err = operator.NewOperator(operator.OperatorConfig{
		Root: r.ws.Root, Mode: r.sift.cfg.PythonMode, Python: python, Sandbox: sb,
		Timeout: r.sift.cfg.CodeTimeout, ExtraEnv: cacheEnv, Writable: cacheDirs,
	})
	if err != nil {
		return nil, 0, err
	}
	if k, ok := op.(*operator.KernelOperator); ok {
		if adopt {
			if _, adopted, err = k.Kernel().AdoptLog(); err != nil {
				op.Close()
				return nil, 0, err
			}
		}
		go func() { _ = k.Kernel().Start(ctx) }()
	}
	return op, adopted, nil
}

// newRunner builds the agent tree over op and a Runner that checkpoints
// into the session store whenever the run waits for the person.
func (r *run) newRunner(ctx context.Context, op operator.Operator, guard *budgetGuard) (*adk.Runner, error) {
	policy := tools.DefaultPolicy()
	if r.sift.cfg.PolicyFile != "" {
		var err error
		if policy, err = tools.LoadPolicy(r.sift.cfg.PolicyFile); err != nil {
			return nil, err
		}
	}
	if r.req.Yes {
		policy.AutoApprove, policy.Unattended = true, true
	}
	policy.SeeURLsIn(r.req.Question)
	r.connectMCP(ctx, op, policy)
	tree, err := buildTree(ctx, treeConfig{
		mcp:             r.mcp,
		policy:          policy,
		unattended:      r.req.Yes,
		budget:          guard,
		models:          r.sift.models(r.meter, r.trajectory),
		verbatim:        r.sift.cfg.Verbatim,
		op:              op,
		search:          r.sift.cfg.Search,
		fetch:           r.sift.cfg.Fetch,
		maxIterations:   r.sift.cfg.MaxIterations,
		classicExecutor: r.sift.cfg.ClassicExecutor,
		sources:         r.sources,
		outputs:         r.outputs,
		ext:             r.sift.cfg.Extensions,
		locale:          r.sift.cfg.Locale,
		reportImages:    r.sift.cfg.Models.acceptsImages("report"),
		parallel:        r.parallel(),
	})
	if err != nil {
		return nil, err
	}
	return adk.NewRunner(ctx, adk.RunnerConfig{Agent: tree, EnableStreaming: r.sift.cfg.Stream, CheckPointStore: r.sift.store.Checkpoints}), nil
}

// drive consumes the agents' events to the end: it emits them, and then
// finishes the run as done, waiting for the person, over budget or failed.
func (r *run) drive(ctx context.Context, events *adk.AsyncIterator[*adk.AgentEvent], guard *budgetGuard) {
	ws := r.ws
	var runErr error
	var waiting *generic.Interrupt
	reported, paused := false, false
	for {
		ev, ok := events.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			runErr = ev.Err
			continue
		}
		if in := interruptOf(ev); in != nil {
			waiting = in
			if !r.emit(generic.Event{Kind: generic.EventInterrupt, Interrupt: in, Step: r.current}) {
				return
			}
			continue
		}
		if !r.translate(ev, func(e generic.Event) bool {
			switch e.Kind {
			case generic.EventReport:
				reported = true
			case generic.EventPaused:
				paused = true
			}
			return r.emit(e)
		}) {
			return
		}
	}
	if fp, err := loadPlanState(ws.Root); err == nil {
		r.plan = fp
	}
	runErr = plainError(ctx, runErr)
	if runErr == nil && paused {
		r.putMeta(ctx, session.StatusPaused, nil)
		err := fmt.Errorf("%w: session %s keeps its work and goes on when resumed", ErrPaused, ws.ID)
		r.close(generic.Event{Kind: generic.EventDone, Err: err, Plan: r.plan.Clone(), Usage: r.usage(), Path: ws.Root, Text: "paused"})
		return
	}
	if runErr == nil && waiting != nil {
		r.putMeta(ctx, session.StatusWaiting, waiting)
		r.doneWaiting(waiting)
		return
	}
	if runErr != nil && ctx.Err() != nil {
		// Stopped at once (Ctrl-C twice, a cancelled context): everything
		// done so far stays, the rest waits for Sift.Resume.
		_ = writePlanFileAt(ws.Root, r.plan)
		if !reported {
			r.saveStopReport(fmt.Sprintf("The run was stopped (%v) and can go on with: sift resume %s. This report holds what was found until then.", runErr, ws.ID))
		}
		err := fmt.Errorf("%w: %w", ErrRunFailed, runErr)
		r.emit(generic.Event{Kind: generic.EventError, Err: err})
		r.putMeta(context.WithoutCancel(ctx), session.StatusPaused, nil)
		r.close(generic.Event{Kind: generic.EventDone, Err: err, Plan: r.plan.Clone(), Usage: r.usage(), Path: ws.Root})
		return
	}
	if runErr != nil {
		r.plan.SkipRemaining("not run: the run stopped early")
		_ = writePlanFileAt(ws.Root, r.plan)
		if !reported {
			r.saveStopReport(fmt.Sprintf("The run stopped early: %v. This report holds what was found until then.", runErr))
		}
		r.fail(fmt.Errorf("%w: %w", ErrRunFailed, runErr))
		return
	}
	if berr := guard.exceeded(); berr != nil {
		r.emit(generic.Event{Kind: generic.EventUsage, Usage: r.usage()})
		r.done(berr)
		return
	}
	if r.plan.Result == nil {
		// The loop hit its bound without a submitted result.
		r.plan.SkipRemaining("not run: the execute/replan bound was reached")
		_ = writePlanFileAt(ws.Root, r.plan)
	}
	r.emit(generic.Event{Kind: generic.EventUsage, Usage: r.usage()})
	r.done(nil)
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

// followUp opens an existing session for a new question; a session that
// is still going must be resumed instead.
func (r *run) followUp(ctx context.Context, id string) (*session.Workspace, error) {
	meta, err := r.sift.store.Sessions.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	if !meta.Status.Finished() {
		return nil, fmt.Errorf("%w: session %s is %s; resume it (sift resume %s) before asking a follow-up", session.ErrBadInput, id, meta.Status, id)
	}
	return session.Open(r.sift.cfg.SessionsRoot, id)
}

// checkInputs refuses missing or wrong-kind inputs before a session is
// made for them.
func checkInputs(req Request) error {
	for _, f := range req.Files {
		st, err := os.Stat(f)
		switch {
		case err != nil:
			return fmt.Errorf("%w: input file %s: %v; check the path", session.ErrBadInput, f, err)
		case st.IsDir():
			return fmt.Errorf("%w: %s is a directory; pass it as a directory (--dir) instead", session.ErrBadInput, f)
		}
	}
	for _, d := range req.Dirs {
		st, err := os.Stat(d)
		switch {
		case err != nil:
			return fmt.Errorf("%w: input directory %s: %v; check the path", session.ErrBadInput, d, err)
		case !st.IsDir():
			return fmt.Errorf("%w: %s is not a directory; pass it as a file (--file) instead", session.ErrBadInput, d)
		}
	}
	return nil
}

// translate maps one ADK event to Sift events and emits them, tracking the
// current step on the way. It reports false once the caller stopped
// listening.
func (r *run) translate(ev *adk.AgentEvent, emit func(generic.Event) bool) bool {
	if ev.Output == nil {
		return true
	}
	if be, ok := ev.Output.CustomizedOutput.(*branchEvent); ok {
		// A branch's event belongs to its step, whatever else runs.
		saved := r.current
		r.current = be.Step
		defer func() { r.current = saved }()
		return r.translate(be.Event, emit)
	}
	if se, ok := ev.Output.CustomizedOutput.(*generic.Event); ok {
		e := *se
		switch e.Kind {
		case generic.EventStepStarted:
			r.current = e.Step
		case generic.EventStepFinished:
			r.current = nil
			e.Usage = r.usage()
		}
		if e.Step == nil {
			e.Step = r.current
		}
		return emit(e)
	}
	mo := ev.Output.MessageOutput
	if mo == nil {
		return true
	}
	agent := ev.AgentName
	// The planner and replanner speak in tool arguments, which reach the
	// caller as plan events instead.
	speaks := agent != "planner" && agent != "replanner"
	msg, ok := r.readMessage(mo, speaks, agent, emit)
	if !ok {
		return false
	}
	if msg == nil {
		return true
	}
	var out []generic.Event
	switch msg.Role {
	case schema.Assistant:
		for _, tc := range msg.ToolCalls {
			out = append(out, generic.Event{Kind: generic.EventToolCall, Agent: agent, Tool: tc.Function.Name, ToolCallID: tc.ID, Args: tc.Function.Arguments, Step: r.current})
		}
		if len(msg.ToolCalls) == 0 && strings.TrimSpace(msg.Content) != "" && speaks && !mo.IsStreaming {
			out = append(out, generic.Event{Kind: generic.EventMessage, Agent: agent, Text: msg.Content, Step: r.current})
		}
	case schema.Tool:
		out = append(out, generic.Event{Kind: generic.EventToolResult, Agent: agent, Tool: mo.ToolName, ToolCallID: msg.ToolCallID, Text: shorten(msg.Content, 4000), Step: r.current})
	}
	for _, e := range out {
		if !emit(e) {
			return false
		}
	}
	return true
}

// readMessage returns the event's message. A streamed assistant message is
// read chunk by chunk, each chunk of text emitted as a delta when the agent
// speaks to the person; ok is false once the caller stopped listening.
func (r *run) readMessage(mo *adk.MessageVariant, speaks bool, agent string, emit func(generic.Event) bool) (msg *schema.Message, ok bool) {
	if !mo.IsStreaming {
		return mo.Message, true
	}
	if mo.MessageStream == nil {
		return nil, true
	}
	defer mo.MessageStream.Close()
	var chunks []*schema.Message
	for {
		chunk, err := mo.MessageStream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, true
		}
		chunks = append(chunks, chunk)
		if speaks && mo.Role == schema.Assistant && chunk.Content != "" {
			if !emit(generic.Event{Kind: generic.EventMessage, Agent: agent, Text: chunk.Content, Delta: true, Step: r.current}) {
				return nil, false
			}
		}
	}
	if len(chunks) == 0 {
		return nil, true
	}
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		return nil, true
	}
	return msg, true
}

func (r *run) usage() *generic.Usage {
	u := &generic.Usage{AgentUsage: agentUsage(r.meter.Total()), PerAgent: map[string]*generic.AgentUsage{}, PerStep: map[int]*generic.AgentUsage{}}
	for agent, c := range r.meter.Snapshot() {
		au := agentUsage(c)
		u.PerAgent[agent] = &au
	}
	for step, c := range r.meter.ByStep() {
		au := agentUsage(c)
		u.PerStep[step] = &au
	}
	return u
}

func agentUsage(c siftmodel.Counts) generic.AgentUsage {
	return generic.AgentUsage{
		Calls: c.Calls, PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens,
		CachedTokens: c.CachedTokens, ReasoningTokens: c.ReasoningTokens, Estimated: c.Estimated,
		Cost: c.Cost, Unpriced: c.Unpriced, LatencyMS: c.Latency.Milliseconds(),
	}
}

// hasModel reports whether the agents can run (every role has a model).
func (s *Sift) hasModel() bool {
	m := s.cfg.Models
	return m.Default != nil || (m.Planner != nil && m.Executor != nil && m.Code != nil && m.Report != nil)
}

// previewed lists the previews that could be made, for the template
// matcher; the others are reported in the data context.
func previewed(files []generic.Previewed) []*generic.FilePreview {
	out := make([]*generic.FilePreview, 0, len(files))
	for _, f := range files {
		if f.Preview != nil {
			out = append(out, f.Preview)
		}
	}
	return out
}

// models resolves each role's model, metered under the role's name, priced,
// recorded in the trajectory, and trimmed to its context window.
func (s *Sift) models(meter *siftmodel.Meter, traj *siftmodel.Trajectory) resolvedModels {
	pick := func(m model.ToolCallingChatModel) model.ToolCallingChatModel {
		if m != nil {
			return m
		}
		return s.cfg.Models.Default
	}
	wrap := func(role string, m model.ToolCallingChatModel) model.ToolCallingChatModel {
		opts := []siftmodel.WrapOption{siftmodel.WithPrices(s.cfg.Prices), siftmodel.WithArgumentCheck(checkArguments)}
		name := s.cfg.Models.Names[role]
		if name == "" {
			name = s.cfg.Models.Names["default"]
		}
		if name != "" {
			opts = append(opts, siftmodel.WithModelName(name))
		}
		if traj != nil {
			opts = append(opts, siftmodel.WithTrajectory(traj))
		}
		if w := s.contextWindow(role, name); !s.cfg.Verbatim && w > 0 {
			opts = append(opts, siftmodel.WithWindow(siftmodel.Window{Tokens: w, KeepFirstUser: true, DropDuplicates: true}))
		}
		return &markErrors{agent: role, inner: siftmodel.Wrap(pick(m), role, meter, opts...)}
	}
	return resolvedModels{
		planner:  wrap("planner", s.cfg.Models.Planner),
		executor: wrap("executor", s.cfg.Models.Executor),
		code:     wrap("code", s.cfg.Models.Code),
		report:   wrap("report", s.cfg.Models.Report),
	}
}

// acceptsImages reports whether role's model accepts images: its own
// setting, else the default's.
func (m Models) acceptsImages(role string) bool {
	if v, ok := m.Images[role]; ok {
		return v
	}
	return m.Images["default"]
}

// contextWindow is the window a role's requests are trimmed to (see
// Config.ContextWindow); name is the role's model name, if known.
func (s *Sift) contextWindow(role, name string) int {
	if s.cfg.ContextWindow != 0 {
		return s.cfg.ContextWindow
	}
	for _, key := range []string{role, "default"} {
		if w, ok := s.cfg.Models.Windows[key]; ok && w != 0 {
			return w
		}
	}
	return siftmodel.Endpoint{Model: name}.ContextWindowTokens()
}

// demoteHeadings turns the previews' "## file" headings into "### file", so
// they nest under the "## Data" section of the prompts.
func demoteHeadings(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "## ") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}

// sharedCacheEnv points matplotlib at a cache shared by all sessions: each
// workspace has a fresh HOME, and rebuilding the font cache there costs
// seconds on every run's first chart.
func sharedCacheEnv() (env, writable []string) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, nil
	}
	mpl := filepath.Join(dir, "sift", "matplotlib")
	if err := os.MkdirAll(mpl, 0o777); err != nil {
		return nil, nil
	}
	// The sandboxed code may run as another user (see operator's bwrap
	// sandbox), and must still be able to write the cache.
	_ = os.Chmod(mpl, 0o777)
	return []string{"MPLCONFIGDIR=" + mpl}, []string{mpl}
}

// writePlanFileAt rewrites plan.md and state.json in the workspace dir.
func writePlanFileAt(dir string, fp *generic.FullPlan) error {
	if _, err := os.Stat(dir); err != nil {
		return err
	}
	b, err := json.MarshalIndent(fp, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", planStateFile, err)
	}
	if err := writeWorkspaceFile(dir, planStateFile, b); err != nil {
		return err
	}
	return writeWorkspaceFile(dir, "plan.md", []byte(generic.RenderPlanMarkdown(fp)))
}
