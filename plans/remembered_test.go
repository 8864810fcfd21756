package plans

import (
	"strings"
	"testing"
	"time"
)

func TestPlanMarkdownSaysWhatSiftRemembered(t *testing.T) {
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	fp := &FullPlan{Question: "What is the net revenue?"}
	fp.SetRemaining(&Plan{Steps: []Step{{Description: "Sum the revenue"}}})
	if strings.Contains(RenderPlanMarkdown(fp), RememberedHeading) {
		t.Fatal("a plan that used no fact has no section for them")
	}
	fp.Remember(Remembered{ID: "f-1", Question: "Do refunds count as negative revenue?", Answer: "yes", Said: day, Session: "s1", Answered: true})
	fp.Remember(Remembered{ID: "f-2", Question: "net revenue", Answer: "the steps are Sum net of refunds", PlanEdit: true, Said: day, Session: "s0"})
	// The same fact again (a resume recalls it once more) keeps its mark.
	fp.Remember(Remembered{ID: "f-1", Question: "Do refunds count as negative revenue?", Answer: "yes", Said: day, Session: "s1"})
	md := RenderPlanMarkdown(fp)
	for _, want := range []string{
		"\n## What Sift remembered\n\n",
		"- Do refunds count as negative revenue? **yes** — you said so on 2026-11-30 (session s1, memory entry f-1); the agents asked this again and were given your answer, so you were not asked.\n",
		`- For "net revenue" you changed the plan: the steps are Sum net of refunds — you said so on 2026-11-30 (session s0, memory entry f-2); shown to the agents.` + "\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("plan.md lacks %q:\n%s", want, md)
		}
	}
	edited := Remembered{ID: "f-3", Question: "Fiscal year?", Answer: "July", Said: day.Add(48 * time.Hour), Session: "s0", Edited: true}
	if want := "Fiscal year? **July** — you said so on 2026-12-02 (editing what you said in session s0; memory entry f-3); shown to the agents."; edited.Line() != want {
		t.Errorf("an edited fact: %q, want %q", edited.Line(), want)
	}
	if c := fp.Clone(); len(c.Remembered) != 2 || &c.Remembered[0] == &fp.Remembered[0] {
		t.Error("Clone must copy the facts")
	}
	fp.FollowUp("And by month?")
	if len(fp.Remembered) != 0 {
		t.Error("a follow-up recalls its own facts")
	}
}
