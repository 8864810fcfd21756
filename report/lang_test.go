package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/plans"
)

// TestReportChineseCovers: every English text the report code hands to
// Textf has its Chinese in reportChinese, with as many arguments, and
// reportChinese holds nothing the code no longer writes.
func TestReportChineseCovers(t *testing.T) {
	used := map[string]bool{}
	for _, s := range []plans.StepStatus{plans.StatusTodo, plans.StatusDoing, plans.StatusDone, plans.StatusFailed, plans.StatusSkipped} {
		used[string(s)] = true
		if reportChinese[string(s)] == "" {
			t.Errorf("status %q has no Chinese", s)
		}
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		literal := func(e ast.Expr) {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				used[s] = true
				if _, ok := reportChinese[s]; !ok {
					t.Errorf("%s: %q has no Chinese in reportChinese", fset.Position(lit.Pos()), s)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "Textf" && len(n.Args) > 1 {
					literal(n.Args[1])
				}
			case *ast.AssignStmt:
				// format := "..." chosen before an Textf call.
				if name == "document.go" {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok && id.Name == "format" && i < len(n.Rhs) {
							literal(n.Rhs[i])
						}
					}
				}
			}
			return true
		})
	}
	verb := regexp.MustCompile(`%[-+# 0]*\d*(?:\.\d+)?[a-zA-Z]`)
	for en, zh := range reportChinese {
		if !used[en] {
			t.Errorf("reportChinese holds %q, which no code writes", en)
		}
		if a, b := verb.FindAllString(en, -1), verb.FindAllString(zh, -1); strings.Join(a, " ") != strings.Join(b, " ") {
			t.Errorf("%q takes %v but its Chinese %q takes %v", en, a, zh, b)
		}
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
			{Step: plans.Step{Index: 2, Description: "画图"}, Status: plans.StatusFailed, Summary: FailedPrefix + " ValueError: no data\nTraceback (most recent call last):\n  File \"x\", line 1\nValueError: no data"},
		}, Result: &plans.SubmitResult{Answer: "North [step 1]"}}
		if got := OutcomeOf(fp).Failures(); !strings.Contains(got, "- Step 2 failed: ") {
			t.Errorf("%q: what the models read of failed steps must stay English: %q", tt.question, got)
		}
		fallback := Fallback(fp, []string{"out/t.csv"}, "")
		model := WithUncomputed(Complete("# 结果\n\nNorth 最高 [step 1]，见图 [step 2]。\n\n![chart](out/chart.png)", fp, []string{"out/t.csv"}), OutcomeFor(fp))
		model, _, _ = WithoutUnwritten(dir, model, nil, Chinese(fp))
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
