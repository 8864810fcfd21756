package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/cmd/sift/internal/chat"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// chatOptions is everything `sift chat` needs, parsed from flags.
type chatOptions struct {
	conversationOptions
	// Session continues this session.
	Session string
	// Yes runs unattended: no plan review, questions answered by
	// assumption (files-only chats).
	Yes bool
	// Mode is the route of each turn: auto, template, quick or plan
	// (files-only chats).
	Mode string
	// Store is where checkpoints and the session registry live
	// (files-only chats); default $SIFT_STORE, else files beside the
	// sessions.
	Store string
	// PolicyFile is the approval policy (files-only chats).
	PolicyFile string
	// Parallel bounds the plan steps run at the same time (files-only
	// chats); 0: the default for new turns, the session's own on resume.
	Parallel int
	// ResumeArgs are the flags a printed `sift chat --session` or `sift
	// resume` repeats (resumeArgs), so it runs as printed.
	ResumeArgs []string
}

func newChatCmd(io *ioStreams, runF func(context.Context, *chatOptions) error) *cobra.Command {
	opts := &chatOptions{}
	cmd := &cobra.Command{
		Use:   "chat [--db URL]... [--file FILE]... [--session ID]",
		Short: "Talk with Sift about your databases and files, one question per line",
		Long: `Start a conversation: each line you type is one question, answered before
the next prompt; follow-ups build on the earlier turns.

With --file or --dir only, the chat is one Sift session: you review its
plan (approve / edit / reject) and answer its questions and approvals at
the prompt, and each later line is a follow-up in the same session. Ctrl-C
during a turn pauses it after the current step (twice: stops it); /resume
goes on with it. Commands: /load FILE, /plan, /report, /sessions,
/resume ID, /help, /quit (or Ctrl-D). /quit keeps the session: continue it
with sift chat --session ID.

With --db, a supervisor routes each question to the SQL analyst, the
plan-execute analyst or answers itself.

On a terminal you get line editing and history (arrow keys), and Ctrl-C
at a prompt clears the line (a second one on an empty line leaves); with
input piped from a file it reads plain lines.`,
		Example: `  sift chat --file sales.csv
  sift chat --session 20261122-101500-ab12
  sift chat --db sqlite:shop.db
  printf 'revenue by region?\nand for 2023?\n' | sift chat --db sqlite:shop.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := agents.ParseMode(opts.Mode); err != nil {
				return usageError{err}
			}
			if cmd.Flags().Changed("parallel") && opts.Parallel < 1 {
				return usageError{fmt.Errorf("--parallel must be at least 1 (1 runs the steps one after another), got %d", opts.Parallel)}
			}
			if opts.Script != "" && !cmd.Flags().Changed("parallel") {
				opts.Parallel = 1 // a script's replies go in the order asked
			}
			opts.ResumeArgs = resumeArgs(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runChat(cmd.Context(), io, opts)
		},
	}
	addConversationFlags(cmd.Flags(), &opts.conversationOptions)
	f := cmd.Flags()
	f.StringVar(&opts.Session, "session", "", "continue this session ID (it is resumed first if it waits or was paused)")
	f.BoolVar(&opts.Yes, "yes", false, "files-only chats: no plan review, approvals the policy allows are given and the rest refused, questions answered by assumption")
	f.StringVar(&opts.Mode, "mode", "auto", "files-only chats: route of each turn: auto, template, quick or plan")
	f.StringVar(&opts.Store, "store", "", "files-only chats: where checkpoints and the session registry live: file:DIR, sqlite:PATH or redis://HOST:PORT/DB (default $SIFT_STORE, else files beside the sessions)")
	f.StringVar(&opts.PolicyFile, "policy", "", "files-only chats: approval policy file (JSON)")
	f.IntVar(&opts.Parallel, "parallel", 0, fmt.Sprintf("files-only chats: most plan steps run at the same time (default %d; a resumed turn keeps its session's)", agents.DefaultParallel))
	return cmd
}

// runChat runs a chat (cmd/sift/internal/chat): a Sift session for
// files, a routed conversation when there are databases.
func runChat(ctx context.Context, io *ioStreams, opts *chatOptions) error {
	if opts.Session != "" {
		if err := validSession(opts.Session); err != nil {
			return err
		}
	}
	mode, _ := agents.ParseMode(opts.Mode)
	cfg := chat.Config{
		IO: io, Databases: len(opts.DBs) > 0, Session: opts.Session, Files: opts.Files, Dirs: opts.Dirs,
		Mode: mode, Yes: opts.Yes, Parallel: opts.Parallel, Labels: resumeLabels(opts.ResumeArgs),
		ResumeArgs: opts.ResumeArgs, Interrupts: &interruptHook,
	}
	err := chat.Run(ctx, cfg, &chatHost{opts: opts, deps: defaultRunDeps()})
	var ue chat.UsageError
	switch {
	case errors.Is(err, chat.ErrWaiting):
		return reportedError{errWaiting}
	case errors.As(err, &ue):
		return usageError{ue.Err}
	case errors.As(err, new(chat.Shown)):
		return reportedError{err}
	}
	return err
}

// chatHost gives a chat what it shares with the other commands: the Sift
// built as sift run builds it, events shown by the renderer, a
// conversation's turns shown as sift ask shows them, the printed commands.
type chatHost struct {
	opts *chatOptions
	deps runDeps
}

func (h *chatHost) Sift(ctx context.Context) (*agents.Sift, string, error) {
	return h.deps.newSift(ctx, h.opts.runOptions())
}

func (h *chatHost) Display(streams *ioStreams) (*ioStreams, chat.Display) {
	streams, working := newWorkingLine(streams, false, h.deps.now, h.deps.working)
	r := newRenderer(streams, false, h.deps.now)
	r.working = working
	r.resumeArgs = h.opts.ResumeArgs
	return streams, chatDisplay{r}
}

func (h *chatHost) Conversation(ctx context.Context) (*agents.Conversation, string, func(), error) {
	conv, sources, label, err := openConversation(ctx, &h.opts.conversationOptions, h.opts.Session, h.opts.ResumeArgs)
	if err != nil {
		return nil, "", nil, err
	}
	return conv, label, func() {
		conv.Close()
		if sources != nil {
			sources.Close()
		}
	}, nil
}

func (h *chatHost) Turn(streams *ioStreams, conv *agents.Conversation, question string, events iter.Seq[event.Event]) event.Event {
	return showTurn(streams, conv, question, events)
}

func (h *chatHost) Waiting(streams *ioStreams, conv *agents.Conversation, in *event.Interrupt) {
	printWaiting(streams, conv, in, h.opts.ResumeArgs)
}

func (h *chatHost) Sessions(ctx context.Context, streams *ioStreams) error {
	opts := &sessionsListOptions{sessionsStoreOptions: h.opts.sessionsStore(), Limit: 10}
	return runSessionsList(ctx, streams, opts, defaultSessionsDeps(streams))
}

func (h *chatHost) ResumeCommand(id string) string { return resumeCommand(id, h.opts.ResumeArgs) }

// chatDisplay shows a files-only chat's turns through the renderer.
type chatDisplay struct{ r *renderer }

func (d chatDisplay) BeginTurn()                         { d.r.start, d.r.report = d.r.now(), "" }
func (d chatDisplay) Event(e event.Event)                { d.r.event(e) }
func (d chatDisplay) SetWorkdir(dir string)              { d.r.workdir = dir }
func (d chatDisplay) PrintedLast(p *plans.FullPlan) bool { return d.r.printedLast(p) }
func (d chatDisplay) Mark(kind string) shown             { return d.r.mark(kind) }
func (d chatDisplay) Working() (stop func())             { return d.r.working.start() }

// runOptions are the `sift run` options a files-only chat builds its Sift
// instance from.
func (o *chatOptions) runOptions() *runOptions {
	return &runOptions{
		Files: o.Files, Dirs: o.Dirs, BaseURL: o.BaseURL, APIKey: o.APIKey, Model: o.Model,
		ConfigPath: o.ConfigPath, Script: o.Script, Python: o.Python, SessionsDir: o.SessionsDir,
		MaxIterations: 10, CodeTimeout: o.CodeTimeout, Mode: o.Mode, Yes: o.Yes, ReviewPlan: !o.Yes,
		PolicyFile: o.PolicyFile, Store: o.Store, PythonMode: o.PythonMode, Sandbox: o.Sandbox,
		AllowUnsandboxed: o.AllowUnsandboxed, Parallel: o.Parallel,
	}
}

// sessionsStore names the store the chat's sessions live in, the way
// buildSift chooses it, for /sessions.
func (o *chatOptions) sessionsStore() sessionsStoreOptions {
	return sessionsStoreOptions{Store: firstNonEmpty(o.Store, os.Getenv(session.StoreEnv)), SessionsDir: o.SessionsDir}
}
