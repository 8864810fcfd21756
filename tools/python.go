package tools

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"

	callctx "github.com/sift-agent/sift/internal/call"
	"github.com/sift-agent/sift/operator"
)

// PythonArgs are the arguments of python.
type PythonArgs struct {
	Code string `json:"code"`
}

// pythonDescStart and pythonDescEnd frame the description of python; the
// middle says whether variables persist, which depends on the Python mode.
const (
	pythonDescStart   = "Run Python 3 (pandas, numpy, matplotlib, openpyxl; no network) in the workspace root. "
	pythonDescProcess = "Each call is a fresh interpreter; "
	pythonDescKernel  = "Calls share one kernel: variables persist; "
	pythonDescEnd     = "a last bare expression's value is shown; open figures are saved to out/."
)

// pythonDesc describes python for op's Python mode.
func pythonDesc(op operator.Operator) string {
	if operator.ModeOf(op) == operator.PythonKernel {
		return pythonDescStart + pythonDescKernel + pythonDescEnd
	}
	return pythonDescStart + pythonDescProcess + pythonDescEnd
}

// PythonTool returns the python tool over op. A cell that raises or times
// out is a normal reply starting with "Error:" and carrying a fix hint; a Go
// error means the code could not be run at all. In kernel mode (see
// operator.ModeOf) the description says that variables persist, a kernel
// restarted after a crash or kill replays the earlier successful cells, and
// the reply starts with a "Note:" saying so.
func PythonTool(op operator.Operator) (tool.InvokableTool, error) {
	if op == nil {
		return nil, errors.New("python tool: operator is nil")
	}
	t, err := utils.InferTool(PythonName, pythonDesc(op), func(ctx context.Context, a PythonArgs) (string, error) {
		return runPython(ctx, op, a)
	}, leanSchema)
	if err != nil {
		return nil, fmt.Errorf("python tool: %w", err)
	}
	return t, nil
}

// runPython implements python.
func runPython(ctx context.Context, op operator.Operator, a PythonArgs) (string, error) {
	code := stripFences(a.Code)
	if strings.TrimSpace(code) == "" {
		return "", withHint(errors.New("python: code is empty"), "send the Python code to run in the code field")
	}
	step, _ := callctx.Step(ctx) // the plan step the cell is for: its share of cells.jsonl
	res, err := op.RunPython(ctx, code, operator.RunOptions{Replay: true, Step: step})
	if err != nil {
		return "", relErr(op, err)
	}
	return formatRun(ctx, op, res), nil
}

// fence matches a Markdown code fence around a whole cell.
var fence = regexp.MustCompile("(?s)^\\s*```[a-zA-Z0-9_+-]*[ \\t]*\\n(.*?)\\n?```\\s*$")

// stripFences removes a Markdown code fence the model put around its code.
func stripFences(code string) string {
	if m := fence.FindStringSubmatch(code); m != nil {
		return m[1]
	}
	return code
}

// PythonFailed reports whether reply, the python tool's answer to one
// cell, says the cell failed: its "Error" line comes first, after the
// one-line note a kernel restart puts before it.
func PythonFailed(reply string) bool { return FailedReply(reply) }

// FailedReply reports whether a tool's reply says the call failed (see
// FailureLine).
func FailedReply(reply string) bool { return FailureLine(reply) != "" }

