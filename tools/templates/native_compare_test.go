package templates

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// The built-ins rendered in Go are held to their Python cells: the same
// DuckDB aggregates rendered both ways must give the same answer, notes,
// section titles and Markdown, the same numbers (exactly) and CSV files
// byte for byte. The charts are drawn by different libraries, so only
// their presence is compared.

// renderedByPython runs m on file through the DuckDB engine with the
// template's Python cell drawing the aggregates, as before it was
// rendered in Go. Tests that call it must not run in parallel.
func renderedByPython(t *testing.T, op operator.Operator, file string, m Match, lang string) *Result {
	t.Helper()
	eng := builtinNamed(m.Template).duck
	render := eng.render
	if render == nil {
		t.Fatalf("%s is not rendered in Go", m.Template)
	}
	eng.render = nil
	defer func() { eng.render = render }()
	r, err := RunWith(context.Background(), op, file, m, RunOptions{Engine: EngineDuckDB, Lang: lang})
	if err != nil {
		t.Fatalf("python rendering: %v", err)
	}
	return r
}

// renderShape is one file and request both renderers draw.
type renderShape struct {
	name string
	file string // under input/
	data []byte
	m    Match
	lang string
}

// checkSameRendering renders each shape in Go and by its Python cell
// and compares the results. The shapes share one workspace (and one
// kernel), each file named after its shape.
func checkSameRendering(t *testing.T, shapes []renderShape) {
	t.Helper()
	checkRenderings(t, shapes, false)
}

// checkSameAsPandas compares each shape rendered in Go with the pandas
// engine's rendering, for shapes whose Python cell cannot draw the
// DuckDB engine's aggregates.
func checkSameAsPandas(t *testing.T, shapes []renderShape) {
	t.Helper()
	checkRenderings(t, shapes, true)
}

func checkRenderings(t *testing.T, shapes []renderShape, pandas bool) {
	t.Helper()
	files := map[string][]byte{}
	for i, s := range shapes {
		files[fmt.Sprintf("%d_%s", i, s.file)] = s.data
	}
	op := workspace(t, files)
	for i, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			file := fmt.Sprintf("input/%d_%s", i, s.file)
			goRes, err := RunWith(context.Background(), op, file, s.m, RunOptions{Engine: EngineDuckDB, Lang: s.lang})
			if err != nil {
				t.Fatalf("go rendering: %v", err)
			}
			var pyRes *Result
			if pandas {
				if pyRes, err = RunWith(context.Background(), op, file, s.m, RunOptions{Engine: EnginePandas, Lang: s.lang}); err != nil {
					t.Fatalf("pandas rendering: %v", err)
				}
			} else {
				pyRes = renderedByPython(t, op, file, s.m, s.lang)
			}
			sameRendering(t, op, goRes, pyRes)
		})
	}
}

// sameRendering compares a Go rendering with a Python one.
func sameRendering(t *testing.T, op operator.Operator, goRes, pyRes *Result) {
	t.Helper()
	if goRes.Answer != pyRes.Answer {
		t.Errorf("answers differ:\ngo     %s\npython %s", goRes.Answer, pyRes.Answer)
	}
	if g, p := strings.Join(goRes.Notes, "\n"), strings.Join(pyRes.Notes, "\n"); g != p {
		t.Errorf("notes differ:\ngo     %q\npython %q", goRes.Notes, pyRes.Notes)
	}
	if g, p := strings.Join(goRes.Picked, "\n"), strings.Join(pyRes.Picked, "\n"); g != p {
		t.Errorf("picked differ:\ngo     %q\npython %q", goRes.Picked, pyRes.Picked)
	}
	var gd, pd any
	if err := json.Unmarshal(goRes.Data, &gd); err != nil {
		t.Fatalf("go data: %v", err)
	}
	if err := json.Unmarshal(pyRes.Data, &pd); err != nil {
		t.Fatalf("python data: %v", err)
	}
	for _, d := range jsonDiff("data", gd, pd) {
		t.Error(d)
	}
	if len(goRes.Sections) != len(pyRes.Sections) {
		t.Fatalf("sections: go %d, python %d\ngo %+v\npython %+v", len(goRes.Sections), len(pyRes.Sections), goRes.Sections, pyRes.Sections)
	}
	for i, g := range goRes.Sections {
		p := pyRes.Sections[i]
		if g.Title != p.Title {
			t.Errorf("section %d title: go %q, python %q", i, g.Title, p.Title)
		}
		if g.Markdown != p.Markdown {
			t.Errorf("section %d markdown differs:\ngo:\n%s\npython:\n%s", i, g.Markdown, p.Markdown)
		}
		if gs, ps := fileKinds(g.Files), fileKinds(p.Files); gs != ps {
			t.Errorf("section %d files: go %v, python %v", i, g.Files, p.Files)
			continue
		}
		for k, f := range g.Files {
			gb, err := os.ReadFile(filepath.Join(op.Root(), f))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(f, ".png") {
				if _, err := png.Decode(bytes.NewReader(gb)); err != nil {
					t.Errorf("%s is not a PNG: %v", f, err)
				}
				continue
			}
			pb, err := os.ReadFile(filepath.Join(op.Root(), p.Files[k]))
			if err != nil {
				t.Fatal(err)
			}
			if d := csvDiff(gb, pb); d != "" {
				t.Errorf("%s differs from %s: %s\ngo:\n%s\npython:\n%s", f, p.Files[k], d, gb, pb)
			}
		}
	}
	if len(goRes.SQL) == 0 {
		t.Error("the Go rendering names no SQL")
	}
}

