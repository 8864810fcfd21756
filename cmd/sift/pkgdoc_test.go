package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageHasItsDoc walks the module: every package must have one
// doc comment, and it must name the package itself ("Package plans …",
// "Command sift …" for a command), so a doc copied from another package
// or left behind by a rename fails here.
func TestEveryPackageHasItsDoc(t *testing.T) {
	root := filepath.Join("..", "..")
	dirs := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			dirs[filepath.Dir(p)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		docs, name := packageDocs(t, dir)
		want := "Package " + name + " "
		if name == "main" {
			want = "Command " + filepath.Base(dir) + " "
		}
		switch {
		case len(docs) == 0:
			t.Errorf("%s: package %s has no doc comment; say what it owns in one, starting %q", rel, name, want)
		case len(docs) > 1:
			t.Errorf("%s: package %s has %d doc comments (%s); keep one", rel, name, len(docs), strings.Join(docs, ", "))
		case !strings.HasPrefix(docs[0], want):
			t.Errorf("%s: the package doc starts %q, want %q", rel, firstWords(docs[0]), want)
		}
	}
}

// packageDocs returns the package doc comments of dir's Go files (its
// test files when it has nothing else), with the files holding them, and
// the package's name.
func packageDocs(t *testing.T, dir string) (docs []string, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files, tests []string
	for _, e := range entries {
		switch n := e.Name(); {
		case strings.HasSuffix(n, "_test.go"):
			tests = append(tests, n)
		case strings.HasSuffix(n, ".go"):
			files = append(files, n)
		}
	}
	if len(files) == 0 {
		files = tests
	}
	fset := token.NewFileSet()
	for _, n := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		name = f.Name.Name
		if f.Doc != nil {
			docs = append(docs, f.Doc.Text())
		}
	}
	return docs, name
}

func firstWords(s string) string {
	if f := strings.Fields(s); len(f) > 3 {
		return strings.Join(f[:3], " ")
	}
	return s
}
