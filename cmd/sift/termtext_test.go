package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// hostileTexts are untrusted strings (file names, cell output, model text,
// questions) that, printed raw, would take over the terminal.
var hostileTexts = map[string]string{
	"clear screen":  "x\x1b[2Jy",
	"osc title":     "x\x1b]0;pwned\x07y",
	"forged line":   "f.csv\nok Step 9 done: all good",
	"bidi override": "invoice\u202egpj.exe",
	"invalid utf-8": "bad\xff\xfeutf",
	"c1 csi":        "x\u009b2Jy",
	"carriage":      "x\rok Step 9 done",
}

// assertTerminalSafe fails when out holds a control or escape sequence,
// a bidi override, invalid UTF-8, or a line forged by a newline or CR.
func assertTerminalSafe(t *testing.T, where, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8 reached the terminal:\n%q", where, out)
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u202e' {
			t.Errorf("%s: %U reached the terminal raw:\n%q", where, r, out)
			break
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "ok Step 9 done") {
			t.Errorf("%s: a forged line reached the terminal:\n%s", where, out)
		}
	}
}

// block is bad as a text of several lines may hold it: a newline there is
// a real line break, not a forged line (names never hold one).
func block(bad string) string { return strings.ReplaceAll(bad, "\n", " ") }

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

// `sift chat`: the status lines, a question, the plan read back from
// plan.md and a conversation turn's answer.
func TestHostileTextIsEscapedInChatOutput(t *testing.T) {
	for name, bad := range hostileTexts {
		t.Run(name, func(t *testing.T) {
			io, out, errOut := testIO()
			dir := t.TempDir()
			planMD := plans.RenderPlanMarkdown(&plans.FullPlan{Question: bad, Steps: []plans.StepState{
				{Step: plans.Step{Index: 1, Description: bad}, Status: plans.StatusDone, Summary: block(bad), Files: []string{"out/" + bad}}}})
			if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(planMD), 0o600); err != nil {
				t.Fatal(err)
			}
			c := &sessionChat{io: io, r: newRenderer(io, false, time.Now), workdir: dir, id: "s1"}
			c.status("Session %s (%s): %s", "s1", "done", bad)
			c.showReviewPlan(&event.Interrupt{Kind: event.InterruptPlanReview, Prompt: bad})
			c.showPlan()
			var prompt bytes.Buffer
			_, _ = answerAt(&scriptedLines{}, &prompt, &event.Interrupt{ID: "q", Kind: event.InterruptQuestion, Prompt: bad, Choices: []string{bad}}, nil)
			printTurn(io, dir, agents.Turn{Answer: "The answer:\n" + block(bad), Findings: []string{bad}, FollowUps: []string{bad}, DataFile: "out/" + bad})
			printPlan(io.ErrOut, &plans.FullPlan{Steps: []plans.StepState{{Step: plans.Step{Index: 1, Description: bad}}}})
			assertTerminalSafe(t, "stderr", errOut.String())
			assertTerminalSafe(t, "stdout", out.String())
			assertTerminalSafe(t, "question", prompt.String())
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

// scriptedLines is input that has ended.
type scriptedLines struct{}

func (*scriptedLines) readLine(string) (string, error) { return "", io.EOF }

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
