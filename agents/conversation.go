package agents

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/conversation"
	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/sqldb"
)

// Routes a turn can take, as recorded in Turn.Route.
const (
	// RouteSQL: the SQL analyst answered.
	RouteSQL = conversation.RouteSQL
	// RoutePlan: the plan-execute analyst answered from the files.
	RoutePlan = conversation.RoutePlan
	// RouteReply: the supervisor replied itself: a plain answer, a
	// question back to the person, or a polite refusal.
	RouteReply = conversation.RouteReply
)

// ErrNoAnalyst: the conversation has neither a database nor Python, so no
// analyst can work.
var ErrNoAnalyst = conversation.ErrNoAnalyst

// Turn is one question and what answered it, as the conversation's
// history keeps it.
type Turn = conversation.Turn

// ConversationConfig configures a Conversation.
type ConversationConfig struct {
	// Config configures the models, Python, sandbox and the plan-execute
	// analyst, as for New. A model is required. The supervisor uses
	// Models.Planner and the SQL analyst Models.Code, each falling back to
	// Models.Default.
	Config
	// Sources are the SQL databases the SQL analyst queries. Optional;
	// without them questions go to the plan-execute analyst. The
	// Conversation does not close them.
	Sources *sqldb.Sources
	// Files and Dirs are copied into the session's input/ for the
	// plan-execute analyst. Optional. When continuing a session, files
	// already in input/ under the same name are not copied again.
	Files, Dirs []string
	// SessionID names the session. Optional: empty starts a new one; the
	// ID of an existing session continues its conversation from its
	// history file.
	SessionID string
	// MaxHistoryTurns is how many earlier turns the supervisor reads.
	// Optional; defaults to 10.
	MaxHistoryTurns int
	// Budget bounds each turn that takes the plan-execute analyst.
	// Optional; no bounds.
	Budget Budget
	// Parallel bounds the plan steps the plan-execute analyst runs at the
	// same time, as Request.Parallel. Optional.
	Parallel int
	// Labels are kept with the session by each turn the plan-execute
	// analyst takes, as Request.Labels (a command line keeps there the
	// flags a resume needs). Optional.
	Labels map[string]string
}

// Conversation is a multi-turn analysis session: a supervisor routes each
// question to the SQL analyst, the plan-execute analyst or its own reply,
// resolving follow-ups against the history. Create it with
// NewConversation; ask one question at a time; Close it when done.
type Conversation struct {
	cfg         ConversationConfig
	sift        *Sift
	ws          *session.Workspace
	op          operator.Operator
	log         *session.EventLog
	python      bool
	inputs      []string
	dataContext string
	// warnings are said once, at the start of the first turn.
	warnings []string

	mu    sync.Mutex
	turns []Turn
}

// NewConversation opens the session (continuing cfg.SessionID's history
// when that session exists), copies the inputs into it and prepares the
// operator. It fails with ErrNoModel without a model, and with
// ErrNoAnalyst when there is neither a database nor a usable Python.
func NewConversation(ctx context.Context, cfg ConversationConfig) (*Conversation, error) {
	s, err := New(cfg.Config)
	if err != nil {
		return nil, err
	}
	if !s.hasModel() {
		return nil, fmt.Errorf("%w: questions about databases and files are answered by writing SQL and Python, which needs a language model; set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL (or pass --script with a scripted model for an offline demo)", ErrNoModel)
	}
	cfg.Config = s.cfg
	if cfg.MaxHistoryTurns <= 0 {
		cfg.MaxHistoryTurns = conversation.DefaultMaxHistoryTurns
	}
	if err := checkInputs(Request{Files: cfg.Files, Dirs: cfg.Dirs}); err != nil {
		return nil, err
	}
	c := &Conversation{cfg: cfg, sift: s}
	if err := c.openWorkspace(ctx); err != nil {
		return nil, err
	}
	if err := c.openOperator(ctx); err != nil {
		return nil, err
	}
	if c.log, err = session.OpenEventLog(c.ws.Path("events.jsonl")); err != nil {
		c.op.Close()
		return nil, err
	}
	return c, nil
}

