package templates

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBuiltinsAreRegisteredOnce: every builtin value declared in a
// builtin_<name>.go is in builtins, once, and what the matcher and the
// suggestions order by (rank, suggestion order) is each built-in's own, so
// no built-in is silently left out or shadowed by another.
func TestBuiltinsAreRegisteredOnce(t *testing.T) {
	files, err := filepath.Glob("builtin_*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.CompositeLit); ok {
						if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "builtin" {
							declared = append(declared, f+": "+vs.Names[i].Name)
							n++
						}
					}
				}
			}
		}
		if n != 1 {
			t.Errorf("%s declares %d builtin values, want one", f, n)
		}
	}
	seen := map[*builtin]bool{}
	for _, b := range builtins {
		if seen[b] {
			t.Errorf("%s is listed twice in builtins", b.Name)
		}
		seen[b] = true
	}
	if len(seen) != len(declared) {
		t.Errorf("builtins lists %d built-ins, the builtin_*.go files declare %d (%s): list each once", len(seen), len(declared), strings.Join(declared, ", "))
	}
	names, ranks, orders := map[string]string{}, map[int]string{}, map[int]string{}
	cueOf := map[string]string{}
	for _, b := range builtins {
		if other, ok := names[b.Name]; ok {
			t.Errorf("name %q of %s is also %s's", b.Name, b.Name, other)
		}
		names[b.Name] = b.Name
		for _, a := range b.aliases {
			if other, ok := names[a]; ok {
				t.Errorf("alias %q of %s is also %s's", a, b.Name, other)
			}
			names[a] = b.Name
		}
		if other, ok := ranks[b.rank]; ok || b.rank <= 0 {
			t.Errorf("%s: rank %d is not its own (also %q), or not positive", b.Name, b.rank, other)
		}
		ranks[b.rank] = b.Name
		if b.suggestion != nil {
			if other, ok := orders[b.suggestion.order]; ok {
				t.Errorf("%s: suggestion order %d is also %s's", b.Name, b.suggestion.order, other)
			}
			orders[b.suggestion.order] = b.Name
		}
		if b.titleZh == "" || !hasHan(b.titleZh) {
			t.Errorf("%s: no Chinese title (%q)", b.Name, b.titleZh)
		}
		if len(b.cues) == 0 {
			t.Errorf("%s: no cues select it", b.Name)
		}
		for _, w := range slices.Concat(b.words, b.phrases, b.wordsZh) {
			if other, ok := cueOf[w]; ok {
				t.Errorf("the cue word %q names both %s and %s", w, other, b.Name)
			}
			cueOf[w] = b.Name
		}
		if _, err := pyFiles.ReadFile(b.cell); err != nil {
			t.Errorf("%s: its cell: %v", b.Name, err)
		}
	}
}

// TestEveryBuiltinIsSelectedByItsExample: each built-in's example request
// selects it, by its strongest cue and by the whole match, whatever the
// other built-ins' ranks.
func TestEveryBuiltinIsSelectedByItsExample(t *testing.T) {
	for _, b := range builtins {
		if sc := scoreCues(normalize(b.Example)); len(sc) == 0 || sc[0].name != b.Name {
			t.Errorf("%s: its example %q scores %v first", b.Name, b.Example, sc)
		}
		if m := MatchRequest(b.Example, exampleFiles(b.Name)); m.Template != b.Name {
			t.Errorf("%s: its example %q matched %q (%v)", b.Name, b.Example, m.Template, m.Reasons)
		}
	}
}

