package templates

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// mplDir is one matplotlib cache shared by every test workspace, so the
// font cache is built once per test binary rather than once per test.
var (
	mplOnce sync.Once
	mplDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if mplDir != "" {
		os.RemoveAll(mplDir)
	}
	os.Exit(code)
}

// pythonOrSkip returns a usable interpreter or skips the test.
func pythonOrSkip(t testing.TB) string {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("skipping: no Python with pandas, numpy, matplotlib and openpyxl: %v", err)
	}
	return py
}

// workspace makes a workspace with the given input files and a Local
// operator over it.
func workspace(t testing.TB, files map[string][]byte) *operator.Local {
	t.Helper()
	py := pythonOrSkip(t)
	mplOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sift-templates-mpl-")
		if err == nil {
			mplDir = dir
		}
	})
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
	var env []string
	if mplDir != "" {
		env = append(env, "MPLCONFIGDIR="+mplDir)
	}
	op, err := operator.NewLocal(operator.LocalConfig{Root: root, Python: py, ExtraEnv: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	return op
}

// previewOf previews a workspace input file as the lead's code would.
func previewOf(t testing.TB, op operator.Operator, rel string) *preview.FilePreview {
	t.Helper()
	p, err := preview.File(context.Background(), filepath.Join(op.Root(), rel), preview.Options{BaseDir: op.Root()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// csvText joins rows into CSV text (no quoting needed by the generators).
func csvText(header []string, rows [][]string) []byte {
	var b strings.Builder
	b.WriteString(strings.Join(header, ",") + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	return []byte(b.String())
}

func ftoa(f float64) string { return fmt.Sprintf("%g", f) }

// near reports whether a and b agree to 1e-6 relative.
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// previewSheet is a preview of one CSV-like table with the given columns
// and types, for matcher tests that need no file.
func previewSheet(name string, cols ...string) *preview.FilePreview {
	var cs []preview.Column
	for _, c := range cols {
		n, typ, _ := strings.Cut(c, ":")
		cs = append(cs, preview.Column{Name: n, Type: typ})
	}
	return &preview.FilePreview{Path: name, Name: name, Kind: preview.KindCSV, Encoding: preview.EncodingUTF8, Delimiter: ",",
		Sheets: []preview.SheetPreview{{Name: strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)), Columns: cs, RowCount: 100, RowCountExact: true}}}
}
