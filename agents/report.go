package agents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/numcheck"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
)

// reportAgent writes report.md and report.html from the run's results: one
// model call for the narrative, then Sift makes sure every chart and data
// file appears in it.
type reportAgent struct {
	model model.ToolCallingChatModel
	// checker is the replanner's model, asked once to correct a result
	// whose numbers no output holds. Optional.
	checker model.ToolCallingChatModel
	// outputs are the run's tool replies, evidence for the answer check.
	outputs *toolOutputs
	// images: the model accepts images, and is shown the run's charts.
	images bool
	// stream: the report is streamed, each piece of text sent as a
	// message delta while it is written.
	stream bool
	// tail is what ends every system prompt: house rules and the date.
	tail   func(context.Context) string
	budget *budgetGuard
}

func (a *reportAgent) Name(context.Context) string { return nameReport }
func (a *reportAgent) Description(context.Context) string {
	return "writes the final report from the step results"
}

func (a *reportAgent) Run(ctx context.Context, _ *adk.AgentInput, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		if paused, _ := params.Paused.Get(ctx); paused {
			return // the report is written when the run finishes
		}
		ctx, endSpan := llm.StartAgent(ctx, nameReport)
		defer endSpan(nil)
		view := viewOf(ctx)
		workdir, _ := params.Workdir.Get(ctx)
		artifacts := listArtifacts(workdir)
		ev := runEvidence(workdir, view, a.outputs)
		outcome := reportOutcome(view.Plan)
		berr := a.budget.check(false)
		a.checkAnswer(ctx, gen, view, ev, berr == nil && !outcome.noneSucceeded())
		var md, note string
		var err error
		switch {
		case berr != nil:
			// No model call past a budget: the report is assembled from
			// the results, and says what is missing.
			note = inReport(chineseReport(view.Plan), "The run stopped at its budget (%v). The steps marked skipped were not run; this report holds what was found until then.", berr)
			md = fallbackReport(view.Plan, artifacts, note)
		case outcome.noneSucceeded():
			// Nothing was computed: a model's report could only present
			// its own text as findings, so Sift writes the report.
			note = noResultNote(chineseReport(view.Plan))
			md = fallbackReport(withoutResult(view.Plan), artifacts, note)
		default:
			msgs := withHouseRules(reportMessages(view, artifacts), a.tail(ctx))
			if a.images {
				msgs = withCharts(msgs, workdir, artifacts)
			}
			var msg *schema.Message
			if msg, err = a.write(ctx, gen, msgs); err != nil {
				note = inReport(chineseReport(view.Plan), "The report writer failed (%v); this report was assembled from the step results.", err)
				md = fallbackReport(view.Plan, artifacts, note)
			} else {
				md = withUncomputed(completeReport(msg.Content, view.Plan, artifacts), outcome)
			}
		}
		var files []string
		if view.Plan != nil && view.Plan.Result != nil {
			files = view.Plan.Result.Files
		}
		md, unwritten, missing := withoutUnwritten(workdir, md, files, chineseReport(view.Plan))
		md, _ = markReport(md, ev, append(outcome.siftText(), note, unwritten)...)
		// The answer hands back only files that exist.
		if err := treeOwner(ctx, gen, view.Plan).dropUnwritten(missing); err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
		}
		// A report over nothing computed or cut short by a budget does
		// not replace an earlier question's answer in report.md.
		path, werr := saveReport(workdir, view.Plan.QuestionNumber(), md, berr == nil && !outcome.noneSucceeded())
		if werr != nil {
			gen.Send(&adk.AgentEvent{Err: werr})
			return
		}
		gen.Send(siftEvent(event.Event{Kind: event.Report, Agent: nameReport, Path: path, Text: md}))
		if err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
		}
	})
}

// write asks the model for the report. Streamed, each piece of its text
// reaches the caller as it comes, as a message delta of the report agent;
// the finished report event still follows.
func (a *reportAgent) write(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], msgs []*schema.Message) (*schema.Message, error) {
	if !a.stream {
		return a.model.Generate(ctx, msgs)
	}
	sr, err := a.model.Stream(ctx, msgs)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, chunk)
		if chunk.Content != "" {
			gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: nameReport, Text: chunk.Content, Delta: true}))
		}
	}
	if len(chunks) == 0 {
		return nil, errors.New("the report stream ended without text")
	}
	return schema.ConcatMessages(chunks)
}

