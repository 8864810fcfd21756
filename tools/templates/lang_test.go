package templates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// formatArg says which argument of each function that ends in textIn is
// its English format (or a word textIn translates).
var formatArg = map[string]int{"textIn": 1, "reason": 0, "miss": 0, "pick": 0, "note": 0, "setCategory": 1, "chosenColumns": 4}

// TestChineseTextCoversEveryFormat: every English format the package's Go
// code hands to textIn (directly or through reason, miss, pick, note) has
// its Chinese in chineseText, taking the same arguments, and chineseText
// holds nothing the code no longer writes. A new English reason without
// its Chinese would reach a Chinese report in English.
func TestChineseTextCoversEveryFormat(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "lang.go" {
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
				if _, ok := chineseText[s]; !ok {
					t.Errorf("%s: %q has no Chinese in chineseText", fset.Position(lit.Pos()), s)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				var fn string
				switch f := n.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				if i, ok := formatArg[fn]; ok && i < len(n.Args) {
					literal(n.Args[i])
				}
			case *ast.AssignStmt:
				// format := "..." chosen before a textIn call.
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "format" && i < len(n.Rhs) {
						literal(n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	for en, zh := range chineseText {
		if !used[en] {
			t.Errorf("chineseText holds %q, which no code writes", en)
		}
		if a, b := verbs(en), verbs(zh); !slices.Equal(a, b) {
			t.Errorf("%q takes %v but its Chinese %q takes %v", en, a, zh, b)
		}
	}
}

// verbRe finds a fmt verb, with an explicit argument index or not.
var verbRe = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z%])`)

// verbs lists the arguments a format takes, in argument order, each as
// "index:verb"; %q and %s count alike (Chinese quotes “%s”).
func verbs(format string) []string {
	var out []string
	next := 1
	for _, m := range verbRe.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		v := m[2]
		if v == "q" {
			v = "s"
		}
		out = append(out, strconv.Itoa(next)+":"+v)
		next++
	}
	slices.Sort(out)
	return out
}

// TestTextIn: English formats as given, Chinese from chineseText, and a
// format without Chinese stays English rather than failing.
func TestTextIn(t *testing.T) {
	for _, tt := range []struct{ lang, format, want string }{
		{"", "measure: %s (%s)", "measure: revenue (named in the request)"},
		{LangChinese, "measure: %s (%s)", "度量：revenue（named in the request）"},
		{LangChinese, "the request names %d columns of %s", "请求提到了 input/sales.csv 中的 2 列"},
		{LangChinese, "no such format %s", "no such format x"},
	} {
		args := []any{"revenue", "named in the request"}
		switch tt.format {
		case "the request names %d columns of %s":
			args = []any{2, "input/sales.csv"}
		case "no such format %s":
			args = []any{"x"}
		}
		if got := textIn(tt.lang, tt.format, args...); got != tt.want {
			t.Errorf("textIn(%q, %q) = %q, want %q", tt.lang, tt.format, got, tt.want)
		}
	}
}

// TestReasonsFollowTheRequestsLanguage: a request in Chinese gets its
// reasons (why the template matched, and why each column was picked) in
// Chinese; the data's column names, the template's name and parameter
// codes stay. The same request in English keeps English reasons.
func TestReasonsFollowTheRequestsLanguage(t *testing.T) {
	keep := map[string]bool{"input": true, "csv": true, "sales": true, "visits": true, "metrics": true}
	for _, p := range []*preview.FilePreview{salesPreview, eventsPreview, visitsPreview, metricsPreview} {
		for _, c := range p.Sheets[0].Columns {
			for _, w := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(c.Name, -1) {
				keep[w] = true
			}
		}
	}
	for _, n := range Names() {
		for _, w := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(n, -1) {
			keep[w] = true
		}
	}
	for _, tt := range []struct {
		request string
		file    *preview.FilePreview
		en      string
	}{
		{"按region统计amount总和的前3名", salesPreview, ""},
		{"收入最低的3个地区", salesPreview, ""},
		{"amount的月度趋势", salesPreview, ""},
		{"amount的环比变化", salesPreview, ""},
		{"按region和product的amount数据透视表", salesPreview, ""},
		{"price和demand的相关性", metricsPreview, ""},
		{"returns的异常值", metricsPreview, ""},
		{"用户的月度同期群留存", visitsPreview, ""},
		{"数据概况", salesPreview, ""},
		{"top 3 regions by amount", salesPreview, "measure: amount (named in the request)"},
	} {
		m := MatchRequest(tt.request, []*preview.FilePreview{tt.file})
		if !m.OK() {
			t.Fatalf("MatchRequest(%q) matched nothing: %v", tt.request, m.Reasons)
		}
		reasons := strings.Join(append(append([]string(nil), m.Reasons...), m.Params.Reasons...), "\n")
		if tt.en != "" {
			if !strings.Contains(reasons, tt.en) {
				t.Errorf("%q: reasons lack %q:\n%s", tt.request, tt.en, reasons)
			}
			continue
		}
		var english []string
		for _, w := range regexp.MustCompile(`[A-Za-z]{2,}`).FindAllString(reasons, -1) {
			if !keep[w] {
				english = append(english, w)
			}
		}
		if len(english) > 0 || !strings.Contains(reasons, "请求") {
			t.Errorf("%q: reasons say %q in English:\n%s", tt.request, english, reasons)
		}
	}
}
