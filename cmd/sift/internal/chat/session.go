package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/cmd/sift/internal/termui"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/termsafe"
	"github.com/sift-agent/sift/session"
)

// sessionChat is a files-only chat: one Sift session, each line a turn,
// interrupts answered at the prompt.
type sessionChat struct {
	console *chatConsole
	io      *termui.IO
	sift    *agents.Sift
	cfg     *Config
	host    Host
	// id and workdir name the current session; empty before the first turn.
	id, workdir string
	// loaded are files from /load for the next turn.
	loaded []string
	// inputsGiven is set once a turn carried the --file and --dir inputs.
	inputsGiven bool
	// r shows every turn's events; it remembers the plan steps shown.
	r Display
}

// chatHelp lists the chat's commands.
const chatHelp = `Type a question to start the analysis; later questions are follow-ups in
the same session. Ctrl-C during a turn pauses it after the current step
(twice: stops it now).
  /load FILE    add a data file; the next question gets it
  /plan         show the session's plan (plan.md)
  /report       show where the report is
  /sessions     list recent sessions
  /resume ID    switch to session ID, and go on with it if it waits or was paused
                (without ID: the current session)
  /help         this help
  /quit         leave; the session is kept (also Ctrl-D, or Ctrl-C twice
                at an empty prompt; once clears the line)`

// runSessionChat runs a files-only chat until /quit or the end of input.
func runSessionChat(ctx context.Context, console *chatConsole, cfg *Config, host Host) error {
	s, label, err := host.Sift(ctx)
	if err != nil {
		return err
	}
	if pl, ok := console.lines.(*plainLines); ok && console.watch == nil && cfg.Interrupts != nil {
		// Piped input: Ctrl-C between runs ends the chat (the session is
		// kept), instead of pausing a run that is not going.
		hook := pl.interrupt
		cfg.Interrupts.Store(&hook)
		defer cfg.Interrupts.Store(nil)
	}
	streams, display := host.Display(console.io)
	c := &sessionChat{console: console, io: streams, sift: s, cfg: cfg, host: host, r: display}
	c.status("Model: %s", label)
	c.status("Ask a question about your data; /help lists the commands, %s ends the chat.", chatQuit)
	if cfg.Session != "" {
		meta, err := s.Session(ctx, cfg.Session)
		if err != nil {
			return UsageError{fmt.Errorf("--session %s: %w; `sift sessions list` shows the sessions", cfg.Session, err)}
		}
		if err := c.switchTo(ctx, meta); err != nil {
			return c.end(ctx, err)
		}
	}
	for {
		line, err := console.lines.readLine("> ")
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(c.io.Out)
			return c.end(ctx, nil)
		}
		if err != nil {
			return fmt.Errorf("read the next question: %w", err)
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "/"):
			quit, err := c.command(ctx, line)
			if quit || err != nil {
				return c.end(ctx, err)
			}
		default:
			if err := c.ask(ctx, line); err != nil {
				return c.end(ctx, err)
			}
		}
	}
}

// status writes a status line; its arguments are made safe for the
// terminal (termui.SafeArgs) unless they are termui.Shown.
func (c *sessionChat) status(format string, args ...any) {
	fmt.Fprintln(c.io.ErrOut, termui.Linef(format, args...))
}

// end says how to go on with the session and returns the chat's result:
// the input ending during a question leaves the session waiting, and the
// chat ends with ErrWaiting (sift's exit 6), as sift ask and a chat with
// databases do.
func (c *sessionChat) end(ctx context.Context, err error) error {
	if c.id != "" {
		c.status("The session is kept. Continue with: %s", c.cfg.continueCommand(c.id))
		if meta, merr := c.sift.Session(context.WithoutCancel(ctx), c.id); merr == nil && !meta.Status.Finished() {
			c.status("  or: %s   (it is %s)", c.host.ResumeCommand(c.id), meta.Status)
		}
	}
	if errors.Is(err, errChatInputEnded) {
		return ErrWaiting
	}
	return err
}

