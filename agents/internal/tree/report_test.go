package tree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
)

// TestFailureReadsAsTheAnalystNeedsIt: a failed step's summary as the
// issue saw it, a traceback cut for the model with a hint for the model,
// reads as the exception in one sentence with the traceback apart, and
// neither the hint nor the cut marker.
func TestFailureReadsAsTheAnalystNeedsIt(t *testing.T) {
	summary := "FAILED: Error: the code failed.\nTraceback (most recent call last):\n  File \"<cell>\", line 3, in <module> ra [... 88 characters cut ...] ing\nKeyError: 'Region'\nHint: read the traceback, fix the line it points to, and run again."
	sentence, detail := report.FailureOf(summary)
	if sentence != "the code failed: KeyError: 'Region'" {
		t.Errorf("sentence = %q, want what failed and the exception", sentence)
	}
	for _, s := range []string{sentence, detail} {
		if strings.Contains(s, "Hint") || strings.Contains(s, "characters cut") || strings.Contains(s, "88") {
			t.Errorf("model-directed text shown to the analyst: %q", s)
		}
	}
	if !strings.HasPrefix(detail, "Traceback (most recent call last)") || !strings.Contains(detail, "line 3") {
		t.Errorf("detail = %q, want the traceback", detail)
	}
	// The report's note on it is checked for no number: Sift wrote it.
	o := report.OutcomeOf(&plans.FullPlan{Steps: []plans.StepState{
		{Step: plans.Step{Index: 1, Description: "x"}, Status: plans.StatusFailed, Summary: summary},
		{Step: plans.Step{Index: 2, Description: "y"}, Status: plans.StatusFailed, Summary: "FAILED: ValueError: could not convert '4,210.57' to float"},
	}})
	md := report.WithUncomputed("# Report\n\nNothing.\n", o)
	marked, bad := markReport(md, runEvidence("", prompt.View{}, nil), o.SiftText()...)
	if len(bad) > 0 || strings.Contains(marked, "⚠") {
		t.Errorf("the number check flagged Sift's own text: %v\n%s", bad, marked)
	}
	if !strings.Contains(md, "```traceback\n") {
		t.Errorf("the traceback is not in a folded block:\n%s", md)
	}
	html, err := report.RenderReportHTML("r", []byte(md), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "<details class=\"traceback\"><summary>Traceback</summary>") || !strings.Contains(string(html), "KeyError: &#39;Region&#39;") {
		t.Errorf("report.html does not fold the traceback:\n%s", html)
	}
}

// TestReportWordsFollowTheQuestion: the parts of a report Sift writes
// itself — the report assembled from the steps, the note over steps that
// computed nothing, files the run never wrote, files the model left out —
// are Chinese for a question in Chinese and English for one in English.
func TestReportWordsFollowTheQuestion(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "out", "t.csv"), []byte("a\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		question  string
		want, not []string
	}{
		{"哪个地区的收入最高？",
			[]string{"# 报告", "**问题：** 哪个地区的收入最高？", "## 回答", "## 步骤", "### 步骤 1 — 按地区汇总（完成）", "### 步骤 2 — 画图（失败）", "失败原因：", "## 文件",
				"> **未计算：**", "> 步骤 2 失败：", "[step 2：失败，没有计算结果]", "## 失败详情", "chart（`out/chart.png`，未生成）", "> **未生成：** 本报告提到了 1 个"},
			[]string{"Report", "Question", "Answer", "Steps", "What failed", "Files", "Not computed", "not written", "Not written"}},
		{"Which region earns most?",
			[]string{"# Report", "**Question:** Which region earns most?", "## Answer", "## Steps", "### Step 1 — 按地区汇总 (done)", "### Step 2 — 画图 (failed)", "What failed: ", "## Files",
				"> **Not computed:**", "> Step 2 failed: ", "[step 2: failed, no computed result]", "## What failed", "chart (`out/chart.png`, not written)", "> **Not written:** this report names 1 file that"},
			[]string{"报告", "问题：", "步骤", "文件", "未计算", "未生成"}},
	} {
		fp := &plans.FullPlan{Question: tt.question, Steps: []plans.StepState{
			{Step: plans.Step{Index: 1, Description: "按地区汇总"}, Status: plans.StatusDone, Summary: "North 最高"},
			{Step: plans.Step{Index: 2, Description: "画图"}, Status: plans.StatusFailed, Summary: report.FailedPrefix + " ValueError: no data\nTraceback (most recent call last):\n  File \"x\", line 1\nValueError: no data"},
		}, Result: &plans.SubmitResult{Answer: "North [step 1]"}}
		if got := report.OutcomeOf(fp).Failures(); !strings.Contains(got, "- Step 2 failed: ") {
			t.Errorf("%q: what the models read of failed steps must stay English: %q", tt.question, got)
		}
		fallback := FallbackReport(fp, []string{"out/t.csv"}, "")
		model := report.WithUncomputed(completeReport("# 结果\n\nNorth 最高 [step 1]，见图 [step 2]。\n\n![chart](out/chart.png)", fp, []string{"out/t.csv"}), report.OutcomeFor(fp))
		model, _, _ = withoutUnwritten(dir, model, nil, report.Chinese(fp))
		all := fallback + "\n" + model
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("%q: the report lacks %q:\n%s", tt.question, w, all)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(all, w) {
				t.Errorf("%q: the report says %q:\n%s", tt.question, w, all)
			}
		}
	}
}
