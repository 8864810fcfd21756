package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// resumeOptions is what `sift resume` needs: the session, and the answer to
// what it waits for, if it waits.
type resumeOptions struct {
	run       runOptions
	Session   string
	Approve   bool
	Reject    string
	EditSteps []string
	Answer    string
	Deny      string
	// newBudget: a budget flag was given, so opts.run.Budget replaces the
	// session's.
	newBudget bool
}

func newResumeCmd(io *ioStreams, runF func(context.Context, *resumeOptions) error) *cobra.Command {
	opts := &resumeOptions{}
	cmd := &cobra.Command{
		Use:   "resume <session-id> [--approve | --edit STEP... | --reject FEEDBACK | --answer TEXT | --deny REASON]",
		Short: "Go on with a session that waits for you, was paused, or whose process died",
		Example: `  sift resume 20261122-020655-ab12cd --approve
  sift resume 20261122-020655-ab12cd --edit "Load input/sales.csv" --edit "Chart revenue by month"
  sift resume 20261122-020655-ab12cd --reject "use the 2023 sheet only"
  sift resume 20261122-020655-ab12cd            # after a pause (Ctrl-C) or a crash`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("give one session id (sift sessions list shows them)")}
			}
			n := 0
			for _, set := range []bool{opts.Approve, opts.Reject != "", len(opts.EditSteps) > 0, opts.Answer != "", opts.Deny != ""} {
				if set {
					n++
				}
			}
			if n > 1 {
				return usageError{errors.New("give one answer: --approve, --edit, --reject, --answer or --deny")}
			}
			if cmd.Flags().Changed("parallel") && opts.run.Parallel < 1 {
				return usageError{fmt.Errorf("--parallel must be at least 1 (1 runs the steps one after another), got %d", opts.run.Parallel)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.run.ResumeArgs = resumeArgs(cmd)
			for _, name := range budgetFlags {
				opts.newBudget = opts.newBudget || cmd.Flags().Changed(name)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runResume(cmd.Context(), io, opts, defaultRunDeps())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Approve, "approve", false, "approve the plan or the action the session waits on")
	f.StringArrayVar(&opts.EditSteps, "edit", nil, "replace the plan with these steps (repeatable, in order)")
	f.StringVar(&opts.Reject, "reject", "", "reject the plan, with feedback for the planner")
	f.StringVar(&opts.Answer, "answer", "", "answer the question the session asks")
	f.StringVar(&opts.Deny, "deny", "", "deny the action the session waits on, with the reason")
	f.IntVar(&opts.run.Parallel, "parallel", 0, "most plan steps run at the same time (default: the number the session was started with)")
	f.StringArrayVar(&opts.run.DBs, "db", nil, "databases to open instead of the session's (repeatable, as for run): give again one whose password the session does not keep")
	// Without these the resumed run is bound by the session's own budget
	// again; any of them replaces that budget as a whole.
	addBudgetFlags(f, &opts.run.Budget)
	addModelFlags(cmd, &opts.run)
	return cmd
}

// answers turns the flags into the answer for the pending interrupt.
func (o *resumeOptions) answers(p *session.Pending) (map[string]any, error) {
	if p == nil {
		if o.Approve || o.Reject != "" || len(o.EditSteps) > 0 || o.Answer != "" || o.Deny != "" {
			return nil, usageError{errors.New("this session waits for no answer; resume it without one")}
		}
		return nil, nil
	}
	var a any
	switch p.Kind {
	case session.PendingPlanReview:
		switch {
		case o.Approve:
			a = &event.PlanDecision{Action: event.PlanApprove}
		case len(o.EditSteps) > 0:
			a = &event.PlanDecision{Action: event.PlanEdit, Steps: o.EditSteps}
		case o.Reject != "":
			a = &event.PlanDecision{Action: event.PlanReject, Feedback: o.Reject}
		default:
			return nil, usageError{fmt.Errorf("the session waits for a plan review: give --approve, --edit STEP... or --reject FEEDBACK")}
		}
	default:
		ans, err := agents.AnswerFor(string(p.Kind), p.Choices, o.Approve, o.Answer, o.Deny)
		if err != nil {
			return nil, usageError{err}
		}
		a = ans
	}
	return map[string]any{p.ID: a}, nil
}

func runResume(ctx context.Context, io *ioStreams, opts *resumeOptions, deps runDeps) error {
	s, label, err := deps.newSift(ctx, &opts.run)
	if err != nil {
		return err
	}
	// One process at a time: a second resume, or one while the run (or a
	// server) still works on the session, is refused before it records
	// anything.
	ctx, release, err := s.Hold(ctx, opts.Session, "sift resume")
	if err != nil {
		return claimError(err)
	}
	defer release()
	meta, err := s.Session(ctx, opts.Session)
	if err != nil {
		return usageError{err}
	}
	answers, err := opts.answers(meta.Pending)
	if err != nil {
		return err
	}
	resumeScript(opts.run.LoadedScript, meta.Workspace)
	io, working := newWorkingLine(io, opts.run.JSON, deps.now, deps.working)
	r := newRenderer(io, opts.run.JSON, deps.now)
	r.resumeArgs = opts.run.ResumeArgs
	r.working = working
	if !opts.run.JSON {
		r.status("Model: %s", label)
	}
	var final event.Event
	defer working.start()()
	for e := range s.Resume(ctx, opts.Session, answers, opts.resumeOptions()...) {
		r.event(e)
		final = e
	}
	store := sessionsStoreOptions{Store: opts.run.Store, SessionsDir: opts.run.SessionsDir}
	var dbErr *agents.DatabaseError
	switch {
	case errors.Is(final.Err, agents.ErrNoModel) && meta.Labels[session.LabelResumeArgs] != "":
		// The session was started with the model's flags (or a script):
		// the command with them works.
		fmt.Fprintln(io.ErrOut, safeLinef("Resume with the flags the session was started with: %s",
			strings.Join(append([]string{sessionsResumeCommand(store, meta)}, opts.answerArgs()...), " ")))
	case errors.As(final.Err, &dbErr) && len(dbErr.Specs) > 0:
		// The session is as it was: the same resume goes on once its
		// databases are given again, with the password the session never
		// keeps or where the database is now.
		fmt.Fprintln(io.ErrOut, safeLinef("Resume giving the database again (add its password, or say where it is now): %s",
			strings.Join(append(append([]string{sessionsResumeCommand(store, meta)}, dbArgs(dbErr.Specs)...), opts.answerArgs()...), " ")))
	}
	return finalError(final)
}

// dbArgs are the --db flags that give specs again, shell-quoted.
func dbArgs(specs []string) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = "--db " + shellQuote(s)
	}
	return out
}

