// Command csvcolumn is a Sift example: it asks Sift to extract the email
// column of examples/data/people.csv into out/emails.csv, shows the run's
// progress, then prints the extracted file.
//
//	go run ./examples/csvcolumn
//	go run ./examples/csvcolumn -input my_contacts.csv -sessions /tmp/sift
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
	Name:      "csvcolumn",
	Question:  "Extract the email column of people.csv into out/emails.csv: only that column, with the header email, one address per row, in the file's order.",
	Input:     "people.csv",
	InputHelp: "the CSV file to read (default: examples/data/people.csv)",
	Artifact:  "out/emails.csv",
	Script:    script,
}

func main() { exampleenv.Main(task) }

// run runs the example with its command-line arguments and returns the
// session workspace.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	return exampleenv.RunTask(ctx, task, args, stdout)
}
