package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator"
)

// salesCSV is input/sales.csv in every test workspace.
const salesCSV = "region,amount\nnorth,10\nsouth,20\n"

// newOp returns a local operator over a fresh workspace holding
// input/sales.csv and two escaping symlinks (input/etc → /etc and
// work/up → the workspace's parent), plus a directory outside it.
func newOp(t *testing.T, python string, mod func(*operator.LocalConfig)) (op *operator.Local, outside string) {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(parent, "ws")
	outside = filepath.Join(parent, "outside")
	for _, d := range []string{filepath.Join(root, "input"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "input/sales.csv"), []byte(salesCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := operator.LocalConfig{Root: root, Python: python}
	if mod != nil {
		mod(&cfg)
	}
	op, err = operator.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { op.Close() })
	for name, target := range map[string]string{"input/etc": "/etc", "work/up": "../.."} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return op, outside
}

// fileTools returns op's file tools by name.
func fileTools(t *testing.T, op operator.Operator) map[string]tool.InvokableTool {
	t.Helper()
	ts, err := FileTools(op)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]tool.InvokableTool{}
	for _, bt := range ts {
		info, err := bt.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out[info.Name] = bt.(tool.InvokableTool)
	}
	return out
}

// call runs a tool with args marshalled to JSON.
func call(t *testing.T, tl tool.InvokableTool, args any) (string, error) {
	t.Helper()
	js, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tl.InvokableRun(context.Background(), string(js))
}

func TestFileToolsInfo(t *testing.T) {
	op, _ := newOp(t, "", nil)
	got := fileTools(t, op)
	var names []string
	for _, n := range []string{ListFilesName, PreviewName, ReadFileName, WriteFileName, EditFileName} {
		if _, ok := got[n]; ok {
			names = append(names, n)
		}
	}
	if diff := cmp.Diff([]string{ListFilesName, PreviewName, ReadFileName, WriteFileName, EditFileName}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	info, err := got[ReadFileName].Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"path"}, js.Required); diff != "" {
		t.Errorf("read_file required params (-want +got):\n%s", diff)
	}
	if _, err := FileTools(nil); err == nil {
		t.Error("FileTools(nil) succeeded")
	}
}

