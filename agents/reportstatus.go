package agents

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/generic"
)

// stepOutcome sorts a run's steps by whether they computed anything, so the
// report can say which of its statements rest on no computed result.
type stepOutcome struct {
	done   int
	failed []generic.StepState // failed, with the error in Summary
	notRun []generic.StepState // todo or skipped: never ran
}

func outcomeOf(fp *generic.FullPlan) stepOutcome {
	var o stepOutcome
	if fp == nil {
		return o
	}
	for _, s := range fp.Steps {
		switch s.Status {
		case generic.StatusDone:
			o.done++
		case generic.StatusFailed:
			o.failed = append(o.failed, s)
		case generic.StatusTodo, generic.StatusSkipped:
			o.notRun = append(o.notRun, s)
		}
	}
	return o
}

// noneSucceeded: the run had steps and not one of them computed a result.
func (o stepOutcome) noneSucceeded() bool {
	return o.done == 0 && len(o.failed)+len(o.notRun) > 0
}

// uncomputed reports whether step index computed nothing.
func (o stepOutcome) uncomputed(index int) (generic.StepStatus, bool) {
	for _, group := range [][]generic.StepState{o.failed, o.notRun} {
		for _, s := range group {
			if s.Index == index {
				return s.Status, true
			}
		}
	}
	return "", false
}

// failures lists the steps that computed nothing, one line each with the
// failed step's error.
func (o stepOutcome) failures() string {
	var b strings.Builder
	for _, s := range o.failed {
		fmt.Fprintf(&b, "- Step %d failed: %s\n", s.Index, stepError(s))
	}
	for _, s := range o.notRun {
		fmt.Fprintf(&b, "- Step %d was not run (%s).\n", s.Index, s.Status)
	}
	return b.String()
}

// stepError is a failed step's error in one short line.
func stepError(s generic.StepState) string {
	msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Summary), failedPrefix))
	if msg == "" {
		return "no error was recorded"
	}
	return shorten(oneLine(msg), 240)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// noResultNote heads a report over a run in which no step succeeded.
const noResultNote = "No step of this run succeeded, so it computed no result: this report states no finding. The steps and their errors are below; fix what they name and ask again."

// uncomputedHeader is the note Sift puts under a report's title when some
// steps computed nothing: it names them, whatever the model wrote.
func (o stepOutcome) uncomputedHeader() string {
	if len(o.failed)+len(o.notRun) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("> **Not computed:** these steps produced no result, so whatever this report says of what they were to find rests on no computed result; citations of them are marked.\n")
	for _, line := range strings.Split(strings.TrimSpace(o.failures()), "\n") {
		b.WriteString(">" + strings.TrimPrefix(line, "-") + "\n")
	}
	return b.String()
}

var stepCitation = regexp.MustCompile(`(?i)\[step (\d+)\]`)

// withUncomputed puts the uncomputed-steps note under the report's title
// and marks each citation of a step that computed nothing.
func withUncomputed(md string, o stepOutcome) string {
	header := o.uncomputedHeader()
	if header == "" {
		return md
	}
	md = stepCitation.ReplaceAllStringFunc(md, func(c string) string {
		n, _ := strconv.Atoi(stepCitation.FindStringSubmatch(c)[1])
		if st, ok := o.uncomputed(n); ok {
			return fmt.Sprintf("[step %d: %s, no computed result]", n, st)
		}
		return c
	})
	title, rest := "", md
	if strings.HasPrefix(md, "# ") {
		title, rest, _ = strings.Cut(md, "\n")
		title += "\n\n"
		rest = strings.TrimLeft(rest, "\n")
	}
	return title + header + "\n" + rest
}

// withoutResult is fp without its submitted answer, for a run in which no
// step computed anything that answer could rest on.
func withoutResult(fp *generic.FullPlan) *generic.FullPlan {
	if fp == nil || fp.Result == nil {
		return fp
	}
	c := *fp
	c.Result = nil
	return &c
}