// answerArgs are the answer flags given, shell-quoted, as a printed
// command repeats them.
func (o *resumeOptions) answerArgs() []string {
	var out []string
	if o.Approve {
		out = append(out, "--approve")
	}
	for _, s := range o.EditSteps {
		out = append(out, "--edit "+shellQuote(s))
	}
	for flag, v := range map[string]string{"--reject": o.Reject, "--answer": o.Answer, "--deny": o.Deny} {
		if v != "" {
			out = append(out, flag+" "+shellQuote(v))
		}
	}
	return out
}

// resumeOptions are the library options the flags ask for.
func (o *resumeOptions) resumeOptions() []agents.ResumeOption {
	out := []agents.ResumeOption{agents.ResumeParallel(o.run.Parallel)}
	if o.newBudget {
		out = append(out, agents.ResumeBudget(o.run.Budget))
	}
	if len(o.run.DBs) > 0 {
		out = append(out, agents.ResumeDatabases(o.run.DBs))
	}
	return out
}

// resumeScript positions a scripted model (--script) where the session's
// earlier processes stopped playing it: the calls its trajectory records,
// less those of a step that was stopped and runs again from its start. A
// script for the rest of the session only plays from its first reply (see
// scripted.Script.ResumeAfter).
func resumeScript(script *scripted.Script, workspace string) {
	if script == nil || workspace == "" {
		return
	}
	records, err := trajectory.Load(filepath.Join(workspace, "trajectory.jsonl"))
	if err != nil {
		return
	}
	again := map[int]bool{}
	if fp, err := agents.SessionPlan(workspace); err == nil {
		for _, st := range fp.Steps {
			if st.Status == plans.StatusTodo {
				again[st.Index] = true
			}
		}
	}
	var played []scripted.Played
	for _, r := range records {
		if r.Step > 0 && again[r.Step] {
			break // this step runs again from its first call
		}
		p := scripted.Played{Failed: r.Error != "" || r.Response == nil}
		if r.Response != nil {
			for _, tc := range r.Response.ToolCalls {
				if !strings.HasPrefix(tc.ID, "call_recovered_") {
					p.ToolCalls = append(p.ToolCalls, tc.Name)
				}
			}
		}
		played = append(played, p)
	}
	script.ResumeAfter(played)
}
