package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dustin/go-humanize/english"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/termsafe"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/web"
)

// conversationOptions are the flags `sift ask` and `sift chat` share.
type conversationOptions struct {
	// DBs are database URLs from --db, each optionally "name=url".
	DBs              []string
	Files            []string
	Dirs             []string
	BaseURL          string
	APIKey           string
	Model            string
	ConfigPath       string
	Script           string
	Python           string
	SessionsDir      string
	CodeTimeout      time.Duration
	PythonMode       string
	Sandbox          string
	AllowUnsandboxed bool
}

// askOptions is everything `sift ask` needs, parsed from flags.
type askOptions struct {
	conversationOptions
	Question string
	// Session continues this session's conversation.
	Session string
	JSON    bool
	// ResumeArgs are the flags a printed `sift resume` repeats.
	ResumeArgs []string
}

// addConversationFlags registers the shared flags on f.
func addConversationFlags(f *pflag.FlagSet, o *conversationOptions) {
	f.StringArrayVar(&o.DBs, "db", nil, "database to query, read-only (repeatable): sqlite:shop.db, postgres://user:pass@host/db, mysql://user:pass@host/db; name=url names it")
	f.StringArrayVarP(&o.Files, "file", "f", nil, "data file to analyse (repeatable): csv, tsv, xlsx, txt, md, json, jsonl")
	f.StringArrayVarP(&o.Dirs, "dir", "d", nil, "directory whose files are all inputs (repeatable)")
	f.StringVar(&o.BaseURL, "base-url", "", "OpenAI-compatible API base URL, including /v1 (env SIFT_BASE_URL)")
	f.StringVar(&o.APIKey, "api-key", "", "API key (prefer env SIFT_API_KEY: flags are visible to other users)")
	f.StringVar(&o.Model, "model", "", "model name (env SIFT_MODEL)")
	f.StringVar(&o.ConfigPath, "config", "", "model config file (default $SIFT_CONFIG or ~/.config/sift/config.json)")
	f.StringVar(&o.Script, "script", "", "play a scripted model from this JSON file instead of calling a model (tests and offline demos)")
	f.StringVar(&o.Python, "python", "", "Python interpreter with pandas and matplotlib (env SIFT_PYTHON; default: found automatically)")
	f.StringVar(&o.SessionsDir, "sessions-dir", "", "where session workspaces are created (default $SIFT_HOME/sessions or ~/.local/state/sift/sessions)")
	f.DurationVar(&o.CodeTimeout, "code-timeout", 2*time.Minute, "time limit for one Python run")
	f.StringVar(&o.PythonMode, "python-mode", "kernel", "kernel: one stateful Python per session; process: a fresh Python per call")
	f.StringVar(&o.Sandbox, "sandbox", "", "where generated code runs: auto (bubblewrap, refuse without it), bwrap, none (default $SIFT_SANDBOX or auto)")
	f.BoolVar(&o.AllowUnsandboxed, "allow-unsandboxed", false, "with --sandbox auto, run code without a sandbox where bubblewrap is unavailable instead of refusing")
}

