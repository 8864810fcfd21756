package operator

import (
	"context"
	"strings"
	"testing"
)

// A branch starts from the main kernel's state, its cells are tagged with
// its step, and the main kernel absorbs them when the step is done.
func TestBranchStartsFromTheStateAndIsAbsorbed(t *testing.T) {
	main := newKernel(t, nil)
	mustRun(t, main, "x = 20")
	b, err := main.Branch(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if res := mustRun(t, b, "y = x + 1\nprint(y)"); !strings.Contains(res.Stdout, "21") {
		t.Fatalf("the branch does not see the main kernel's x: %q", res.Stdout)
	}
	// The main kernel does not see y until it absorbs step 2.
	if res, _ := main.Run(context.Background(), "print(y)", RunOptions{}); res.OK() {
		t.Fatalf("y leaked into the main kernel before the step was absorbed")
	}
	failed, err := main.Absorb(context.Background(), b, 2)
	if err != nil || len(failed) != 0 {
		t.Fatalf("absorb: %v, failed cells %v", err, failed)
	}
	if res := mustRun(t, main, "print(y)"); !strings.Contains(res.Stdout, "21") {
		t.Fatalf("the main kernel lacks y after absorbing: %q", res.Stdout)
	}
	records, err := ReadCells(main.Root())
	if err != nil {
		t.Fatal(err)
	}
	cells := map[int]bool{}
	tagged := 0
	for _, rec := range records {
		if rec.Branch == 2 && !rec.Replayed {
			tagged++
		}
		if !rec.Replayed {
			if cells[rec.Cell] {
				t.Errorf("cell number %d used twice by the kernels", rec.Cell)
			}
			cells[rec.Cell] = true
		}
	}
	if tagged != 1 {
		t.Errorf("%d cells tagged with branch 2, want 1", tagged)
	}
}

// Cells running at the same time in a kernel and its branch each report
// only the files they wrote, though both write under out/ meanwhile; a
// cell alone also reports what a program it started wrote. StepFiles
// lists a branch's files for its step.
func TestCellsSideBySideReportTheirOwnFiles(t *testing.T) {
	main := newKernel(t, nil)
	mustRun(t, main, "import time, os")
	b, err := main.Branch(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	mustRun(t, b, "import time\nimport pandas as pd")
	results := make(chan *RunResult, 1)
	go func() {
		// Writes its file, then runs on while the branch writes its own.
		res, _ := main.Run(context.Background(), "open('out/main.csv', 'w').write('a')\ntime.sleep(1.5)", RunOptions{})
		results <- res
	}()
	res := mustRun(t, b, "time.sleep(0.5)\npd.Series([1]).to_csv('out/branch.csv')")
	if got := strings.Join(res.Files, ","); got != "out/branch.csv" {
		t.Errorf("the branch's cell reports files %q, want out/branch.csv", got)
	}
	if got := strings.Join((<-results).Files, ","); got != "out/main.csv" {
		t.Errorf("the main kernel's cell reports files %q, want out/main.csv", got)
	}
	if res := mustRun(t, main, "os.system('echo x > out/shell.txt')"); strings.Join(res.Files, ",") != "out/shell.txt" {
		t.Errorf("a cell alone reports %q, want the file its shell command wrote", res.Files)
	}
	files, err := b.StepFiles(2)
	if err != nil || strings.Join(files, ",") != "out/branch.csv" {
		t.Errorf("StepFiles(2) = %q, %v; want out/branch.csv", files, err)
	}
}

// A branch kernel imports ahead what the main kernel does but pyplot
// (see branchPreload); a branch step that plots imports it itself, and its
// figure is saved.
func TestBranchDoesNotPreloadPyplot(t *testing.T) {
	main := newKernel(t, func(c *KernelConfig) { c.Preload = []string{"json", "matplotlib.pyplot"} })
	const probe = "import sys\nprint(sorted(m for m in ('json', 'matplotlib.pyplot') if m in sys.modules))"
	if res := mustRun(t, main, probe); !strings.Contains(res.Stdout, "['json', 'matplotlib.pyplot']") {
		t.Fatalf("the main kernel preloads %q", res.Stdout)
	}
	b, err := main.Branch(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if res := mustRun(t, b, probe); !strings.Contains(res.Stdout, "['json']") {
		t.Fatalf("the branch kernel preloads %q, want json only", res.Stdout)
	}
	res := mustRun(t, b, "import matplotlib.pyplot as plt\nplt.plot([1, 2], [3, 4])")
	if len(res.Figures) != 1 {
		t.Errorf("the branch's plot saved figures %v, want one", res.Figures)
	}
}
