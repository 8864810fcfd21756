package operator

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePythonMode(t *testing.T) {
	tests := []struct {
		in      string
		want    PythonMode
		wantErr bool
	}{
		{in: "", want: PythonKernel},
		{in: "kernel", want: PythonKernel},
		{in: " Process ", want: PythonProcess},
		{in: "jupyter", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParsePythonMode(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParsePythonMode(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// namedSandbox is a Sandbox that only has a name, for mode checks.
type namedSandbox string

func (s namedSandbox) Name() string { return string(s) }
func (namedSandbox) Command(ProcSpec) (*exec.Cmd, error) {
	return nil, errors.New("namedSandbox runs nothing")
}
func (namedSandbox) Signal(*exec.Cmd, syscall.Signal) error { return nil }

func TestNewOperatorModes(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{name: "default is kernel", cfg: Config{Root: root}, want: "*operator.KernelOperator"},
		{name: "kernel with a sandbox", cfg: Config{Root: root, Mode: PythonKernel, Sandbox: namedSandbox("bwrap")}, want: "*operator.KernelOperator"},
		{name: "process", cfg: Config{Root: root, Mode: PythonProcess}, want: "*operator.processOperator"},
		{name: "process with no sandbox", cfg: Config{Root: root, Mode: PythonProcess, Sandbox: NoSandbox()}, want: "*operator.processOperator"},
		{name: "process with a sandbox", cfg: Config{Root: root, Mode: PythonProcess, Sandbox: namedSandbox("bwrap")}, want: "*operator.processOperator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer op.Close()
			if got := typeName(op); got != tt.want {
				t.Errorf("NewOperator gave %s; want %s", got, tt.want)
			}
			if p, ok := op.(*processOperator); ok && tt.cfg.Sandbox != nil && p.cfg.Sandbox.Name() != tt.cfg.Sandbox.Name() {
				t.Errorf("process mode runs in sandbox %q; want %q", p.cfg.Sandbox.Name(), tt.cfg.Sandbox.Name())
			}
			if got, want := ModeOf(op), map[string]PythonMode{"*operator.KernelOperator": PythonKernel, "*operator.processOperator": PythonProcess}[tt.want]; got != want {
				t.Errorf("ModeOf = %q; want %q", got, want)
			}
		})
	}
	if _, err := New(Config{Root: root, Mode: "jupyter"}); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("unknown mode error = %v", err)
	}
}

func TestModeOfOtherOperators(t *testing.T) {
	l, err := NewLocal(LocalConfig{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got := ModeOf(l); got != PythonProcess {
		t.Errorf("ModeOf(*Local) = %q; want %q", got, PythonProcess)
	}
}

// typeName names the dynamic type of op.
func typeName(op Operator) string {
	switch op.(type) {
	case *KernelOperator:
		return "*operator.KernelOperator"
	case *processOperator:
		return "*operator.processOperator"
	}
	return "other"
}

func TestProcessOperatorRecordsCells(t *testing.T) {
	py := needPython(t)
	root, _ := newWorkspace(t)
	op, err := New(Config{Root: root, Python: py, Mode: PythonProcess})
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	ctx := context.Background()
	res, err := op.RunPython(ctx, "x = 1\nprint('one')", RunOptions{})
	if err != nil || !res.OK() || res.Cell != 1 {
		t.Fatalf("first cell = %+v, %v", res, err)
	}
	res, err = op.RunPython(ctx, "x", RunOptions{})
	if err != nil || !strings.Contains(res.Error, "NameError") || res.Cell != 2 {
		t.Errorf("second cell = %+v, %v; want a NameError (nothing carries over)", res, err)
	}
	records, err := ReadCells(root)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Cell, Generation int
		OK               bool
		Error, Stdout    string
	}
	var got []line
	for _, r := range records {
		got = append(got, line{r.Cell, r.Generation, r.OK, r.Error, r.Stdout})
	}
	want := []line{{1, 0, true, "", "one\n"}, {2, 0, false, "NameError: name 'x' is not defined", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells.jsonl (-want +got):\n%s", diff)
	}
}
