package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/generic"
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
		Short:   "Show the model calls, tokens and cost of a session",
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
	b, err := os.ReadFile(filepath.Join(ws.Root, "usage.json"))
	if err != nil {
		return fmt.Errorf("session %s has no usage.json (it may still be running, or have been stopped by a crash): %w", opts.Session, err)
	}
	if opts.JSON {
		_, err := io.Out.Write(b)
		return err
	}
	var u generic.Usage
	if err := json.Unmarshal(b, &u); err != nil {
		return fmt.Errorf("read %s: %w", filepath.Join(ws.Root, "usage.json"), err)
	}
	_, err = fmt.Fprint(io.Out, generic.RenderUsageMarkdown(&u))
	return err
}
