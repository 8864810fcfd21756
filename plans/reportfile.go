package plans

import (
	"fmt"
	"strings"
)

// QuestionReportFile is where the report of the n-th question of a session
// (1 for the first, 2 for the first follow-up, ...) is kept, whatever became
// of later questions; report.md is a copy of the latest complete one. Its
// HTML form has the same name ending in .html.
func QuestionReportFile(n int) string { return fmt.Sprintf("report-%02d.md", n) }

// IsQuestionReport reports whether name is a QuestionReportFile or its HTML
// form.
func IsQuestionReport(name string) bool {
	base, ok := strings.CutPrefix(name, "report-")
	if !ok {
		return false
	}
	num, ok := strings.CutSuffix(base, ".md")
	if !ok {
		num, ok = strings.CutSuffix(base, ".html")
	}
	if !ok || len(num) < 2 {
		return false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