// checkAnswer checks the submitted result's numbers against the run's
// outputs; with correct, unsupported numbers go back once to the
// replanner's model. The result kept, with its unverified numbers, is
// recorded in the plan.
func (a *reportAgent) checkAnswer(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], view taskView, ev *numcheck.Set, correct bool) {
	fp := view.Plan
	if fp == nil || fp.Result == nil {
		return
	}
	m := a.checker
	if !correct {
		m = nil
	}
	res, bad, err := checkResult(ctx, m, view, ev, a.tail(ctx))
	if err != nil {
		gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: nameReport, Text: "warning: the answer's numbers could not be corrected: " + err.Error()}))
	}
	changed := res != fp.Result
	res.Unverified = bad
	own := treeOwner(ctx, gen, fp)
	own.checked(res)
	if len(bad) > 0 {
		gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: nameReport, Text: "answer check: no step output holds " + strings.Join(bad, ", ") + "; marked in the report"}))
	}
	if changed || len(bad) > 0 {
		if err := own.save(); err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
		}
	}
}

// writeReport writes report.md and its self-contained report.html.
func writeReport(workdir, md string) error {
	return writeReportAs(workdir, session.ReportFile, md)
}

// writeReportAs writes md to the workspace file rel and its HTML form
// beside it (rel with .html for .md).
func writeReportAs(workdir, rel, md string) error {
	if workdir == "" {
		return nil
	}
	if err := writeWorkspaceFile(workdir, rel, []byte(md)); err != nil {
		return err
	}
	htmlRel := strings.TrimSuffix(rel, ".md") + ".html"
	html, err := report.RenderReportHTML(reportTitle(md), []byte(md), workdir)
	if err != nil {
		return fmt.Errorf("render %s: %w", htmlRel, err)
	}
	return writeWorkspaceFile(workdir, htmlRel, html)
}

// saveReport keeps md as the report of question n of the session
// (report.QuestionReportFile) and, when it is complete or the session has
// no report.md yet, as report.md too: a stopped or failed follow-up never
// replaces the answer to an earlier question. It returns the
// workspace-relative report the person should read.
func saveReport(workdir string, n int, md string, complete bool) (string, error) {
	if workdir == "" {
		return session.ReportFile, nil
	}
	own := report.QuestionReportFile(n)
	if err := writeReportAs(workdir, own, md); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(workdir, session.ReportFile)); err == nil && !complete {
		return own, nil
	}
	return session.ReportFile, writeReport(workdir, md)
}

// completeReport cleans the model's Markdown (models like to fence it) and
// appends every artifact the text does not mention, so nothing the run
// produced is missing from the report.
func completeReport(md string, fp *plans.FullPlan, artifacts []string) string {
	md = strings.TrimSpace(md)
	for _, fence := range []string{"```markdown", "```md", "```"} {
		if strings.HasPrefix(md, fence) && strings.HasSuffix(md, "```") && len(md) > len(fence)+3 {
			md = strings.TrimSpace(md[len(fence) : len(md)-3])
			break
		}
	}
	zh := chineseReport(fp)
	if md == "" {
		return fallbackReport(fp, artifacts, inReport(zh, "The report writer returned no text; this report was assembled from the step results."))
	}
	var missing []string
	for _, a := range artifacts {
		mentioned := strings.Contains(md, a)
		if isImage(a) {
			// A chart counts only when it is shown, not merely named.
			mentioned = strings.Contains(md, "]("+a+")")
		}
		if !mentioned {
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 {
		md += "\n\n" + inReport(zh, "## Files\n\n") + artifactList(missing)
	}
	return md + "\n"
}

// fallbackReport assembles a report without a model: the answer if one was
// submitted, every step with its status and result, and the files.
func fallbackReport(fp *plans.FullPlan, artifacts []string, note string) string {
	var b strings.Builder
	zh := chineseReport(fp)
	b.WriteString(inReport(zh, "# Report\n\n"))
	if note != "" {
		b.WriteString("> " + note + "\n\n")
	}
	if fp == nil {
		fp = &plans.FullPlan{}
	}
	if q := strings.TrimSpace(fp.Question); q != "" {
		b.WriteString(inReport(zh, "**Question:** %s\n\n", q))
	}
	if r := fp.Result; r != nil {
		b.WriteString(inReport(zh, "## Answer\n\n") + strings.TrimSpace(r.Answer) + "\n\n")
		for _, f := range r.Findings {
			b.WriteString("- " + f + "\n")
		}
		if len(r.Findings) > 0 {
			b.WriteString("\n")
		}
	}
	if len(fp.Steps) > 0 {
		b.WriteString(inReport(zh, "## Steps\n\n"))
		for _, s := range fp.Steps {
			b.WriteString(inReport(zh, "### Step %d — %s (%s)\n\n", s.Index, s.Description, statusIn(zh, s.Status)))
			switch {
			case s.Status == plans.StatusFailed:
				b.WriteString(failedStepText(s, zh))
			case s.Summary != "":
				b.WriteString(strings.TrimSpace(s.Summary) + "\n\n")
			}
		}
	}
	if len(artifacts) > 0 {
		b.WriteString(inReport(zh, "## Files\n\n") + artifactList(artifacts))
	}
	return b.String()
}

func artifactList(paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		if isImage(p) {
			fmt.Fprintf(&b, "![%s](%s)\n\n", filepath.Base(p), p)
		} else {
			fmt.Fprintf(&b, "- [%s](%s)\n", p, p)
		}
	}
	return b.String()
}

func isImage(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp":
		return true
	}
	return false
}

