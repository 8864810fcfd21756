package report

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/plans"
)

// Outcome sorts a run's steps by whether they computed anything, so the
// report can say which of its statements rest on no computed result.
type Outcome struct {
	zh     bool // the notes are for a report in Chinese (OutcomeFor)
	done   int
	failed []plans.StepState // failed, with the error in Summary
	notRun []plans.StepState // todo or skipped: never ran
}

func OutcomeOf(fp *plans.FullPlan) Outcome {
	var o Outcome
	if fp == nil {
		return o
	}
	for _, s := range fp.Steps {
		switch s.Status {
		case plans.StatusDone:
			o.done++
		case plans.StatusFailed:
			o.failed = append(o.failed, s)
		case plans.StatusTodo, plans.StatusSkipped:
			o.notRun = append(o.notRun, s)
		}
	}
	return o
}

// OutcomeFor is OutcomeOf(fp) for the report, whose notes follow the
// question's language; OutcomeOf's own are English, for the models.
func OutcomeFor(fp *plans.FullPlan) Outcome {
	o := OutcomeOf(fp)
	o.zh = Chinese(fp)
	return o
}

// noneSucceeded: the run had steps and not one of them computed a result.
func (o Outcome) NoneSucceeded() bool {
	return o.done == 0 && len(o.failed)+len(o.notRun) > 0
}

// uncomputed reports whether step index computed nothing.
func (o Outcome) uncomputed(index int) (plans.StepStatus, bool) {
	for _, group := range [][]plans.StepState{o.failed, o.notRun} {
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
func (o Outcome) Failures() string {
	var b strings.Builder
	for _, s := range o.failed {
		b.WriteString(Textf(o.zh, "- Step %d failed: %s\n", s.Index, stepError(s)))
	}
	for _, s := range o.notRun {
		b.WriteString(Textf(o.zh, "- Step %d was not run (%s).\n", s.Index, StatusText(o.zh, s.Status)))
	}
	return b.String()
}

// stepError is what made a failed step fail, in one sentence.
func stepError(s plans.StepState) string {
	sentence, _ := FailureOf(s.Summary)
	return sentence
}

// cutMarker is where Sift cut a long text for the model; hintLine is a
// fix hint Sift wrote for the model. Neither is for the analyst.
var (
	cutMarker     = regexp.MustCompile(`\s*\[\.\.\. ?\d[\d,]* characters cut[^\]]*\]\s*`)
	hintLine      = regexp.MustCompile(`(?m)(?:^|\s)Hint: .*$`)
	exceptionLine = regexp.MustCompile(`^(?:[A-Za-z_][\w.]*\.)?[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt)\b.*$`)
	sentenceEnd   = regexp.MustCompile(`[.!?。！？](?:\s|$)`)
)

// FailedPrefix starts a code agent's answer, and so a step's summary,
// when it could not do its task.
const FailedPrefix = "FAILED:"

// FailureOf reads a failed step's summary as the analyst needs it: what
// failed, in one sentence, and the traceback or detail behind it (empty
// when there is none). Hints Sift wrote for the model and the markers of
// text it cut for the model are left out of both.
func FailureOf(summary string) (sentence, detail string) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(summary), FailedPrefix))
	s = cutMarker.ReplaceAllString(s, "\n…\n")
	s = strings.TrimSpace(hintLine.ReplaceAllString(s, ""))
	if s == "" {
		return "no error was recorded", ""
	}
	head := s
	if i := strings.Index(s, "Traceback (most recent call last)"); i >= 0 {
		head, detail = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
		lines := strings.Split(detail, "\n")
		exc := ""
		for j := len(lines) - 1; j >= 0 && exc == ""; j-- {
			if l := strings.TrimSpace(lines[j]); exceptionLine.MatchString(l) {
				exc = l
			}
		}
		head = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(head, "Error:")), ":"))
		switch {
		case exc != "" && strings.Contains(head, exc):
			return firstSentence(head), detail
		case exc != "" && head != "":
			return strings.TrimRight(firstSentence(head), ".:;") + ": " + exc, detail
		case exc != "":
			return exc, detail
		}
	}
	head = strings.TrimSpace(strings.TrimPrefix(head, "Error:"))
	sentence = firstSentence(head)
	if rest := strings.TrimSpace(strings.TrimPrefix(oneLine(head), sentence)); rest != "" && detail == "" {
		detail = head
	}
	return sentence, detail
}

// firstSentence is the first sentence of s on one line, at most 300
// characters (cut at a word, with an ellipsis).
func firstSentence(s string) string {
	s = oneLine(s)
	if loc := sentenceEnd.FindStringIndex(s); loc != nil {
		s = strings.TrimSpace(s[:loc[0]+len(string([]rune(s[loc[0]:])[0]))])
	}
	r := []rune(s)
	if len(r) <= 300 {
		return s
	}
	cut := string(r[:300])
	if i := strings.LastIndex(cut, " "); i > 200 {
		cut = cut[:i]
	}
	return cut + "…"
}

