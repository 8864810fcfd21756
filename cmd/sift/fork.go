package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
)

// forkOptions is what `sift fork` needs.
type forkOptions struct {
	run     runOptions
	Session string
	At      int
	Step    string
	Plan    []string
	Answer  string
}

func newForkCmd(io *ioStreams, runF func(context.Context, *forkOptions) error) *cobra.Command {
	opts := &forkOptions{}
	cmd := &cobra.Command{
		Use:   "fork <session-id> --at STEP [--step TEXT | --plan STEP...] [--answer TEXT]",
		Short: "Start a new session from a step of an earlier one, with that step changed",
		Long: `Fork makes a new session that goes on from the point of an earlier session
before step STEP: the steps before it are kept as they finished and are not
run again (the Python state is rebuilt by replaying their cells), step STEP
runs with the new description given by --step (or as it was), then the later
steps, the answer and the report. --plan, once per step, replaces step STEP
and every later one instead. --answer gives a new answer to the question
step STEP asked you: its agents are told it in place of the old one, and are
answered with it if they ask again. The new session links its parent (sift
sessions show).`,
		Example: `  sift fork 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --at 2 --step "Total revenue by region, refunds excluded"
  sift fork 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --at 2 --answer "no, refunds do not count"
  sift fork 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --at 2 --plan "Revenue by region without East" --plan "Revenue by month"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("give one session id (sift sessions list shows them)")}
			}
			if opts.At < 1 {
				return usageError{errors.New("give the step to go on from with --at (1 for the first)")}
			}
			if opts.Step != "" && len(opts.Plan) > 0 {
				return usageError{errors.New("give either --step (a new description of step --at) or --plan (the steps from it), not both")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runFork(cmd.Context(), io, opts, defaultRunDeps())
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.At, "at", 0, "the step to go on from (from 1): the steps before it are kept")
	f.StringVar(&opts.Step, "step", "", "the new description of that step (default: as it was)")
	f.StringArrayVar(&opts.Plan, "plan", nil, "a step of the new plan from that step on, once per step (replaces that step and the later ones)")
	f.StringVar(&opts.Answer, "answer", "", "a new answer to the question that step asked you")
	addModelFlags(cmd, &opts.run)
	return cmd
}

func runFork(ctx context.Context, io *ioStreams, opts *forkOptions, deps runDeps) error {
	s, label, err := deps.newSift(ctx, &opts.run)
	if err != nil {
		return err
	}
	r := newRenderer(io, opts.run.JSON, deps.now)
	if !opts.run.JSON {
		r.status("Model: %s", label)
	}
	var final event.Event
	for e := range s.Fork(ctx, agents.ForkRequest{Session: opts.Session, At: opts.At, Step: opts.Step, Plan: opts.Plan, Answer: opts.Answer}) {
		r.event(e)
		final = e
	}
	return finalError(final)
}
