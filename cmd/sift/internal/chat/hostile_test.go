package chat

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/cmd/sift/internal/termui"
	"github.com/sift-agent/sift/cmd/sift/internal/termui/termuitest"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// plainDisplay shows nothing of events; its marks are a pipe's.
type plainDisplay struct{}

func (plainDisplay) BeginTurn()                       {}
func (plainDisplay) Event(event.Event)                {}
func (plainDisplay) SetWorkdir(string)                {}
func (plainDisplay) PrintedLast(*plans.FullPlan) bool { return false }
func (plainDisplay) Mark(string) termui.Shown         { return "[ ]" }
func (plainDisplay) Working() func()                  { return func() {} }

// endedLines is input that has ended.
type endedLines struct{}

func (endedLines) readLine(string) (string, error) { return "", io.EOF }

// `sift chat`: the status lines, a question, the plan read back from
// plan.md and the plan under review.
func TestHostileTextIsEscapedInChatOutput(t *testing.T) {
	for name, bad := range termuitest.Hostile {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			streams := &termui.IO{Out: &out, ErrOut: &errOut}
			dir := t.TempDir()
			planMD := plans.RenderPlanMarkdown(&plans.FullPlan{Question: bad, Steps: []plans.StepState{
				{Step: plans.Step{Index: 1, Description: bad}, Status: plans.StatusDone, Summary: termuitest.Block(bad), Files: []string{"out/" + bad}}}})
			if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(planMD), 0o600); err != nil {
				t.Fatal(err)
			}
			c := &sessionChat{io: streams, r: plainDisplay{}, workdir: dir, id: "s1"}
			c.status("Session %s (%s): %s", "s1", "done", bad)
			c.showReviewPlan(&event.Interrupt{Kind: event.InterruptPlanReview, Prompt: bad})
			c.showReviewPlan(&event.Interrupt{Kind: event.InterruptPlanReview, Plan: &plans.FullPlan{Steps: []plans.StepState{{Step: plans.Step{Index: 1, Description: bad}}}}})
			c.showPlan()
			var prompt bytes.Buffer
			_, _ = answerAt(endedLines{}, &prompt, &event.Interrupt{ID: "q", Kind: event.InterruptQuestion, Prompt: bad, Choices: []string{bad}}, nil)
			printPlan(streams.ErrOut, &plans.FullPlan{Steps: []plans.StepState{{Step: plans.Step{Index: 1, Description: bad}}}})
			termuitest.AssertSafe(t, "stderr", errOut.String())
			termuitest.AssertSafe(t, "stdout", out.String())
			termuitest.AssertSafe(t, "question", prompt.String())
		})
	}
}