// extentBuiltin is a toy built-in, declared here only: the smallest and
// the largest value of a measure.
var extentBuiltin = builtin{
	Template: Template{Name: "extent", Title: "Extent", cell: "py/distribution.py",
		Description: "The smallest and the largest value of a measure.",
		Params:      []string{"columns: the numeric columns"},
		Example:     "extent of amount"},
	titleZh:   "跨度",
	rank:      99,
	cues:      cues(0.9, `\bextents?\b`, `跨度`),
	words:     []string{"extent"},
	wordsZh:   []string{"跨度"},
	columnsIn: true,
	infer: func(in *inference, r *request, cols []*column) {
		inferColumns(in, numericMentions(r), cols)
	},
	head: func(r Reading, lang string) string {
		var cols []string
		for _, m := range r.Measures {
			cols = append(cols, m.Column)
		}
		if lang == LangChinese {
			return strings.Join(cols, "、") + " 的跨度"
		}
		return "Extent of " + strings.Join(cols, ", ")
	},
	suggestion: &suggestion{order: 1, ask: func(c suggestColumns) ([][2]string, []any) {
		return one("What is the extent of %s?", "%s的跨度是多少？"), []any{c.measure}
	}},
	// A request of one measure and nothing else, which no other built-in
	// claims, is its extent.
	choice: &choice{order: 1, claims: func(a *asking, r Reading) bool {
		return len(a.measures) == 1 && len(a.dims) == 0 && a.aggs == 0 && a.years == 0 && a.period == "" && !a.ranking && a.order == "" && len(r.Filters) == 0
	}},
	// Its DuckDB engine computes the smallest and the largest value, and
	// its Go renderer says them: no Python cell.
	duck: &duckEngine{
		run: func(d *duckTable, ctx context.Context, _, _ string, p *Params) error {
			if len(p.Columns) != 1 {
				return templateError("extent reads one column")
			}
			c, err := d.col(p.Columns[0], "column")
			if err != nil {
				return err
			}
			rows, err := d.query(ctx, "SELECT min("+number(c)+"), max("+number(c)+") FROM "+d.view)
			if err != nil {
				return err
			}
			d.pre["extent"] = []any{c.name, toFloat(rows[0][0]), toFloat(rows[0][1])}
			return nil
		},
		render: func(n *native) error {
			e := n.pre["extent"].([]any)
			n.out.Answer = n.tr(fmt.Sprintf("%s runs from %g to %g.", e...), fmt.Sprintf("%s 从 %g 到 %g。", e...))
			return nil
		},
	},
}

// withBuiltins makes list the catalog for the rest of the test, its words
// in the lexicon; the catalog and the lexicon are restored after.
func withBuiltins(t *testing.T, list ...*builtin) {
	saved := builtins
	savedEn, savedPh, savedZh := cloneMap(enWords), cloneMap(enPhrases), cloneMap(zhWords)
	builtins = list
	for _, b := range list {
		b.addWords()
		b.addWordsZh()
	}
	t.Cleanup(func() {
		builtins = saved
		enWords, enPhrases, zhWords = savedEn, savedPh, savedZh
	})
}

