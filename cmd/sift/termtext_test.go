package main

import (
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/cmd/sift/internal/termui/termuitest"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// hostileTexts, assertTerminalSafe and block are termuitest's, shared
// with the chat's tests.
var (
	hostileTexts       = termuitest.Hostile
	assertTerminalSafe = termuitest.AssertSafe
	block              = termuitest.Block
)

// `sift run`: every event the renderer shows, carrying hostile text.
func TestHostileTextIsEscapedInRunOutput(t *testing.T) {
	for name, bad := range hostileTexts {
		t.Run(name, func(t *testing.T) {
			io, out, errOut := testIO()
			r := newRenderer(io, false, time.Now)
			st := &plans.StepState{Step: plans.Step{Index: 1, Description: "Load " + bad}, Status: plans.StatusDoing}
			fin := *st
			fin.Status, fin.Summary, fin.Files = plans.StatusDone, "Wrote "+bad, []string{"out/" + bad}
			r.event(event.Event{Kind: event.Session, Text: "s1", Path: "/ws/" + bad})
			r.event(event.Event{Kind: event.Plan, Plan: &plans.FullPlan{Steps: []plans.StepState{*st}}})
			r.event(event.Event{Kind: event.StepStarted, Step: st, Text: bad})
			r.event(event.Event{Kind: event.ToolCall, Tool: "python", Args: `{"code":"print(1)` + strings.ReplaceAll(bad, "\n", `\n`) + `"}`, Step: st})
			r.event(event.Event{Kind: event.ToolResult, Tool: "python", Text: "Error: " + bad, Step: st})
			r.event(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: " + bad})
			r.event(event.Event{Kind: event.Artifact, Path: "out/" + bad, Step: st})
			r.event(event.Event{Kind: event.StepFinished, Step: &fin})
			r.event(event.Event{Kind: event.Error, Text: bad})
			r.event(event.Event{Kind: event.Report, Path: "report.md"})
			r.event(event.Event{Kind: event.Plan, Plan: &plans.FullPlan{Steps: []plans.StepState{fin}, Result: &plans.SubmitResult{Answer: bad}}})
			r.event(event.Event{Kind: event.Interrupted, Interrupt: &event.Interrupt{ID: "i1", Kind: event.InterruptQuestion, Prompt: bad, Choices: []string{bad}}})
			r.event(event.Event{Kind: event.Done, Path: "/ws/" + bad})
			assertTerminalSafe(t, "stderr", errOut.String())
			assertTerminalSafe(t, "stdout", out.String())

			io, out, _ = testIO()
			j := newRenderer(io, true, time.Now)
			j.event(event.Event{Kind: event.Artifact, Path: "out/" + bad})
			assertTerminalSafe(t, "--json", out.String())
		})
	}
}

// `sift chat` with databases: a conversation turn's answer (the chat's
// own lines are tested in cmd/sift/internal/chat).
func TestHostileTextIsEscapedInChatOutput(t *testing.T) {
	for name, bad := range hostileTexts {
		t.Run(name, func(t *testing.T) {
			io, out, errOut := testIO()
			printTurn(io, t.TempDir(), agents.Turn{Answer: "The answer:\n" + block(bad), Findings: []string{bad}, FollowUps: []string{bad}, DataFile: "out/" + bad})
			assertTerminalSafe(t, "stderr", errOut.String())
			assertTerminalSafe(t, "stdout", out.String())
		})
	}
}

// `sift sessions list` and `show`: questions, steps, pending prompts and
// file names of a session.
func TestHostileTextIsEscapedInSessionsOutput(t *testing.T) {
	for name, bad := range hostileTexts {
		t.Run(name, func(t *testing.T) {
			m := session.Meta{ID: "20261122-080000-dddddd", Status: session.StatusWaiting, Question: bad, Error: bad,
				Inputs: []string{"input/" + bad}, Step: &plans.Step{Index: 9, Description: bad},
				Pending: &session.Pending{ID: "int-1", Kind: session.PendingQuestion, Prompt: block(bad) + "\n" + block(bad), Choices: []string{bad}}}
			io, out, _ := testIO()
			if err := writeSessionsTable(io, []session.Meta{m}, testSessionsDeps(false)); err != nil {
				t.Fatal(err)
			}
			assertTerminalSafe(t, "list", out.String())
			d := sessionDetail{Meta: m, Store: "file:///s", WorkspaceFound: true, Artifacts: []string{"out/" + bad}, Report: "/ws/" + bad, Plan: plans.RenderPlanMarkdown(&plans.FullPlan{Question: bad, Steps: []plans.StepState{{Step: plans.Step{Index: 1, Description: bad}, Files: []string{"out/" + bad}}}}), Resume: "sift resume x"}
			assertTerminalSafe(t, "show", renderSessionDetail(d, testSessionsDeps(false)))
			io, out, _ = testIO()
			if err := writeSessionsJSON(io, d); err != nil {
				t.Fatal(err)
			}
			assertTerminalSafe(t, "show --json", out.String())
		})
	}
}

// TestErrorOfSeveralLinesIsShownAsLines: an error's own lines (the refusal
// and the list of built-ins) are lines on the terminal, each after the
// first marked as the error's, where the sanitiser had run them into one
// line of literal \n.
func TestErrorOfSeveralLinesIsShownAsLines(t *testing.T) {
	io, _, errOut := testIO()
	r := newRenderer(io, false, time.Now)
	r.event(event.Event{Kind: event.Error, Text: "no model configured.\nWithout a model Sift runs these built-in analyses:\n- profile: …"})
	want := "Error: no model configured.\n" + errorIndent + "Without a model Sift runs these built-in analyses:\n" + errorIndent + "- profile: …\n"
	if got := errOut.String(); !strings.Contains(got, want) {
		t.Errorf("stderr = %q, want it to hold %q", got, want)
	}
}
