package plans

import (
	"fmt"
	"strings"

	"github.com/sift-agent/sift/internal/termsafe"
)

// statusMark is the checkbox-like mark plan.md shows for each status.
var statusMark = map[StepStatus]string{
	StatusTodo:    "[ ]",
	StatusDoing:   "[~]",
	StatusDone:    "[x]",
	StatusFailed:  "[!]",
	StatusSkipped: "[-]",
}

// RenderPlanMarkdown renders plan.md: every step with its status, its result
// summary and the files it produced, then the submitted answer if any.
func RenderPlanMarkdown(p *FullPlan) string {
	var b strings.Builder
	b.WriteString("# Plan\n\n")
	if p == nil {
		b.WriteString("No plan yet.\n")
		return b.String()
	}
	if q := strings.TrimSpace(p.Question); q != "" {
		fmt.Fprintf(&b, "**Question:** %s\n\n", oneLine(q))
	}
	counts := map[StepStatus]int{}
	for _, s := range p.Steps {
		counts[s.Status]++
	}
	steps := "steps"
	if len(p.Steps) == 1 {
		steps = "step"
	}
	fmt.Fprintf(&b, "%d %s: %d done, %d doing, %d todo, %d failed, %d skipped", len(p.Steps), steps,
		counts[StatusDone], counts[StatusDoing], counts[StatusTodo], counts[StatusFailed], counts[StatusSkipped])
	switch p.Revisions {
	case 0:
	case 1:
		b.WriteString(" (revised once)")
	default:
		fmt.Fprintf(&b, " (revised %d times)", p.Revisions)
	}
	b.WriteString(".\n")
	if running := p.Running(); len(running) > 1 {
		fmt.Fprintf(&b, "Running now, side by side: steps %s.\n", joinInts(running))
	}
	b.WriteString("\n")
	for i, s := range p.Steps {
		needs := ""
		if p.ExplicitNeeds && (s.Status == StatusTodo || s.Status == StatusDoing) {
			needs = " (needs no other step)"
			if n := p.NeedsOf(i); len(n) > 0 {
				needs = " (needs " + joinInts(n) + ")"
			}
		}
		fmt.Fprintf(&b, "- %s **%d. %s** — %s%s\n", statusMark[s.Status], s.Index, oneLine(s.Description), s.Status, needs)
		if sum := strings.TrimSpace(s.Summary); sum != "" {
			for _, line := range strings.Split(sum, "\n") {
				fmt.Fprintf(&b, "  > %s\n", line)
			}
		}
		for _, f := range s.Files {
			f = termsafe.Line(f) // a name with a newline must not end its line
			fmt.Fprintf(&b, "  - [%s](%s)\n", f, f)
		}
		if more := s.MoreFiles(); more != "" {
			fmt.Fprintf(&b, "  - %s\n", more)
		}
	}
	if r := p.Result; r != nil {
		b.WriteString("\n## Result\n\n")
		b.WriteString(strings.TrimSpace(r.Answer) + "\n\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "- %s\n", oneLine(f))
		}
		for _, f := range r.Files {
			f = termsafe.Line(f)
			fmt.Fprintf(&b, "- [%s](%s)\n", f, f)
		}
	}
	if mem := p.RememberedMarkdown(""); mem != "" {
		b.WriteString("\n" + mem)
	}
	if len(p.Earlier) > 0 {
		// A follow-up's plan.md still says what the earlier questions
		// found; each question's report is kept in its own file.
		b.WriteString("\n## Earlier questions\n\n")
		for i, e := range p.Earlier {
			fmt.Fprintf(&b, "%d. **%s**", i+1, oneLine(e.Question))
			if e.Result != nil {
				fmt.Fprintf(&b, " — %s", oneLine(e.Result.Answer))
			}
			rep := QuestionReportFile(i + 1)
			fmt.Fprintf(&b, " ([%s](%s))\n", rep, rep)
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// joinInts lists step indexes as "1, 2, 3".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}