func cloneMap(m map[string]entry) map[string]entry {
	out := make(map[string]entry, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestANewBuiltinTouchesOnlyItsOwnFile: a built-in declared in one value
// (here, in this file), added to a fresh catalog, is looked up, titled in
// English and Chinese, matched by its words, read with its own first
// line, chosen by its own rule for a request that cues no built-in, run
// by its own DuckDB engine and rendered by its own Go renderer, and
// offered as a next question, with no other edit.
func TestANewBuiltinTouchesOnlyItsOwnFile(t *testing.T) {
	withBuiltins(t, append(slices.Clone(builtins), &extentBuiltin)...)
	files := exampleFiles("")
	tpl, err := Lookup("Extent")
	if err != nil || tpl.TitleIn("") != "Extent" || tpl.TitleIn(LangChinese) != "跨度" {
		t.Fatalf("Lookup: %+v %v, titles %q %q", tpl, err, tpl.TitleIn(""), tpl.TitleIn(LangChinese))
	}
	if !slices.Contains(Names(), "extent") || !strings.Contains(CatalogText(), "extent: The smallest") {
		t.Errorf("not in the catalog: %v", Names())
	}
	for _, tc := range []struct{ request, lang, text string }{
		{"extent of amount", "", "Extent of amount"},
		{"amount的跨度", LangChinese, "amount 的跨度"},
	} {
		m := MatchRequest(tc.request, files)
		if m.Template != "extent" {
			t.Errorf("%q matched %q %+v (%v)", tc.request, m.Template, m.Params, m.Reasons)
		}
		if got := m.Reading.Text(tc.lang); !strings.HasPrefix(got, tc.text) {
			t.Errorf("%q reads %q, want it to start %q", tc.request, got, tc.text)
		}
		// Its input is a list of columns (columnsIn): the measure named is
		// its column, not aggregated.
		if !slices.Equal(m.Reading.Columns, []string{"amount"}) || !slices.Equal(m.Params.Columns, []string{"amount"}) || m.Reading.Measures[0].Agg != "" {
			t.Errorf("%q reads columns %q (params %q), measures %+v, want amount, not aggregated", tc.request, m.Reading.Columns, m.Params.Columns, m.Reading.Measures)
		}
	}
	// Its reading choice: a request naming one measure alone.
	if rd, _, _ := Understand("amount", files); rd.Analysis != "extent" {
		t.Errorf("%q reads as %q, want extent (its choice rule)", "amount", rd.Analysis)
	}
	// Its DuckDB engine and Go renderer, with no Python cell.
	if !HasDuckDBEngine("extent") || EngineFor("extent", "input/x.csv", "") != EngineDuckDB {
		t.Errorf("extent has no DuckDB engine")
	}
	op := workspace(t, map[string][]byte{"x.csv": []byte("amount,region\n3,a\n-1.5,b\n7,a\n")})
	m := MatchRequest("extent of amount", files)
	res, err := RunWith(context.Background(), op, "input/x.csv", m, RunOptions{Engine: EngineDuckDB})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if res.Engine != EngineDuckDB || !strings.HasSuffix(res.Answer, "amount runs from -1.5 to 7.") || len(res.SQL) == 0 {
		t.Errorf("run: engine %q, answer %q, SQL %q", res.Engine, res.Answer, res.SQL)
	}
	for _, q := range []string{"top 5 products by amount", "按产品统计amount的前5名"} {
		got := Suggest(q, TopN, Params{}, files)
		want := "What is the extent of amount?"
		if hasHan(q) {
			want = "amount的跨度是多少？"
		}
		if len(got) == 0 || got[0] != want {
			t.Errorf("Suggest(%q) = %q, want %q first", q, got, want)
		}
	}
}

// TestNoSwitchOnBuiltinNames: outside the built-ins' own files
// (builtin_*.go) and the names' declaration (catalog.go), no code of the
// package names a built-in, by its constant or its name as a string
// compared or switched on: what differs between built-ins is a property
// or a hook of their values, so that a new built-in touches its own file
// and not the dispatch points. allowed lists the exceptions, each with
// why; keep it empty.
func TestNoSwitchOnBuiltinNames(t *testing.T) {
	allowed := map[string]string{}
	names := map[string]bool{}
	for _, b := range builtins {
		names[b.Name] = true
	}
	consts := map[string]bool{}
	fset := token.NewFileSet()
	catalog, err := parser.ParseFile(fset, "catalog.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range catalog.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && names[strings.Trim(lit.Value, `"`)] {
						consts[vs.Names[i].Name] = true
					}
				}
			}
		}
	}
	if len(consts) != len(builtins) {
		t.Fatalf("catalog.go declares %d built-in name constants, want %d", len(consts), len(builtins))
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "builtin_") || f == "catalog.go" {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		report := func(n ast.Node, what string) {
			pos := fset.Position(n.Pos())
			at := fmt.Sprintf("%s:%d", f, pos.Line)
			if _, ok := allowed[at+" "+what]; !ok {
				t.Errorf("%s names the built-in %s: make it a property or hook of the builtin value", at, what)
			}
		}
		isName := func(e ast.Expr) bool {
			lit, ok := e.(*ast.BasicLit)
			return ok && lit.Kind == token.STRING && names[strings.Trim(lit.Value, "\"`")]
		}
		sel := map[*ast.Ident]bool{} // a field or method called so, not the constant
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				sel[n.Sel] = true
			case *ast.Ident:
				if consts[n.Name] && !sel[n] {
					report(n, n.Name)
				}
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isName(n.X) || isName(n.Y)) {
					report(n, "name compared")
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if isName(e) {
						report(e, "name in a case")
					}
				}
			}
			return true
		})
	}
}
