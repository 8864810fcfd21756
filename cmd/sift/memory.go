package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize/english"
	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/internal/termsafe"
	"github.com/sift-agent/sift/memory"
)

// memoryListOptions is what `sift memory list` needs.
type memoryListOptions struct {
	sessionsStoreOptions
	JSON bool
}

// memoryForgetOptions is what `sift memory forget` needs.
type memoryForgetOptions struct {
	sessionsStoreOptions
	IDs []string
	All bool
}

// memoryEditOptions is what `sift memory edit` needs.
type memoryEditOptions struct {
	sessionsStoreOptions
	ID, Text string
}

// memoryRunFuncs replace the run functions of the memory subcommands in
// flag-parsing tests; a nil field runs the real one.
type memoryRunFuncs struct {
	list   func(context.Context, *memoryListOptions) error
	forget func(context.Context, *memoryForgetOptions) error
	edit   func(context.Context, *memoryEditOptions) error
}

func newMemoryCmd(io *ioStreams, runF memoryRunFuncs) *cobra.Command {
	store := &sessionsStoreOptions{}
	cmd := &cobra.Command{
		Use:   "memory <command>",
		Short: "List, edit and forget what Sift remembers about your data",
		Long: `Sift remembers, per data source (a file by its schema and content, a
database by its address and tables): the facts you gave (answers to its
questions, plan edits), shown to the agents in later sessions on the same
data so they do not ask again; and the answers it computed, given again at
once for the same question on the same data with the same settings
(sift run --fresh computes anew). A changed file is other data: nothing
remembered about the old content is used for it. Edit a fact to change
what you said (later sessions use the new text); forget an entry to drop it.

Memory is kept in the session store (see sift sessions --help).`,
		Example: `  sift memory list
  sift memory edit f-1a2b3c4d5e6f7a8b9c0d "refunds count as negative revenue"
  sift memory forget f-1a2b3c4d5e6f7a8b9c0d
  sift memory forget --all`,
		PersistentPreRunE: func(*cobra.Command, []string) error { return store.check() },
		Args:              cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q for \"sift memory\"; use list, edit or forget", args[0])}
			}
			return cmd.Help()
		},
	}
	store.addFlags(cmd, "the file store's directory (default $SIFT_HOME/sessions or ~/.local/state/sift/sessions)")

	list := &memoryListOptions{}
	listCmd := &cobra.Command{
		Use:     "list [--json]",
		Short:   "List what Sift remembers, newest first",
		Example: "  sift memory list\n  sift memory list --json | jq -r '.[].id'",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("list takes no arguments, got %q", args)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			list.sessionsStoreOptions = *store
			if runF.list != nil {
				return runF.list(cmd.Context(), list)
			}
			return runMemoryList(cmd.Context(), io, list, defaultSessionsDeps(io))
		},
	}
	listCmd.Flags().BoolVar(&list.JSON, "json", false, "print the entries as one JSON array")

	forget := &memoryForgetOptions{}
	forgetCmd := &cobra.Command{
		Use:     "forget <id>... | --all",
		Short:   "Forget entries by ID, or everything",
		Example: "  sift memory forget f-1a2b3c4d5e6f7a8b9c0d a-0d9c8b7a6f5e4d3c2b1a\n  sift memory forget --all",
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case forget.All && len(args) > 0:
				return usageError{errors.New("give entry IDs or --all, not both")}
			case !forget.All && len(args) == 0:
				return usageError{errors.New("give the IDs of the entries to forget (sift memory list shows them), or --all")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			forget.sessionsStoreOptions = *store
			if len(args) > 0 {
				forget.IDs = args
			}
			if runF.forget != nil {
				return runF.forget(cmd.Context(), forget)
			}
			return runMemoryForget(cmd.Context(), io, forget, defaultSessionsDeps(io))
		},
	}
	forgetCmd.Flags().BoolVar(&forget.All, "all", false, "forget everything Sift remembers")

	edit := &memoryEditOptions{}
	editCmd := &cobra.Command{
		Use:   "edit <id> <new text>",
		Short: "Change what you said in a fact",
		Long: `Replace what you said in a fact (sift memory list shows the facts, kind
fact) with the new text, dated today: later sessions on its data show it to
the agents and answer their question with it. An answer Sift computed is not
edited: forget it, or ask again with --fresh.`,
		Example: `  sift memory edit f-1a2b3c4d5e6f7a8b9c0d "refunds count as negative revenue"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageError{fmt.Errorf("give the fact's ID and its new text, quoted: sift memory edit f-1a2b… \"new text\" (got %d arguments)", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			edit.sessionsStoreOptions = *store
			edit.ID, edit.Text = args[0], args[1]
			if runF.edit != nil {
				return runF.edit(cmd.Context(), edit)
			}
			return runMemoryEdit(cmd.Context(), io, edit, defaultSessionsDeps(io))
		},
	}
	cmd.AddCommand(listCmd, editCmd, forgetCmd)
	return cmd
}

func runMemoryList(ctx context.Context, io *ioStreams, opts *memoryListOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	es, err := b.Memory.List(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		if es == nil {
			es = []memory.Entry{}
		}
		for i := range es {
			es[i].Report = "" // long; the session has it
		}
		out, err := json.MarshalIndent(es, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(io.Out, "%s\n", out)
		return err
	}
	if len(es) == 0 {
		fmt.Fprintln(io.ErrOut, "Sift remembers nothing yet.")
		return nil
	}
	tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tDATE\tSESSION\tDATA\tWHAT")
	for _, e := range es {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.Created.In(deps.loc).Format(time.DateOnly), termsafe.Line(e.Session),
			termsafe.Line(shorten(strings.Join(e.Names, ", "), 30)), termsafe.Line(shorten(entrySummary(e), 80)))
	}
	return tw.Flush()
}

// entrySummary is an entry in one line: the question and what was said or
// answered.
func entrySummary(e memory.Entry) string {
	answer, _, _ := strings.Cut(strings.TrimSpace(e.Answer), "\n")
	return fmt.Sprintf("%q → %s", e.Question, answer)
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func runMemoryForget(ctx context.Context, io *ioStreams, opts *memoryForgetOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	ids := opts.IDs
	if opts.All {
		es, err := b.Memory.List(ctx)
		if err != nil {
			return err
		}
		for _, e := range es {
			ids = append(ids, e.ID)
		}
	}
	n := 0
	for _, id := range ids {
		err := b.Memory.Delete(ctx, id)
		if (errors.Is(err, memory.ErrNotFound) || errors.Is(err, memory.ErrInvalidID)) && !opts.All {
			return usageError{fmt.Errorf("%w (forgot %d before it)", err, n)}
		}
		if err != nil && !errors.Is(err, memory.ErrNotFound) {
			return err
		}
		n++
	}
	fmt.Fprintf(io.ErrOut, "Forgot %s.\n", english.Plural(n, "entry", "entries"))
	return nil
}

func runMemoryEdit(ctx context.Context, io *ioStreams, opts *memoryEditOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	e, err := memory.Edit(ctx, b.Memory, opts.ID, opts.Text, deps.now())
	if errors.Is(err, memory.ErrNotFound) || errors.Is(err, memory.ErrInvalidID) || errors.Is(err, memory.ErrNotFact) || errors.Is(err, memory.ErrBadText) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(io.ErrOut, "Edited %s: %s\n", e.ID, termsafe.Line(shorten(entrySummary(e), 120)))
	return nil
}
