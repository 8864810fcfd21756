package agents

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/templates"
)

// ErrNoTemplateMatch: the request matched no built-in analysis and no model
// is configured (or --mode template was asked for).
var ErrNoTemplateMatch = errors.New("no built-in analysis matches the request")

// runTemplate answers the request with a built-in analysis: no model call.
// A match over several tables (templates.Match.Each) runs as one step per
// table, and a table that fails does not stop the others. It reports false
// when no table's analysis succeeded, after recording the failures as
// steps, so a caller with a model can hand the request to the agents.
func (r *run) runTemplate(ctx context.Context, op operator.Operator, m templates.Match) (ok bool, err error) {
	t, err := templates.Lookup(m.Template)
	if err != nil {
		return false, err
	}
	each := m.Each
	if len(each) == 0 {
		each = []templates.Match{m}
	}
	steps := make([]generic.Step, len(each))
	for i, e := range each {
		steps[i] = generic.Step{Description: fmt.Sprintf("Built-in analysis %q (%s) of %s", t.Name, t.Title, e.File)}
	}
	r.plan.SetRemaining(&generic.Plan{Steps: steps})
	first := len(r.plan.Steps) - len(each)
	r.emit(generic.Event{Kind: generic.EventPlan, Plan: r.plan.Clone()})

	results := make([]*templates.Result, len(each))
	var failed error
	for i, e := range each {
		step := &r.plan.Steps[first+i]
		step.Status = generic.StatusDoing
		started := *step
		r.emit(generic.Event{Kind: generic.EventStepStarted, Step: &started})
		_ = writePlanFileAt(r.ws.Root, r.plan)
		res, runErr := templates.Run(ctx, op, e.File, e)
		if runErr != nil {
			step.Status = generic.StatusFailed
			step.Summary = runErr.Error()
			if failed == nil {
				failed = runErr
			}
		} else {
			step.Status, step.Summary, step.Files = generic.StatusDone, res.Answer, res.Files
			results[i] = res
		}
		finished := *step
		for _, f := range step.Files {
			r.emit(generic.Event{Kind: generic.EventArtifact, Path: f, Step: &finished})
		}
		r.emit(generic.Event{Kind: generic.EventStepFinished, Step: &finished})
		_ = writePlanFileAt(r.ws.Root, r.plan)
		if ctx.Err() != nil {
			break
		}
	}
	var answers, notes, files []string
	for i, res := range results {
		if res == nil {
			continue
		}
		if len(each) > 1 {
			answers = append(answers, fmt.Sprintf("%s: %s", each[i].File, res.Answer))
		} else {
			answers = append(answers, res.Answer)
		}
		notes, files = append(notes, res.Notes...), append(files, res.Files...)
	}
	if len(answers) == 0 {
		return false, failed
	}
	r.plan.Result = &generic.SubmitResult{Answer: strings.Join(answers, "\n"), Findings: notes, Files: files}
	if err := writePlanFileAt(r.ws.Root, r.plan); err != nil {
		return true, err
	}
	md := templateReport(r.req.Question, t, m, each, results, r.plan.Steps[first:])
	if err := writeReport(r.ws.Root, md); err != nil {
		return true, err
	}
	r.emit(generic.Event{Kind: generic.EventReport, Path: "report.md", Text: md})
	return true, nil
}

// templateReport is the report of a built-in analysis: the answer, the
// template's sections, and how it was computed, including every choice the
// inference made and why. Over several tables each table has its own part
// (a table whose analysis failed says so); results[i] is nil for a table
// that failed, and steps[i] is its step.
func templateReport(question string, t templates.Template, m templates.Match, each []templates.Match, results []*templates.Result, steps []generic.StepState) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", t.Title)
	fmt.Fprintf(&b, "**Question:** %s\n\n", strings.Join(strings.Fields(question), " "))
	if len(each) == 1 {
		b.WriteString(results[0].Markdown())
	} else {
		for i, e := range each {
			fmt.Fprintf(&b, "## %s\n\n", e.File)
			if results[i] == nil {
				fmt.Fprintf(&b, "This analysis failed: %s\n\n", steps[i].Summary)
				continue
			}
			b.WriteString(demoteHeadings(results[i].Markdown()) + "\n")
		}
	}
	b.WriteString("\n## How this was computed\n\n")
	files := make([]string, len(each))
	for i, e := range each {
		files[i] = "`" + e.File + "`"
	}
	fmt.Fprintf(&b, "Built-in analysis `%s` on %s, matched with confidence %.2f; no language model was called.\n\n", t.Name, strings.Join(files, ", "), m.Confidence)
	for _, line := range m.Reasons {
		fmt.Fprintf(&b, "- %s\n", line)
	}
	for i, e := range each {
		lines := e.Params.Reasons
		if results[i] != nil {
			lines = append(slices.Clip(lines), results[i].Picked...)
		}
		if len(each) > 1 {
			lines = append(slices.Clip(e.Reasons), lines...)
		}
		for _, line := range lines {
			if len(each) > 1 {
				line = e.File + ": " + line
			}
			fmt.Fprintf(&b, "- %s\n", line)
		}
	}
	return b.String()
}

// offlineHelp says what Sift can do without a model, and how to add one;
// inputs that could not be read are named with the reason first, since
// that is often why nothing matched.
func offlineHelp(m templates.Match, files []generic.Previewed) string {
	var b strings.Builder
	for _, f := range files {
		switch {
		case f.Err != nil:
			fmt.Fprintf(&b, "%s could not be read: %v.\n", filepath.Base(f.Path), f.Err)
		case f.Preview != nil && f.Preview.Kind == generic.KindEmpty:
			fmt.Fprintf(&b, "%s is empty.\n", filepath.Base(f.Path))
		}
	}
	if m.Candidate != "" {
		fmt.Fprintf(&b, "The closest built-in analysis was %q, but the request did not match it clearly enough", m.Candidate)
		if len(m.Reasons) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(m.Reasons, "; "))
		}
		b.WriteString(".\n")
	}
	b.WriteString("Without a model Sift runs these built-in analyses; name one in your request, e.g. \"profile this data\", \"monthly revenue trend\", \"top 10 customers by sales\":\n")
	b.WriteString(templates.CatalogText())
	b.WriteString("\nFor anything else configure a model: set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL (or pass --base-url, --api-key, --model).")
	return b.String()
}
