package report

import (
	"fmt"

	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/tools/templates"
)

// Chinese reports whether the words Sift writes into a report itself
// (headings, notes, step lines around the model's text) are Chinese: the
// question is (templates.LangOf), as the built-in analyses' answers are.
func Chinese(fp *plans.FullPlan) bool {
	return fp != nil && templates.LangOf(fp.Question) == templates.LangChinese
}

// Textf is fmt.Sprintf(format, args...) with format in Chinese (from
// reportChinese) when zh is set.
func Textf(zh bool, format string, args ...any) string {
	if zh {
		if c, ok := reportChinese[format]; ok {
			format = c
		}
	}
	return fmt.Sprintf(format, args...)
}

// StatusText is a step status as a report in Chinese or English says it.
func StatusText(zh bool, s plans.StepStatus) string {
	if zh && reportChinese[string(s)] != "" {
		return reportChinese[string(s)]
	}
	return string(s)
}

// reportChinese is the Chinese of each English text Sift writes into a
// report itself (given to Textf and StatusText), keyed by the English
// format; a value takes the same arguments. TestReportChineseCovers checks
// both.
var reportChinese = map[string]string{
	"# Report\n\n":              "# 报告\n\n",
	"**Question:** %s\n\n":      "**问题：** %s\n\n",
	"## Answer\n\n":             "## 回答\n\n",
	"## Steps\n\n":              "## 步骤\n\n",
	"### Step %d — %s (%s)\n\n": "### 步骤 %d — %s（%s）\n\n",
	"## Files\n\n":              "## 文件\n\n",
	"What failed: %s\n\n":       "失败原因：%s\n\n",
	"The run stopped at its budget (%v). The steps marked skipped were not run; this report holds what was found until then.":                                                 "运行达到了预算上限（%v）。标为跳过的步骤没有运行；本报告包含到那时为止的发现。",
	"The report writer failed (%v); this report was assembled from the step results.":                                                                                         "撰写报告失败（%v）；本报告由各步骤的结果汇编而成。",
	"The report writer returned no text; this report was assembled from the step results.":                                                                                    "撰写报告时没有返回文字；本报告由各步骤的结果汇编而成。",
	"No step of this run succeeded, so it computed no result: this report states no finding. The steps and their errors are below; fix what they name and ask again.":         "这次运行没有一个步骤成功，因此没有计算出任何结果：本报告不陈述任何发现。下面列出各步骤及其错误；请修正其中指出的问题后再问一次。",
	"> **Not computed:** these steps produced no result, so whatever this report says of what they were to find rests on no computed result; citations of them are marked.\n": "> **未计算：** 这些步骤没有产生结果，因此本报告中关于它们本应发现的内容都没有计算结果作依据；对它们的引用已标出。\n",
	"- Step %d failed: %s\n":            "- 步骤 %d 失败：%s\n",
	"- Step %d was not run (%s).\n":     "- 步骤 %d 没有运行（%s）。\n",
	"[step %d: %s, no computed result]": "[step %d：%s，没有计算结果]",
	"## What failed\n\n":                "## 失败详情\n\n",
	"Step %d:\n\n%s\n":                  "步骤 %d：\n\n%s\n",
	"`%s` (not written)":                "`%s`（未生成）",
	"%s (`%s`, not written)":            "%s（`%s`，未生成）",
	"> **Not written:** this report names %d file that the run never wrote, so it is not shown: %s.\n":     "> **未生成：** 本报告提到了 %d 个运行中从未生成的文件，因此没有显示：%s。\n",
	"> **Not written:** this report names %d files that the run never wrote, so they are not shown: %s.\n": "> **未生成：** 本报告提到了 %d 个运行中从未生成的文件，因此没有显示：%s。\n",

	// Step statuses (StatusText).
	"todo": "待办", "doing": "进行中", "done": "完成", "failed": "失败", "skipped": "跳过",
}