// openWorkspace creates or reopens the session, loads its history and
// adds the inputs.
func (c *Conversation) openWorkspace(ctx context.Context) error {
	id := c.cfg.SessionID
	var err error
	if id != "" {
		c.ws, err = session.Open(c.cfg.SessionsRoot, id)
		switch {
		case err == nil:
			if c.turns, err = conversation.LoadHistory(c.ws.Path(conversation.HistoryFile)); err != nil {
				return err
			}
			c.settlePending()
		case errors.Is(err, session.ErrWorkspaceNotFound):
			c.ws = nil
		default:
			return err
		}
	} else {
		id = session.NewIDContext(ctx)
	}
	if c.ws == nil {
		if c.ws, err = session.Create(ctx, c.cfg.SessionsRoot, id); err != nil {
			return fmt.Errorf("create session workspace: %w", err)
		}
	}
	existing, err := c.ws.Inputs()
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, in := range existing {
		have[filepath.Base(in)] = true
	}
	for _, f := range c.cfg.Files {
		if have[filepath.Base(f)] {
			continue
		}
		if _, err := c.ws.AddInput(ctx, f); err != nil {
			return err
		}
	}
	for _, d := range c.cfg.Dirs {
		if _, err := c.ws.AddInputDir(ctx, d); err != nil {
			return fmt.Errorf("add input directory: %w", err)
		}
	}
	if c.inputs, err = c.ws.Inputs(); err != nil {
		return err
	}
	abs := make([]string, len(c.inputs))
	for i, in := range c.inputs {
		abs[i] = c.ws.Path(in)
	}
	if len(abs) > 0 {
		popts := c.cfg.Preview
		popts.BaseDir = c.ws.Root
		c.dataContext = demoteHeadings(preview.DescribePaths(ctx, abs, popts))
	}
	return nil
}

// openOperator starts the operator. Without Python (or a sandbox for it)
// a conversation over databases still works, without charts; one over
// files cannot.
func (c *Conversation) openOperator(ctx context.Context) error {
	hasDB := c.cfg.Sources != nil && c.cfg.Sources.Len() > 0
	python, err := operator.FindPython(ctx, c.cfg.Python)
	var sb operator.Sandbox
	if err == nil {
		sb, err = operator.NewSandbox(c.cfg.Sandbox)
	}
	switch {
	case err != nil && (len(c.inputs) > 0 || !hasDB):
		if !hasDB {
			return fmt.Errorf("%w: attach a database (--db) or make Python work: %w", ErrNoAnalyst, err)
		}
		return err
	case err != nil:
		c.warnings = append(c.warnings, fmt.Sprintf("Charts are off: %v", err))
		python, sb = "", nil
	case sb.Name() == "none":
		c.warnings = append(c.warnings, noSandboxWarning)
	}
	if sb != nil {
		c.warnings = append(c.warnings, operator.Warnings(sb)...)
	}
	c.python = python != ""
	c.op, err = operator.New(operator.Config{
		Root: c.ws.Root, Mode: c.cfg.PythonMode, Python: python, Sandbox: sb,
		Timeout: c.cfg.CodeTimeout,
	})
	return err
}

// settlePending fills in the last turn when its data analyst waited for
// the person and the session's run has since finished (sift resume
// answered it).
func (c *Conversation) settlePending() {
	n := len(c.turns)
	if n == 0 || !c.turns[n-1].Pending {
		return
	}
	fp, err := tree.LoadPlanState(c.ws.Root)
	if err != nil || fp.Result == nil {
		return
	}
	t := &c.turns[n-1]
	t.Answer, t.Findings, t.Files, t.Pending = fp.Result.Answer, fp.Result.Findings, fp.Result.Files, false
	for _, name := range []string{report.QuestionReportFile(fp.QuestionNumber()), session.ReportFile} {
		if _, err := os.Stat(c.ws.Path(name)); err == nil {
			t.Report = name
			break
		}
	}
}

// ID is the session's ID: pass it as ConversationConfig.SessionID to
// continue the conversation later.
func (c *Conversation) ID() string { return c.ws.ID }

// Workdir is the session workspace's absolute path.
func (c *Conversation) Workdir() string { return c.ws.Root }

// Hold takes the claim on the conversation's session for this process, as
// Sift.Hold does for a run: take it before Ask and release it after the
// turn's last event, so that no other process (sift resume, a chat, sift
// serve) works on the session during the turn.
func (c *Conversation) Hold(ctx context.Context, what string) (context.Context, func(), error) {
	return c.sift.Hold(ctx, c.ws.ID, what)
}

// Turns returns a copy of the conversation's turns so far, oldest first.
func (c *Conversation) Turns() []Turn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Turn(nil), c.turns...)
}

// Close stops the operator's Python and closes the event log. The
// session workspace and its history stay.
func (c *Conversation) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	if c.op != nil {
		errs = append(errs, c.op.Close())
	}
	if c.log != nil {
		errs = append(errs, c.log.Close())
	}
	return errors.Join(errs...)
}