// FailureLine is the line of a tool's reply that says the call failed:
// the reply starts with "Error" (Hint's replies for a tool's error, a
// python cell's failure), after the one-line note a kernel restart puts
// before it. It is empty for a reply that does not say so.
func FailureLine(reply string) string {
	s := strings.TrimSpace(reply)
	if rest, ok := strings.CutPrefix(s, "Note: "); ok {
		_, s, _ = strings.Cut(rest, "\n")
	}
	if !strings.HasPrefix(s, "Error") {
		return ""
	}
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

// slowCell is the run time from which the python tool's reply says how
// long the cell ran: that a cell is slow is worth the model's attention
// (sample first, vectorise), a fast cell's time is not, and leaving it out
// keeps the reply, which every later request and the replanner's view of
// the results carry, the same from run to run for providers' prefix
// caches.
const slowCell = 5 * time.Second

// formatRun renders a run as the compact reply the model reads; a run of
// slowCell or more ends with how long it took.
func formatRun(ctx context.Context, op operator.Operator, res *operator.RunResult) string {
	var b strings.Builder
	if res.Notice != "" {
		// One line, so PythonFailed finds the error line after it.
		b.WriteString("Note: " + strings.ReplaceAll(res.Notice, "\n", " ") + "\n")
	}
	if !res.OK() {
		summary := errorSummary(res)
		b.WriteString("Error: " + summary + "\n")
		if tb := strings.TrimRight(res.Error, "\n"); tb != "" && tb != summary {
			b.WriteString(tb + "\n")
		}
		b.WriteString("Hint: " + pythonHint(ctx, op, res, summary) + "\n")
	}
	section := func(title, text, whole string) {
		text = strings.TrimRight(text, "\n")
		if text == "" {
			return
		}
		if whole != "" {
			title += " (cut; the whole text is in " + whole + ")"
		}
		b.WriteString(title + ":\n" + text + "\n")
	}
	section("stdout", res.Stdout, res.StdoutFile)
	section("stderr", res.Stderr, res.StderrFile)
	section("value", res.Value, "")
	figures := map[string]bool{}
	for _, f := range res.Figures {
		figures[f] = true
	}
	var files []string
	for _, f := range res.Files {
		if !figures[f] {
			files = append(files, f)
		}
	}
	if len(files) > 0 {
		more := ""
		if res.FilesOmitted > 0 {
			more = fmt.Sprintf(" (and %d more not listed)", res.FilesOmitted)
		}
		b.WriteString("files written: " + strings.Join(files, ", ") + more + "\n")
	}
	if len(res.Figures) > 0 {
		b.WriteString("figures saved: " + strings.Join(res.Figures, ", ") + "\n")
	}
	if b.Len() == 0 {
		b.WriteString("(no output: print what you want to see, or end with an expression)\n")
	}
	if res.Duration < slowCell {
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(&b, "(ran %s)", res.Duration.Round(10*time.Millisecond))
	return b.String()
}

// errorSummary is the one line that says what went wrong: the exception
// line of a traceback, or the reason the run was stopped.
func errorSummary(res *operator.RunResult) string {
	if res.TimedOut {
		return firstLine(res.Error)
	}
	lines := strings.Split(strings.TrimRight(res.Error, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); excLine.MatchString(l) {
			return l
		}
	}
	return firstLine(res.Error)
}

// excLine matches the last line of a traceback, "SomeError: message".
var excLine = regexp.MustCompile(`^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b`)

// firstLine returns the first non-empty line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return "the code failed"
}

// keyName pulls the quoted key out of "KeyError: 'x'".
var keyName = regexp.MustCompile(`^KeyError: (.+)$`)

// pythonHint says how to fix a failed run, judged from its exception.
func pythonHint(ctx context.Context, op operator.Operator, res *operator.RunResult, summary string) string {
	exc, msg, _ := strings.Cut(summary, ":")
	exc = exc[strings.LastIndex(exc, ".")+1:]
	msg = strings.TrimSpace(msg)
	switch {
	case res.TimedOut && strings.Contains(summary, "was interrupted"):
		return "the run took too long and was interrupted; the kernel's variables are kept, so continue from them. Work on a sample first (nrows=, df.sample(...)), use vectorised pandas instead of Python loops over rows, or split the work into several calls."
	case res.TimedOut:
		return "the run took too long and was killed. Work on a sample first (nrows=, df.sample(...)), use vectorised pandas instead of Python loops over rows, or split the work into several calls."
	case exc == "KeyError":
		key := msg
		if m := keyName.FindStringSubmatch(summary); m != nil {
			key = m[1]
		}
		return fmt.Sprintf("no column or key %s: print(df.columns.tolist()) (or the dict's keys) to see the real names; check case, spaces and which row holds the header.", key)
	case exc == "FileNotFoundError":
		return "paths are relative to the workspace root; " + inputFiles(ctx, op)
	case exc == "ModuleNotFoundError" || exc == "ImportError":
		return "only pandas, numpy, matplotlib, openpyxl and the Python standard library are available, and nothing can be installed; do it with those."
	case exc == "NameError" && operator.ModeOf(op) == operator.PythonKernel:
		return "that name is not defined in the kernel: check its spelling, or define it (or load the data) in this code; names from earlier calls persist only while the kernel is not restarted."
	case exc == "NameError":
		return "each python call starts a fresh interpreter, so names from earlier calls are gone: import, load and define what this code uses in this same code."
	case exc == "SyntaxError" || exc == "IndentationError" || exc == "TabError":
		return "fix the line the error points to (brackets, quotes, indentation); send plain Python, not Markdown or prose."
	case exc == "UnicodeDecodeError":
		return "the file is not UTF-8: pass its encoding, e.g. pd.read_csv(path, encoding='gb18030') or encoding='latin-1'; preview shows a file's detected encoding."
	case exc == "PermissionError":
		return "input/ is read-only: save results to out/ and scratch files to work/."
	case exc == "AttributeError" && strings.Contains(msg, "DataFrame"):
		return "that name is not a DataFrame method or column: print(df.columns.tolist()) for the columns and use df['name'] for names with spaces or odd characters."
	case exc == "ValueError" && strings.Contains(msg, "could not convert"):
		return "the column holds text that is not a number: clean it first, e.g. pd.to_numeric(df[col].str.replace(',', ''), errors='coerce')."
	case strings.HasSuffix(exc, "MemoryError"), strings.Contains(msg, "out of memory"), strings.Contains(msg, "Cannot allocate memory"):
		// numpy raises _ArrayMemoryError, a MemoryError; pandas' C
		// tokenizer says "C error: out of memory" in a ParserError.
		return "Python ran out of memory: " + MemoryAdvice(ctx, op)
	case strings.HasPrefix(summary, "the kernel died"):
		return "the Python kernel died (most likely out of memory, or a crash in native code) and its variables are gone. " + MemoryAdvice(ctx, op)
	case strings.HasPrefix(summary, "the interpreter stopped"):
		return "the interpreter died (most likely out of memory, or killed). " + MemoryAdvice(ctx, op)
	}
	return "read the traceback, fix the line it points to, and run again."
}

// bigInput is the size from which an input is named in MemoryAdvice.
const bigInput = 64 << 20

// MemoryAdvice says what helps when code runs out of memory: how large the
// inputs are, what bounds the sandbox's memory, and to aggregate before
// bringing rows into pandas.
func MemoryAdvice(ctx context.Context, op operator.Operator) string {
	var big []string
	if entries, err := op.List(ctx, operator.InputDir, true); err == nil {
		sort.Slice(entries, func(i, j int) bool { return entries[i].Size > entries[j].Size })
		for _, e := range entries {
			if e.Mode.IsRegular() && e.Size >= bigInput && len(big) < 3 {
				big = append(big, fmt.Sprintf("%s is %s", e.Path, humanSize(e.Size)))
			}
		}
	}
	sizes := ""
	if len(big) > 0 {
		sizes = strings.Join(big, ", ") + "; "
	}
	return sizes + "the sandbox's memory limit (SIFT_SANDBOX_MEMORY, default 4 GiB) is smaller than what this code loads, and pandas needs several times a file's size. " +
		"Do not load whole large files: aggregate in SQL first (sql_query with GROUP BY, when databases or files are attached as SQL sources) and bring only the result into pandas, " +
		"or read just the columns you need in chunks (pd.read_csv(path, usecols=[...], chunksize=1_000_000)) and combine the partial results."
}

// inputFiles lists the files under input/ for a FileNotFoundError hint.
func inputFiles(ctx context.Context, op operator.Operator) string {
	entries, err := op.List(ctx, operator.InputDir, true)
	if err != nil {
		return "call list_files to see the files there are."
	}
	var files []string
	for _, e := range entries {
		if e.Mode.IsRegular() && !hasHiddenPart(e.Path) {
			files = append(files, e.Path)
		}
	}
	if len(files) == 0 {
		return "input/ holds no files; call list_files to see what the workspace holds."
	}
	const most = 30
	more := ""
	if len(files) > most {
		more = fmt.Sprintf(" and %d more (list_files dir=input recursive=true)", len(files)-most)
		files = files[:most]
	}
	return "the files under input/ are: " + strings.Join(files, ", ") + more + "."
}
