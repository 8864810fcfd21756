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
	"io"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
)

//go:embed script.json
var script []byte

// task is this example: the question, its input and the file it asks for.
var task = exampleenv.Task{
	Name:      "booktitles",
	Question:  "Count how often each book title marked with 《》 is mentioned in books.txt and write out/book_titles.csv with the columns title,count, most mentioned first (ties in order of first mention).",
	Input:     "books.txt",
	InputHelp: "the text file to read (default: examples/data/books.txt)",
	Artifact:  "out/book_titles.csv",
	Script:    script,
}

func main() { exampleenv.Main(task) }

// run runs the example with its command-line arguments and returns the
// session workspace.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	return exampleenv.RunTask(ctx, task, args, stdout)
}