// csvDiff says where two CSV files differ: a cell differs unless it is
// the same text or the same number (the Python cell, given the DuckDB
// engine's aggregates through JSON, reads a whole number as an int and
// writes 23 where pandas' own statistics are floats written 23.0, as the
// Go rendering writes them).
func csvDiff(a, b []byte) string {
	ra, err := csv.NewReader(bytes.NewReader(a)).ReadAll()
	if err != nil {
		return err.Error()
	}
	rb, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return err.Error()
	}
	if len(ra) != len(rb) {
		return fmt.Sprintf("%d rows, python %d", len(ra), len(rb))
	}
	for i := range ra {
		if len(ra[i]) != len(rb[i]) {
			return fmt.Sprintf("row %d has %d cells, python %d", i, len(ra[i]), len(rb[i]))
		}
		for j, x := range ra[i] {
			y := rb[i][j]
			if x == y {
				continue
			}
			fx, ex := strconv.ParseFloat(x, 64)
			fy, ey := strconv.ParseFloat(y, 64)
			if ex != nil || ey != nil || fx != fy || !strings.HasSuffix(x, ".0") {
				return fmt.Sprintf("row %d cell %d: go %q, python %q", i, j, x, y)
			}
		}
	}
	return ""
}

// fileKinds is a section's files without their stems ("_chart.png
// _table.csv").
func fileKinds(files []string) string {
	var out []string
	for _, f := range files {
		b := path.Base(f)
		out = append(out, b[strings.LastIndexByte(b, '_'):])
	}
	return strings.Join(out, " ")
}

// jsonDiff lists where two decoded JSON values differ, exactly.
func jsonDiff(at string, a, b any) []string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: go %v, python %v", at, a, b)}
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		var out []string
		for _, k := range ks {
			xv, xok := x[k]
			yv, yok := y[k]
			if xok != yok {
				out = append(out, fmt.Sprintf("%s.%s: go %v (present %v), python %v (present %v)", at, k, xv, xok, yv, yok))
				continue
			}
			out = append(out, jsonDiff(at+"."+k, xv, yv)...)
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return []string{fmt.Sprintf("%s: go %v, python %v", at, a, b)}
		}
		var out []string
		for i := range x {
			out = append(out, jsonDiff(fmt.Sprintf("%s[%d]", at, i), x[i], y[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(a, b) {
		return []string{fmt.Sprintf("%s: go %#v, python %#v", at, a, b)}
	}
	return nil
}

// pythonless is an operator over a workspace with the given files that
// fails every Python run, made without looking for an interpreter: what
// runs on it needs no Python at all.
func pythonless(t *testing.T, files map[string][]byte) operator.Operator {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, "input", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	op, err := operator.NewLocal(operator.LocalConfig{Root: root, Python: "/nonexistent/python3"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	return noPython{op}
}

// checkNeedsNoPython runs each match on a Python-less operator and checks
// that the DuckDB engine answered, with its SQL and its files.
func checkNeedsNoPython(t *testing.T, files map[string][]byte, file string, ms ...Match) {
	t.Helper()
	op := pythonless(t, files)
	for _, m := range ms {
		r, err := Run(context.Background(), op, "input/"+file, m)
		if err != nil {
			t.Fatalf("%s %+v: %v", m.Template, m.Params, err)
		}
		if r.Engine != EngineDuckDB {
			t.Errorf("%s: engine %s, want duckdb", m.Template, r.Engine)
		}
		if len(r.SQL) == 0 || !strings.Contains(strings.Join(r.SQL, "\n"), "SELECT") {
			t.Errorf("%s: SQL %q does not show the queries that computed it", m.Template, r.SQL)
		}
		if len(r.Files) == 0 {
			t.Errorf("%s: no files", m.Template)
		}
		for _, f := range r.Files {
			if fi, err := os.Stat(filepath.Join(op.Root(), f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: file %s missing or empty (%v)", m.Template, f, err)
			}
		}
	}
}
