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
	"io"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
)

//go:embed script.json
var script []byte

// task is this example: the question, its input and the file it asks for.
var task = exampleenv.Task{
	Name:      "examnorm",
	Question:  "Normalise the quiz in exam.txt into out/questions.csv with one row per question and the columns number, question, option_a, option_b, option_c, option_d, answer (the answer as an upper-case letter). The numbering, option and answer formats vary; handle them all.",
	Input:     "exam.txt",
	InputHelp: "the quiz text file to read (default: examples/data/exam.txt)",
	Artifact:  "out/questions.csv",
	Script:    script,
}

func main() { exampleenv.Main(task) }

// run runs the example with its command-line arguments and returns the
// session workspace.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	return exampleenv.RunTask(ctx, task, args, stdout)
}
