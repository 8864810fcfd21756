package report

import (
	"go/ast"
	"go/parser"
	"go/token"
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
	// The tree's report agent writes into the report too.
	files, _ := filepath.Glob("*.go")
	tree, _ := filepath.Glob(filepath.Join("..", "agents", "internal", "tree", "*.go"))
	files = append(files, tree...)
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
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Textf" && len(n.Args) > 1 {
					literal(n.Args[1])
				}
			case *ast.AssignStmt:
				// format := "..." chosen before an Textf call.
				if filepath.Base(name) == "report.go" {
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
