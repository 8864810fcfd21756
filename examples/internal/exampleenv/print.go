package exampleenv

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dustin/go-humanize/english"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// statusMarks are the plan's step statuses as plain ASCII.
var statusMarks = map[plans.StepStatus]string{
	plans.StatusTodo:    "[ ]",
	plans.StatusDoing:   "[~]",
	plans.StatusDone:    "[x]",
	plans.StatusFailed:  "[!]",
	plans.StatusSkipped: "[-]",
}

// Print writes one compact line (a few for a plan) for each event a person
// following a run cares about: the session, plans and the submitted result,
// steps starting and finishing (with the first line of the step's summary),
// artifacts, the report, errors, and the end of the run with the report's
// path (or, when a failed run wrote no report, its workspace). Tool calls, tool results, messages and usage are left out.
func Print(w io.Writer, e event.Event) {
	switch e.Kind {
	case event.Session:
		fmt.Fprintf(w, "session %s: %s\n", e.Text, e.Path)
	case event.Plan:
		printPlan(w, e.Plan)
	case event.StepStarted:
		if e.Step != nil {
			fmt.Fprintf(w, "step %d: %s\n", e.Step.Index, oneLine(e.Step.Description, 140))
		}
	case event.StepFinished:
		if e.Step != nil {
			fmt.Fprintf(w, "step %d %s: %s\n", e.Step.Index, e.Step.Status, oneLine(firstLine(e.Step.Summary), 160))
		}
	case event.Artifact:
		fmt.Fprintf(w, "  artifact: %s\n", e.Path)
	case event.Report:
		fmt.Fprintf(w, "report written: %s\n", e.Path)
	case event.Error:
		fmt.Fprintf(w, "error: %s\n", oneLine(e.Text, 400))
	case event.Done:
		printDone(w, e)
	}
}

func printPlan(w io.Writer, p *plans.FullPlan) {
	if p == nil {
		return
	}
	if p.Result != nil {
		fmt.Fprintf(w, "result: %s\n", oneLine(p.Result.Answer, 400))
		return
	}
	if p.Revisions > 0 {
		fmt.Fprintf(w, "plan (revision %d):\n", p.Revisions)
	} else {
		fmt.Fprintln(w, "plan:")
	}
	for _, s := range p.Steps {
		mark, ok := statusMarks[s.Status]
		if !ok {
			mark = "[?]"
		}
		fmt.Fprintf(w, "  %s %d. %s\n", mark, s.Index, oneLine(s.Description, 140))
	}
}

func printDone(w io.Writer, e event.Event) {
	calls := ""
	if e.Usage != nil {
		calls = " after " + english.Plural(e.Usage.Calls, "model call", "")
	}
	report := filepath.Join(e.Path, "report.md")
	switch {
	case e.Interrupt != nil:
		fmt.Fprintf(w, "waiting%s for the person: %s\n", calls, oneLine(e.Interrupt.Prompt, 400))
	case e.Err != nil && e.Path != "":
		if _, err := os.Stat(report); err == nil {
			fmt.Fprintf(w, "failed%s: %s\n  report so far: %s\n", calls, oneLine(e.Err.Error(), 400), report)
		} else {
			fmt.Fprintf(w, "failed%s: %s\n  workspace: %s\n", calls, oneLine(e.Err.Error(), 400), e.Path)
		}
	case e.Err != nil:
		fmt.Fprintf(w, "failed%s: %s\n", calls, oneLine(e.Err.Error(), 400))
	default:
		fmt.Fprintf(w, "done%s\n  report: %s\n", calls, report)
	}
}

// firstLine returns the first non-blank line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// oneLine collapses whitespace and cuts s to limit runes.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}