// failureDetails is the traceback or detail of each failed step, each
// behind a toggle in report.html (a fenced "traceback" block).
func (o Outcome) failureDetails() string {
	var b strings.Builder
	for _, s := range o.failed {
		if _, detail := FailureOf(s.Summary); detail != "" {
			b.WriteString(Textf(o.zh, "Step %d:\n\n%s\n", s.Index, TracebackBlock(detail)))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return Textf(o.zh, "## What failed\n\n") + b.String()
}

// TracebackBlock fences detail as a "traceback" block, which report.html
// shows folded.
func TracebackBlock(detail string) string {
	fence := "```"
	for strings.Contains(detail, fence) {
		fence += "`"
	}
	return fence + TracebackLanguage + "\n" + strings.TrimSpace(detail) + "\n" + fence + "\n"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// NoResultNote heads a report over a run in which no step succeeded; in
// Chinese with zh.
func NoResultNote(zh bool) string {
	return Textf(zh, "No step of this run succeeded, so it computed no result: this report states no finding. The steps and their errors are below; fix what they name and ask again.")
}

// uncomputedHeader is the note Sift puts under a report's title when some
// steps computed nothing: it names them, whatever the model wrote.
func (o Outcome) uncomputedHeader() string {
	if len(o.failed)+len(o.notRun) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(Textf(o.zh, "> **Not computed:** these steps produced no result, so whatever this report says of what they were to find rests on no computed result; citations of them are marked.\n"))
	for _, line := range strings.Split(strings.TrimSpace(o.Failures()), "\n") {
		b.WriteString(">" + strings.TrimPrefix(line, "-") + "\n")
	}
	return b.String()
}

var stepCitation = regexp.MustCompile(`(?i)\[step (\d+)\]`)

// WithUncomputed puts the uncomputed-steps note under the report's title
// and marks each citation of a step that computed nothing.
func WithUncomputed(md string, o Outcome) string {
	header := o.uncomputedHeader()
	if header == "" {
		return md
	}
	md = stepCitation.ReplaceAllStringFunc(md, func(c string) string {
		n, _ := strconv.Atoi(stepCitation.FindStringSubmatch(c)[1])
		if st, ok := o.uncomputed(n); ok {
			return Textf(o.zh, "[step %d: %s, no computed result]", n, StatusText(o.zh, st))
		}
		return c
	})
	title, rest := "", md
	if strings.HasPrefix(md, "# ") {
		title, rest, _ = strings.Cut(md, "\n")
		title += "\n\n"
		rest = strings.TrimLeft(rest, "\n")
	}
	out := title + header + "\n" + rest
	if details := o.failureDetails(); details != "" {
		out = strings.TrimRight(out, "\n") + "\n\n" + details
	}
	return out
}

// siftText are the parts of a report Sift writes itself about its steps
// (the uncomputed note, what failed): the number check leaves them alone.
func (o Outcome) SiftText() []string {
	return []string{o.uncomputedHeader(), o.failureDetails()}
}

// WithoutResult is fp without its submitted answer, for a run in which no
// step computed anything that answer could rest on.
func WithoutResult(fp *plans.FullPlan) *plans.FullPlan {
	if fp == nil || fp.Result == nil {
		return fp
	}
	c := *fp
	c.Result = nil
	return &c
}

// ErrAnswerOnFailedSteps: the run finished, but its answer rests on steps
// that failed: no step succeeded, or the answer cites a step that
// computed nothing. The report says so; the CLI exits with its own code.
var ErrAnswerOnFailedSteps = errors.New("the answer rests on failed steps")

// AnswerOnFailedSteps returns an error wrapping ErrAnswerOnFailedSteps
// when fp's answer rests on failed steps, naming them; nil otherwise.
func AnswerOnFailedSteps(fp *plans.FullPlan) error {
	o := OutcomeOf(fp)
	if len(o.failed) == 0 {
		return nil
	}
	var cited []string
	if !o.NoneSucceeded() {
		if fp.Result == nil {
			return nil
		}
		text := strings.Join(append([]string{fp.Result.Answer}, fp.Result.Findings...), "\n")
		for _, m := range stepCitation.FindAllStringSubmatch(text, -1) {
			n, _ := strconv.Atoi(m[1])
			if st, ok := o.uncomputed(n); ok && st == plans.StatusFailed && !slicesContains(cited, m[1]) {
				cited = append(cited, m[1])
			}
		}
		if len(cited) == 0 {
			return nil
		}
	}
	var parts []string
	for _, s := range o.failed {
		if len(cited) == 0 || slicesContains(cited, strconv.Itoa(s.Index)) {
			parts = append(parts, fmt.Sprintf("step %d failed (%s)", s.Index, stepError(s)))
		}
	}
	return fmt.Errorf("%w: %s; the report says so: fix what failed and ask again", ErrAnswerOnFailedSteps, strings.Join(parts, "; "))
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
