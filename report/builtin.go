package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools/templates"
)

// BuiltIn is the report of a built-in analysis: the answer, the
// template's sections, and how it was computed, including every choice the
// inference made and why. Over several tables each table has its own part
// (a table whose analysis failed says so); results[i] is nil for a table
// that failed, and steps[i] is its step.
func BuiltIn(question string, t templates.Template, m templates.Match, each []templates.Match, results []*templates.Result, steps []plans.StepState) string {
	var b strings.Builder
	zh := templates.LangOf(question) == templates.LangChinese
	words := func(en, cn string) string {
		if zh {
			return cn
		}
		return en
	}
	fmt.Fprintf(&b, "# %s\n\n", t.TitleIn(templates.LangOf(question)))
	fmt.Fprintf(&b, "%s %s\n\n", words("**Question:**", "**问题：**"), strings.Join(strings.Fields(question), " "))
	if len(each) == 1 {
		if note := m.SheetNote(); note != "" {
			fmt.Fprintf(&b, "> %s\n\n", note)
		}
		b.WriteString(results[0].Markdown())
	} else {
		for i, e := range each {
			fmt.Fprintf(&b, "## %s\n\n", e.Table())
			if results[i] == nil {
				fmt.Fprintf(&b, "%s%s\n\n", words("This analysis failed: ", "这项分析失败："), steps[i].Summary)
				continue
			}
			b.WriteString(DemoteHeadings(results[i].Markdown()) + "\n")
		}
	}
	b.WriteString(words("\n## How this was computed\n\n", "\n## 计算方法\n\n"))
	files := make([]string, len(each))
	for i, e := range each {
		files[i] = "`" + e.Table() + "`"
	}
	if zh {
		fmt.Fprintf(&b, "内置分析 `%s`，数据 %s，匹配置信度 %.2f；没有调用语言模型。\n\n", t.Name, strings.Join(files, "、"), m.Confidence)
	} else {
		fmt.Fprintf(&b, "Built-in analysis `%s` on %s, matched with confidence %.2f; no language model was called.\n\n", t.Name, strings.Join(files, ", "), m.Confidence)
	}
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
				line = e.Table() + ": " + line
			}
			fmt.Fprintf(&b, "- %s\n", line)
		}
	}
	for i, e := range each {
		if results[i] == nil || len(results[i].SQL) == 0 {
			continue
		}
		// The SQL is the built-in's provenance, as an agent's cells are.
		if len(each) > 1 {
			fmt.Fprintf(&b, words("\nThe SQL that computed %s (DuckDB, in Sift's process):\n\n", "\n计算 %s 的 SQL（DuckDB，在 Sift 进程内运行）：\n\n"), "`"+e.Table()+"`")
		} else {
			b.WriteString(words("\nThe SQL that computed it (DuckDB, in Sift's process):\n\n", "\n计算所用的 SQL（DuckDB，在 Sift 进程内运行）：\n\n"))
		}
		b.WriteString("```sql\n" + strings.Join(results[i].SQL, ";\n") + ";\n```\n")
	}
	return b.String()
}

// DemoteHeadings turns the previews' "## file" headings into "### file", so
// they nest under a "## " heading: the "## Data" section of the prompts,
// a table's part of a built-in analysis's report.
func DemoteHeadings(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "## ") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}
