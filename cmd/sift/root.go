package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/llm/tracing"
)

// execute runs the command line and returns the process exit code.
func execute(ctx context.Context, io *ioStreams, args []string) int {
	root := newRootCmd(io)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	// Tracing is off unless the standard OTEL_* variables ask for it.
	shutdown, terr := tracing.SetupTracing(ctx, os.Getenv)
	if terr != nil {
		fmt.Fprintf(io.ErrOut, "Warning: tracing is off: %v\n", terr)
	} else {
		defer func() { _ = shutdown(context.WithoutCancel(ctx)) }()
	}
	err := root.ExecuteContext(ctx)
	if err != nil && ctx.Err() != nil {
		err = errors.Join(err, context.Canceled)
	}
	code := exitCode(err)
	var shown reportedError
	if err != nil && !errors.As(err, &shown) {
		fmt.Fprintln(io.ErrOut, safeLinef("Error: %v", err))
	}
	if code == exitUsage {
		fmt.Fprintln(io.ErrOut, "Run 'sift --help' for usage.")
	}
	return code
}

// reportedError wraps an error the command already showed to the person,
// so it is not printed twice.
type reportedError struct{ error }

func (e reportedError) Unwrap() error { return e.error }

func newRootCmd(io *ioStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "sift <command>",
		Short: "Sift analyses your data: it plans, runs Python, and writes a report",
		Long: `Sift is a data-analysis agent. Give it a question and data files; it plans
the work, runs Python in the session workspace, re-plans on what it learns,
and writes report.md and report.html with tables and charts.

Models: any OpenAI-compatible endpoint, from flags, SIFT_BASE_URL /
SIFT_API_KEY / SIFT_MODEL (or OPENAI_*, or ARK_API_KEY / ARK_MODEL), or a
config file (~/.config/sift/config.json).

Exit codes: 0 success; 1 the run failed (the report holds what was found);
2 usage error; 3 model configuration, authentication or an unreachable endpoint; 4 the environment
lacks something (Python with pandas); 5 a budget (--max-*) stopped the run,
the report holds what was found; 6 the run waits for your answer (give it
with sift resume); 7 paused (Ctrl-C once; go on with sift resume); 8 the
answer rests on failed steps (the report says which); 130
interrupted (Ctrl-C twice or SIGTERM; sift resume runs the stopped step again).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newRunCmd(io, nil))
	root.AddCommand(newAskCmd(io, nil))
	root.AddCommand(newChatCmd(io, nil))
	root.AddCommand(newUsageCmd(io))
	root.AddCommand(newResumeCmd(io, nil))
	root.AddCommand(newRefreshCmd(io, nil))
	root.AddCommand(newForkCmd(io, nil))
	root.AddCommand(newSessionsCmd(io, sessionsRunFuncs{}))
	root.AddCommand(newMemoryCmd(io, memoryRunFuncs{}))
	root.AddCommand(newServeCmd(io, nil))
	root.AddCommand(newWorkerCmd(io, nil))
	root.AddCommand(newMCPCmd(io, nil))
	root.AddCommand(newReplayCmd(io))
	root.AddCommand(newExportCmd(io))
	root.AddCommand(newEvalCmd(io))
	return root
}
