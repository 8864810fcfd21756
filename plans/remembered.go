package plans

import (
	"fmt"
	"strings"
	"time"
)

// Remembered is a fact the person gave in an earlier session on the same
// data that a run used: every one was shown to the agents, and one that
// answered an agent's question (Answered) kept the person from being
// asked it again. plan.md and the report list them, with when the person
// said them, under "What Sift remembered".
type Remembered struct {
	// ID is the memory entry (sift memory edit/forget ID).
	ID string `json:"id"`
	// Question is what was asked (or, for a plan edit, the question whose
	// plan the person changed); Answer what the person said.
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// PlanEdit: the person changed a plan, rather than answered a question.
	PlanEdit bool `json:"plan_edit,omitempty"`
	// Said is when the person said it, in session Session; Edited: they
	// said it then by editing the fact (sift memory edit), and Session is
	// where they first gave it.
	Said    time.Time `json:"said"`
	Session string    `json:"session"`
	Edited  bool      `json:"edited,omitempty"`
	// Answered: the fact answered an agent's question, which was not
	// asked again.
	Answered bool `json:"answered,omitempty"`
}

// Remember adds r to the facts the plan used, or updates the one with its
// ID (an Answered mark is kept once set).
func (f *FullPlan) Remember(r Remembered) {
	for i := range f.Remembered {
		if f.Remembered[i].ID == r.ID {
			r.Answered = r.Answered || f.Remembered[i].Answered
			f.Remembered[i] = r
			return
		}
	}
	f.Remembered = append(f.Remembered, r)
}

// RememberedMarkdown is the "What Sift remembered" section of plan.md and
// the report: each fact the run used, with when the person said it; ""
// when the run used none. heading is the section's title ("" for the
// English one).
func (f *FullPlan) RememberedMarkdown(heading string) string {
	if f == nil || len(f.Remembered) == 0 {
		return ""
	}
	if heading == "" {
		heading = RememberedHeading
	}
	var b strings.Builder
	b.WriteString("## " + heading + "\n\n")
	for _, r := range f.Remembered {
		b.WriteString("- " + r.Line() + "\n")
	}
	return b.String()
}

// RememberedHeading titles the section of the facts a run used.
const RememberedHeading = "What Sift remembered"

// Line is the fact as people read it: "Do refunds count as negative
// revenue? yes — you said so on 2026-11-30 (session …, memory entry f-…)".
func (r Remembered) Line() string {
	said := fmt.Sprintf("you said so on %s (session %s, memory entry %s)", r.Said.UTC().Format(time.DateOnly), r.Session, r.ID)
	if r.Edited {
		said = fmt.Sprintf("you said so on %s (editing what you said in session %s; memory entry %s)", r.Said.UTC().Format(time.DateOnly), r.Session, r.ID)
	}
	var line string
	if r.PlanEdit {
		line = fmt.Sprintf("For %q you changed the plan: %s — %s", oneLine(r.Question), oneLine(r.Answer), said)
	} else {
		line = fmt.Sprintf("%s **%s** — %s", oneLine(r.Question), oneLine(r.Answer), said)
	}
	if r.Answered {
		line += "; the agents asked this again and were given your answer, so you were not asked"
	} else {
		line += "; shown to the agents"
	}
	return line + "."
}
