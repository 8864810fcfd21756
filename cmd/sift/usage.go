package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
)

// usageOptions is what `sift usage` needs.
type usageOptions struct {
	Session     string
	SessionsDir string
	JSON        bool
}

func newUsageCmd(io *ioStreams) *cobra.Command {
	opts := &usageOptions{}
	cmd := &cobra.Command{
		Use:     "usage <session-id>",
		Short:   "Show the model calls, tokens and cost of a session, over all its runs",
		Example: "  sift usage 20261122-020655-ab12cd\n  sift usage --json 20261122-020655-ab12cd",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("give one session id; the last lines of `sift run` name it")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			return runUsage(io, opts)
		},
	}
	cmd.Flags().StringVar(&opts.SessionsDir, "sessions-dir", "", "where session workspaces are (default $SIFT_HOME/sessions or ~/.local/state/sift/sessions)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the usage as JSON")
	return cmd
}

func runUsage(io *ioStreams, opts *usageOptions) error {
	root := opts.SessionsDir
	if root == "" {
		root = session.DefaultRoot()
	}
	ws, err := session.Open(root, opts.Session)
	if err != nil {
		return usageError{err}
	}
	u, err := agents.SessionUsage(ws.Root)
	if err != nil {
		return fmt.Errorf("session %s: %w", opts.Session, err)
	}
	if opts.JSON {
		return writeSessionsJSON(io, u)
	}
	_, err = fmt.Fprint(io.Out, report.SessionUsageMarkdown(u))
	return err
}
