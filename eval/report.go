package eval

import (
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the results as a plain-text accuracy table: overall,
// by category, failures by kind, and one line per question.
func WriteTable(w io.Writer, r *Results) error {
	r.summarize()
	s := r.Summary
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Suite %s", r.Suite)
	if r.Model != "" {
		fmt.Fprintf(tw, " · model %s", r.Model)
	}
	fmt.Fprintf(tw, "\n\ncategory\tquestions\tcorrect\taccuracy\n")
	for _, c := range slices.Sorted(maps.Keys(s.ByCategory)) {
		t := s.ByCategory[c]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\n", c, t.Questions, t.Correct, 100*t.Accuracy)
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%.1f%%\n", s.Questions, s.Correct, 100*s.Accuracy)
	fmt.Fprintf(tw, "sub-answers\t%d\t%d\t%.1f%%\n", s.SubAnswers, s.SubCorrect, 100*s.SubAccuracy)
	fmt.Fprintf(tw, "\nfailures:\t%s\n", failuresText(s.Failures))
	fmt.Fprintf(tw, "cost:\t%d model calls, %d prompt + %d completion tokens, $%.4f, %.1fs of question wall time\n", s.Calls, s.PromptTokens, s.CompletionTokens, s.Cost, float64(s.WallMS)/1000)
	fmt.Fprintf(tw, "\nquestion\tcategory\tresult\tcalls\ttokens\twall\tanswers\n")
	for _, q := range r.Questions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.1fs\t%s\n", q.ID, q.Category, resultText(q), q.Calls, q.PromptTokens+q.CompletionTokens, float64(q.WallMS)/1000, answersText(q.Answers))
	}
	return tw.Flush()
}

func failuresText(f map[FailureKind]int) string {
	if len(f) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range []FailureKind{FailNoAnswer, FailFormat, FailValue, FailError, FailBudget} {
		if f[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, f[k]))
		}
	}
	return strings.Join(parts, ", ")
}

func resultText(q QuestionResult) string {
	if q.Correct {
		return "ok"
	}
	return string(q.Kind)
}

func answersText(subs []SubAnswer) string {
	var parts []string
	for _, a := range subs {
		mark := "✓"
		if !a.OK {
			mark = "✗"
		}
		got := a.Got
		if !a.Found {
			got = "(none)"
		}
		if a.OK {
			parts = append(parts, fmt.Sprintf("%s %s=%s", mark, a.Name, got))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s=%s (want %s)", mark, a.Name, got, a.Expected))
		}
	}
	return strings.Join(parts, "; ")
}

// WriteHTML writes a self-contained HTML summary: the totals, a bar chart
// of accuracy by category and a table of every question.
func WriteHTML(w io.Writer, r *Results) error {
	r.summarize()
	type bar struct {
		Label          string
		Y, Width       int
		Pct            string
		Correct, Total int
	}
	var bars []bar
	for i, c := range slices.Sorted(maps.Keys(r.Summary.ByCategory)) {
		t := r.Summary.ByCategory[c]
		bars = append(bars, bar{Label: c, Y: 10 + 28*i, Width: int(400 * t.Accuracy), Pct: fmt.Sprintf("%.0f%%", 100*t.Accuracy), Correct: t.Correct, Total: t.Questions})
	}
	data := struct {
		R        *Results
		Bars     []bar
		Height   int
		Failures string
		Rows     []QuestionResult
	}{r, bars, 20 + 28*len(bars), failuresText(r.Summary.Failures), r.Questions}
	return htmlTemplate.Execute(w, data)
}

var htmlTemplate = template.Must(template.New("eval").Funcs(template.FuncMap{
	"pct":     func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
	"secs":    func(ms int64) string { return fmt.Sprintf("%.1fs", float64(ms)/1000) },
	"result":  resultText,
	"answers": answersText,
	"add":     func(a, b int) int { return a + b },
}).Parse(`<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>Sift eval: {{.R.Suite}}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}td.n{text-align:right}.ok{color:#176f2c}.bad{color:#b3261e}</style>
</head><body>
<h1>Sift eval: {{.R.Suite}}</h1>
<p>{{if .R.Model}}Model: <b>{{.R.Model}}</b> · {{end}}{{.R.Summary.Correct}} of {{.R.Summary.Questions}} questions correct (<b>{{pct .R.Summary.Accuracy}}</b>), {{.R.Summary.SubCorrect}} of {{.R.Summary.SubAnswers}} sub-answers ({{pct .R.Summary.SubAccuracy}}).
Failures: {{.Failures}}. {{.R.Summary.Calls}} model calls, {{add .R.Summary.PromptTokens .R.Summary.CompletionTokens}} tokens, ${{printf "%.4f" .R.Summary.Cost}}, {{secs .R.Summary.WallMS}}.</p>
<h2>Accuracy by category</h2>
<svg width="640" height="{{.Height}}" role="img" aria-label="accuracy by category">
{{range .Bars}}<text x="0" y="{{add .Y 15}}" font-size="13">{{.Label}}</text><rect x="140" y="{{.Y}}" width="400" height="20" fill="#eee"/><rect x="140" y="{{.Y}}" width="{{.Width}}" height="20" fill="#3b7dd8"/><text x="548" y="{{add .Y 15}}" font-size="13">{{.Pct}} ({{.Correct}}/{{.Total}})</text>
{{end}}</svg>
<h2>Questions</h2>
<table><tr><th>question</th><th>category</th><th>result</th><th>calls</th><th>tokens</th><th>cost</th><th>wall</th><th>answers</th></tr>
{{range .Rows}}<tr><td>{{.ID}}</td><td>{{.Category}}</td><td class="{{if .Correct}}ok{{else}}bad{{end}}">{{result .}}{{if .Error}}<br><small>{{.Error}}</small>{{end}}</td><td class="n">{{.Calls}}</td><td class="n">{{add .PromptTokens .CompletionTokens}}</td><td class="n">{{printf "%.4f" .Cost}}</td><td class="n">{{secs .WallMS}}</td><td>{{answers .Answers}}</td></tr>
{{end}}</table>
</body></html>
`))

