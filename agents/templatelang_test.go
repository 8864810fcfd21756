package agents

import (
	"strings"
	"testing"
)

// A question asked in Chinese and answered by a built-in analysis gets its
// report in Chinese: the headings and the sentences Sift writes (title,
// question, section, answer, how it was computed); the data's column
// names and numbers stay as they are. An English question keeps English.
func TestBuiltInReportSpeaksTheQuestionsLanguage(t *testing.T) {
	py := pythonOrSkip(t)
	for _, tt := range []struct {
		question string
		want     []string
		not      []string
	}{
		{"按region统计revenue总和的排名", []string{"# 排名与分组", "**问题：**", "## 按region的revenue总和前3名", "按region的revenue总和排名：North (150", "## 计算方法", "没有调用语言模型", "## 接下来可以问"},
			[]string{"Top N", "Question:", "How this was computed", "Top 3", "Next questions"}},
		{"revenue的月度趋势", []string{"# 趋势分析", "月度趋势：revenue总和", "最高在 2024-01", "## 计算方法"},
			[]string{"Trend over time", "Monthly trend", "highest in"}},
		{"top regions by revenue", []string{"# Top N", "**Question:**", "Top 3 region by sum of revenue", "## How this was computed"},
			[]string{"问题", "计算方法"}},
	} {
		t.Run(tt.question, func(t *testing.T) {
			evs := collect(t, offlineSift(t, py), Request{Question: tt.question, Files: []string{salesCSV(t)}})
			done := evs[len(evs)-1]
			if done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			report := readWS(t, done, "report.md")
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
