package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cloudwego/eino/components/model"
	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/eval"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/session"
)

// errDiverged: a replay did not match its recording.
var errDiverged = errors.New("the replay diverged from its recording")

// replayOptions is what `sift replay` needs.
type replayOptions struct {
	runOptions
	Source string
	Update bool
}

func newReplayCmd(io *ioStreams) *cobra.Command {
	opts := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay <session-id | recording-dir>",
		Short: "Run a recorded session again against the current code, offline, and show where it diverges",
		Long: `Replay serves a session's recorded model answers (trajectory.jsonl) in order,
per agent, with no model and no key, while the Python and SQL run for real
in a new session. It reports the first model request that differs from the
recording, every later one, and the changed lines and numbers of the report
and the text artifacts. Exit code 0: the replay matched; 1: it diverged.

With --update and a configured model (or --script), the model answers from
the first divergence on; a recording directory is then rewritten with the
new run.`,
		Example: `  sift replay 20261122-033304-6ce1f2
  sift replay ./bug-recording --file fixed.csv
  sift replay ./bug-recording --update`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("give one session id or recording directory")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source = args[0]
			return runReplay(cmd.Context(), io, opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.Files, "file", "f", nil, "replace the recorded inputs with this file (repeatable)")
	f.BoolVar(&opts.Update, "update", false, "let the configured model answer from the first divergence on, and rewrite a recording directory with the new run")
	addModelFlags(cmd, &opts.runOptions)
	return cmd
}

// openRecording opens a recording directory, a session workspace, or the
// session with that id under the sessions directory.
func openRecording(src, sessionsDir string) (*eval.Recording, error) {
	if st, err := os.Stat(src); err == nil && st.IsDir() {
		return eval.OpenRecording(src)
	}
	root := firstNonEmpty(sessionsDir, session.DefaultRoot())
	ws, err := session.Open(root, src)
	if err != nil {
		return nil, usageError{fmt.Errorf("%s is neither a recording directory nor a session under %s: %w", src, root, err)}
	}
	return eval.OpenRecording(ws.Root)
}

func runReplay(ctx context.Context, io *ioStreams, opts *replayOptions) error {
	rec, err := openRecording(opts.Source, opts.SessionsDir)
	if err != nil {
		return err
	}
	cfg, label, err := siftConfig(ctx, &opts.runOptions)
	if err != nil {
		return err
	}
	ro := eval.ReplayOptions{Config: cfg, Files: opts.Files}
	if opts.Update {
		if !configured(cfg.Models) {
			return usageError{errors.New("--update needs a model to answer what diverged: configure one (SIFT_BASE_URL, SIFT_API_KEY, SIFT_MODEL) or give --script")}
		}
		ro.Live = liveModels(cfg.Models)
		fmt.Fprintf(io.ErrOut, "Model after a divergence: %s\n", label)
	}
	if n := len(rec.Manifest.Questions()); n > 1 {
		fmt.Fprintln(io.ErrOut, safeLinef("Replaying %s: %d recorded model calls, %d questions, the first %q", rec.Dir, len(rec.Records), n, rec.Manifest.Question))
	} else {
		fmt.Fprintln(io.ErrOut, safeLinef("Replaying %s: %d recorded model calls, %q", rec.Dir, len(rec.Records), rec.Manifest.Question))
	}
	res, err := eval.Replay(ctx, rec, ro)
	if err != nil {
		return err
	}
	if opts.JSON {
		b, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintln(io.Out, string(b))
	} else {
		printReplay(io, res)
	}
	if opts.Update && res.Path != "" && !res.Same() {
		if err := updateRecording(rec, res.Path, opts); err != nil {
			return err
		}
	}
	if !res.Same() {
		return reportedError{errDiverged}
	}
	return nil
}

// printReplay prints one line per question of the session, whether it
// diverged or not, then what diverged and what changed.
func printReplay(io *ioStreams, res *eval.ReplayResult) {
	fmt.Fprintf(io.Out, "Replayed in session %s (%s): %d model calls.\n", res.Session, res.Path, res.Calls)
	for i, q := range res.Questions {
		fmt.Fprintln(io.Out, safeLinef("Question %d of %d, %q: %s", i+1, len(res.Questions), clipQuestion(q.Question), questionOutcome(q)))
	}
	if res.Same() {
		fmt.Fprintln(io.Out, "No divergence: every request matched the recording, and the report and artifacts are the same.")
		return
	}
	if len(res.Divergences) > 0 {
		fmt.Fprintln(io.Out, safeLinef("First divergence: %s", res.Divergences[0]))
		if n := len(res.Divergences) - 1; n > 0 {
			fmt.Fprintf(io.Out, "%d more:\n", n)
			for _, d := range res.Divergences[1:] {
				fmt.Fprintln(io.Out, safeLinef("  %s", d))
			}
		}
	}
	for _, c := range res.Changes {
		fmt.Fprintln(io.Out, safeLinef("Changed: %s", c))
	}
	if res.Error != "" {
		fmt.Fprintln(io.Out, safeLinef("The replayed run failed: %s", res.Error))
	}
}

