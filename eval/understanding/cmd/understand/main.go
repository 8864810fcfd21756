// Command understand runs the understanding evaluation (package eval/understanding) and prints precision and
// coverage per language, for the main questions, the held-out ones, the fresh set, the unseen set, the blind set, the novel set, the untried set, the probe set, the second probe set (probe2), the third (probe3) and the fourth (probe4), then the
// wrong answers and the refused answerable questions. It exits 1 when the main questions fall below the floors
// (understanding.Floors); the held-out, fresh, unseen, blind, novel, untried, probe, probe2, probe3 and probe4 sets are reported, not enforced.
//
//	go run ./eval/understanding/cmd/understand [-v] [-only main|heldout|fresh|unseen|blind|novel|untried|probe|probe2|probe3|probe4] [-dir eval/understanding/testdata]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sift-agent/sift/eval/understanding"
	"github.com/sift-agent/sift/operator"
)

func main() {
	dir := flag.String("dir", "eval/understanding/testdata", "the directory with questions.jsonl, heldout.jsonl, fresh.jsonl, unseen.jsonl, blind.jsonl, novel.jsonl, untried.jsonl, probe.jsonl, probe2.jsonl, probe3.jsonl, probe4.jsonl and tables/")
	verbose := flag.Bool("v", false, "print one line per question as it runs")
	only := flag.String("only", "", "run only the main questions (main), the held-out ones (heldout), the fresh set (fresh), the unseen set (unseen), the blind set (blind), the novel set (novel), the untried set (untried), the probe set (probe), the second probe set (probe2), the third (probe3) or the fourth (probe4)")
	id := flag.String("id", "", "run only the questions whose id matches this regular expression, and print what Sift read and answered")
	flag.Parse()
	if err := run(*dir, *verbose, *only, *id); err != nil {
		fmt.Fprintln(os.Stderr, "eval-understanding:", err)
		os.Exit(1)
	}
}

func run(dir string, verbose bool, only, id string) error {
	var pick *regexp.Regexp
	if id != "" {
		var err error
		if pick, err = regexp.Compile(id); err != nil {
			return fmt.Errorf("-id: %w", err)
		}
	}
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
	for _, set := range []struct{ name, file string }{{"main", "questions.jsonl"}, {"heldout", "heldout.jsonl"}, {"fresh", "fresh.jsonl"}, {"unseen", "unseen.jsonl"}, {"blind", "blind.jsonl"}, {"novel", "novel.jsonl"}, {"untried", "untried.jsonl"}, {"probe", "probe.jsonl"}, {"probe2", "probe2.jsonl"}, {"probe3", "probe3.jsonl"}, {"probe4", "probe4.jsonl"}} {
		if only != "" && only != set.name {
			continue
		}
		qs, err := understanding.LoadQuestions(filepath.Join(dir, set.file))
		if err != nil {
			return err
		}
		if pick != nil {
			qs = slices.DeleteFunc(qs, func(q understanding.Question) bool { return !pick.MatchString(q.ID) })
		}
		rep, err := ev.Run(ctx, set.name, qs)
		if err != nil {
			return err
		}
		if pick != nil {
			enc := json.NewEncoder(os.Stdout)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			for _, o := range rep.Outcomes {
				_ = enc.Encode(o)
			}
			continue
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
