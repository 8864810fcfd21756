// Command understand runs the understanding evaluation (package eval/understanding) and prints precision and
// coverage per language, for the main questions and the held-out ones, then the wrong answers and the
// refused answerable questions. It exits 1 when the main questions fall below the floors (understanding.Floors).
//
//	go run ./eval/understanding/cmd/understand [-v] [-only main|heldout] [-dir eval/understanding/testdata]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sift-agent/sift/eval/understanding"
	"github.com/sift-agent/sift/operator"
)

func main() {
	dir := flag.String("dir", "eval/understanding/testdata", "the directory with questions.jsonl, heldout.jsonl and tables/")
	verbose := flag.Bool("v", false, "print one line per question as it runs")
	only := flag.String("only", "", "run only the main questions (main) or only the held-out ones (heldout)")
	flag.Parse()
	if err := run(*dir, *verbose, *only); err != nil {
		fmt.Fprintln(os.Stderr, "eval-understanding:", err)
		os.Exit(1)
	}
}

func run(dir string, verbose bool, only string) error {
	ctx := context.Background()
	py, err := operator.FindPython(ctx, "")
	if err != nil {
		return fmt.Errorf("no Python with pandas: %w (run make python-deps)", err)
	}
	cfg := understanding.Config{Tables: filepath.Join(dir, "tables"), Python: py}
	if verbose {
		cfg.Progress = os.Stderr
	}
	ev, err := understanding.NewEvaluator(cfg)
	if err != nil {
		return err
	}
	defer ev.Close()
	var failed []string
	for _, set := range []struct{ name, file string }{{"main", "questions.jsonl"}, {"heldout", "heldout.jsonl"}} {
		if only != "" && only != set.name {
			continue
		}
		qs, err := understanding.LoadQuestions(filepath.Join(dir, set.file))
		if err != nil {
			return err
		}
		rep, err := ev.Run(ctx, set.name, qs)
		if err != nil {
			return err
		}
		rep.Write(os.Stdout)
		if set.name == "main" {
			failed = append(failed, understanding.Check(rep)...)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("below the floors:\n  %s", strings.Join(failed, "\n  "))
	}
	return nil
}
