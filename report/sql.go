package report

import (
	"fmt"
	"path"
	"strings"
)

// reportTableRows is the most result rows a SQL answer's report shows.
const reportTableRows = 15

// SQLAnswer is what the report of a SQL analyst's answer shows: the model's
// answer, findings, SQL and follow-ups, and what Sift made of them (the
// saved result, the chart, notes on what it could not do). Paths are
// workspace-relative.
type SQLAnswer struct {
	Answer    string
	Findings  []string
	SQL       string
	Source    string
	DataFile  string
	Chart     string
	FollowUps []string
	Notes     []string
}

// SQL is the Markdown report of one SQL answer: the answer, the
// findings, the chart, the result table (at most 15 rows), the SQL and the
// follow-up questions.
func SQL(request string, a SQLAnswer, columns []string, rows [][]string) string {
	var b strings.Builder
	title := strings.TrimSpace(strings.SplitN(request, "\n", 2)[0])
	if title == "" {
		title = "Answer"
	}
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", title, a.Answer)
	if len(a.Findings) > 0 {
		b.WriteString("## Findings\n\n")
		for _, f := range a.Findings {
			b.WriteString("- " + f + "\n")
		}
		b.WriteString("\n")
	}
	if a.Chart != "" {
		fmt.Fprintf(&b, "## Chart\n\n![%s](%s)\n\n", mdEscape(strings.TrimSuffix(path.Base(a.Chart), ".png")), a.Chart)
	}
	if len(columns) > 0 {
		b.WriteString("## Data\n\n")
		b.WriteString(markdownTable(columns, rows, reportTableRows))
		if len(rows) > reportTableRows {
			fmt.Fprintf(&b, "\nShowing %d of %d rows. ", reportTableRows, len(rows))
		} else {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "The full result: [%s](%s)\n\n", a.DataFile, a.DataFile)
	}
	if a.SQL != "" {
		b.WriteString("## SQL\n\n")
		if a.Source != "" {
			fmt.Fprintf(&b, "Database: %s\n\n", a.Source)
		}
		b.WriteString("```sql\n" + a.SQL + "\n```\n\n")
	}
	if len(a.FollowUps) > 0 {
		b.WriteString("## Follow-up questions\n\n")
		for _, f := range a.FollowUps {
			b.WriteString("- " + f + "\n")
		}
		b.WriteString("\n")
	}
	if len(a.Notes) > 0 {
		b.WriteString("## Notes\n\n")
		for _, n := range a.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// markdownTable renders the first limit rows as a Markdown table.
func markdownTable(columns []string, rows [][]string, limit int) string {
	var b strings.Builder
	esc := func(vals []string) string {
		out := make([]string, len(columns))
		for i := range columns {
			if i < len(vals) {
				out[i] = mdEscape(vals[i])
			}
		}
		return "| " + strings.Join(out, " | ") + " |\n"
	}
	b.WriteString(esc(columns))
	b.WriteString("|" + strings.Repeat(" --- |", len(columns)) + "\n")
	for i, r := range rows {
		if i >= limit {
			break
		}
		b.WriteString(esc(r))
	}
	return b.String()
}

// mdEscape makes s safe in a Markdown table cell or link text: one line,
// no cell or bracket breaks.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "]", `\]`)
}
