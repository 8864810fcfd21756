// Package tools holds Sift's Eino tools over a session workspace (reading,
// writing, editing, listing and previewing files; running Python) and the
// wrappers every tool goes through: JSON argument repair, unknown-tool
// answers, output caps and error-to-hint replies. Tools reach files and
// processes only through an operator.Operator, which confines them to the
// workspace.
package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// Tool names, as the model sees them.
const (
	ReadFileName  = "read_file"
	WriteFileName = "write_file"
	EditFileName  = "edit_file"
	ListFilesName = "list_files"
	PreviewName   = "preview"
	PythonName    = "python"
)

// Bounds of the file tools.
const (
	// MaxEditBytes is the largest file edit_file changes; bigger files are
	// edited with python.
	MaxEditBytes = 8 << 20
	// MaxListEntries is the most entries one list_files reply shows.
	MaxListEntries = 500
)

// FileTools returns the workspace file tools over op: list_files, preview,
// read_file, write_file and edit_file. They return Go errors for failures;
// wrap them with Hint (and CapOutput) before handing them to an agent so a
// failure becomes a reply the model can act on.
func FileTools(op operator.Operator) ([]tool.BaseTool, error) {
	if op == nil {
		return nil, errors.New("file tools: operator is nil")
	}
	var out []tool.BaseTool
	add := func(t tool.InvokableTool, err error) error {
		if err != nil {
			return fmt.Errorf("file tools: %w", err)
		}
		out = append(out, t)
		return nil
	}
	steps := []func() error{
		func() error {
			return add(utils.InferTool(ListFilesName, listFilesDesc, func(ctx context.Context, a ListFilesArgs) (string, error) {
				return listFiles(ctx, op, a)
			}, leanSchema))
		},
		func() error {
			return add(utils.InferTool(PreviewName, previewDesc, func(ctx context.Context, a PreviewArgs) (string, error) {
				return previewFile(ctx, op, a)
			}, leanSchema))
		},
		func() error {
			return add(utils.InferTool(ReadFileName, readFileDesc, func(ctx context.Context, a ReadFileArgs) (string, error) {
				return readFile(ctx, op, a)
			}, leanSchema))
		},
		func() error {
			return add(utils.InferTool(WriteFileName, writeFileDesc, func(ctx context.Context, a WriteFileArgs) (string, error) {
				return writeFile(ctx, op, a)
			}, leanSchema))
		},
		func() error {
			return add(utils.InferTool(EditFileName, editFileDesc, func(ctx context.Context, a EditFileArgs) (string, error) {
				return editFile(ctx, op, a)
			}, leanSchema))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WriteFileArgs are the arguments of write_file.
type WriteFileArgs struct {
	Path    string `json:"path" jsonschema_description:"Workspace-relative path under out/ (results) or work/ (scratch), such as out/summary.md. input/ is read-only."`
	Content string `json:"content" jsonschema_description:"The complete new content of the file (UTF-8 text)."`
}

const writeFileDesc = "Create or replace a text file in the workspace, making parent directories. Write results to out/ and scratch files to work/; input/ is read-only."

// writeFile implements write_file.
func writeFile(ctx context.Context, op operator.Operator, a WriteFileArgs) (string, error) {
	if a.Path == "" {
		return "", errors.New("write_file: path is required, e.g. out/summary.md")
	}
	_, err := op.Stat(a.Path)
	existed := err == nil
	if err := op.WriteFile(ctx, a.Path, []byte(a.Content)); err != nil {
		return "", relErr(op, err)
	}
	verb := "created"
	if existed {
		verb = "replaced"
	}
	return fmt.Sprintf("%s %s (%s, %d lines)", verb, a.Path, humanSize(int64(len(a.Content))), countLines(a.Content)), nil
}

// EditFileArgs are the arguments of edit_file.
type EditFileArgs struct {
	Path  string `json:"path" jsonschema_description:"Workspace-relative path of the file to change (not under input/)."`
	Old   string `json:"old" jsonschema_description:"The exact text to replace, including whitespace and line breaks; include enough surrounding lines to make it unique."`
	New   string `json:"new" jsonschema_description:"The replacement text."`
	Count int    `json:"count,omitempty" jsonschema_description:"How many occurrences of old are expected and replaced (default 1)."`
}

const editFileDesc = "Replace exact text in a workspace file. old must occur exactly count times (default once); otherwise nothing changes and the reply says how many times it was found. input/ is read-only."

// editFile implements edit_file.
func editFile(ctx context.Context, op operator.Operator, a EditFileArgs) (string, error) {
	if a.Path == "" {
		return "", errors.New("edit_file: path is required")
	}
	if a.Old == "" {
		return "", withHint(fmt.Errorf("edit_file %s: old is empty", a.Path),
			"give the exact text to replace; to write a whole file use write_file")
	}
	want := a.Count
	if want <= 0 {
		want = 1
	}
	// Refuse input/ before looking for old: the write would fail anyway,
	// and that is the thing to fix first.
	if _, err := operator.ConfineWrite(op.Root(), a.Path); err != nil {
		return "", relErr(op, err)
	}
	data, truncated, err := op.ReadFile(ctx, a.Path, MaxEditBytes)
	if err != nil {
		return "", relErr(op, err)
	}
	if truncated {
		return "", withHint(fmt.Errorf("edit_file %s: the file is larger than %s", a.Path, humanSize(MaxEditBytes)),
			"change large files with python instead")
	}
	text := string(data)
	oldText, newText := a.Old, a.New
	n := strings.Count(text, oldText)
	if n == 0 && strings.Contains(text, "\r\n") && !strings.Contains(oldText, "\r\n") {
		// The file has Windows line endings; the model wrote Unix ones.
		crlf := strings.NewReplacer("\r\n", "\r\n", "\n", "\r\n")
		oldText, newText = crlf.Replace(oldText), crlf.Replace(newText)
		n = strings.Count(text, oldText)
	}
	switch {
	case n == 0:
		return "", withHint(fmt.Errorf("edit_file %s: old text not found", a.Path),
			"read_file the file and copy the exact text, including indentation and line breaks")
	case n != want:
		return "", withHint(fmt.Errorf("edit_file %s: old text found %d times, expected %d; nothing was changed", a.Path, n, want),
			fmt.Sprintf("include more surrounding context in old so it matches exactly %d time(s), or set count=%d to replace all of them", want, n))
	}
	text = strings.Replace(text, oldText, newText, n)
	if err := op.WriteFile(ctx, a.Path, []byte(text)); err != nil {
		return "", relErr(op, err)
	}
	return fmt.Sprintf("edited %s: replaced %d occurrence(s); the file now has %d lines", a.Path, n, countLines(text)), nil
}

// ListFilesArgs are the arguments of list_files.
type ListFilesArgs struct {
	Dir       string `json:"dir,omitempty" jsonschema_description:"e.g. input or out; default the root."`
	Recursive bool   `json:"recursive,omitempty"`
}

const listFilesDesc = "List workspace files with sizes: input/ (data, read-only), work/ (scratch), out/ (results)."

// listFiles implements list_files.
func listFiles(ctx context.Context, op operator.Operator, a ListFilesArgs) (string, error) {
	entries, err := op.List(ctx, a.Dir, a.Recursive)
	if err != nil {
		return "", relErr(op, err)
	}
	dir := strings.Trim(path.Clean("/"+filepath.ToSlash(a.Dir)), "/")
	if filepath.IsAbs(a.Dir) {
		if abs, err := op.Resolve(a.Dir); err == nil {
			dir = operator.RelPath(op.Root(), abs)
		}
	}
	showHidden := hasHiddenPart(dir)
	var lines []string
	var files, dirs int
	var bytes int64
	for _, e := range entries {
		if !showHidden && hasHiddenPart(e.Path) {
			continue
		}
		switch {
		case e.IsDir:
			dirs++
			lines = append(lines, e.Path+"/")
		case e.Mode&fs.ModeSymlink != 0:
			lines = append(lines, e.Path+"  (symlink)")
		case !e.Mode.IsRegular():
			lines = append(lines, e.Path+"  (special file)")
		default:
			files++
			bytes += e.Size
			lines = append(lines, fmt.Sprintf("%s  %s", e.Path, humanSize(e.Size)))
		}
	}
	where := dir
	if where == "" || where == "." {
		where = "the workspace root"
	}
	if len(lines) == 0 {
		return fmt.Sprintf("%s is empty.", where), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d files (%s), %d directories\n", where, files, humanSize(bytes), dirs)
	for i, l := range lines {
		if i == MaxListEntries {
			fmt.Fprintf(&b, "[%d more entries not shown: list a subdirectory]\n", len(lines)-i)
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// hasHiddenPart reports whether a slash path has a component starting with
// a dot (such as work/.cells).
func hasHiddenPart(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if len(part) > 1 && strings.HasPrefix(part, ".") && part != ".." {
			return true
		}
	}
	return false
}

// PreviewArgs are the arguments of preview.
type PreviewArgs struct {
	Path string `json:"path"`
}

const previewDesc = "Preview a data file: sheets, typed columns, rows."

// previewFile implements the preview tool.
func previewFile(ctx context.Context, op operator.Operator, a PreviewArgs) (string, error) {
	if a.Path == "" {
		return "", errors.New("preview: path is required, e.g. input/sales.csv")
	}
	abs, err := op.Resolve(a.Path)
	if err != nil {
		return "", err
	}
	opts := preview.Options{BaseDir: op.Root()}
	p, err := PreviewConfined(ctx, op, abs, opts)
	if err != nil {
		return "", relErr(op, err)
	}
	p.Path = operator.RelPath(op.Root(), abs)
	return p.Compact(opts), nil
}

// PreviewConfined previews a session file from the descriptor the
// operator opened beneath its workspace (no links, no FIFOs): the sandbox
// can write out/ and work/, so the file is never previewed by name.
func PreviewConfined(ctx context.Context, op operator.Operator, abs string, opts preview.Options) (*preview.FilePreview, error) {
	f, err := op.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return preview.Opened(ctx, f, abs, opts)
}

// humanSize renders a byte count as B, KB, MB or GB (powers of 1024).
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KB", "MB", "GB", "TB"} {
		f /= unit
		if f < unit || u == "TB" {
			if f < 10 {
				return fmt.Sprintf("%.1f %s", f, u)
			}
			return fmt.Sprintf("%.0f %s", f, u)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// countLines counts the lines of s, a final line without newline included.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// scrubbedError is an error whose message has the workspace's absolute path
// removed; it unwraps to the original.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// relErr rewrites the workspace's absolute path in err's message to
// workspace-relative form, so replies never show where the workspace lives
// and paths in them can be passed straight back to the tools.
func relErr(op operator.Operator, err error) error {
	if err == nil {
		return nil
	}
	root := op.Root()
	msg := strings.ReplaceAll(err.Error(), root+string(filepath.Separator), "")
	msg = strings.ReplaceAll(msg, root, ".")
	if msg == err.Error() {
		return err
	}
	return &scrubbedError{msg: msg, err: err}
}
