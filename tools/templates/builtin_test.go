package templates

import (
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
// line, and offered as a next question, with no other edit.
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