func reportTitle(md string) string {
	for _, line := range strings.Split(md, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return "Sift report"
}

// listArtifacts lists files under out/, workspace-relative and sorted.
func listArtifacts(workdir string) []string {
	snap := snapshotFiles(workdir, "out")
	out := make([]string, 0, len(snap))
	for p := range snap {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// failedStepText is a failed step as the analyst reads it: what failed, in
// one sentence, then the traceback folded away; in Chinese with zh.
func failedStepText(s plans.StepState, zh bool) string {
	sentence, detail := failureOf(s.Summary)
	text := inReport(zh, "What failed: %s\n\n", sentence)
	if detail != "" {
		text += tracebackBlock(detail) + "\n"
	}
	return text
}

// localLink matches a Markdown image or link with its target.
var localLink = regexp.MustCompile(`(!?)\[([^\]]*)\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)`)

// outMention matches a file under out/ named in text.
var outMention = regexp.MustCompile("(?:^|[\\s`'\"(])(out/[^\\s`'\"()\\[\\]<>,;]+\\.[A-Za-z0-9]+)")

// withoutUnwritten checks every file md links, shows or names under out/,
// and the answer's files, against the workspace: a link or image to a file
// the run never wrote is replaced by its text, and md ends with a note
// naming those files, so the report never shows what does not exist. It
// returns md, that note (empty when every file exists) and the files.
// With zh, the words it adds are Chinese.
func withoutUnwritten(workdir, md string, answerFiles []string, zh bool) (string, string, []string) {
	if workdir == "" {
		return md, "", nil
	}
	var missing []string
	seen := map[string]bool{}
	absent := func(target string) bool {
		rel := strings.TrimPrefix(target, "./")
		if strings.Contains(rel, "://") || strings.HasPrefix(rel, "#") || strings.HasPrefix(rel, "data:") || strings.HasPrefix(rel, "mailto:") {
			return false
		}
		if !workspaceLacks(workdir, rel) {
			return false
		}
		if !seen[rel] {
			seen[rel] = true
			missing = append(missing, rel)
		}
		return true
	}
	md = localLink.ReplaceAllStringFunc(md, func(link string) string {
		m := localLink.FindStringSubmatch(link)
		if !absent(m[3]) {
			return link
		}
		text := strings.TrimSpace(m[2])
		if text == "" || text == m[3] {
			return inReport(zh, "`%s` (not written)", m[3])
		}
		return inReport(zh, "%s (`%s`, not written)", text, m[3])
	})
	for _, m := range outMention.FindAllStringSubmatch(md, -1) {
		absent(strings.TrimRight(m[1], "."))
	}
	for _, f := range answerFiles {
		absent(f)
	}
	if len(missing) == 0 {
		return md, "", nil
	}
	format := "> **Not written:** this report names %d files that the run never wrote, so they are not shown: %s.\n"
	if len(missing) == 1 {
		format = "> **Not written:** this report names %d file that the run never wrote, so it is not shown: %s.\n"
	}
	note := inReport(zh, format, len(missing), strings.Join(missing, ", "))
	return strings.TrimRight(md, "\n") + "\n\n" + note, note, missing
}

// workspaceLacks reports whether rel names a file a session hands back
// (see session.CheckDeliverable) that the workspace does not hold. Every
// existence check of files a report names goes through it, so it can
// move to the confined opener in one place. Paths that are no
// deliverable (input/ files, links elsewhere) are not judged here.
func workspaceLacks(workdir, rel string) bool {
	ws := &session.Workspace{Root: workdir}
	f, err := ws.OpenDeliverable(rel)
	if err == nil {
		f.Close()
		return false
	}
	return errors.Is(err, fs.ErrNotExist)
}