// ask runs one question as a turn: the session's first run, or a
// follow-up in it.
func (c *sessionChat) ask(ctx context.Context, question string) error {
	if c.id != "" {
		if meta, err := c.sift.Session(ctx, c.id); err == nil && !meta.Status.Finished() {
			c.status("Session %s is %s: type /resume to go on with it before asking more.", c.id, meta.Status)
			return nil
		}
	}
	id := c.id
	if id == "" {
		id = session.NewID()
	}
	req := agents.Request{Mode: c.cfg.Mode, Question: question, Files: c.loaded, Yes: c.cfg.Yes, ReviewPlan: !c.cfg.Yes, SessionID: id, Parallel: c.cfg.Parallel, Labels: c.cfg.Labels}
	if !c.inputsGiven {
		req.Files = append(append([]string(nil), c.cfg.Files...), c.loaded...)
		req.Dirs = c.cfg.Dirs
	}
	final := c.drive(ctx, id, func(ctx context.Context) iter.Seq[event.Event] { return c.sift.Run(ctx, req) })
	if c.id != "" {
		c.inputsGiven, c.loaded = true, nil
	}
	return c.settle(ctx, final)
}

// drive runs one Run or Resume and shows its events. On a terminal,
// Ctrl-C pauses the turn after its current step, and a second one stops
// it now.
func (c *sessionChat) drive(ctx context.Context, id string, start func(context.Context) iter.Seq[event.Event]) event.Event {
	// Each turn holds the session's claim, as sift run and resume do: a
	// turn is refused while another process works on the session.
	ctx, release, err := c.sift.Hold(ctx, id, "sift chat")
	if err != nil {
		c.status("%v", err)
		return event.Event{Kind: event.Done, Err: err}
	}
	defer release()
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if c.console.watch != nil {
		pause := make(chan struct{})
		turnCtx = agents.WithPause(turnCtx, pause)
		presses := 0
		stop := c.console.watch(func() {
			presses++
			switch presses {
			case 1:
				close(pause)
				c.status("\nPausing after the current step; press Ctrl-C again to stop now.")
			case 2:
				cancel()
			}
		})
		defer stop()
	} else if c.cfg.Interrupts != nil {
		// Not a terminal: Ctrl-C arrives as a signal; take it for this turn.
		pause := make(chan struct{})
		turnCtx = agents.WithPause(turnCtx, pause)
		var once sync.Once
		var presses atomic.Int32
		hook := func() {
			if presses.Add(1) == 1 {
				once.Do(func() { close(pause) })
				c.status("\nPausing after the current step; press Ctrl-C again to stop now.")
				return
			}
			cancel()
		}
		defer c.cfg.Interrupts.Store(c.cfg.Interrupts.Swap(&hook)) // then the chat's own again
	}
	r := c.r
	r.BeginTurn()
	var final event.Event
	stopWorking := r.Working()
	defer stopWorking() // before the next prompt
	for e := range start(turnCtx) {
		final = e
		switch {
		case e.Kind == event.Session && e.Text == c.id:
			// Resuming or following up: the session was shown already.
			r.SetWorkdir(e.Path)
			continue
		case e.Kind == event.Session:
			c.id, c.workdir = e.Text, e.Path
		case e.Kind == event.Interrupted, e.Kind == event.Done && e.Interrupt != nil:
			// Answered at the prompt instead of with sift resume.
			continue
		}
		r.Event(e)
	}
	if final.Kind == event.Done && errors.Is(final.Err, agents.ErrPaused) {
		c.status("Type /resume to go on.")
	}
	return final
}

// settle answers what the turn waits for, at the prompt, and resumes it,
// until it no longer waits.
func (c *sessionChat) settle(ctx context.Context, final event.Event) error {
	for final.Kind == event.Done && final.Interrupt != nil {
		in := final.Interrupt
		answer, err := c.answer(in)
		if err != nil {
			return err
		}
		final = c.drive(ctx, c.id, func(ctx context.Context) iter.Seq[event.Event] {
			return c.sift.Resume(ctx, c.id, map[string]any{in.ID: answer}, agents.ResumeParallel(c.cfg.Parallel))
		})
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	return nil
}

// command runs one /command; quit says the chat ends.
func (c *sessionChat) command(ctx context.Context, line string) (quit bool, err error) {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case chatQuit, "/exit":
		return true, nil
	case "/help":
		fmt.Fprintln(c.io.ErrOut, chatHelp)
	case "/load":
		c.load(arg)
	case "/plan":
		c.showPlan()
	case "/report":
		c.showReport()
	case "/sessions":
		if err := c.host.Sessions(ctx, c.io); err != nil {
			c.status("Cannot list the sessions: %v", err)
		}
	case "/resume":
		return false, c.resume(ctx, arg)
	default:
		c.status("Unknown command %s; /help lists the commands.", name)
	}
	return false, nil
}

