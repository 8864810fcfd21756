package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dustin/go-humanize/english"
	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/termsafe"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools"
)

// renderer shows a run's events: readable progress on ErrOut, the report's
// paths on Out; or, with --json, every event as one JSON line on Out.
type renderer struct {
	io      *ioStreams
	json    bool
	now     func() time.Time
	start   time.Time
	workdir string
	// report is the workspace-relative report this run wrote, once it
	// wrote one: report.md, or the question's own report-NN.md.
	report string
	// shown holds the steps already listed, so a replan that only drops
	// the finished step does not print the whole plan again.
	shown map[string]bool
	// lastPlan is the plan last printed, as its steps' keys (see stepKey),
	// so a review of that plan can point at it instead of printing it again.
	lastPlan []string
	// resumeArgs are the flags the printed `sift resume` commands repeat.
	resumeArgs []string
	// asked holds ask_user's questions by tool call, until their result
	// says whether the person is asked (the interrupt shows the question)
	// or no one can answer.
	asked map[string]tools.AskUserArgs
	// warned holds the warnings shown, so that each shows once.
	warned map[string]bool
	// working is the terminal's working line, told what each model call
	// does; nil on a pipe.
	working *workingLine
	// calls are the model calls going on, oldest first: the working line
	// names the newest.
	calls []*event.Event
}

// modelCall keeps the working line saying what the run waits for.
func (r *renderer) modelCall(e event.Event) {
	if e.Kind == event.ModelStarted {
		r.calls = append(r.calls, &e)
	} else if i := slices.IndexFunc(r.calls, func(c *event.Event) bool { return c.Text == e.Text }); i >= 0 {
		r.calls = slices.Delete(r.calls, i, i+1)
	}
	if len(r.calls) == 0 {
		r.working.doing("", time.Time{})
		return
	}
	last := r.calls[len(r.calls)-1]
	since := last.Time
	if last.Call != nil && !last.Call.Started.IsZero() {
		since = last.Call.Started
	}
	r.working.doing(last.Text, since)
}

func newRenderer(io *ioStreams, asJSON bool, now func() time.Time) *renderer {
	return &renderer{io: io, json: asJSON, now: now, start: now(), shown: map[string]bool{}, asked: map[string]tools.AskUserArgs{}, warned: map[string]bool{}}
}

// Marks differ on a terminal (colour, symbols) and in a pipe (plain ASCII).
func (r *renderer) mark(kind string) shown {
	plain := map[string]shown{"step": ">>", "call": "  -", "ok": "ok", "fail": "!!", "todo": "[ ]", "doing": "[~]", "done": "[x]", "failed": "[!]", "skipped": "[-]"}
	if !r.io.Terminal {
		return plain[kind]
	}
	fancy := map[string]shown{"step": "\x1b[1;34m▶\x1b[0m", "call": "  \x1b[2m·\x1b[0m", "ok": "\x1b[32m✓\x1b[0m", "fail": "\x1b[31m✗\x1b[0m", "todo": "☐", "doing": "\x1b[33m◐\x1b[0m", "done": "\x1b[32m☑\x1b[0m", "failed": "\x1b[31m☒\x1b[0m", "skipped": "\x1b[2m–\x1b[0m"}
	return fancy[kind]
}

// status writes one status line (or a few, when format has newlines):
// format is Sift's own, every argument is made safe for the terminal
// (safeArgs) unless it is shown.
func (r *renderer) status(format string, args ...any) {
	fmt.Fprintln(r.io.ErrOut, safeLinef(format, args...))
}

