// Package agents builds Sift's agent tree (planner, execute/replan loop,
// report) and runs it: the library API that the sift command and the
// examples call.
package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/model"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/mcp"
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
	// ErrDatabaseUnavailable: a database the run or resume needs could not
	// be opened; the session is left as it was. A *DatabaseError carries
	// the specs to give again (with their password, or where the database
	// is now) through Request.Databases or ResumeDatabases.
	ErrDatabaseUnavailable = errors.New("database could not be opened")
)

// DatabaseError says which databases could not be opened, and why.
type DatabaseError struct {
	// Specs are the databases as the session records them ("name=url",
	// without a password).
	Specs []string
	// Session is the session that needs them.
	Session string
	Err     error
}

func (e *DatabaseError) Error() string {
	return fmt.Sprintf("session %s queries %s, which could not be opened: %v (a password is never stored in the session: give the database again with --db, to sift resume or to the follow-up)", e.Session, strings.Join(e.Specs, ", "), e.Err)
}

func (e *DatabaseError) Unwrap() []error { return []error{ErrDatabaseUnavailable, e.Err} }

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
func ModelsFromConfig(ctx context.Context, cfg llm.Config) (Models, error) {
	var ms Models
	for _, r := range []struct {
		role string
		dst  *model.ToolCallingChatModel
	}{{"planner", &ms.Planner}, {"executor", &ms.Executor}, {"code", &ms.Code}, {"report", &ms.Report}} {
		m, err := llm.New(ctx, cfg.For(r.role))
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
	// KernelPool hands new sessions kernels already started (Python and
	// pandas imported), each to one session only (see
	// operator.KernelPool); build it with NewKernelPool from this same
	// Config, so its kernels are configured as the sessions' own. Used in
	// the kernel mode for new sessions; a follow-up, resume or fork makes
	// its kernel as without it. Optional; nil starts every kernel for its
	// session. The caller closes it.
	KernelPool *operator.KernelPool
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
	Preview preview.Options
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
	Prices llm.PriceTable
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
	// event.Message deltas while it is written. Optional; default off.
	Stream bool
	// StreamReport streams the report writer alone (Stream streams every
	// agent): its text reaches the caller as event.Message deltas of agent
	// "report" while it is written; the event.Report with the finished
	// report follows as always. Optional; default off.
	StreamReport bool
	// MCPServers are MCP servers whose tools the agents may use (see
	// package tools/mcp). Each run starts or reaches them, and stops them
	// when it ends; a tool not marked read-only waits for approval.
	// Optional.
	MCPServers []mcp.ServerConfig
	// NoMemory turns memory off: no answer is taken from or added to the
	// answer cache, and no fact the person gave is kept or recalled (see
	// package memory). Optional; memory is on by default, kept in
	// Store.Memory.
	NoMemory bool
	// Embedder, when set, compares a new question with the questions
	// answered before on the same data by their embeddings (an
	// OpenAI-compatible embeddings endpoint: llm.NewEmbeddings), so that a
	// paraphrase is suggested too; a suggestion only, never an answer.
	// Optional: without one, questions are compared word by word.
	Embedder memory.Embedder
}

// Sift runs analyses. Create it with New.
type Sift struct {
	cfg   Config
	store *session.Backend
	// mappings are the models' column mappings of refreshes, kept for
	// the refresh that applies one (see askMapping).
	mappings *modelMappings
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
		cfg.Locale = tree.LocaleFromEnv(os.Getenv)
	}
	cfg.CodeTimeout = codeTimeout(cfg)
	if cfg.Prices == nil {
		cfg.Prices = llm.DefaultPrices()
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
	return &Sift{cfg: cfg, store: store, mappings: &modelMappings{}}, nil
}

// Mode chooses the route a request takes.
type Mode string

// The routes.
const (
	// ModeAuto lets the planner rate the request: a trivial one takes the
	// quick path, others the full plan-execute-replan loop.
	ModeAuto Mode = params.ModeAuto
	// ModeQuick skips planning: one code-agent loop answers the request.
	ModeQuick Mode = params.ModeQuick
	// ModePlan always plans, executes and replans.
	ModePlan Mode = params.ModePlan
	// ModeTemplate only runs a built-in analysis, never a model.
	ModeTemplate Mode = params.ModeTemplate
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
	// Fresh computes the answer even when an earlier session answered the
	// same question on the same data with the same settings (the answer
	// cache, see package memory); the new answer then replaces the old.
	Fresh bool
	// Parallel bounds the plan steps run at the same time, each in a
	// Python kernel of its own (see DefaultParallel, used when 0); 1 runs
	// one step after another.
	Parallel int
	// Labels are kept with the session (session.Meta.Labels) for the
	// caller: who asked, from where, how to resume it. A label given again
	// by a later question replaces the earlier one. Optional; never put a
	// secret in one (they are listed with the session).
	Labels map[string]string
}

// hasModel reports whether the agents can run (every role has a model).
func (s *Sift) hasModel() bool {
	m := s.cfg.Models
	return m.Default != nil || (m.Planner != nil && m.Executor != nil && m.Code != nil && m.Report != nil)
}

// models resolves each role's model, metered under the role's name, priced,
// recorded in the trajectory, and trimmed to its context window.
func (s *Sift) models(meter *llm.Meter, traj *trajectory.Writer) tree.Models {
	pick := func(m model.ToolCallingChatModel) model.ToolCallingChatModel {
		if m != nil {
			return m
		}
		return s.cfg.Models.Default
	}
	wrap := func(role string, m model.ToolCallingChatModel) model.ToolCallingChatModel {
		opts := []llm.WrapOption{llm.WithPrices(s.cfg.Prices), llm.WithArgumentCheck(tree.CheckArguments)}
		name := s.cfg.Models.Names[role]
		if name == "" {
			name = s.cfg.Models.Names["default"]
		}
		if name != "" {
			opts = append(opts, llm.WithModelName(name))
		}
		if traj != nil {
			opts = append(opts, llm.WithTrajectory(traj))
		}
		if w := s.contextWindow(role, name); !s.cfg.Verbatim && w > 0 {
			opts = append(opts, llm.WithWindow(llm.Window{Tokens: w, KeepFirstUser: true, DropDuplicates: true}))
		}
		return tree.MarkErrors(role, llm.Wrap(pick(m), role, meter, opts...))
	}
	return tree.Models{
		Planner:  wrap("planner", s.cfg.Models.Planner),
		Executor: wrap("executor", s.cfg.Models.Executor),
		Code:     wrap("code", s.cfg.Models.Code),
		Report:   wrap("report", s.cfg.Models.Report),
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
	return llm.Endpoint{Model: name}.ContextWindowTokens()
}
