package agents

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/templates"
)

// finishFiles writes usage.json and ends the report with the usage
// summary, once the last model call is counted.
func (r *run) finishFiles(u *event.Usage) {
	if b, err := json.MarshalIndent(u, "", "  "); err == nil {
		_ = r.ws.WriteFile(usageFile, b, session.Derived)
	}
	if r.reportPath == "" {
		return
	}
	n := r.plan.QuestionNumber()
	md, err := os.ReadFile(r.ws.Path(report.QuestionReportFile(n)))
	if err != nil {
		return
	}
	text := strings.TrimRight(string(md), "\n") + "\n\n"
	chinese := templates.LangOf(r.req.Question) == templates.LangChinese
	if mem := r.plan.RememberedMarkdown(rememberedHeading(chinese)); mem != "" {
		text += mem + "\n"
	}
	if r.plan != nil && r.plan.Result != nil && len(r.plan.Result.NextQuestions) > 0 {
		heading := "## Next questions"
		if chinese {
			heading = "## 接下来可以问"
		}
		text += heading + "\n\n- " + strings.Join(r.plan.Result.NextQuestions, "\n- ") + "\n\n"
	}
	_, _ = report.Save(r.ws.Root, n, text+report.UsageMarkdownIn(u, chinese), r.reportPath == session.ReportFile, session.Durable)
}

// rememberedHeading titles the report's section of the facts the
// question used, in the question's language.
func rememberedHeading(chinese bool) string {
	if chinese {
		return "Sift 记得的"
	}
	return plans.RememberedHeading
}

// saveStopReport writes the report of a run that stopped before its report
// agent did; it never replaces an earlier question's report.md.
func (r *run) saveStopReport(note string) {
	md := report.Fallback(r.plan, tree.ListArtifacts(r.ws.Root), note)
	if path, err := report.Save(r.ws.Root, r.plan.QuestionNumber(), md, false, session.Derived); err == nil {
		r.emit(event.Event{Kind: event.Report, Path: path, Text: md})
	}
}

// suggest gives a run that has an answer its next questions: the model's
// when it gave some, else the built-in analyses' rules over the data's
// columns (at most three either way).
func (r *run) suggest() {
	if r.plan == nil || r.plan.Result == nil {
		return
	}
	res := r.plan.Result
	next := res.NextQuestions
	if len(next) == 0 {
		// The answer names what was found, so the questions build on it.
		next = templates.Suggest(r.req.Question+"\n"+tree.ResultText(res), r.ran.Template, r.ran.Params, r.previews)
	}
	if len(next) > 3 {
		next = next[:3]
	}
	if r.ws != nil && len(next) > 0 {
		_ = r.ownPlan(context.Background()).Suggest(next)
	}
}