func newAskCmd(io *ioStreams, runF func(context.Context, *askOptions) error) *cobra.Command {
	opts := &askOptions{}
	cmd := &cobra.Command{
		Use:   "ask [--db URL]... [--file FILE]... [--session ID] <question>",
		Short: "Ask one question about databases or files, in a conversation you can continue",
		Long: `Ask one question. A supervisor routes it to the SQL analyst (for --db
databases), the plan-execute analyst (for --file data) or answers itself;
it asks back when the question is ambiguous. The answer, its findings and
the paths of the chart, data and report are printed on stdout.

Continue the conversation with --session and the ID printed on stderr:
follow-ups such as "and for 2023?" are resolved against it.`,
		Example: `  sift ask --db sqlite:shop.db "What was the revenue by region last year?"
  sift ask --session 20261122-101500-ab12 "and for 2023?"
  sift ask --db sales=postgres://reader@localhost/sales --file targets.xlsx "Are we on target?"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("give the question as an argument, e.g. sift ask --db sqlite:shop.db \"what is the revenue by month?\"")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Question = strings.Join(args, " ")
			opts.ResumeArgs = resumeArgs(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runAsk(cmd.Context(), io, opts)
		},
	}
	f := cmd.Flags()
	addConversationFlags(f, &opts.conversationOptions)
	f.StringVar(&opts.Session, "session", "", "continue the conversation of this session ID")
	f.BoolVar(&opts.JSON, "json", false, "print events as JSON lines on stdout instead of the answer")
	return cmd
}

// openConversation opens the databases and the conversation the options
// describe, whose turns keep resumeArgs with the session (resumeLabels);
// close both when done.
func openConversation(ctx context.Context, o *conversationOptions, sessionID string, resumeArgs []string) (*agents.Conversation, *sqldb.Sources, string, error) {
	pyMode, err := operator.ParsePythonMode(o.PythonMode)
	if err != nil {
		return nil, nil, "", usageError{err}
	}
	ms, label, err := resolveModels(ctx, modelOptions{BaseURL: o.BaseURL, APIKey: o.APIKey, Model: o.Model, ConfigPath: o.ConfigPath, Script: o.Script})
	if err != nil {
		return nil, nil, "", err
	}
	if !configured(ms) {
		return nil, nil, "", fmt.Errorf("%w: answering questions about databases and files needs a language model, to write the SQL and Python; set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL (or --base-url and --model), or use `sift run` for the built-in analyses that need none", agents.ErrNoModel)
	}
	sandbox := operator.SandboxFromEnv(os.Getenv)
	if o.Sandbox != "" {
		sandbox.Mode = operator.SandboxMode(o.Sandbox)
	}
	sandbox.AllowUnsandboxed = o.AllowUnsandboxed
	var sources *sqldb.Sources
	if len(o.DBs) > 0 {
		if sources, err = sqldb.OpenSources(ctx, o.DBs, sqldb.Options{}); err != nil {
			if errors.Is(err, sqldb.ErrBadURL) {
				return nil, nil, "", usageError{err}
			}
			return nil, nil, "", err
		}
	}
	conv, err := agents.NewConversation(ctx, agents.ConversationConfig{
		Config: agents.Config{
			Models: ms, SessionsRoot: o.SessionsDir, Python: o.Python, CodeTimeout: o.CodeTimeout,
			PythonMode: pyMode, Sandbox: sandbox, Search: web.FromEnv(os.Getenv),
		},
		Sources: sources, Files: o.Files, Dirs: o.Dirs, SessionID: sessionID,
		Parallel: scriptedParallel(o.Script), Labels: resumeLabels(resumeArgs),
	})
	if err != nil {
		if sources != nil {
			sources.Close()
		}
		return nil, nil, "", err
	}
	return conv, sources, label, nil
}

// scriptedParallel is 1 for a scripted model, whose replies are played in
// the order asked (steps side by side would take each other's), as for
// `sift run`; else 0, the default.
func scriptedParallel(script string) int {
	if script != "" {
		return 1
	}
	return 0
}

// runAsk answers one question and prints the answer.
func runAsk(ctx context.Context, io *ioStreams, opts *askOptions) error {
	if opts.Session != "" {
		if err := validSession(opts.Session); err != nil {
			return err
		}
	}
	conv, sources, label, err := openConversation(ctx, &opts.conversationOptions, opts.Session, opts.ResumeArgs)
	if err != nil {
		return err
	}
	defer func() {
		conv.Close()
		if sources != nil {
			sources.Close()
		}
	}()
	// The turn holds the session's claim, as sift run, resume and chat do:
	// it is refused while another process works on the session.
	ctx, release, err := conv.Hold(ctx, "sift ask")
	if err != nil {
		return err
	}
	defer release()
	if opts.JSON {
		r := newRenderer(io, true, time.Now)
		var final event.Event
		for e := range conv.Ask(ctx, opts.Question) {
			r.event(e)
			final = e
		}
		return finalError(final)
	}
	fmt.Fprintln(io.ErrOut, safeLinef("Model: %s\nSession %s\n  workspace: %s", label, conv.ID(), conv.Workdir()))
	err = askTurn(ctx, io, conv, opts.Question, opts.ResumeArgs)
	if !errors.Is(err, errWaiting) {
		fmt.Fprintf(io.ErrOut, "Continue with: sift ask --session %s \"...\"\n", conv.ID())
	}
	return err
}

// askTurn runs one turn: progress on stderr, the answer on stdout. A
// turn whose analyst waits for the person says how to answer (resumeArgs
// are the flags the printed `sift resume` repeats) and ends with
// errWaiting.
func askTurn(ctx context.Context, io *ioStreams, conv *agents.Conversation, question string, resumeArgs []string) error {
	final := showTurn(io, conv, question, conv.Ask(ctx, question))
	if in := waitingFor(final); in != nil {
		printWaiting(io, conv, in, resumeArgs)
	}
	return finalError(final)
}

// showTurn shows the events of a turn (or of its answer) and, unless it
// waits for the person, the turn's answer; it returns the last event.
func showTurn(io *ioStreams, conv *agents.Conversation, question string, events iter.Seq[event.Event]) event.Event {
	io, working := newWorkingLine(io, false, time.Now, 0)
	stop := working.start()
	final := followTurn(io, working, events)
	stop()
	if waitingFor(final) != nil {
		return final
	}
	turns := conv.Turns()
	if len(turns) > 0 && turns[len(turns)-1].Question == strings.TrimSpace(question) {
		printTurn(io, conv.Workdir(), turns[len(turns)-1])
	}
	return final
}

// followTurn shows a turn's events as they come and keeps the working
// line naming the model call the turn waits for ("Writing SQL… 4s"); it
// returns the last event.
func followTurn(io *ioStreams, working *workingLine, events iter.Seq[event.Event]) event.Event {
	calls := &renderer{working: working}
	var final event.Event
	for e := range events {
		if e.Kind == event.ModelStarted || e.Kind == event.ModelFinished {
			calls.modelCall(e)
		}
		progress(io, e)
		final = e
	}
	return final
}

// waitingFor is what a turn that ended with final waits for, or nil.
func waitingFor(final event.Event) *event.Interrupt {
	if final.Err != nil {
		return nil
	}
	return final.Interrupt
}

// printWaiting says what the turn waits for and the `sift resume`
// command (with resumeArgs) that answers it.
func printWaiting(io *ioStreams, conv *agents.Conversation, in *event.Interrupt, resumeArgs []string) {
	r := newRenderer(io, false, time.Now)
	r.resumeArgs, r.workdir = resumeArgs, conv.Workdir()
	r.interrupt(in)
}

// progress shows one event of a turn on stderr, briefly.
func progress(io *ioStreams, e event.Event) {
	switch e.Kind {
	case event.ToolCall:
		fmt.Fprintln(io.ErrOut, safeLinef("  - %s: %s", e.Tool, describeCall(e.Tool, e.Args)))
	case event.ToolResult:
		if strings.HasPrefix(strings.TrimSpace(e.Text), "Error") {
			fmt.Fprintln(io.ErrOut, safeLinef("    !! %s: %s", e.Tool, oneLine(e.Text, 200)))
		}
	case event.StepStarted:
		fmt.Fprintln(io.ErrOut, safeLinef(">> Step %d: %s", e.Step.Index, oneLine(e.Step.Description, 160)))
	case event.Message:
		if e.Agent == "sift" {
			fmt.Fprintln(io.ErrOut, termsafe.Line(e.Text))
		}
	case event.Error:
		fmt.Fprintln(io.ErrOut, "!! Error: "+termsafe.Indented(e.Text, errorIndent))
	case event.Limit:
		fmt.Fprintln(io.ErrOut, safeLinef("!! %s", e.Text))
	case event.Done:
		if u := e.Usage; u != nil {
			fmt.Fprintf(io.ErrOut, "%s · %d prompt + %d completion tokens.\n", english.Plural(u.Calls, "model call", ""), u.PromptTokens, u.CompletionTokens)
		}
	}
}

// printTurn prints a turn's answer, findings and files on stdout.
func printTurn(io *ioStreams, workdir string, t agents.Turn) {
	answer := strings.TrimSpace(t.Answer)
	if answer == "" && t.Error != "" {
		answer = "(no answer: " + t.Error + ")"
	}
	fmt.Fprintln(io.Out, termsafe.Text(answer))
	if len(t.Findings) > 0 {
		fmt.Fprintln(io.Out, "\nFindings:")
		for _, f := range t.Findings {
			fmt.Fprintln(io.Out, "- "+termsafe.Line(f))
		}
	}
	if len(t.FollowUps) > 0 {
		fmt.Fprintln(io.Out, "\nYou could ask next:")
		for _, f := range t.FollowUps {
			fmt.Fprintln(io.Out, "- "+termsafe.Line(f))
		}
	}
	var files []string
	for _, f := range []struct{ label, path string }{{"Chart", t.Chart}, {"Data", t.DataFile}, {"Report", t.Report}} {
		if f.path != "" {
			files = append(files, fmt.Sprintf("%s: %s", f.label, filepath.Join(workdir, filepath.FromSlash(f.path))))
		}
	}
	if t.Report != "" {
		files = append(files, "Report (HTML): "+filepath.Join(workdir, "report.html"))
	}
	if len(files) > 0 {
		fmt.Fprintln(io.Out)
		for _, f := range files {
			fmt.Fprintln(io.Out, termsafe.Line(f))
		}
	}
}

// validSession checks a --session ID before anything is opened.
func validSession(id string) error {
	if err := session.ValidateID(id); err != nil {
		return usageError{fmt.Errorf("--session: %w; use the ID `sift ask` printed", err)}
	}
	return nil
}
