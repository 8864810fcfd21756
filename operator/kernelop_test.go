package operator

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestKernelOperatorFileOps(t *testing.T) {
	root, outside := newWorkspace(t)
	op, err := NewKernelOperator(KernelConfig{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	ctx := context.Background()
	if data, _, err := op.ReadFile(ctx, "input/sales.csv", 0); err != nil || string(data) != "region,amount\nnorth,10\nsouth,20\n" {
		t.Errorf("ReadFile = %q, %v", data, err)
	}
	if err := op.WriteFile(ctx, "out/r.csv", []byte("a\n")); err != nil {
		t.Errorf("WriteFile: %v", err)
	}
	if err := op.WriteFile(ctx, "input/sales.csv", []byte("x")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("WriteFile(input/) error = %v; want ErrReadOnly", err)
	}
	if _, err := op.Resolve(outside); !errors.Is(err, ErrOutsideWorkspace) {
		t.Errorf("Resolve(outside) error = %v; want ErrOutsideWorkspace", err)
	}
	if _, _, err := op.ReadFile(ctx, "work/abs_out/secret.txt", 0); !errors.Is(err, ErrOutsideWorkspace) {
		t.Errorf("ReadFile through an escaping symlink error = %v; want ErrOutsideWorkspace", err)
	}
	entries, err := op.List(ctx, "out", false)
	if err != nil || !contains(pathsOf(entries), "out/r.csv") {
		t.Errorf("List(out) = %v, %v", entries, err)
	}
	if op.Root() != op.Kernel().Root() {
		t.Errorf("operator root %q and kernel root %q differ", op.Root(), op.Kernel().Root())
	}
	if _, err := op.RunPython(ctx, "1", RunOptions{}); !errors.Is(err, ErrNoPython) {
		t.Errorf("RunPython without Python error = %v; want ErrNoPython", err)
	}
}

// pathsOf lists the paths of entries.
func pathsOf(entries []FileInfo) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Path)
	}
	return out
}

func TestKernelOperatorRunPython(t *testing.T) {
	py := needPython(t)
	root, _ := newWorkspace(t)
	op, err := NewKernelOperator(KernelConfig{Root: root, Python: py, Preload: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if res, err := op.RunPython(ctx, "import pandas as pd\ndf = pd.read_csv('input/sales.csv')", RunOptions{}); err != nil || !res.OK() {
		t.Fatalf("RunPython = %+v, %v", res, err)
	}
	res, err := op.RunPython(ctx, "int(df['amount'].sum())", RunOptions{})
	if err != nil || res.Value != "30" {
		t.Errorf("second cell = %+v, %v; want df kept from the first", res, err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := op.RunPython(ctx, "1", RunOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("RunPython after Close error = %v; want ErrClosed", err)
	}
	if _, err := os.Stat(root); err != nil || strings.Contains(res.Error, "Traceback") {
		t.Errorf("workspace after Close: %v", err)
	}
}
