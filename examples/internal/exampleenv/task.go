package exampleenv

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
)

// Task is one classic-task example: a question about one input file whose
// answer is one file the run writes.
type Task struct {
	// Name names the example (flags, messages, the sessions directory).
	Name string
	// Question is asked unless -question says otherwise.
	Question string
	// Input is the example data file used unless -input names another,
	// and InputHelp describes -input.
	Input, InputHelp string
	// Artifact is the workspace-relative file the answer is, printed at
	// the end.
	Artifact string
	// Script is the embedded scripted model, played without model settings.
	Script []byte
}

// Main runs the task as a command and exits non-zero when it fails.
func Main(t Task) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := RunTask(ctx, t, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(os.Stderr, "%s: %v\n", t.Name, err)
		os.Exit(1)
	}
}

// RunTask runs the task with its command-line arguments (-question,
// -sessions, -input), prints the run's progress and then the artifact, and
// returns the session workspace.
func RunTask(ctx context.Context, t Task, args []string, stdout io.Writer) (string, error) {
	fs := flag.NewFlagSet(t.Name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	question := fs.String("question", t.Question, "the question to ask")
	sessions := fs.String("sessions", "", "directory for session workspaces (default: a temporary directory, removed after the run unless $SIFT_EXAMPLE_KEEP is set)")
	input := fs.String("input", "", t.InputHelp)
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected arguments %q; see -h", fs.Args())
	}
	if *input == "" {
		p, err := DataFile(t.Input)
		if err != nil {
			return "", err
		}
		*input = p
	}
	models, label, err := Models(ctx, t.Script)
	if err != nil {
		return "", err
	}
	root, cleanup, err := SessionsRoot(*sessions, t.Name)
	if err != nil {
		return "", err
	}
	defer cleanup(stdout)
	fmt.Fprintf(stdout, "model: %s\nsessions: %s\n", label, root)

	s, err := agents.New(agents.Config{Models: models, SessionsRoot: root})
	if err != nil {
		return "", err
	}
	var done event.Event
	// ModePlan: the examples show the agents' plan-execute-replan loop
	// (their offline scripts are written for it); ModeAuto would answer
	// requests that match a built-in analysis without any model.
	for e := range s.Run(ctx, agents.Request{Mode: agents.ModePlan, Question: *question, Files: []string{*input}}) {
		Print(stdout, e)
		done = e
	}
	if done.Err != nil {
		return done.Path, fmt.Errorf("the run failed: %w", done.Err)
	}
	data, err := os.ReadFile(filepath.Join(done.Path, filepath.FromSlash(t.Artifact)))
	if err != nil {
		return done.Path, fmt.Errorf("the run finished without writing %s; read %s for what it did: %w", t.Artifact, filepath.Join(done.Path, "report.md"), err)
	}
	fmt.Fprintf(stdout, "\n%s:\n%s", t.Artifact, data)
	return done.Path, nil
}
