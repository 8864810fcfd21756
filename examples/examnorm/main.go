// Command examnorm is a Sift example: it asks Sift to normalise the loosely
// formatted quiz in examples/data/exam.txt into out/questions.csv, one row
// per question (number, question, option_a..option_d, answer), shows the
// run's progress, then prints the table.
//
//	go run ./examples/examnorm
//	go run ./examples/examnorm -input my_quiz.txt -sessions /tmp/sift
//
// Without model settings it plays the embedded script.json: a scripted model
// (no model is called) whose Python still runs for real on the input. With
// SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL set (or a Sift config file), a
// real model does the work.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/generic"
)

//go:embed script.json
var script []byte

const (
	defaultQuestion = "Normalise the quiz in exam.txt into out/questions.csv with one row per question and the columns number, question, option_a, option_b, option_c, option_d, answer (the answer as an upper-case letter). The numbering, option and answer formats vary; handle them all."
	// artifact is the file the question asks for, relative to the workspace.
	artifact = "out/questions.csv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "examnorm:", err)
		os.Exit(1)
	}
}

// run runs the example with its command-line arguments and returns the
// session workspace.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	fs := flag.NewFlagSet("examnorm", flag.ContinueOnError)
	fs.SetOutput(stdout)
	question := fs.String("question", defaultQuestion, "the question to ask")
	sessions := fs.String("sessions", "", "directory for session workspaces (default: a new temporary directory, printed)")
	input := fs.String("input", "", "the quiz text file to read (default: examples/data/exam.txt)")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected arguments %q; see -h", fs.Args())
	}
	if *input == "" {
		p, err := exampleenv.DataFile("exam.txt")
		if err != nil {
			return "", err
		}
		*input = p
	}
	models, label, err := exampleenv.Models(ctx, script)
	if err != nil {
		return "", err
	}
	root, err := exampleenv.SessionsRoot(*sessions, "examnorm")
	if err != nil {
		return "", err
	}
	fmt.Fprintf(stdout, "model: %s\nsessions: %s\n", label, root)

	s, err := agents.New(agents.Config{Models: models, SessionsRoot: root})
	if err != nil {
		return "", err
	}
	var done generic.Event
	// ModePlan: the example shows the agents' plan-execute-replan loop (its
	// offline script is written for it); ModeAuto would answer requests that
	// match a built-in analysis without any model.
	for e := range s.Run(ctx, agents.Request{Mode: agents.ModePlan, Question: *question, Files: []string{*input}}) {
		exampleenv.Print(stdout, e)
		done = e
	}
	if done.Err != nil {
		return done.Path, fmt.Errorf("the run failed: %w", done.Err)
	}

	data, err := os.ReadFile(filepath.Join(done.Path, filepath.FromSlash(artifact)))
	if err != nil {
		return done.Path, fmt.Errorf("the run finished without writing %s; read %s for what it did: %w", artifact, filepath.Join(done.Path, "report.md"), err)
	}
	fmt.Fprintf(stdout, "\n%s:\n%s", artifact, data)
	return done.Path, nil
}