func (r *renderer) event(e event.Event) {
	if r.json {
		r.writeJSON(e)
		return
	}
	switch e.Kind {
	case event.Session:
		r.workdir = e.Path
		r.status("Session %s\n  workspace: %s", e.Text, e.Path)
	case event.Plan:
		r.plan(e.Plan)
	case event.ModelStarted, event.ModelFinished:
		r.modelCall(e)
	case event.StepStarted:
		r.status("%s Step %d: %s", r.mark("step"), e.Step.Index, oneLine(e.Step.Description, 160))
		if e.Text != "" {
			r.status("   (%s)", e.Text) // steps running side by side
		}
	case event.ToolCall:
		if e.Tool == tools.AskUserName {
			// Shown as the question itself: by the interrupt, or below
			// when no one can answer.
			var q tools.AskUserArgs
			_ = json.Unmarshal([]byte(e.Args), &q)
			r.asked[e.ToolCallID] = q
			return
		}
		r.status("%s %s: %s", r.mark("call"), e.Tool, describeCall(e.Tool, e.Args))
	case event.ToolResult:
		if q, ok := r.asked[e.ToolCallID]; ok && e.Tool == tools.AskUserName {
			delete(r.asked, e.ToolCallID)
			if e.Text == tools.UnattendedReply && q.Question != "" {
				r.status("Question: %s%s\n  (no one can answer in this run: the agent assumes and says so)", oneLine(q.Question, 200), choiceList(q.Choices))
			}
			return
		}
		if strings.HasPrefix(strings.TrimSpace(e.Text), "Error") {
			r.status("    %s %s: %s", r.mark("fail"), e.Tool, oneLine(e.Text, 200))
		}
	case event.StepFinished:
		m := r.mark("ok")
		if e.Step.Status == plans.StatusFailed {
			m = r.mark("fail")
		}
		r.status("%s Step %d %s: %s", m, e.Step.Index, e.Step.Status, summaryLine(e.Step.Summary, 300))
		if len(e.Step.Files) > 0 {
			more := ""
			if m := e.Step.MoreFiles(); m != "" {
				more = " " + m
			}
			r.status("   files: %s%s", strings.Join(e.Step.Files, ", "), more)
		}
	case event.Limit:
		r.status("%s %s", r.mark("fail"), e.Text)
	case event.Report:
		r.report = e.Path
		r.status("Report written.")
	case event.Error:
		r.status("%s Error: %s", r.mark("fail"), shown(termsafe.Indented(e.Text, errorIndent)))
	case event.Interrupted:
		r.interrupt(e.Interrupt)
	case event.Paused:
		r.status("Paused (%s).", e.Text)
	case event.Message:
		if e.Agent != "sift" && e.Agent != agents.MemoryAgent {
			return
		}
		if strings.HasPrefix(e.Text, "WARNING: ") {
			// Each run warns (no sandbox, ...); a chat's runs, its
			// questions and their resumes, are shown one warning.
			if r.warned[e.Text] {
				return
			}
			r.warned[e.Text] = true
		}
		r.status("%s", e.Text)
	case event.Done:
		r.calls = nil
		r.working.doing("", time.Time{})
		r.done(e)
	}
}

func (r *renderer) plan(p *plans.FullPlan) {
	if p == nil {
		return
	}
	title := "Plan"
	if p.Revisions > 0 {
		title = fmt.Sprintf("Plan (revision %d)", p.Revisions)
	}
	if p.Result != nil {
		r.status("Result: %s", summaryLine(p.Result.Answer, 400))
		return
	}
	changed := false
	for _, s := range p.Steps {
		if key := stepKey(s); !r.shown[key] {
			changed = true
			r.shown[key] = true
		}
	}
	if !changed {
		return
	}
	r.lastPlan = stepKeys(p.Steps)
	r.status("%s:", title)
	branches := hasBranches(p)
	for i, s := range p.Steps {
		needs := ""
		if n := p.NeedsOf(i); branches && len(n) > 0 && (s.Status == plans.StatusTodo || s.Status == plans.StatusDoing) {
			needs = " (needs " + joinInts(n) + ")"
		}
		r.status("  %s %d. %s%s", r.mark(string(s.Status)), s.Index, oneLine(s.Description, 160), needs)
	}
}