// Ask runs one turn and yields its events; the last is always event.Done,
// whose Err is nil on success. The turn is then in Turns and the history
// file. Turns run one at a time: a second Ask waits for the first.
// Breaking out of the loop cancels the turn.
func (c *Conversation) Ask(ctx context.Context, question string) iter.Seq[event.Event] {
	return func(yield func(event.Event) bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		meter := &llm.Meter{}
		a := &askRun{c: c, yield: yield, meter: meter, tr: &run{meter: meter}, turn: conversation.NewState(strings.TrimSpace(question))}
		defer a.end()
		// The supervisor's and SQL analyst's calls say when they start and
		// end, as a run's do (the data analyst's run reports its own).
		ctx = llm.WithCallObserver(ctx, func(ci llm.CallInfo) { a.emit(modelCallEvent(ci, a.tr.usage)) })
		a.execute(ctx)
	}
}

// askRun is the state of one Ask call.
type askRun struct {
	c       *Conversation
	yield   func(event.Event) bool
	stopped bool
	meter   *llm.Meter
	// tr translates ADK events as Sift.Run does.
	tr   *run
	turn *conversation.State
	// mu serialises emit: model calls report from their goroutines.
	mu sync.Mutex
	// ended: Ask returned, and no event reaches its caller any more.
	ended bool
}

func (a *askRun) end() {
	a.mu.Lock()
	a.ended = true
	a.mu.Unlock()
}

func (a *askRun) emit(e event.Event) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended {
		return false
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if e.Err != nil && e.Text == "" {
		e.Text = e.Err.Error()
	}
	// The caller sees the event as logged, numbered (Seq).
	if logged, err := a.c.log.Record(e); err == nil {
		e = logged
	}
	if a.stopped {
		return false
	}
	if !a.yield(e) {
		a.stopped = true
	}
	return !a.stopped
}

func (a *askRun) done(err error, plan *plans.FullPlan) {
	a.emit(event.Event{Kind: event.Done, Err: err, Path: a.c.ws.Root, Plan: plan.Clone(), Usage: a.tr.usage()})
}

func (a *askRun) execute(ctx context.Context) {
	c := a.c
	if a.turn.Question() == "" {
		err := fmt.Errorf("%w: say what you want to know, e.g. \"what was the revenue by region last year?\"", ErrNoQuestion)
		a.emit(event.Event{Kind: event.Error, Err: err})
		a.done(err, nil)
		return
	}
	if !a.emit(event.Event{Kind: event.Session, Text: c.ws.ID, Path: c.ws.Root}) {
		return
	}
	for _, w := range c.warnings {
		a.emit(event.Event{Kind: event.Message, Agent: "sift", Text: w})
	}
	c.warnings = nil
	earlier := prompt.LastTurns(c.turns, c.cfg.MaxHistoryTurns)
	root, err := conversation.Build(ctx, conversation.Config{
		Supervisor: a.roleModel(conversation.NameSupervisor, c.cfg.Models.Planner),
		SQL:        a.roleModel(conversation.NameSQLAnalyst, c.cfg.Models.Code),
		Sources:    c.cfg.Sources, Op: c.op, Python: c.python, DataContext: c.dataContext,
		State: a.turn, History: earlier, SQLExamples: a.sqlExamples(ctx),
	})
	if err != nil {
		a.emit(event.Event{Kind: event.Error, Err: err})
		a.done(err, nil)
		return
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: root, EnableStreaming: c.cfg.Stream})
	msgs := append(prompt.History(conversation.PromptTurns(earlier)), schema.UserMessage(a.turn.Question()))
	events := runner.Run(ctx, msgs, adk.WithSessionValues(map[string]any{
		params.Question.Name():    a.turn.Question(),
		params.DataContext.Name(): c.dataContext,
		params.Inputs.Name():      c.inputs,
		params.Workdir.Name():     c.ws.Root,
		params.Mode.Name():        string(ModeAuto),
	}))
	var runErr error
	for {
		ev, ok := events.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			runErr = ev.Err
			continue
		}
		if !a.tr.translate(ev, a.emit) {
			return
		}
	}
	runErr = tree.PlainError(ctx, runErr)
	var analysed *analysis
	if runErr == nil && a.turn.Routed() == conversation.NameDataAnalyst {
		if analysed = a.analyse(ctx); analysed == nil {
			return
		}
		runErr = analysed.done.Err
	}
	t := a.turn.Record()
	if analysed != nil {
		t.Report, t.Pending = analysed.report, analysed.done.Interrupt != nil
	}
	if runErr != nil {
		t.Error = runErr.Error()
	}
	if !a.finish(&t) {
		return
	}
	a.rememberSQL(ctx, t)
	c.turns = append(c.turns, t)
	if err := c.saveHistory(); err != nil {
		a.emit(event.Event{Kind: event.Error, Err: err})
	}
	a.emit(event.Event{Kind: event.UsageSoFar, Usage: a.tr.usage()})
	switch {
	case analysed != nil:
		// The analyst's run said its own errors and how it ended.
		d := analysed.done
		d.Time, d.Seq, d.Usage = time.Time{}, 0, a.tr.usage()
		a.emit(d)
		return
	case runErr != nil:
		runErr = fmt.Errorf("%w: %w", ErrRunFailed, runErr)
		a.emit(event.Event{Kind: event.Error, Err: runErr})
	}
	a.done(runErr, a.turn.Plan())
}