// WriteCompare writes how b differs from a: accuracy and cost side by
// side, by category, and the questions whose result changed.
func WriteCompare(w io.Writer, a, b *Results) error {
	a.summarize()
	b.summarize()
	sa, sb := a.Summary, b.Summary
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	name := func(r *Results) string {
		if r.Model != "" {
			return r.Model
		}
		return r.Suite
	}
	fmt.Fprintf(tw, "\tA: %s\tB: %s\tB − A\n", name(a), name(b))
	fmt.Fprintf(tw, "accuracy\t%.1f%% (%d/%d)\t%.1f%% (%d/%d)\t%+.1f pts\n", 100*sa.Accuracy, sa.Correct, sa.Questions, 100*sb.Accuracy, sb.Correct, sb.Questions, 100*(sb.Accuracy-sa.Accuracy))
	fmt.Fprintf(tw, "sub-answers\t%.1f%%\t%.1f%%\t%+.1f pts\n", 100*sa.SubAccuracy, 100*sb.SubAccuracy, 100*(sb.SubAccuracy-sa.SubAccuracy))
	cats := map[string]bool{}
	for c := range sa.ByCategory {
		cats[c] = true
	}
	for c := range sb.ByCategory {
		cats[c] = true
	}
	for _, c := range slices.Sorted(maps.Keys(cats)) {
		ta, tb := sa.ByCategory[c], sb.ByCategory[c]
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c, tallyText(ta), tallyText(tb), tallyDelta(ta, tb))
	}
	fmt.Fprintf(tw, "model calls\t%d\t%d\t%+d\n", sa.Calls, sb.Calls, sb.Calls-sa.Calls)
	fmt.Fprintf(tw, "tokens\t%d\t%d\t%+d\n", sa.PromptTokens+sa.CompletionTokens, sb.PromptTokens+sb.CompletionTokens, sb.PromptTokens+sb.CompletionTokens-sa.PromptTokens-sa.CompletionTokens)
	fmt.Fprintf(tw, "cost\t$%.4f\t$%.4f\t%+.4f\n", sa.Cost, sb.Cost, sb.Cost-sa.Cost)
	fmt.Fprintf(tw, "wall time\t%.1fs\t%.1fs\t%+.1fs\n", float64(sa.WallMS)/1000, float64(sb.WallMS)/1000, float64(sb.WallMS-sa.WallMS)/1000)
	if err := tw.Flush(); err != nil {
		return err
	}
	byID := map[string]QuestionResult{}
	for _, q := range a.Questions {
		byID[q.ID] = q
	}
	var fixed, broken, onlyB []string
	for _, q := range b.Questions {
		old, ok := byID[q.ID]
		switch {
		case !ok:
			onlyB = append(onlyB, q.ID)
		case q.Correct && !old.Correct:
			fixed = append(fixed, fmt.Sprintf("%s (was %s)", q.ID, old.Kind))
		case !q.Correct && old.Correct:
			broken = append(broken, fmt.Sprintf("%s (now %s)", q.ID, q.Kind))
		}
	}
	list := func(title string, ids []string) {
		if len(ids) > 0 {
			fmt.Fprintf(w, "%s (%d): %s\n", title, len(ids), strings.Join(ids, ", "))
		}
	}
	fmt.Fprintln(w)
	list("Right in B only", fixed)
	list("Right in A only", broken)
	list("Only in B", onlyB)
	if len(fixed)+len(broken)+len(onlyB) == 0 {
		fmt.Fprintln(w, "No question changed its result.")
	}
	return nil
}

func tallyText(t *Tally) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*t.Accuracy, t.Correct, t.Questions)
}

func tallyDelta(a, b *Tally) string {
	if a == nil || b == nil {
		return ""
	}
	return fmt.Sprintf("%+.1f pts", 100*(b.Accuracy-a.Accuracy))
}