// load adds a file for the next turn, after checking it is there.
func (c *sessionChat) load(path string) {
	if path == "" {
		c.status("Say which file: /load FILE")
		return
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		c.status("Cannot load %s: %v", path, err)
		return
	case st.IsDir():
		c.status("%s is a directory; load its files one by one, or start the chat with --dir %s", path, path)
		return
	}
	c.loaded = append(c.loaded, path)
	c.status("%s is added with your next question.", path)
}

func (c *sessionChat) showPlan() {
	if c.workdir == "" {
		c.status("No session yet: ask a question first.")
		return
	}
	b, err := os.ReadFile(filepath.Join(c.workdir, "plan.md"))
	if err != nil {
		c.status("Session %s has no plan yet.", c.id)
		return
	}
	fmt.Fprintln(c.io.Out, termsafe.Text(strings.TrimRight(string(b), "\n")))
}

func (c *sessionChat) showReport() {
	md := filepath.Join(c.workdir, "report.md")
	if _, err := os.Stat(md); c.workdir == "" || err != nil {
		c.status("No report yet: it is written when a question is answered.")
		return
	}
	fmt.Fprintln(c.io.Out, termsafe.Line(md))
	if html := filepath.Join(c.workdir, "report.html"); isRegularFile(html) {
		fmt.Fprintln(c.io.Out, termsafe.Line(html))
	}
}

// resume switches to session id (the current one when empty) and goes on
// with it when it waits or was paused.
func (c *sessionChat) resume(ctx context.Context, id string) error {
	if id == "" {
		id = c.id
	}
	if id == "" {
		c.status("Say which session: /resume ID (/sessions lists them)")
		return nil
	}
	if err := session.ValidateID(id); err != nil {
		c.status("%v; /sessions lists the sessions", err)
		return nil
	}
	meta, err := c.sift.Session(ctx, id)
	if err != nil {
		c.status("Cannot open session %s: %v; /sessions lists the sessions", id, err)
		return nil
	}
	return c.switchTo(ctx, meta)
}

// switchTo makes meta's session the current one, and goes on with it if
// it waits or was paused.
func (c *sessionChat) switchTo(ctx context.Context, meta session.Meta) error {
	c.id, c.workdir = meta.ID, meta.Workspace
	c.status("Session %s (%s): %s", meta.ID, meta.Status, termui.OneLine(meta.Question, 160))
	switch {
	case meta.Status == session.StatusWaiting && meta.Pending != nil:
		in := &event.Interrupt{ID: meta.Pending.ID, Kind: string(meta.Pending.Kind), Prompt: meta.Pending.Prompt, Choices: meta.Pending.Choices}
		if in.Kind == event.InterruptPlanReview {
			// The plan to review and edit, as the earlier process left it.
			in.Plan, _ = agents.SessionPlan(meta.Workspace)
		}
		answer, err := c.answer(in)
		if err != nil {
			return err
		}
		final := c.drive(ctx, meta.ID, func(ctx context.Context) iter.Seq[event.Event] {
			return c.sift.Resume(ctx, meta.ID, map[string]any{in.ID: answer}, agents.ResumeParallel(c.cfg.Parallel))
		})
		return c.settle(ctx, final)
	case !meta.Status.Finished():
		final := c.drive(ctx, meta.ID, func(ctx context.Context) iter.Seq[event.Event] {
			return c.sift.Resume(ctx, meta.ID, nil, agents.ResumeParallel(c.cfg.Parallel))
		})
		return c.settle(ctx, final)
	}
	c.status("Your next question is a follow-up in this session.")
	return nil
}

// isRegularFile says whether path is a regular file.
func isRegularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