// questionOutcome says in a few words how one question replayed.
func questionOutcome(q eval.QuestionReplay) string {
	switch {
	case q.Same():
		return fmt.Sprintf("no divergence (%d model calls)", q.Calls)
	case len(q.Divergences) == 0:
		return "failed: " + q.Error
	}
	d := q.Divergences[0]
	what := d.What()
	if d.Call == 0 {
		return fmt.Sprintf("diverged: %s (%d divergences)", what, len(q.Divergences))
	}
	return fmt.Sprintf("diverged at call %d (%s): %s (%d divergences)", d.Call, d.Agent, what, len(q.Divergences))
}

// clipQuestion shortens a question for a one-line summary.
func clipQuestion(q string) string {
	if r := []rune(q); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return q
}

// liveModels answers each agent with its configured model.
func liveModels(ms agents.Models) func(string) model.ToolCallingChatModel {
	return func(agent string) model.ToolCallingChatModel {
		var m model.ToolCallingChatModel
		switch agent {
		case llm.AgentPlanner:
			m = ms.Planner
		case llm.AgentExecutor:
			m = ms.Executor
		case llm.AgentCode:
			m = ms.Code
		case llm.AgentReport:
			m = ms.Report
		}
		if m == nil {
			m = ms.Default
		}
		return m
	}
}

// updateRecording rewrites a recording directory with the replayed run;
// a session replayed by id keeps its re-recording in the new session.
func updateRecording(rec *eval.Recording, newSession string, opts *replayOptions) error {
	if _, err := os.Stat(filepath.Join(rec.Dir, eval.ManifestFile)); err != nil {
		return nil
	}
	fresh, err := eval.OpenRecording(newSession)
	if err != nil {
		return err
	}
	tmp := rec.Dir + ".new"
	_ = os.RemoveAll(tmp)
	if err := eval.Export(fresh, tmp, eval.ExportOptions{Inputs: rec.Manifest.InputsIncluded, Secrets: configuredSecrets(opts.modelOptions())}); err != nil {
		return err
	}
	old := rec.Dir + ".old"
	if err := os.Rename(rec.Dir, old); err != nil {
		return fmt.Errorf("update recording: %w", err)
	}
	if err := os.Rename(tmp, rec.Dir); err != nil {
		_ = os.Rename(old, rec.Dir)
		return fmt.Errorf("update recording: %w", err)
	}
	return os.RemoveAll(old)
}

// configuredSecrets are the keys of the model and search configuration,
// to redact from exported recordings.
func configuredSecrets(o modelOptions) []string {
	secrets := []string{o.APIKey}
	for _, k := range []string{"SIFT_API_KEY", "OPENAI_API_KEY", "ARK_API_KEY", "TAVILY_API_KEY", "BRAVE_API_KEY"} {
		secrets = append(secrets, os.Getenv(k))
	}
	if mc, err := llm.LoadConfig(o.ConfigPath, os.Getenv); err == nil {
		secrets = append(secrets, mc.Default.APIKey)
		for _, ep := range mc.Agents {
			secrets = append(secrets, ep.APIKey)
		}
	}
	return secrets
}

// exportOptions is what `sift export-session` needs.
type exportOptions struct {
	Source      string
	Dir         string
	Inputs      bool
	SessionsDir string
	ConfigPath  string
}

func newExportCmd(io *ioStreams) *cobra.Command {
	opts := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export-session <session-id> <dir>",
		Short: "Write a session as a portable recording, with API keys and secrets redacted",
		Long: `export-session writes a session's recording to a new directory: its model
calls (trajectory.jsonl), report and text artifacts, with API keys, bearer
tokens and the configured keys redacted, and with --inputs its input files.
Attach it to a bug report; anyone can run it again with sift replay DIR.`,
		Example: `  sift export-session 20261122-033304-6ce1f2 ./bug-recording --inputs`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageError{errors.New("give a session id and a new directory")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.Dir = args[0], args[1]
			rec, err := openRecording(opts.Source, opts.SessionsDir)
			if err != nil {
				return err
			}
			if err := eval.Export(rec, opts.Dir, eval.ExportOptions{Inputs: opts.Inputs, Secrets: configuredSecrets(modelOptions{ConfigPath: opts.ConfigPath})}); err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "%s\n", opts.Dir)
			fmt.Fprintf(io.ErrOut, "Exported %d model calls of session %s (keys redacted%s). Replay with: sift replay %s\n", len(rec.Records), rec.Manifest.Session, map[bool]string{true: ", inputs included", false: ", inputs not included"}[opts.Inputs], opts.Dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Inputs, "inputs", false, "include the input files")
	f.StringVar(&opts.SessionsDir, "sessions-dir", "", "where session workspaces are (default $SIFT_HOME/sessions or ~/.local/state/sift/sessions)")
	f.StringVar(&opts.ConfigPath, "config", "", "model config file whose keys are redacted too (default $SIFT_CONFIG or ~/.config/sift/config.json)")
	return cmd
}
