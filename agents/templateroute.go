package agents

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/templates"
)

// ErrNoTemplateMatch: the request matched no built-in analysis and no model
// is configured (or --mode template was asked for).
var ErrNoTemplateMatch = errors.New("no built-in analysis matches the request")

// runTemplate answers the request with a built-in analysis: no model call.
// It reports false when the template failed, after recording the failure as
// a step, so a caller with a model can hand the request to the agents.
func (r *run) runTemplate(ctx context.Context, op operator.Operator, m templates.Match) (ok bool, err error) {
	t, err := templates.Lookup(m.Template)
	if err != nil {
		return false, err
	}
	r.plan.SetRemaining(&generic.Plan{Steps: []generic.Step{{Description: fmt.Sprintf("Built-in analysis %q (%s) of %s", t.Name, t.Title, m.File)}}})
	step := &r.plan.Steps[len(r.plan.Steps)-1]
	r.emit(generic.Event{Kind: generic.EventPlan, Plan: r.plan.Clone()})
	step.Status = generic.StatusDoing
	started := *step
	r.emit(generic.Event{Kind: generic.EventStepStarted, Step: &started})
	_ = writePlanFileAt(r.ws.Root, r.plan)

	res, runErr := templates.Run(ctx, op, m.File, m)
	if runErr != nil {
		step.Status = generic.StatusFailed
		step.Summary = runErr.Error()
		finished := *step
		r.emit(generic.Event{Kind: generic.EventStepFinished, Step: &finished})
		_ = writePlanFileAt(r.ws.Root, r.plan)
		return false, runErr
	}
	step.Status = generic.StatusDone
	step.Summary = res.Answer
	step.Files = res.Files
	finished := *step
	for _, f := range res.Files {
		r.emit(generic.Event{Kind: generic.EventArtifact, Path: f, Step: &finished})
	}
	r.emit(generic.Event{Kind: generic.EventStepFinished, Step: &finished})
	r.plan.Result = &generic.SubmitResult{Answer: res.Answer, Findings: res.Notes, Files: res.Files}
	if err := writePlanFileAt(r.ws.Root, r.plan); err != nil {
		return true, err
	}
	md := templateReport(r.req.Question, t, m, res)
	path, err := saveReport(r.ws.Root, r.plan.QuestionNumber(), md, true)
	if err != nil {
		return true, err
	}
	r.emit(generic.Event{Kind: generic.EventReport, Path: path, Text: md})
	return true, nil
}

// templateReport is the report of a built-in analysis: the answer, the
// template's sections, and how it was computed, including every choice the
// inference made and why.
func templateReport(question string, t templates.Template, m templates.Match, res *templates.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", t.Title)
	fmt.Fprintf(&b, "**Question:** %s\n\n", strings.Join(strings.Fields(question), " "))
	b.WriteString(res.Markdown())
	b.WriteString("\n## How this was computed\n\n")
	fmt.Fprintf(&b, "Built-in analysis `%s` on `%s`, matched with confidence %.2f; no language model was called.\n\n", t.Name, m.File, m.Confidence)
	for _, group := range [][]string{m.Reasons, m.Params.Reasons, res.Picked} {
		for _, line := range group {
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
