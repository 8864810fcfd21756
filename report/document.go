package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// The report as a document in the session workspace: report.md and its
// HTML, each question's own report, the report assembled without a model,
// and the checks every report passes before it is saved (every file it
// names exists; every artifact appears).

// writeFile replaces a file of the workspace at workdir atomically, as
// durable as d says (see session.Workspace.WriteFile), so a reader or a
// crash never sees half a report.
func writeFile(workdir, rel string, data []byte, d session.Durability) error {
	return (&session.Workspace{Root: workdir}).WriteFile(rel, data, d)
}

// Write writes report.md, as durable as d says, and its self-contained
// report.html.
func Write(workdir, md string, d session.Durability) error {
	return writeAs(workdir, session.ReportFile, md, d)
}

// writeAs writes md to the workspace file rel, as durable as d says, and
// its HTML form beside it (rel with .html for .md), which is derived from
// it and never synced.
func writeAs(workdir, rel, md string, d session.Durability) error {
	if workdir == "" {
		return nil
	}
	if err := writeFile(workdir, rel, []byte(md), d); err != nil {
		return err
	}
	htmlRel := strings.TrimSuffix(rel, ".md") + ".html"
	html, err := HTML(reportTitle(md), []byte(md), workdir)
	if err != nil {
		return fmt.Errorf("render %s: %w", htmlRel, err)
	}
	return writeFile(workdir, htmlRel, html, session.Derived)
}

// Save keeps md as the report of question n of the session
// (QuestionReportFile) and, when it is complete or the session has
// no report.md yet, as report.md too: a stopped or failed follow-up never
// replaces the answer to an earlier question. It returns the
// workspace-relative report the person should read. Only a run's last
// write of its report (with the usage) need be durable; the others are
// replaced moments later, or rewritten on resume.
func Save(workdir string, n int, md string, complete bool, d session.Durability) (string, error) {
	if workdir == "" {
		return session.ReportFile, nil
	}
	own := QuestionReportFile(n)
	if err := writeAs(workdir, own, md, d); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(workdir, session.ReportFile)); err == nil && !complete {
		return own, nil
	}
	return session.ReportFile, Write(workdir, md, d)
}

// Complete cleans the model's Markdown (models like to fence it) and
// appends every artifact the text does not mention, so nothing the run
// produced is missing from the
func Complete(md string, fp *plans.FullPlan, artifacts []string) string {
	md = strings.TrimSpace(md)
	for _, fence := range []string{"```markdown", "```md", "```"} {
		if strings.HasPrefix(md, fence) && strings.HasSuffix(md, "```") && len(md) > len(fence)+3 {
			md = strings.TrimSpace(md[len(fence) : len(md)-3])
			break
		}
	}
	zh := Chinese(fp)
	if md == "" {
		return Fallback(fp, artifacts, Textf(zh, "The report writer returned no text; this report was assembled from the step results."))
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
		md += "\n\n" + Textf(zh, "## Files\n\n") + artifactList(missing)
	}
	return md + "\n"
}

// Fallback assembles a report without a model: the answer if one was
// submitted, every step with its status and result, and the files.
func Fallback(fp *plans.FullPlan, artifacts []string, note string) string {
	var b strings.Builder
	zh := Chinese(fp)
	b.WriteString(Textf(zh, "# Report\n\n"))
	if note != "" {
		b.WriteString("> " + note + "\n\n")
	}
	if fp == nil {
		fp = &plans.FullPlan{}
	}
	if q := strings.TrimSpace(fp.Question); q != "" {
		b.WriteString(Textf(zh, "**Question:** %s\n\n", q))
	}
	if r := fp.Result; r != nil {
		b.WriteString(Textf(zh, "## Answer\n\n") + strings.TrimSpace(r.Answer) + "\n\n")
		for _, f := range r.Findings {
			b.WriteString("- " + f + "\n")
		}
		if len(r.Findings) > 0 {
			b.WriteString("\n")
		}
	}
	if len(fp.Steps) > 0 {
		b.WriteString(Textf(zh, "## Steps\n\n"))
		for _, s := range fp.Steps {
			b.WriteString(Textf(zh, "### Step %d — %s (%s)\n\n", s.Index, s.Description, StatusText(zh, s.Status)))
			switch {
			case s.Status == plans.StatusFailed:
				b.WriteString(failedStepText(s, zh))
			case s.Summary != "":
				b.WriteString(strings.TrimSpace(s.Summary) + "\n\n")
			}
		}
	}
	if len(artifacts) > 0 {
		b.WriteString(Textf(zh, "## Files\n\n") + artifactList(artifacts))
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

// failedStepText is a failed step as the analyst reads it: what failed, in
// one sentence, then the traceback folded away; in Chinese with zh.
func failedStepText(s plans.StepState, zh bool) string {
	sentence, detail := FailureOf(s.Summary)
	text := Textf(zh, "What failed: %s\n\n", sentence)
	if detail != "" {
		text += TracebackBlock(detail) + "\n"
	}
	return text
}

// localLink matches a Markdown image or link with its target.
var localLink = regexp.MustCompile(`(!?)\[([^\]]*)\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)`)

// outMention matches a file under out/ named in text.
var outMention = regexp.MustCompile("(?:^|[\\s`'\"(])(out/[^\\s`'\"()\\[\\]<>,;]+\\.[A-Za-z0-9]+)")

// WithoutUnwritten checks every file md links, shows or names under out/,
// and the answer's files, against the workspace: a link or image to a file
// the run never wrote is replaced by its text, and md ends with a note
// naming those files, so the report never shows what does not exist. It
// returns md, that note (empty when every file exists) and the files.
// With zh, the words it adds are Chinese.
func WithoutUnwritten(workdir, md string, answerFiles []string, zh bool) (string, string, []string) {
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
			return Textf(zh, "`%s` (not written)", m[3])
		}
		return Textf(zh, "%s (`%s`, not written)", text, m[3])
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
	note := Textf(zh, format, len(missing), strings.Join(missing, ", "))
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

// BudgetNote heads the report of a run that stopped at its budget (err
// says which), in the question's language.
func BudgetNote(fp *plans.FullPlan, err error) string {
	return Textf(Chinese(fp), "The run stopped at its budget (%v). The steps marked skipped were not run; this report holds what was found until then.", err)
}

// WriterFailedNote heads the report assembled from the step results when
// the report writer failed with err, in the question's language.
func WriterFailedNote(fp *plans.FullPlan, err error) string {
	return Textf(Chinese(fp), "The report writer failed (%v); this report was assembled from the step results.", err)
}