func TestFileToolsRefuseEscapes(t *testing.T) {
	op, outside := newOp(t, "", nil)
	tools := fileTools(t, op)
	escapes := []string{
		"../x",
		"/etc/passwd",
		"input/../../x",
		filepath.Join(outside, "secret.txt"),
		"input/etc/passwd",           // symlink inside the workspace to /etc
		"work/up/outside/secret.txt", // symlink inside the workspace to its parent
	}
	argsFor := map[string]func(p string) any{
		ListFilesName: func(p string) any { return ListFilesArgs{Dir: p, Recursive: true} },
		PreviewName:   func(p string) any { return PreviewArgs{Path: p} },
		ReadFileName:  func(p string) any { return ReadFileArgs{Path: p} },
		WriteFileName: func(p string) any { return WriteFileArgs{Path: p, Content: "pwned"} },
		EditFileName:  func(p string) any { return EditFileArgs{Path: p, Old: "secret", New: "pwned"} },
	}
	for name, args := range argsFor {
		for _, p := range escapes {
			t.Run(name+" "+p, func(t *testing.T) {
				out, err := call(t, tools[name], args(p))
				if !errors.Is(err, operator.ErrOutsideWorkspace) {
					t.Fatalf("%s(%q) = %q, %v; want ErrOutsideWorkspace", name, p, out, err)
				}
				if !strings.Contains(err.Error(), "input/sales.csv") {
					t.Errorf("error does not show an allowed path: %v", err)
				}
				reply, err := call(t, Hint(tools[name]), args(p))
				if err != nil || !strings.HasPrefix(reply, "Error: ") || !strings.Contains(reply, "Hint: use workspace-relative paths") {
					t.Errorf("Hint(%s) = %q, %v; want an Error/Hint reply", name, reply, err)
				}
			})
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "secret" {
		t.Errorf("file outside the workspace changed to %q", b)
	}
	for _, name := range []string{WriteFileName, EditFileName} {
		args := argsFor[name]("input/sales.csv")
		if _, err := call(t, tools[name], args); !errors.Is(err, operator.ErrReadOnly) || !strings.Contains(err.Error(), "out/") {
			t.Errorf("%s(input/sales.csv) error = %v; want ErrReadOnly suggesting out/", name, err)
		}
	}
	if _, err := call(t, tools[WriteFileName], WriteFileArgs{Path: "input/new.csv", Content: "x"}); !errors.Is(err, operator.ErrReadOnly) {
		t.Errorf("write_file(input/new.csv) error = %v; want ErrReadOnly", err)
	}
	if b, _ := os.ReadFile(filepath.Join(op.Root(), "input/sales.csv")); string(b) != salesCSV {
		t.Errorf("input/sales.csv changed to %q", b)
	}
}

func TestWriteFile(t *testing.T) {
	op, _ := newOp(t, "", nil)
	wf := fileTools(t, op)[WriteFileName]
	got, err := call(t, wf, WriteFileArgs{Path: "out/notes/summary.md", Content: "# Title\nbody\n"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("created out/notes/summary.md (13 B, 2 lines)", got); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	got, err = call(t, wf, WriteFileArgs{Path: "out/notes/summary.md", Content: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("replaced out/notes/summary.md (1 B, 1 lines)", got); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(op.Root(), "out/notes/summary.md")); string(b) != "x" {
		t.Errorf("file holds %q", b)
	}
}

func TestEditFile(t *testing.T) {
	tests := []struct {
		name      string
		content   string
		args      EditFileArgs
		want      string // file content after the edit
		wantReply string
		wantErr   string
		wantHint  string
		wantIs    error
	}{
		{name: "unique", content: "a = 1\nb = 2\n", args: EditFileArgs{Old: "b = 2", New: "b = 3"},
			want: "a = 1\nb = 3\n", wantReply: "edited work/f.py: replaced 1 occurrence(s); the file now has 2 lines"},
		{name: "not found", content: "a = 1\n", args: EditFileArgs{Old: "c = 1", New: "x"},
			want: "a = 1\n", wantErr: "old text not found", wantHint: "read_file the file and copy the exact text"},
		{name: "found more than expected", content: "x\nx\n", args: EditFileArgs{Old: "x", New: "y"},
			want: "x\nx\n", wantErr: "old text found 2 times, expected 1; nothing was changed", wantHint: "include more surrounding context in old so it matches exactly 1 time(s), or set count=2"},
		{name: "count replaces all", content: "x\nx\n", args: EditFileArgs{Old: "x", New: "y", Count: 2},
			want: "y\ny\n", wantReply: "edited work/f.py: replaced 2 occurrence(s); the file now has 2 lines"},
		{name: "count too high", content: "x\nx\n", args: EditFileArgs{Old: "x", New: "y", Count: 3},
			want: "x\nx\n", wantErr: "found 2 times, expected 3"},
		{name: "windows line endings", content: "a\r\nb\r\nc\r\n", args: EditFileArgs{Old: "a\nb", New: "a\nB"},
			want: "a\r\nB\r\nc\r\n", wantReply: "edited work/f.py: replaced 1 occurrence(s); the file now has 3 lines"},
		{name: "empty old", content: "a\n", args: EditFileArgs{Old: "", New: "b"},
			want: "a\n", wantErr: "old is empty", wantHint: "write_file"},
		{name: "missing file", args: EditFileArgs{Path: "work/missing.py", Old: "a", New: "b"},
			wantIs: fs.ErrNotExist, wantHint: "list_files"},
		{name: "input is read-only", args: EditFileArgs{Path: "input/sales.csv", Old: "north", New: "west"},
			wantIs: operator.ErrReadOnly, wantHint: "write results to out/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, _ := newOp(t, "", nil)
			ef := fileTools(t, op)[EditFileName]
			if tt.args.Path == "" {
				tt.args.Path = "work/f.py"
				if err := op.WriteFile(context.Background(), tt.args.Path, []byte(tt.content)); err != nil {
					t.Fatal(err)
				}
			}
			reply, err := call(t, ef, tt.args)
			switch {
			case tt.wantIs != nil:
				if !errors.Is(err, tt.wantIs) {
					t.Fatalf("error = %v; want %v", err, tt.wantIs)
				}
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v; want one containing %q", err, tt.wantErr)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.wantReply, reply); diff != "" {
					t.Errorf("reply (-want +got):\n%s", diff)
				}
			}
			if tt.wantHint != "" {
				hinted, herr := call(t, Hint(ef), tt.args)
				_, hint, _ := strings.Cut(hinted, "\nHint: ")
				if herr != nil || !strings.HasPrefix(hinted, "Error: ") || !strings.Contains(hint, tt.wantHint) {
					t.Errorf("Hint reply = %q, %v; want hint %q", hinted, herr, tt.wantHint)
				}
			}
			if tt.want != "" {
				b, _ := os.ReadFile(filepath.Join(op.Root(), tt.args.Path))
				if diff := cmp.Diff(tt.want, string(b)); diff != "" {
					t.Errorf("file content (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestListFiles(t *testing.T) {
	op, _ := newOp(t, "", nil)
	ctx := context.Background()
	for p, n := range map[string]int{"out/a.csv": 2048, "out/sub/b.png": 10, "work/.cells/cell-0001.py": 5} {
		if err := op.WriteFile(ctx, p, []byte(strings.Repeat("x", n))); err != nil {
			t.Fatal(err)
		}
	}
	lf := fileTools(t, op)[ListFilesName]
	tests := []struct {
		args ListFilesArgs
		want string
	}{
		{args: ListFilesArgs{Dir: "out", Recursive: true},
			want: "out: 2 files (2.0 KB), 1 directories\nout/a.csv  2.0 KB\nout/sub/\nout/sub/b.png  10 B\n"},
		{args: ListFilesArgs{Dir: "out"},
			want: "out: 1 files (2.0 KB), 1 directories\nout/a.csv  2.0 KB\nout/sub/\n"},
		{args: ListFilesArgs{Dir: "input"},
			want: "input: 1 files (32 B), 0 directories\ninput/etc  (symlink)\ninput/sales.csv  32 B\n"},
		{args: ListFilesArgs{Dir: "work"},
			want: "work: 0 files (0 B), 0 directories\nwork/up  (symlink)\n"},
		{args: ListFilesArgs{Dir: "work/.cells"},
			want: "work/.cells: 1 files (5 B), 0 directories\nwork/.cells/cell-0001.py  5 B\n"},
		{args: ListFilesArgs{},
			want: "the workspace root: 0 files (0 B), 3 directories\ninput/\nout/\nwork/\n"},
		{args: ListFilesArgs{Dir: filepath.Join(op.Root(), "out/sub")},
			want: "out/sub: 1 files (10 B), 0 directories\nout/sub/b.png  10 B\n"},
	}
	for _, tt := range tests {
		t.Run(tt.args.Dir, func(t *testing.T) {
			got, err := call(t, lf, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("list_files (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := call(t, lf, ListFilesArgs{Dir: "nope"}); !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), op.Root()) {
		t.Errorf("list_files(nope) error = %v; want ErrNotExist without the absolute root", err)
	}
}

func TestPreview(t *testing.T) {
	op, _ := newOp(t, "", nil)
	pv := fileTools(t, op)[PreviewName]
	got, err := call(t, pv, PreviewArgs{Path: "input/sales.csv"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sales.csv", "region", "amount", "north"} {
		if !strings.Contains(got, want) {
			t.Errorf("preview lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, op.Root()) {
		t.Errorf("preview shows the absolute workspace path:\n%s", got)
	}
	_, err = call(t, pv, PreviewArgs{Path: "input/missing.csv"})
	if !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), op.Root()) {
		t.Errorf("preview(missing) error = %v; want ErrNotExist without the absolute root", err)
	}
}

func TestHumanSize(t *testing.T) {
	tests := map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 1536: "1.5 KB", 20 << 10: "20 KB", 5 << 20: "5.0 MB", 3 << 30: "3.0 GB"}
	for n, want := range tests {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q; want %q", n, got, want)
		}
	}
}
