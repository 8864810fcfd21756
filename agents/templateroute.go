package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/templates"
)

// ErrNoTemplateMatch: the request matched no built-in analysis and no model
// is configured (or --mode template was asked for).
var ErrNoTemplateMatch = errors.New("no built-in analysis matches the request")

// notUnderstoodError: no model is configured and no built-in analysis
// understood the request. It is ErrNoModel (what the person can do: add a
// model, so the CLI exits as for a missing model) and ErrNoTemplateMatch
// (what happened: the server counts it as not_understood, not as a model
// failure); its text is ErrNoModel's and the help.
type notUnderstoodError struct{ help string }

func (e notUnderstoodError) Error() string { return ErrNoModel.Error() + ". " + e.help }

func (e notUnderstoodError) Unwrap() []error { return []error{ErrNoModel, ErrNoTemplateMatch} }

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
	own := r.ownPlan(ctx)
	first := r.templatePlan(own, t, each, templates.LangOf(r.req.Question))
	results := make([]*templates.Result, len(each))
	// A resumed built-in keeps the tables it had finished.
	for i := range each {
		if k, ok := r.keptSteps[r.plan.Steps[first+i].Description]; ok {
			k.State.Index = r.plan.Steps[first+i].Index
			r.plan.Steps[first+i], results[i] = k.State, k.Result
		}
	}
	_ = own.SaveAndPublish("")

	var failed error
	for i, e := range each {
		step := &r.plan.Steps[first+i]
		if results[i] != nil {
			continue
		}
		_ = own.Start(step, false)
		// A built-in's step has its span, and the analysis its tool span
		// (the run_template an agent would call), as an agent's step and
		// tools do: the trace of a run without a model still shows what
		// each step ran, on which table, what it took and what failed.
		sctx, endStep := llm.StartAgent(llm.WithStep(ctx, step.Index), fmt.Sprintf("step %d", step.Index))
		llm.SetBuiltin(sctx, t.Name, e.Table())
		tctx, endTool := llm.StartTool(sctx, templates.ToolName, "")
		llm.SetBuiltin(tctx, t.Name, e.Table())
		res, runErr := templates.RunWith(tctx, op, e.File, e, templates.RunOptions{Lang: templates.LangOf(r.req.Question)})
		endTool(runErr)
		if runErr != nil {
			own.Done(step, runErr.Error(), nil, true)
		} else {
			own.Done(step, res.Answer, res.Files, false)
		}
		var stepErr error
		if step.Status == plans.StatusDone {
			results[i] = res
		} else if stepErr = runErr; stepErr == nil {
			stepErr = errors.New(step.Summary)
		}
		endStep(stepErr)
		if failed == nil {
			failed = stepErr
		}
		_ = own.Finish(step)
		if results[i] != nil && len(each) > 1 {
			r.keepBuiltinStep(t.Name, *step, res)
		}
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
			answers = append(answers, fmt.Sprintf("%s: %s", each[i].Table(), res.Answer))
		} else {
			answers = append(answers, res.Answer)
		}
		notes, files = append(notes, res.Notes...), append(files, res.Files...)
	}
	if len(answers) == 0 {
		return false, failed
	}
	if note := m.SheetNote(); note != "" {
		notes = append([]string{note}, notes...)
	}
	own.Checked(&plans.SubmitResult{Answer: strings.Join(answers, "\n"), Findings: notes, Files: files})
	if err := own.Save(); err != nil {
		return true, err
	}
	md := report.BuiltIn(r.req.Question, t, m, each, results, r.plan.Steps[first:])
	path, err := report.Save(r.ws.Root, r.plan.QuestionNumber(), md, true, session.Derived)
	if err != nil {
		return true, err
	}
	r.emit(event.Event{Kind: event.Report, Path: path, Text: md})
	return true, nil
}

// templatePlan makes the plan of a built-in analysis, one step per table,
// the plan's remaining steps (through its owner), its words in lang; it
// returns the index of the first.
func (r *run) templatePlan(own *tree.PlanOwner, t templates.Template, each []templates.Match, lang string) int {
	steps := make([]plans.Step, len(each))
	for i, e := range each {
		steps[i] = plans.Step{Description: fmt.Sprintf("Built-in analysis %q (%s) of %s", t.Name, t.Title, e.Table())}
		if lang == templates.LangChinese {
			steps[i].Description = fmt.Sprintf("内置分析“%s”（%s）：%s", t.Name, t.TitleIn(lang), e.Table())
		}
	}
	own.Remaining(&plans.Plan{Steps: steps})
	return len(r.plan.Steps) - len(each)
}

// templateReviewID is the interrupt ID of a built-in analysis's plan
// review. That route runs no agent tree, so there is no checkpoint to
// resume from: Resume knows the ID, and matches the request again.
const templateReviewID = "sift-template-review"

