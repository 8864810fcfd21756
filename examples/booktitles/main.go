// Command booktitles is a Sift example: it asks Sift to count the book titles
// marked with 《》 in examples/data/books.txt and write out/book_titles.csv
// (title, count; most mentioned first), shows the run's progress, then prints
// the counts.
//
//	go run ./examples/booktitles
//	go run ./examples/booktitles -input my_reading_log.txt -sessions /tmp/sift
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
	defaultQuestion = "Count how often each book title marked with 《》 is mentioned in books.txt and write out/book_titles.csv with the columns title,count, most mentioned first (ties in order of first mention)."
	// artifact is the file the question asks for, relative to the workspace.
	artifact = "out/book_titles.csv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "booktitles:", err)
		os.Exit(1)
	}
}

// run runs the example with its command-line arguments and returns the
// session workspace.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	fs := flag.NewFlagSet("booktitles", flag.ContinueOnError)
	fs.SetOutput(stdout)
	question := fs.String("question", defaultQuestion, "the question to ask")
	sessions := fs.String("sessions", "", "directory for session workspaces (default: a new temporary directory, printed)")
	input := fs.String("input", "", "the text file to read (default: examples/data/books.txt)")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected arguments %q; see -h", fs.Args())
	}
	if *input == "" {
		p, err := exampleenv.DataFile("books.txt")
		if err != nil {
			return "", err
		}
		*input = p
	}
	models, label, err := exampleenv.Models(ctx, script)
	if err != nil {
		return "", err
	}
	root, err := exampleenv.SessionsRoot(*sessions, "booktitles")
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
