package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/web"
)

// runOptions is everything `sift run` needs, parsed from flags.
type runOptions struct {
	// LoadedScript is the scripted model --script loaded (set when the
	// configuration is built), for resume to position.
	LoadedScript *scripted.Script

	Question string
	Files    []string
	Dirs     []string
	// DBs are database URLs from --db, each optionally "name=url".
	DBs           []string
	JSON          bool
	BaseURL       string
	APIKey        string
	Model         string
	ConfigPath    string
	Script        string
	Python        string
	SessionsDir   string
	MaxIterations int
	// Parallel bounds the plan steps run at the same time.
	Parallel    int
	CodeTimeout time.Duration
	Mode        string
	// AgentModels are per-agent model names from --planner-model etc.
	AgentModels map[string]string
	Budget      agents.Budget
	// PythonMode is kernel or process; Sandbox is auto, bwrap or none.
	ReviewPlan bool
	Yes        bool
	// Fresh computes the answer even when memory holds it (--fresh).
	Fresh            bool
	PolicyFile       string
	Store            string
	Session          string
	PythonMode       string
	Sandbox          string
	AllowUnsandboxed bool
	// MCPConfig names a file of MCP servers; default the config file's
	// mcp_servers section.
	MCPConfig string
	// ResumeArgs are the flags a printed `sift resume` repeats (resumeArgs).
	ResumeArgs []string
}

// runDeps are what runRun calls; tests replace them.
type runDeps struct {
	// newSift builds the library instance and says which model it uses.
	newSift func(ctx context.Context, opts *runOptions) (s *agents.Sift, modelLabel string, err error)
	now     func() time.Time
	// working is how long a run on a terminal may print nothing before
	// it shows that it is working; 0 means workingEvery.
	working time.Duration
}