// templateReview is the plan review of a built-in analysis.
func templateReview(fp *plans.FullPlan) *event.Interrupt {
	return &event.Interrupt{
		ID:      templateReviewID,
		Kind:    event.InterruptPlanReview,
		Prompt:  "Review the plan: approve it to run the built-in analysis, or edit or reject it to hand the request to the model's planner.",
		Choices: []string{event.PlanApprove, event.PlanEdit, event.PlanReject},
		Plan:    fp.Clone(),
	}
}

// reviewTemplate shows the plan of a matched built-in analysis and waits
// for the person, as the planner's plan does under review: nothing runs
// before they approve it.
func (r *run) reviewTemplate(ctx context.Context, m templates.Match) {
	t, err := templates.Lookup(m.Template)
	if err != nil {
		r.fail(err)
		return
	}
	each := m.Each
	if len(each) == 0 {
		each = []templates.Match{m}
	}
	own := r.ownPlan(ctx)
	r.templatePlan(own, t, each, templates.LangOf(r.req.Question))
	if err := own.SaveAndPublish(""); err != nil {
		r.fail(err)
		return
	}
	in := templateReview(r.plan)
	r.emit(event.Event{Kind: event.Interrupted, Interrupt: in})
	r.putMeta(ctx, session.StatusWaiting, in)
	r.doneWaiting(in)
}

// resumeTemplateReview answers the plan review of a built-in analysis.
// Approved, the request is matched again over the session's inputs and the
// analysis runs, with no model. Edited or rejected, the request goes to
// the model's agents: it reports the edited steps to run, or the
// feedback to plan again with, and handled false. Without a model only
// approval can go on, and the session keeps waiting.
func (r *run) resumeTemplateReview(ctx context.Context, op operator.Operator, answer any) (steps []plans.Step, feedback string, handled bool) {
	d, _ := answer.(*event.PlanDecision)
	keepWaiting := func(err error) {
		r.emit(event.Event{Kind: event.Error, Err: err})
		in := templateReview(r.plan)
		r.putMeta(ctx, session.StatusWaiting, in)
		r.close(event.Event{Kind: event.Done, Err: err, Plan: r.plan.Clone(), Usage: r.usage(), Path: r.ws.Root, Interrupt: in})
	}
	if d == nil {
		keepWaiting(fmt.Errorf("%w: session %s waits for the review of its plan (interrupt %s): approve, edit or reject it", ErrNothingToResume, r.ws.ID, templateReviewID))
		return nil, "", true
	}
	switch d.Action {
	case event.PlanApprove:
		inputs, _ := r.ws.Inputs()
		abs := make([]string, len(inputs))
		for i, in := range inputs {
			abs[i] = r.ws.Path(in)
		}
		popts := r.sift.cfg.Preview
		popts.BaseDir = r.ws.Root
		m := templates.MatchRequest(r.req.Question, previewed(preview.Files(ctx, abs, popts)))
		if !m.OK() {
			r.fail(fmt.Errorf("%w: the request no longer matches a built-in analysis (%s)", ErrRunFailed, strings.Join(m.Reasons, "; ")))
			return nil, "", true
		}
		r.putMeta(ctx, session.StatusRunning, nil)
		r.ownPlan(ctx).Publish("plan approved")
		if ok, err := r.runTemplate(ctx, op, m); !ok || err != nil {
			r.fail(fmt.Errorf("%w: %w", ErrRunFailed, err))
			return nil, "", true
		}
		r.ran = m
		r.emit(event.Event{Kind: event.UsageSoFar, Usage: r.usage()})
		r.done(nil)
		return nil, "", true
	case event.PlanEdit, event.PlanReject:
		if !r.sift.hasModel() {
			keepWaiting(fmt.Errorf("%w: without a model only the built-in analysis can run: approve it (sift resume %s --approve), or configure a model to %s the plan", ErrNoModel, r.ws.ID, d.Action))
			return nil, "", true
		}
		if d.Action == event.PlanReject {
			return nil, d.Feedback, false
		}
		for _, s := range d.Steps {
			if s = strings.TrimSpace(s); s != "" {
				steps = append(steps, plans.Step{Description: s})
			}
		}
		if len(steps) == 0 {
			keepWaiting(fmt.Errorf("plan review: an edited plan needs at least one step"))
			return nil, "", true
		}
		return steps, "", false
	}
	keepWaiting(fmt.Errorf("plan review: unknown action %q: use approve, edit or reject", d.Action))
	return nil, "", true
}

// templateHint is what the built-ins understood of a request they did not
// answer, for the planner's data context: the partial reading and the
// words they could not place, one short paragraph; empty when nothing was
// read.
func templateHint(m templates.Match) string {
	rd := m.Reading
	if rd.Analysis == "" && len(rd.Measures) == 0 && len(rd.GroupBy) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nSift's built-in parse read this request only in part (verify it; it is a hint, not an answer): ")
	b.WriteString(rd.Text(m.Lang))
	if len(rd.Unplaced) > 0 {
		fmt.Fprintf(&b, "; words it could not place on the data: %s", strings.Join(rd.Unplaced, ", "))
	}
	b.WriteString(".")
	out := []rune(b.String())
	if len(out) > 400 {
		out = append(out[:399], '…')
	}
	return string(out)
}

