package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
)

// refreshOptions is what `sift refresh` needs.
type refreshOptions struct {
	run     runOptions
	Session string
	Yes     bool
}

func newRefreshCmd(io *ioStreams, runF func(context.Context, *refreshOptions) error) *cobra.Command {
	opts := &refreshOptions{}
	cmd := &cobra.Command{
		Use:   "refresh <session-id> [--file NEW]... [--db NAME=URL]... [--yes]",
		Short: "Run a finished analysis again on new data, with no model, and say what changed",
		Long: `Refresh makes a new session that runs the old session's successful cells and
SQL queries again, in order, on the new files, with no model call. Its report
is the old one with every number recomputed from the new outputs, a section
on what changed (each number that moved: old → new, by how much), and the
usual number check. Each new file takes the place of the input of the same
name, else of the inputs in order. A session that queried databases needs no
new file: its queries run again on the databases as they are now (give one
again with --db when its password is not kept).

When columns were renamed, the mapping (by name and type; when that is not
sure and a model is configured, the model is asked once for it) is shown and
applied only when you approve it: --yes, or the question on a terminal. A
column the new data lacks stops the refresh and says which, and so does a
model's mapping to a column the new data does not have.`,
		Example: `  sift refresh 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --file sales-2025.csv
  sift refresh 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --file renamed.csv --yes
  sift refresh 019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --db shop=postgres://reader:secret@db/shop`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("give one session id (sift sessions list shows them)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRefresh(cmd.Context(), io, opts, defaultRunDeps())
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.run.Files, "file", "f", nil, "the new data (repeatable): one file for each input of the session")
	f.StringArrayVar(&opts.run.DBs, "db", nil, "a database of the session given again (repeatable, NAME=URL as for run): one whose password the session does not keep")
	f.BoolVarP(&opts.Yes, "yes", "y", false, "apply a mapping of renamed columns without asking")
	addModelFlags(cmd, &opts.run)
	return cmd
}

func runRefresh(ctx context.Context, io *ioStreams, opts *refreshOptions, deps runDeps) error {
	s, _, err := deps.newSift(ctx, &opts.run)
	if err != nil {
		return err
	}
	req := agents.RefreshRequest{Session: opts.Session, Files: opts.run.Files, Databases: opts.run.DBs, Approve: opts.Yes}
	plan, err := s.PlanRefresh(ctx, req)
	if err != nil {
		return err
	}
	if plan.NeedsApproval && !opts.Yes {
		fmt.Fprintf(io.ErrOut, "Columns of the new data have other names:\n%s", plan.MappingText())
		if !io.Terminal {
			return usageError{fmt.Errorf("%w: give --yes to refresh with this mapping, or rename the columns in the file", agents.ErrMappingNotApproved)}
		}
		fmt.Fprint(io.ErrOut, "Refresh with this mapping? [y/N] ")
		line, _ := bufio.NewReader(io.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			return usageError{fmt.Errorf("%w: not approved; nothing was run", agents.ErrMappingNotApproved)}
		}
		req.Approve = true
	}
	r := newRenderer(io, opts.run.JSON, deps.now)
	if !opts.run.JSON {
		r.status("Refreshing session %s: %s run again with no model.", plan.Session, plan.Runs())
	}
	var final event.Event
	for e := range s.Refresh(ctx, req) {
		r.event(e)
		final = e
	}
	return finalError(final)
}
