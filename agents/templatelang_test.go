package agents

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/templates"
)

// A question asked in Chinese and answered by a built-in analysis gets its
// report in Chinese: the headings and the sentences Sift writes (title,
// question, section, answer, how it was computed and why, table headers,
// usage) and its plan step; the data's column names and numbers stay as
// they are. An English question keeps English.
func TestBuiltInReportSpeaksTheQuestionsLanguage(t *testing.T) {
	py := pythonOrSkip(t)
	for _, tt := range []struct {
		question string
		want     []string
		not      []string
	}{
		{"按region统计revenue总和的排名", []string{"# 排名与分组", "**问题：**", "## revenue总和最高的3个region", "按region的revenue总和排名：North (150", "## 计算方法",
			"没有调用语言模型", "## 接下来可以问", "- 请求中的每个词都对应到了解读上", "- 类别：region（", "| 排名 | region | revenue总和 | 占比 |", "## 用量\n\n没有调用语言模型。"},
			[]string{"Top N", "Question:", "How this was computed", "Top 3", "Next questions", "the request", "Usage", "No language model", "| rank |"}},
		{"revenue的月度趋势", []string{"# 趋势分析", "月度趋势：revenue总和", "最高在 2024-01", "## 计算方法", "- 时间列：", "- revenue 的总和，按月，数据来自 [input/sales.csv](input/sales.csv)", "| 月 | revenue总和 | 变化 | 变化率 |"},
			[]string{"Trend over time", "Monthly trend", "highest in", "time column", "from the request", "| month |"}},
		{"top regions by revenue", []string{"# Top N", "**Question:**", "Top 3 regions by total revenue", "## How this was computed", "- every word of the request is placed on the reading", "| rank | region | total revenue | share |", "## Usage\n\nNo language model was called."},
			[]string{"问题", "计算方法", "请求", "用量"}},
	} {
		t.Run(tt.question, func(t *testing.T) {
			evs := collect(t, offlineSift(t, py), Request{Question: tt.question, Files: []string{salesCSV(t)}})
			done := evs[len(evs)-1]
			if done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			report := readWS(t, done, "report.md")
			plan := readWS(t, done, "plan.md")
			if step := map[bool]string{true: "内置分析“", false: "Built-in analysis \""}[templates.LangOf(tt.question) == templates.LangChinese]; !strings.Contains(plan, step) {
				t.Errorf("the plan's step is not %q:\n%s", step, plan)
			}
			for _, w := range tt.want {
				if !strings.Contains(report, w) {
					t.Errorf("the report lacks %q:\n%s", w, report)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(report, w) {
					t.Errorf("the report says %q:\n%s", w, report)
				}
			}
		})
	}
}