// analysis is how the data analyst's run of a turn ended: its last event
// and the report it published, if any.
type analysis struct {
	done   event.Event
	report string
}

// analyse runs the supervisor's rewritten request through Sift's runner
// in the conversation's session, lending it the workspace, operator and
// databases: the data analyst plans, asks, waits for approvals, keeps a
// checkpoint (sift resume answers it), uses MCP servers, runs steps side
// by side and records its trajectory as every run does. It returns nil
// once the caller stopped listening.
func (a *askRun) analyse(ctx context.Context) *analysis {
	c := a.c
	request := a.turn.RequestText()
	out := &analysis{}
	stopped := false
	yield := func(e event.Event) bool {
		switch e.Kind {
		case event.Done:
			out.done = e
			return true
		case event.Report:
			out.report = e.Path
		}
		if !a.emit(e) {
			stopped = true
		}
		return !stopped
	}
	r := c.sift.newRun(Request{Question: request, Budget: c.cfg.Budget, Parallel: c.cfg.Parallel, Labels: c.cfg.Labels}, yield)
	r.meter = a.meter
	r.lent = &lent{ws: c.ws, op: c.op, sources: c.cfg.Sources}
	r.sources = c.cfg.Sources
	c.sift.start(ctx, r, (*run).execute)
	if stopped {
		return nil
	}
	a.turn.SetPlan(out.done.Plan)
	if out.done.Interrupt == nil && out.done.Err == nil {
		answer := "The analysis ended without a final answer; the report holds what was found."
		if fp := out.done.Plan; fp != nil && fp.Result != nil && strings.TrimSpace(fp.Result.Answer) != "" {
			answer = fp.Result.Answer
		}
		if !a.emit(event.Event{Kind: event.Message, Agent: conversation.NameDataAnalyst, Text: answer}) {
			return nil
		}
	}
	return out
}

// lent is what a conversation lends the run of its data analyst: the
// session's workspace, its operator (and so its Python state) and its
// databases. The run uses them and leaves them open for the conversation.
type lent struct {
	ws      *session.Workspace
	op      operator.Operator
	sources *sqldb.Sources
}

// finish emits what the turn produced: the SQL answer's files, report and
// text (the other routes spoke through their own events).
func (a *askRun) finish(t *Turn) bool {
	if t.Route != RouteSQL || t.Error != "" && t.Answer == "" {
		return true
	}
	for _, p := range t.Files {
		if !a.emit(event.Event{Kind: event.Artifact, Agent: conversation.NameSQLAnalyst, Path: p}) {
			return false
		}
	}
	if t.Report != "" {
		md, _ := os.ReadFile(a.c.ws.Path(t.Report))
		if !a.emit(event.Event{Kind: event.Report, Agent: conversation.NameSQLAnalyst, Path: t.Report, Text: string(md)}) {
			return false
		}
	}
	text := t.Answer
	for _, f := range t.Findings {
		text += "\n- " + f
	}
	return a.emit(event.Event{Kind: event.Message, Agent: conversation.NameSQLAnalyst, Text: text})
}

// roleModel is m (or the default model) metered under role.
func (a *askRun) roleModel(role string, m model.ToolCallingChatModel) model.ToolCallingChatModel {
	if m == nil {
		m = a.c.cfg.Models.Default
	}
	return tree.MarkErrors(role, llm.Wrap(m, role, a.meter))
}

// saveHistory writes the history file.
func (c *Conversation) saveHistory() error {
	return conversation.SaveHistory(c.ws, c.turns)
}
