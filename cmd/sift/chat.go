package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
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

// continueCommand is the command that goes on chatting in session id.
func (o *chatOptions) continueCommand(id string) string {
	return strings.Join(append([]string{"sift chat --session", id}, o.ResumeArgs...), " ")
}

// chatQuit ends a chat; so does the end of the input.
const chatQuit = "/quit"

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

// runChat runs a chat: a Sift session for files, a routed conversation
// when there are databases.
func runChat(ctx context.Context, io *ioStreams, opts *chatOptions) error {
	if opts.Session != "" {
		if err := validSession(opts.Session); err != nil {
			return err
		}
	}
	console, err := openConsole(io)
	if err != nil {
		return err
	}
	defer console.close()
	if len(opts.DBs) == 0 {
		return runSessionChat(ctx, console, opts, defaultRunDeps())
	}
	return runConversationChat(ctx, console, opts)
}

// runConversationChat answers each line through agents.Conversation. A
// failed turn is shown and the chat goes on; an interruption ends it.
func runConversationChat(ctx context.Context, console *chatConsole, opts *chatOptions) error {
	streams := console.io
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
	fmt.Fprintln(streams.ErrOut, safeLinef("Model: %s\nSession %s\n  workspace: %s\nAsk a question; %s ends the chat.", label, conv.ID(), conv.Workdir(), chatQuit))
	for {
		line, err := console.lines.readLine("> ")
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(streams.Out)
			break
		}
		if err != nil {
			return fmt.Errorf("read the next question: %w", err)
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case line == chatQuit || line == "/exit":
			fmt.Fprintf(streams.ErrOut, "Continue with: %s\n", opts.continueCommand(conv.ID()))
			return nil
		}
		err = chatTurn(ctx, console, conv, line, opts.ResumeArgs)
		fmt.Fprintln(streams.Out)
		if errors.Is(err, errWaiting) {
			// The input ended while the turn waited: as sift ask, the
			// printed sift resume answers it.
			return err
		}
		if ctx.Err() != nil {
			return err
		}
		if err != nil && !errors.As(err, new(reportedError)) {
			return err
		}
	}
	fmt.Fprintf(streams.ErrOut, "Continue with: %s\n", opts.continueCommand(conv.ID()))
	return nil
}

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

// chatTurn runs one turn of a chat with databases. When its data analyst
// asks (a question, an approval, a plan review), the next line is the
// person's answer and the turn goes on with it, as in a files-only chat.
// When the input ends first, it prints the question with the `sift
// resume` command that answers it (resumeArgs repeat the chat's flags)
// and returns errWaiting, as sift ask does.
func chatTurn(ctx context.Context, console *chatConsole, conv *agents.Conversation, question string, resumeArgs []string) error {
	streams := console.io
	final := showTurn(streams, conv, question, conv.Ask(ctx, question))
	for in := waitingFor(final); in != nil; in = waitingFor(final) {
		answer, err := answerAt(console.lines, streams.ErrOut, in, func(in *event.Interrupt) {
			printPlan(streams.ErrOut, in.Plan)
		})
		if errors.Is(err, errChatInputEnded) {
			fmt.Fprintln(streams.ErrOut, "The input ended while the session waits for your answer.")
			printWaiting(streams, conv, in, resumeArgs)
			return reportedError{errWaiting}
		}
		if err != nil {
			return err
		}
		final = showTurn(streams, conv, question, conv.Answer(ctx, map[string]any{in.ID: answer}))
	}
	return finalError(final)
}

// printPlan shows a plan under review as a checklist.
func printPlan(w io.Writer, fp *plans.FullPlan) {
	if fp == nil {
		return
	}
	fmt.Fprintln(w, "The plan waits for your review:")
	for _, s := range fp.Steps {
		fmt.Fprintln(w, safeLinef("  %d. %s", s.Index, oneLine(s.Description, 160)))
	}
}
