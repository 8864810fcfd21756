package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator"
)

// needPython skips the test unless Debian's /usr/bin/python3 with pandas,
// numpy, matplotlib and openpyxl is present, and returns its path.
func needPython(t *testing.T) string {
	t.Helper()
	const debianPython = "/usr/bin/python3"
	if _, err := os.Stat(debianPython); err != nil {
		t.Skipf("skipping: %s is absent (install python3-pandas python3-matplotlib python3-openpyxl to run this test)", debianPython)
	}
	py, err := operator.FindPython(context.Background(), debianPython)
	if err != nil || py != debianPython {
		t.Skipf("skipping: %s is not usable: %v", debianPython, err)
	}
	return py
}

func TestFormatRun(t *testing.T) {
	op, _ := newOp(t, "", nil)
	tests := []struct {
		name string
		res  operator.RunResult
		want string
	}{
		{name: "success",
			res: operator.RunResult{Stdout: "rows: 2\n", Value: "   a\n0  1", Duration: 6234 * time.Millisecond,
				Files: []string{"out/figure-0001-1.png", "out/summary.csv"}, Figures: []string{"out/figure-0001-1.png"}},
			want: "stdout:\nrows: 2\nvalue:\n   a\n0  1\nfiles written: out/summary.csv\nfigures saved: out/figure-0001-1.png\n(ran 6.23s)"},
		// A fast cell's time is left out: the model does not act on it.
		{name: "nothing", res: operator.RunResult{Duration: 50 * time.Millisecond},
			want: "(no output: print what you want to see, or end with an expression)"},
		{name: "key error",
			res: operator.RunResult{Stdout: "loading\n", Error: "Traceback (most recent call last):\n  File \"work/.cells/cell-0002.py\", line 3, in <module>\nKeyError: 'colname'\n", Duration: time.Second},
			want: "Error: KeyError: 'colname'\nTraceback (most recent call last):\n  File \"work/.cells/cell-0002.py\", line 3, in <module>\nKeyError: 'colname'\n" +
				"Hint: no column or key 'colname': print(df.columns.tolist()) (or the dict's keys) to see the real names; check case, spaces and which row holds the header.\n" +
				"stdout:\nloading"},
		{name: "file not found lists input",
			res: operator.RunResult{Error: "Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'\n"},
			want: "Error: FileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'\nTraceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'\n" +
				"Hint: paths are relative to the workspace root; the files under input/ are: input/sales.csv."},
		{name: "restart notice and cut stdout",
			res: operator.RunResult{Notice: "The Python kernel was restarted: the previous one died during cell 4 (exit status 1).",
				Stdout: "head\n[... 10 bytes cut ...]\ntail\n", StdoutFile: "work/.cells/cell-0005.stdout.txt", Duration: time.Second},
			want: "Note: The Python kernel was restarted: the previous one died during cell 4 (exit status 1).\n" +
				"stdout (cut; the whole text is in work/.cells/cell-0005.stdout.txt):\nhead\n[... 10 bytes cut ...]\ntail"},
		{name: "interrupted in the kernel", res: operator.RunResult{TimedOut: true, Error: "timed out after 2s: the cell was interrupted (KeyboardInterrupt); the kernel and the variables set before the interrupt are kept\nKeyboardInterrupt\n", Duration: 2 * time.Second},
			want: "Error: timed out after 2s: the cell was interrupted (KeyboardInterrupt); the kernel and the variables set before the interrupt are kept\n" +
				"timed out after 2s: the cell was interrupted (KeyboardInterrupt); the kernel and the variables set before the interrupt are kept\nKeyboardInterrupt\n" +
				"Hint: the run took too long and was interrupted; the kernel's variables are kept, so continue from them. Work on a sample first (nrows=, df.sample(...)), use vectorised pandas instead of Python loops over rows, or split the work into several calls."},
		{name: "timeout", res: operator.RunResult{TimedOut: true, Error: "timed out after 2s: the process and its children were killed", Duration: 2 * time.Second},
			want: "Error: timed out after 2s: the process and its children were killed\n" +
				"Hint: the run took too long and was killed. Work on a sample first (nrows=, df.sample(...)), use vectorised pandas instead of Python loops over rows, or split the work into several calls."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := formatRun(context.Background(), op, &tt.res)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("formatRun (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPythonHints(t *testing.T) {
	op, _ := newOp(t, "", nil)
	tests := []struct {
		exc, want string
	}{
		{exc: "ModuleNotFoundError: No module named 'sklearn'", want: "only pandas, numpy, matplotlib, openpyxl"},
		{exc: "NameError: name 'df' is not defined", want: "fresh interpreter"},
		{exc: "  File \"x\", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax", want: "brackets, quotes, indentation"},
		{exc: "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xb5", want: "encoding='gb18030'"},
		{exc: "PermissionError: [Errno 13] Permission denied: 'input/x.csv'", want: "input/ is read-only"},
		{exc: "AttributeError: 'DataFrame' object has no attribute 'Amount'", want: "print(df.columns.tolist())"},
		{exc: "ValueError: could not convert string to float: '1,234'", want: "pd.to_numeric"},
		{exc: "pandas.errors.ParserError: Error tokenizing data", want: "read the traceback"},
		// Out of memory as numpy and pandas' tokenizer say it.
		{exc: "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 1.00 MiB for an array with shape (131072,) and data type int64", want: "Python ran out of memory"},
		{exc: "pandas.errors.ParserError: Error tokenizing data. C error: out of memory", want: "Python ran out of memory"},
		{exc: "OSError: [Errno 12] Cannot allocate memory", want: "Python ran out of memory"},
	}
	for _, tt := range tests {
		t.Run(tt.exc, func(t *testing.T) {
			got := formatRun(context.Background(), op, &operator.RunResult{Error: "Traceback (most recent call last):\n" + tt.exc + "\n"})
			last := tt.exc[strings.LastIndex(tt.exc, "\n")+1:]
			if !strings.HasPrefix(got, "Error: "+last+"\n") {
				t.Errorf("reply does not start with the exception line:\n%s", got)
			}
			_, hint, _ := strings.Cut(got, "\nHint: ")
			if !strings.Contains(hint, tt.want) {
				t.Errorf("hint lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

func TestStripFences(t *testing.T) {
	tests := map[string]string{
		"print(1)":                         "print(1)",
		"```python\nprint(1)\n```":         "print(1)",
		"```\nx = 1\nx\n```\n":             "x = 1\nx",
		"  ```py\nprint('```')\n```  ":     "print('```')",
		"s = '```'\nprint(s)":              "s = '```'\nprint(s)",
		"```python\nprint(1)\n```\nmore()": "```python\nprint(1)\n```\nmore()",
	}
	for in, want := range tests {
		if got := stripFences(in); got != want {
			t.Errorf("stripFences(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestPythonTool(t *testing.T) {
	py := needPython(t)
	op, _ := newOp(t, py, nil)
	pt, err := PythonTool(op)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		code     string
		prefix   string
		contains []string
	}{
		{name: "success with value and figure", prefix: "stdout:\nrows: 2\n",
			code: "```python\nimport pandas as pd\nimport matplotlib.pyplot as plt\ndf = pd.read_csv('input/sales.csv')\nprint('rows:', len(df))\n" +
				"df.to_csv('out/summary.csv', index=False)\ndf.plot(x='region', y='amount')\ndf\n```",
			contains: []string{"value:\n  region  amount\n0  north      10\n1  south      20\n",
				"files written: out/summary.csv\n", "figures saved: out/figure-0001-1.png"}},
		{name: "key error with hint", prefix: "Error: KeyError: 'colname'\nTraceback (most recent call last):\n",
			code:     "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\ndf['colname']",
			contains: []string{"work/.cells/cell-0002.py", "Hint: no column or key 'colname': print(df.columns.tolist())"}},
		{name: "missing file lists input", prefix: "Error: FileNotFoundError:",
			code:     "open('sales.csv')",
			contains: []string{"Hint: paths are relative to the workspace root; the files under input/ are: input/sales.csv."}},
		{name: "missing module", prefix: "Error: ModuleNotFoundError: No module named 'sklearn_not_here'\n",
			code:     "import sklearn_not_here",
			contains: []string{"Hint: only pandas, numpy, matplotlib, openpyxl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := call(t, pt, PythonArgs{Code: tt.code})
			if err != nil {
				t.Fatalf("python: %v (a failing cell is a reply, not an error)", err)
			}
			if !strings.HasPrefix(got, tt.prefix) {
				t.Errorf("reply does not start with %q:\n%s", tt.prefix, got)
			}
			for _, want := range tt.contains {
				if !strings.Contains(got, want) {
					t.Errorf("reply lacks %q:\n%s", want, got)
				}
			}
		})
	}
	if _, err := call(t, pt, PythonArgs{Code: "  \n"}); err == nil || !strings.Contains(err.Error(), "code is empty") {
		t.Errorf("empty code error = %v", err)
	}
}

func TestPythonToolTimeout(t *testing.T) {
	py := needPython(t)
	op, _ := newOp(t, py, func(c *operator.LocalConfig) { c.Timeout = time.Second })
	pt, err := PythonTool(op)
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, pt, PythonArgs{Code: "import time\ntime.sleep(60)"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "Error: timed out after 1s") || !strings.Contains(got, "Hint: the run took too long") {
		t.Errorf("timeout reply:\n%s", got)
	}
}

func TestPythonToolWithoutPython(t *testing.T) {
	op, _ := newOp(t, "", nil)
	pt, err := PythonTool(op)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, pt, PythonArgs{Code: "1"}); !errors.Is(err, operator.ErrNoPython) {
		t.Fatalf("error = %v; want ErrNoPython", err)
	}
	got, err := call(t, Hint(pt), PythonArgs{Code: "1"})
	if err != nil || !strings.HasPrefix(got, "Error: ") || !strings.Contains(got, "Hint: Python is not available") {
		t.Errorf("Hint(python) = %q, %v", got, err)
	}
	if _, err := PythonTool(nil); err == nil {
		t.Error("PythonTool(nil) succeeded")
	}
}

// newKernelOp returns a kernel-mode operator over a workspace like newOp's.
func newKernelOp(t *testing.T, python string) operator.Operator {
	t.Helper()
	l, _ := newOp(t, "", nil)
	op, err := operator.New(operator.Config{Root: l.Root(), Python: python, Mode: operator.PythonKernel})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	return op
}

func TestPythonToolDescribesMode(t *testing.T) {
	process, _ := newOp(t, "", nil)
	tests := []struct {
		name     string
		op       operator.Operator
		has, not string
	}{
		{name: "process", op: process, has: "fresh interpreter", not: "persist"},
		{name: "kernel", op: newKernelOp(t, ""), has: "variables persist", not: "fresh interpreter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pt, err := PythonTool(tt.op)
			if err != nil {
				t.Fatal(err)
			}
			info, err := pt.Info(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(info.Desc, tt.has) || strings.Contains(info.Desc, tt.not) {
				t.Errorf("description lacks %q or has %q:\n%s", tt.has, tt.not, info.Desc)
			}
		})
	}
}

func TestPythonToolKernel(t *testing.T) {
	py := needPython(t)
	pt, err := PythonTool(newKernelOp(t, py))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		code     string
		prefix   string
		contains []string
	}{
		{code: "import pandas as pd\ndf = pd.read_csv('input/sales.csv')", prefix: "(no output"},
		{code: "int(df['amount'].sum())", prefix: "value:\n30"},
		{code: "undefined_name", prefix: "Error: NameError: name 'undefined_name' is not defined\n",
			contains: []string{"Hint: that name is not defined in the kernel"}},
		{code: "import os\nos._exit(1)", prefix: "Note: The Python kernel died",
			contains: []string{"Error: the kernel died during the cell (exit status 1)", "Hint: the Python kernel died"}},
		{code: "int(df['amount'].sum())", prefix: "Note: The Python kernel was restarted: the previous one died during cell 4 (exit status 1). Its state was rebuilt by replaying 2 earlier successful cell(s).\nvalue:\n30"},
	}
	for _, st := range steps {
		got, err := call(t, pt, PythonArgs{Code: st.code})
		if err != nil {
			t.Fatalf("python %q: %v", st.code, err)
		}
		if !strings.HasPrefix(got, st.prefix) {
			t.Errorf("reply to %q does not start with %q:\n%s", st.code, st.prefix, got)
		}
		for _, want := range st.contains {
			if !strings.Contains(got, want) {
				t.Errorf("reply to %q lacks %q:\n%s", st.code, want, got)
			}
		}
	}
}

func TestPythonOutOfMemorySaysWhatHelps(t *testing.T) {
	py := needPython(t)
	op := newKernelOp(t, py)
	// A large input (sparse: it takes no disk) that code might load whole.
	f, err := os.Create(filepath.Join(op.Root(), "input", "big.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	pt, err := PythonTool(op)
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, pt, PythonArgs{Code: "raise MemoryError()"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Error: MemoryError", "Python ran out of memory", "input/big.csv is 300 MB", "SIFT_SANDBOX_MEMORY", "aggregate in SQL first"} {
		if !strings.Contains(got, want) {
			t.Errorf("reply lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "input/sales.csv is") {
		t.Errorf("small inputs are not worth naming:\n%s", got)
	}
}

func TestPythonFailed(t *testing.T) {
	for _, tc := range []struct {
		reply string
		want  bool
	}{
		{"Error: NameError: name 'x' is not defined\nHint: define it\n(ran 10ms)", true},
		{"Note: The Python kernel was restarted: the previous one died.\nError: NameError: x\n(ran 10ms)", true},
		{"Note: The Python kernel was restarted.\nstdout:\nError: this is printed text\n(ran 10ms)", false},
		{"stdout:\n250\n(ran 10ms)", false},
		{"Note: only a note", false},
	} {
		if got := PythonFailed(tc.reply); got != tc.want {
			t.Errorf("PythonFailed(%q) = %v, want %v", tc.reply, got, tc.want)
		}
	}
}
