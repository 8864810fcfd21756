package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/eval"
)

// evalOptions is what `sift eval` needs.
type evalOptions struct {
	runOptions
	Suite    string
	Labels   string
	Tables   string
	Jobs     int
	Out      string
	HTML     string
	Scripted bool
	Limit    int
	Compare  bool
	Paths    []string
}

func newEvalCmd(io *ioStreams) *cobra.Command {
	opts := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval <suite> | eval --compare <a.json> <b.json>",
		Short: "Score a model on a suite of questions with known answers",
		Long: `eval asks every question of a suite, scores each @name[value] of the answers
against the known ones, and writes a JSON results file and an HTML summary.
Suites: InfiAgent-DABench (da-dev-questions.jsonl with da-dev-labels.jsonl and
da-dev-tables/ beside it) or Sift's native suite.json. An interrupted eval
goes on where it stopped when run again with the same --out.`,
		Example: `  sift eval --jobs 4 --out gpt4o.json ~/dabench/da-dev-questions.jsonl
  sift eval --scripted --mode quick eval/testdata/native
  sift eval --compare gpt4o-mini.json gpt4o.json`,
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case opts.Compare && len(args) != 2:
				return usageError{errors.New("--compare takes two results files")}
			case !opts.Compare && len(args) != 1:
				return usageError{errors.New("give one suite: a DABench questions file or a native suite directory")}
			}
			if _, err := agents.ParseMode(opts.Mode); err != nil {
				return usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Compare {
				opts.Paths = args
				return runCompare(io, opts)
			}
			opts.Suite = args[0]
			return runEval(cmd.Context(), io, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Compare, "compare", false, "compare two results files (A then B) instead of running a suite")
	f.StringVar(&opts.Labels, "labels", "", "DABench labels file (default: beside the questions, questions → labels)")
	f.StringVar(&opts.Tables, "tables", "", "DABench tables directory (default: da-dev-tables/ beside the questions)")
	f.IntVar(&opts.Jobs, "jobs", 1, "questions asked at once")
	f.StringVar(&opts.Out, "out", "", "JSON results file; an existing one is resumed (default eval-results/<suite>.json)")
	f.StringVar(&opts.HTML, "html", "", "HTML summary (default: the results file with .html)")
	f.BoolVar(&opts.Scripted, "scripted", false, "answer each question with its own script (native suites, offline: no model is called)")
	f.IntVar(&opts.Limit, "limit", 0, "ask only the first N questions (0: all)")
	f.StringVar(&opts.Mode, "mode", "auto", "route of questions that name none: auto, quick or plan")
	f.IntVar(&opts.Budget.MaxTokens, "max-tokens", 0, "per question: stop after this many model tokens (0: no limit)")
	f.DurationVar(&opts.Budget.MaxTime, "max-time", 0, "per question: stop after this much wall time (0: no limit)")
	f.IntVar(&opts.Budget.MaxModelCalls, "max-model-calls", 0, "per question: stop after this many model calls (0: no limit)")
	f.Float64Var(&opts.Budget.MaxCost, "max-cost", 0, "per question: stop after this many US dollars (0: no limit)")
	f.IntVar(&opts.MaxIterations, "max-iterations", 10, "most execute/replan rounds per question")
	addModelFlags(cmd, &opts.runOptions)
	return cmd
}

func runEval(ctx context.Context, io *ioStreams, opts *evalOptions) error {
	var suite *eval.Suite
	var err error
	if opts.Labels != "" || opts.Tables != "" {
		suite, err = eval.LoadDABench(opts.Suite, opts.Labels, opts.Tables)
	} else {
		suite, err = eval.LoadSuite(opts.Suite)
	}
	if err != nil {
		return usageError{err}
	}
	if opts.Limit > 0 && opts.Limit < len(suite.Questions) {
		suite.Questions = suite.Questions[:opts.Limit]
	}
	if opts.Out == "" {
		opts.Out = filepath.Join("eval-results", suite.Name+".json")
	}
	if opts.HTML == "" {
		opts.HTML = strings.TrimSuffix(opts.Out, filepath.Ext(opts.Out)) + ".html"
	}
	if opts.SessionsDir == "" {
		opts.SessionsDir = strings.TrimSuffix(opts.Out, filepath.Ext(opts.Out)) + "-sessions"
	}
	cfg, label, err := siftConfig(ctx, &opts.runOptions)
	if err != nil {
		return err
	}
	if opts.Scripted {
		label = "scripted (each question's own script; offline)"
	} else if !configured(cfg.Models) {
		fmt.Fprintln(io.ErrOut, "Warning: no model configured: only questions a built-in analysis matches can be answered (set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL, or --scripted for a native suite)")
	}
	mode, _ := agents.ParseMode(opts.Mode)
	fmt.Fprintf(io.ErrOut, "Suite %s: %d questions · model %s · results %s\n", suite.Name, len(suite.Questions), label, opts.Out)
	res, runErr := eval.Run(ctx, suite, eval.Options{
		Config: cfg, Scripted: opts.Scripted, Mode: mode, Jobs: opts.Jobs, Budget: opts.Budget,
		ResultPath: opts.Out, Model: label,
		Progress: func(q eval.QuestionResult) {
			result := "ok"
			if !q.Correct {
				result = string(q.Kind)
			}
			fmt.Fprintf(io.ErrOut, "  %s: %s (%d calls, %.1fs)\n", q.ID, result, q.Calls, float64(q.WallMS)/1000)
		},
	})
	if res == nil {
		return runErr
	}
	if err := eval.WriteTable(io.Out, res); err != nil {
		return err
	}
	f, err := os.Create(opts.HTML)
	if err != nil {
		return fmt.Errorf("write the HTML summary: %w", err)
	}
	defer f.Close()
	if err := eval.WriteHTML(f, res); err != nil {
		return fmt.Errorf("write the HTML summary: %w", err)
	}
	fmt.Fprintf(io.ErrOut, "Results: %s · summary: %s\n", opts.Out, opts.HTML)
	return runErr
}

func runCompare(io *ioStreams, opts *evalOptions) error {
	var rs [2]*eval.Results
	for i, p := range opts.Paths {
		r, err := eval.LoadResults(p)
		if err != nil {
			return usageError{err}
		}
		rs[i] = r
	}
	if rs[0].Suite != rs[1].Suite {
		fmt.Fprintf(io.ErrOut, "Warning: the results are of different suites (%s, %s); only shared questions compare.\n", rs[0].Suite, rs[1].Suite)
	}
	return eval.WriteCompare(io.Out, rs[0], rs[1])
}
