package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator"
)

// stubTool is an InvokableTool with a fixed reply or error, counting calls.
type stubTool struct {
	name  string
	reply string
	err   error
	calls int
}

func (s *stubTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: s.name, Desc: "stub " + s.name}, nil
}

func (s *stubTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	s.calls++
	return s.reply, s.err
}

func TestHint(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "outside", err: fmt.Errorf("resolve %q: %w", "../x", operator.ErrOutsideWorkspace),
			want: "Error: resolve \"../x\": path is outside the session workspace\nHint: use workspace-relative paths such as input/sales.csv or out/result.csv; call list_files to see the files there are."},
		{name: "read-only", err: fmt.Errorf("write: %w", operator.ErrReadOnly),
			want: "Error: write: path is read-only\nHint: input/ is read-only: write results to out/ or scratch files to work/ instead."},
		{name: "not found", err: &fs.PathError{Op: "open", Path: "input/x.csv", Err: fs.ErrNotExist},
			want: "Error: open input/x.csv: file does not exist\nHint: that file does not exist; call list_files (dir=input, recursive=true) to see the files there are."},
		{name: "own hint wins", err: withHint(fmt.Errorf("wrapped: %w", operator.ErrReadOnly), "do this instead"),
			want: "Error: wrapped: path is read-only\nHint: do this instead"},
		{name: "other", err: errors.New("boom"),
			want: "Error: boom\nHint: check the arguments and try again; if it fails the same way twice, try another approach."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := &stubTool{name: "stub", err: tt.err}
			got, err := Hint(stub).InvokableRun(context.Background(), "{}")
			if err != nil {
				t.Fatalf("Hint returned an error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHintPassesThrough(t *testing.T) {
	ok := Hint(&stubTool{name: "stub", reply: "fine"})
	if got, err := ok.InvokableRun(context.Background(), "{}"); got != "fine" || err != nil {
		t.Errorf("success = %q, %v", got, err)
	}
	info, err := ok.Info(context.Background())
	if err != nil || info.Name != "stub" || info.Desc != "stub stub" {
		t.Errorf("Info = %+v, %v; want the wrapped tool's", info, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Hint(&stubTool{name: "stub", err: context.Canceled}).InvokableRun(ctx, "{}"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run error = %v; want context.Canceled passed through", err)
	}

	interrupt := tool.Interrupt(context.Background(), "need approval")
	if _, err := Hint(&stubTool{name: "stub", err: interrupt}).InvokableRun(context.Background(), "{}"); err == nil {
		t.Error("an interrupt was turned into a reply; it must pass through")
	}
}

func TestHintOnInferredTool(t *testing.T) {
	type args struct {
		N int `json:"n"`
	}
	inner, err := utils.InferTool("count", "counts", func(ctx context.Context, a args) (string, error) {
		return "", fmt.Errorf("count %d: %w", a.N, fs.ErrNotExist)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Hint(inner).InvokableRun(context.Background(), `{"n": 3}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "Error: count 3: file does not exist\nHint: that file does not exist") {
		t.Errorf("reply keeps InferTool's prefix or lost the hint:\n%s", got)
	}
	got, err = Hint(inner).InvokableRun(context.Background(), `{"n": "three"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "Error: ") || !strings.Contains(got, "Hint: the arguments were not valid for this tool") {
		t.Errorf("bad-arguments reply:\n%s", got)
	}
}

func TestCapOutput(t *testing.T) {
	op, _ := newOp(t, "", nil)
	long := strings.Repeat("a", 500) + strings.Repeat("é", 500)
	stub := &stubTool{name: "python", reply: long}
	capped := CapOutput(stub, op, 100)

	got, err := capped.InvokableRun(context.Background(), "{}")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("a", 50) +
		"\n[... 900 characters cut; the full reply (1 lines) is saved in work/tool-output/python-1.txt: call read_file with path=\"work/tool-output/python-1.txt\" and start_line/end_line to read the part you need ...]\n" +
		strings.Repeat("é", 50)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("capped reply (-want +got):\n%s", diff)
	}
	saved, err := os.ReadFile(filepath.Join(op.Root(), "work/tool-output/python-1.txt"))
	if err != nil || string(saved) != long {
		t.Errorf("full reply not saved: %v", err)
	}

	// The next cut reply gets the next number; a new wrapper (a later run)
	// does not overwrite what an earlier one saved.
	if _, err := capped.InvokableRun(context.Background(), "{}"); err != nil {
		t.Fatal(err)
	}
	stub.reply = strings.Repeat("z", 300)
	got, err = CapOutput(stub, op, 100).InvokableRun(context.Background(), "{}")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "work/tool-output/python-3.txt") {
		t.Errorf("new wrapper reused a saved file's name:\n%s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(op.Root(), "work/tool-output/python-1.txt")); string(b) != long {
		t.Error("python-1.txt was overwritten")
	}

	stub.reply = "short"
	if got, err := capped.InvokableRun(context.Background(), "{}"); got != "short" || err != nil {
		t.Errorf("short reply = %q, %v; want it unchanged", got, err)
	}
	stub.err, stub.reply = errors.New("failed"), ""
	if _, err := capped.InvokableRun(context.Background(), "{}"); err == nil || err.Error() != "failed" {
		t.Errorf("error = %v; want it passed through", err)
	}
	info, err := capped.Info(context.Background())
	if err != nil || info.Name != "python" {
		t.Errorf("Info = %+v, %v; want the wrapped tool's", info, err)
	}
	if CapOutput(stub, op, 0) != tool.InvokableTool(stub) {
		t.Error("CapOutput with maxChars 0 should return the tool itself")
	}
}