// catalogueShownFile marks a session whose person was already shown the
// catalogue of built-in analyses: later questions get a pointer to it
// instead of the whole list again.
const catalogueShownFile = ".catalogue-shown"

// offlineHelp is offlineHelpText for the run's session: the catalogue in
// full the first time the session shows it, a pointer to it after that.
func (r *run) offlineHelp(m templates.Match, files []preview.Previewed) string {
	_, err := os.Stat(filepath.Join(r.ws.Root, catalogueShownFile))
	shown := err == nil
	if !shown && !noTable(files) {
		_ = tree.WriteWorkspaceFile(r.ws.Root, catalogueShownFile, nil, session.Durable)
	}
	return offlineHelpText(m, files, shown, r.ws.Root)
}

// tableFormats are the formats the built-in analyses read a table from.
const tableFormats = "CSV, TSV, JSON, JSONL, xlsx, Parquet"

// noTable reports whether there are inputs and none of them holds a
// table: the built-in analyses have nothing to run on, whatever the
// request names.
func noTable(files []preview.Previewed) bool {
	for _, f := range files {
		if f.Preview != nil && slices.ContainsFunc(f.Preview.Sheets, func(s preview.SheetPreview) bool { return len(s.Columns) > 0 }) {
			return false
		}
	}
	return len(files) > 0
}

// offlineHelpText says what Sift can do without a model, and how to add
// one; inputs that could not be read, or hold no table, are named (as
// root's relative paths) with the reason first, since that is often why
// nothing matched. When no input holds a table, it says so instead of
// asking for a built-in analysis by name. With shown, the catalogue is
// not repeated.
func offlineHelpText(m templates.Match, files []preview.Previewed, shown bool, root string) string {
	var b strings.Builder
	for _, f := range files {
		name := filepath.Base(f.Path)
		if rel, err := filepath.Rel(root, f.Path); root != "" && err == nil && !strings.HasPrefix(rel, "..") {
			name = filepath.ToSlash(rel)
		}
		switch {
		case f.Err != nil:
			fmt.Fprintf(&b, "%s could not be read: %v.\n", name, f.Err)
		case f.Preview == nil:
		case f.Preview.Kind == preview.KindEmpty:
			fmt.Fprintf(&b, "%s is empty.\n", name)
		case len(f.Preview.Sheets) == 0:
			fmt.Fprintf(&b, "%s: %s, not a table Sift reads (%s)", name, notTableWhat(f.Preview), tableFormats)
			// A binary file's note may say what it looks like (a
			// legacy .xls, a Parquet file misnamed).
			if _, hint, ok := strings.Cut(f.Preview.Note, "; "); ok && f.Preview.Kind == preview.KindBinary {
				b.WriteString("; " + hint)
			}
			b.WriteString(".\n")
		}
	}
	if noTable(files) {
		fmt.Fprintf(&b, "Without a model Sift runs only its built-in analyses, and they need a table: give a %s file, or configure a model for anything else: set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL (or pass --base-url, --api-key, --model).", strings.Replace(tableFormats, ", Parquet", " or Parquet", 1))
		return b.String()
	}
	if note := m.AbsentNote(); note != "" {
		b.WriteString(note + "\n")
	}
	if m.Candidate == "" && len(m.Absent) > 0 && len(m.Reasons) > 0 {
		fmt.Fprintf(&b, "Sift did not understand all of the request: %s.\n", strings.Join(m.Reasons, "; "))
	}
	if m.Candidate != "" {
		fmt.Fprintf(&b, "The closest built-in analysis was %q, but the request did not match it clearly enough", m.Candidate)
		if len(m.Reasons) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(m.Reasons, "; "))
		}
		b.WriteString(".\n")
	}
	if shown {
		b.WriteString("Without a model Sift runs only its built-in analyses (listed in full at this session's first question that matched none); name one in your request, e.g. \"profile this data\".\n")
	} else {
		b.WriteString("Without a model Sift runs these built-in analyses; name one in your request, e.g. \"profile this data\", \"monthly revenue trend\", \"top 10 customers by sales\":\n")
		b.WriteString(templates.CatalogText())
		b.WriteString("\n")
	}
	b.WriteString("For anything else configure a model: set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL (or pass --base-url, --api-key, --model).")
	return b.String()
}

// notTableWhat says what a file without a table holds.
func notTableWhat(p *preview.FilePreview) string {
	switch p.Kind {
	case preview.KindBinary:
		return "binary content"
	case preview.KindJSON:
		return "a JSON document that is not a list of records"
	}
	return "plain text"
}