// hasBranches says whether some step left to do needs other than the step
// before it: only then are the needs worth showing (a chain is read from
// the order).
func hasBranches(p *plans.FullPlan) bool {
	for i, s := range p.Steps {
		if s.Status != plans.StatusTodo && s.Status != plans.StatusDoing {
			continue
		}
		n := p.NeedsOf(i)
		first := i == 0 || (p.Steps[i-1].Status != plans.StatusTodo && p.Steps[i-1].Status != plans.StatusDoing)
		if first && len(n) == 0 {
			continue // where the steps left to do start
		}
		if i == 0 || len(n) != 1 || n[0] != p.Steps[i-1].Index {
			return true
		}
	}
	return false
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

// stepKey names a step as shown: its number and description.
func stepKey(s plans.StepState) string { return fmt.Sprintf("%d %s", s.Index, s.Description) }

func stepKeys(steps []plans.StepState) []string {
	keys := make([]string, len(steps))
	for i, s := range steps {
		keys[i] = stepKey(s)
	}
	return keys
}

// printedLast says whether p is the plan this renderer printed last.
func (r *renderer) printedLast(p *plans.FullPlan) bool {
	return p != nil && len(p.Steps) > 0 && slices.Equal(r.lastPlan, stepKeys(p.Steps))
}

// interrupt shows what the run waits for, and how to answer.
func (r *renderer) interrupt(in *event.Interrupt) {
	if in == nil {
		return
	}
	resume := r.resumeCommand(r.workdir)
	switch in.Kind {
	case event.InterruptPlanReview:
		r.status("Review the plan above. Then one of:\n  %s --approve\n  %s --edit \"first step\" --edit \"second step\"\n  %s --reject \"what to change\"", resume, resume, resume)
	case event.InterruptApproval:
		r.status("Approval needed: %s\n  %s --approve | --deny \"why\"", in.Prompt, resume)
	default:
		r.status("Question: %s", in.Prompt)
		for i, c := range in.Choices {
			r.status("  %d. %s", i+1, c)
		}
		r.status("  %s --answer \"your answer\"", resume)
	}
}

// resumeCommand is the command that goes on with the session in workdir.
func (r *renderer) resumeCommand(workdir string) string {
	return resumeCommand(filepath.Base(workdir), r.resumeArgs)
}

func (r *renderer) done(e event.Event) {
	elapsed := r.now().Sub(r.start).Round(100 * time.Millisecond)
	var usage string
	if u := questionUsage(e); u != nil {
		usage = fmt.Sprintf(" · %s · %d prompt + %d completion tokens", english.Plural(u.Calls, "model call", ""), u.PromptTokens, u.CompletionTokens)
		// Embeddings calls are billed too, so they are in the figures;
		// the line says how many of them there were.
		if eu := e.Usage.PerAgent[llm.EmbeddingsAgent]; eu != nil && eu.Calls > 0 {
			usage += fmt.Sprintf(" (of which %s, %d tokens)", english.Plural(eu.Calls, "embeddings call", ""), eu.PromptTokens)
		}
	}
	switch {
	case errors.Is(e.Err, agents.ErrPaused):
		r.status("Paused after %s%s. Go on with: %s", elapsed, usage, r.resumeCommand(e.Path))
		return
	case errors.Is(e.Err, context.Canceled) && e.Path != "":
		r.status("Stopped after %s%s. Go on with: %s", elapsed, usage, r.resumeCommand(e.Path))
	case errors.Is(e.Err, agents.ErrBudgetExceeded):
		// No other line says why the run stopped.
		r.status("Stopped after %s%s: %v.", elapsed, usage, e.Err)
	case e.Err != nil:
		r.status("Stopped after %s%s.", elapsed, usage)
	case e.Interrupt != nil:
		r.status("Waiting for you after %s%s. The session is saved.", elapsed, usage)
		return
	default:
		r.status("Done in %s%s.", elapsed, usage)
	}
	if e.Path != "" && r.report != "" {
		fmt.Fprintln(r.io.Out, termsafe.Line(filepath.Join(e.Path, r.report)))
		fmt.Fprintln(r.io.Out, termsafe.Line(filepath.Join(e.Path, strings.TrimSuffix(r.report, ".md")+".html")))
	}
}

// questionUsage is the usage of the question a done event ends: every
// model call of it, also those made before a plan review, a pause or an
// answer (the runs before a resume, whose own Usage counts only
// themselves), as `sift usage` counts them from the session's
// trajectory.jsonl. Without a trajectory split by question it is the
// event's own usage.
func questionUsage(e event.Event) *event.AgentUsage {
	if e.Usage == nil {
		return nil
	}
	if e.Path != "" {
		if su, err := agents.SessionUsage(e.Path); err == nil {
			n := e.Plan.QuestionNumber()
			for _, q := range su.Questions {
				if q.Question == n {
					return &q.AgentUsage
				}
			}
		}
	}
	return &e.Usage.AgentUsage
}

// jsonEvent is the --json form of an event: the event plus its error text.
type jsonEvent struct {
	event.Event
	Error string `json:"error,omitempty"`
}

func (r *renderer) writeJSON(e event.Event) {
	je := jsonEvent{Event: e}
	if e.Err != nil {
		je.Error = e.Err.Error()
	}
	b, err := json.Marshal(je)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"kind": string(e.Kind), "error": "cannot encode event: " + err.Error()})
	}
	fmt.Fprintf(r.io.Out, "%s\n", termsafe.JSON(b))
}

// describeCall shows a tool call in one line: the code's first line for
// python, the request for agents, the path for file tools.
func describeCall(tool, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return oneLine(args, 120)
	}
	for _, k := range []string{"request", "path", "query", "url", "dir"} {
		if v, ok := m[k].(string); ok {
			return oneLine(v, 120)
		}
	}
	if code, ok := m["code"].(string); ok {
		lines := 0
		first := ""
		for _, l := range strings.Split(code, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			lines++
			if first == "" {
				first = strings.TrimSpace(l)
			}
		}
		if lines == 1 {
			return oneLine(first, 100) + " (1 line)"
		}
		return fmt.Sprintf("%s (%d lines)", oneLine(first, 100), lines)
	}
	return oneLine(args, 120)
}

// choiceList shows a question's choices on its line: " (a / b)".
func choiceList(choices []string) string {
	if len(choices) == 0 {
		return ""
	}
	return " (" + strings.Join(choices, " / ") + ")"
}

// summaryLine is a step's summary or a result's answer in one line. A
// first line that ends with no punctuation heads what follows it (a
// built-in's answer starts with its reading of the request: "Total of
// revenue per month, from input/sales.csv"), so a dash sets it apart from
// the rest; the other line breaks become spaces, as in oneLine.
func summaryLine(s string, limit int) string {
	s = strings.TrimSpace(s)
	first, rest, ok := strings.Cut(s, "\n")
	first = strings.Join(strings.Fields(first), " ")
	rest = strings.Join(strings.Fields(rest), " ")
	if !ok || rest == "" || first == "" {
		return oneLine(s, limit)
	}
	sep := " — "
	if r := []rune(first); strings.ContainsRune(".,;:!?…)]。，；：！？）", r[len(r)-1]) {
		sep = " "
	}
	return oneLine(first+sep+rest, limit)
}