func newRunCmd(io *ioStreams, runF func(context.Context, *runOptions) error) *cobra.Command {
	opts := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run [--file FILE]... [--dir DIR]... [--db URL]... <question>",
		Short: "Analyse data files to answer one question",
		Example: `  sift run --file sales.xlsx "Which region grew fastest in 2024?"
  sift run --file a.csv --file b.csv --json "Compare the two files" > events.jsonl
  sift run --dir ./exports "Profile every table"
  sift run --db sqlite:shop.db --file targets.xlsx "Revenue vs target per region"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("give the question as an argument, e.g. sift run --file data.csv \"what is the monthly trend?\"")}
			}
			if _, err := agents.ParseMode(opts.Mode); err != nil {
				return usageError{err}
			}
			if opts.Parallel < 1 {
				return usageError{fmt.Errorf("--parallel must be at least 1 (1 runs the steps one after another), got %d", opts.Parallel)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Question = strings.Join(args, " ")
			if opts.Script != "" && !cmd.Flags().Changed("parallel") {
				// A script's replies are played in the order asked: steps
				// side by side would take each other's.
				opts.Parallel = 1
			}
			opts.ResumeArgs = resumeArgs(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRun(cmd.Context(), io, opts, defaultRunDeps())
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.Files, "file", "f", nil, "data file to analyse (repeatable): csv, tsv, xlsx, txt, md, json, jsonl")
	f.StringArrayVarP(&opts.Dirs, "dir", "d", nil, "directory whose files are all inputs (repeatable)")
	f.StringArrayVar(&opts.DBs, "db", nil, "database the agents may query, read-only (repeatable): sqlite:shop.db, postgres://user:pass@host/db, mysql://user:pass@host/db; name=url names it")
	f.IntVar(&opts.MaxIterations, "max-iterations", 10, "most execute/replan rounds")
	f.IntVar(&opts.Parallel, "parallel", agents.DefaultParallel, "most plan steps run at the same time, each in a Python kernel of its own (1: one after another)")
	addBudgetFlags(f, &opts.Budget)
	f.StringVar(&opts.Session, "session", "", "ask a follow-up in this finished session: its results, files and Python state carry over")
	f.BoolVar(&opts.Yes, "yes", false, "run unattended: no plan review, approvals the policy allows are given and the rest refused, questions answered by assumption")
	f.BoolVar(&opts.Fresh, "fresh", false, "compute the answer even when an earlier session answered the same question on the same data with the same settings (see sift memory)")
	f.BoolVar(&opts.ReviewPlan, "review", false, "wait for you to approve, edit or reject the plan before it runs (answer with sift resume)")
	addModelFlags(cmd, opts)
	f.StringVar(&opts.Mode, "mode", "auto", "route: auto (a built-in analysis when one matches, else the planner, which sends trivial requests down the quick path), template (built-in analyses only, no model), quick (one code-agent loop, no planning), plan (always plan, execute and replan)")
	return cmd
}

// addModelFlags adds the flags that choose the model, the Python and the
// sandbox, and where sessions live: shared by the commands that run agents.
func addModelFlags(cmd *cobra.Command, opts *runOptions) {
	f := cmd.Flags()
	f.BoolVar(&opts.JSON, "json", false, "print events as JSON lines on stdout instead of progress")
	f.StringVar(&opts.BaseURL, "base-url", "", "OpenAI-compatible API base URL, including /v1 (env SIFT_BASE_URL)")
	f.StringVar(&opts.APIKey, "api-key", "", "API key (prefer env SIFT_API_KEY: flags are visible to other users)")
	f.StringVar(&opts.Model, "model", "", "model name (env SIFT_MODEL)")
	f.StringVar(&opts.ConfigPath, "config", "", "model config file (default $SIFT_CONFIG or ~/.config/sift/config.json)")
	f.StringVar(&opts.Script, "script", "", "play a scripted model from this JSON file instead of calling a model (tests and offline demos); its replies go in order, so steps run one at a time unless --parallel is given")
	f.StringVar(&opts.Python, "python", "", "Python interpreter with pandas and matplotlib (env SIFT_PYTHON; default: found automatically)")
	f.StringVar(&opts.SessionsDir, "sessions-dir", "", "where session workspaces are created (default $SIFT_HOME/sessions or ~/.local/state/sift/sessions)")
	f.DurationVar(&opts.CodeTimeout, "code-timeout", 2*time.Minute, "time limit for one Python run")
	for _, agent := range llm.AgentNames {
		agent := agent
		f.Var(agentModelFlag{opts: opts, agent: agent}, agent+"-model", fmt.Sprintf("model for the %s agent only (env SIFT_%s_MODEL)", agent, strings.ToUpper(agent)))
	}
	f.StringVar(&opts.Store, "store", "", "where checkpoints and the session registry live: file:DIR, sqlite:PATH or redis://HOST:PORT/DB (default $SIFT_STORE, else files beside the sessions)")
	f.StringVar(&opts.PolicyFile, "policy", "", "approval policy file (JSON): which tool calls wait for your approval")
	f.StringVar(&opts.PythonMode, "python-mode", "kernel", "kernel: one stateful Python per session (variables persist between steps); process: a fresh Python per call")
	f.StringVar(&opts.Sandbox, "sandbox", "", "where generated code runs: auto (bubblewrap, refuse without it), bwrap, none (no sandbox; default $SIFT_SANDBOX or auto)")
	f.BoolVar(&opts.AllowUnsandboxed, "allow-unsandboxed", false, "with --sandbox auto, run code without a sandbox where bubblewrap is unavailable instead of refusing")
	f.StringVar(&opts.MCPConfig, "mcp-config", "", "JSON file of MCP servers whose tools the agents may use (default: mcp_servers in the config file)")
}

// agentModelFlag sets one agent's model name in runOptions.AgentModels.
type agentModelFlag struct {
	opts  *runOptions
	agent string
}

func (f agentModelFlag) String() string {
	if f.opts == nil {
		return ""
	}
	return f.opts.AgentModels[f.agent]
}

func (f agentModelFlag) Set(v string) error {
	if f.opts.AgentModels == nil {
		f.opts.AgentModels = map[string]string{}
	}
	f.opts.AgentModels[f.agent] = v
	return nil
}

func (agentModelFlag) Type() string { return "name" }

func defaultRunDeps() runDeps {
	return runDeps{newSift: buildSift, now: time.Now}
}

// modelOptions are the model flags of `sift run`.
func (o *runOptions) modelOptions() modelOptions {
	return modelOptions{BaseURL: o.BaseURL, APIKey: o.APIKey, Model: o.Model, ConfigPath: o.ConfigPath, Script: o.Script, AgentModels: o.AgentModels}
}

// buildSift makes the library instance from flags, env and config file.
func buildSift(ctx context.Context, opts *runOptions) (*agents.Sift, string, error) {
	cfg, label, err := siftConfig(ctx, opts)
	if err != nil {
		return nil, "", err
	}
	s, err := agents.New(cfg)
	return s, label, err
}

// siftConfig makes the library configuration from flags, env and config
// file, and says which model it uses.
func siftConfig(ctx context.Context, opts *runOptions) (agents.Config, string, error) {
	prices, err := llm.PricesFromEnv(os.Getenv)
	if err != nil {
		return agents.Config{}, "", usageError{err}
	}
	pyMode, err := operator.ParsePythonMode(opts.PythonMode)
	if err != nil {
		return agents.Config{}, "", usageError{err}
	}
	sandbox := operator.SandboxFromEnv(os.Getenv)
	if opts.Sandbox != "" {
		sandbox.Mode = operator.SandboxMode(opts.Sandbox)
	}
	sandbox.AllowUnsandboxed = opts.AllowUnsandboxed
	var store *session.Backend
	if url := firstNonEmpty(opts.Store, os.Getenv(session.StoreEnv)); url != "" {
		if store, err = session.OpenBackend(ctx, url); err != nil {
			return agents.Config{}, "", usageError{err}
		}
	}
	cfg := agents.Config{
		Store:         store,
		PythonMode:    pyMode,
		PolicyFile:    opts.PolicyFile,
		Sandbox:       sandbox,
		SessionsRoot:  opts.SessionsDir,
		Prices:        prices,
		Python:        opts.Python,
		CodeTimeout:   opts.CodeTimeout,
		MaxIterations: opts.MaxIterations,
		Search:        web.FromEnv(os.Getenv),
	}
	if err := applyFileSettings(&cfg, opts); err != nil {
		return agents.Config{}, "", usageError{err}
	}
	emb, err := llm.EmbeddingsFromEnv(os.Getenv)
	if err != nil {
		return agents.Config{}, "", usageError{err}
	}
	if emb != nil { // a nil *llm.Embeddings in the interface would not be nil
		cfg.Embedder = emb
	}
	ms, label, err := resolveModels(ctx, opts.modelOptions())
	if err != nil {
		return agents.Config{}, "", err
	}
	cfg.Models = ms
	if sm, ok := ms.Default.(interface{ Script() *scripted.Script }); ok {
		opts.LoadedScript = sm.Script()
	}
	if !configured(ms) {
		// Without a model Sift still runs its built-in analyses.
		label = "none configured: built-in analyses only (set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL for the agents)"
	}
	return cfg, label, nil
}

// runRun runs one analysis and renders its events.
func runRun(ctx context.Context, io *ioStreams, opts *runOptions, deps runDeps) error {
	s, label, err := deps.newSift(ctx, opts)
	if err != nil {
		return err
	}
	io, working := newWorkingLine(io, opts.JSON, deps.now, deps.working)
	r := newRenderer(io, opts.JSON, deps.now)
	r.resumeArgs = opts.ResumeArgs
	r.working = working
	if !opts.JSON {
		r.status("Model: %s", label)
	}
	var final event.Event
	mode, err := agents.ParseMode(opts.Mode)
	if err != nil {
		return usageError{err}
	}
	// The run holds its session's claim from the start, so a resume (or a
	// server) cannot run the session while this process does.
	id := opts.Session
	if id == "" {
		id = session.NewID()
	}
	ctx, release, err := s.Hold(ctx, id, "sift run")
	if err != nil {
		return claimError(err)
	}
	defer release()
	defer working.start()()
	for e := range s.Run(ctx, agents.Request{Mode: mode, Question: opts.Question, Files: opts.Files, Dirs: opts.Dirs, Databases: opts.DBs, Budget: opts.Budget, ReviewPlan: opts.ReviewPlan && !opts.Yes, Yes: opts.Yes, Fresh: opts.Fresh, SessionID: id, Parallel: opts.Parallel, Labels: resumeLabels(opts.ResumeArgs)}) {
		r.event(e)
		final = e
	}
	return finalError(final)
}

// finalError maps a run's last event to the command's result: waiting for
// the person and a pause each have their own exit code.
func finalError(final event.Event) error {
	switch {
	case final.Err != nil:
		return reportedError{final.Err}
	case final.Interrupt != nil:
		return reportedError{errWaiting}
	}
	return nil
}

// applyFileSettings sets what the config file says beyond models: the
// MCP servers (from --mcp-config when given) and the standing
// instructions and glossary every agent follows.
func applyFileSettings(cfg *agents.Config, opts *runOptions) error {
	mc, err := llm.LoadConfig(opts.ConfigPath, os.Getenv)
	if err != nil {
		return err
	}
	cfg.Extensions.Instructions = mc.Instructions
	cfg.Extensions.Glossary = mc.Glossary
	if opts.MCPConfig != "" {
		cfg.MCPServers, err = mcp.LoadFile(opts.MCPConfig)
	} else {
		cfg.MCPServers, err = mcp.ParseServers(mc.MCPServers)
	}
	return err
}

// firstNonEmpty returns the first of vals that is not empty.
func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// budgetFlags are the flags that bound a run's spending.
var budgetFlags = []string{"max-tokens", "max-time", "max-steps", "max-model-calls", "max-cost"}

// addBudgetFlags adds budgetFlags to f, setting b.
func addBudgetFlags(f *pflag.FlagSet, b *agents.Budget) {
	f.IntVar(&b.MaxTokens, "max-tokens", 0, "stop at the next safe point after this many model tokens (0: no limit)")
	f.DurationVar(&b.MaxTime, "max-time", 0, "stop at the next safe point after this much wall time, e.g. 10m (0: no limit)")
	f.IntVar(&b.MaxSteps, "max-steps", 0, "run at most this many plan steps (0: no limit)")
	f.IntVar(&b.MaxModelCalls, "max-model-calls", 0, "stop at the next safe point after this many model calls (0: no limit)")
	f.Float64Var(&b.MaxCost, "max-cost", 0, "stop at the next safe point after this many US dollars of model calls, from the price table (SIFT_PRICES; 0: no limit)")
}
