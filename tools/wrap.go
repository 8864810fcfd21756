package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/operator"
)

// ToolOutputDir is where CapOutput saves the full text of replies it cut.
const ToolOutputDir = operator.WorkDir + "/tool-output"

// hintError is an error that carries its own fix hint, which Hint prefers
// over the generic ones.
type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string { return e.err.Error() }
func (e *hintError) Unwrap() error { return e.err }

// Hint returns what to do about the error.
func (e *hintError) Hint() string { return e.hint }

// withHint attaches a fix hint to err.
func withHint(err error, hint string) error { return &hintError{err: err, hint: hint} }

// WithHint attaches a fix hint to err, which Hint gives the model instead
// of a generic one. errors.Is and errors.As still see err.
func WithHint(err error, hint string) error { return withHint(err, hint) }

// hinter is what an error implements to name its own fix.
type hinter interface{ Hint() string }

// Hint wraps t so that a Go error it returns becomes a normal reply,
// "Error: <message>\nHint: <what to do>", and a failing tool never ends the
// run. The hint comes from the error itself when it carries one, else from
// what it wraps: a path outside the workspace, a write to read-only input/,
// a missing file, arguments that are not JSON. Cancellation and interrupts
// still pass through as errors. The wrapped tool keeps t's Info.
func Hint(t tool.InvokableTool) tool.InvokableTool {
	return &wrappedTool{inner: t, run: func(ctx context.Context, args string, opts ...tool.Option) (string, error) {
		out, err := t.InvokableRun(ctx, args, opts...)
		if err == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			return "", err
		}
		if _, ok := compose.IsInterruptRerunError(err); ok {
			return "", err
		}
		return "Error: " + errorMessage(err) + "\nHint: " + hintFor(err), nil
	}}
}

// errorMessage is err's message without the prefix InferTool adds, which
// names the Go machinery rather than the problem.
func errorMessage(err error) string {
	msg := err.Error()
	const invokePrefix = "[LocalFunc] failed to invoke tool, "
	if strings.HasPrefix(msg, invokePrefix) {
		if _, rest, ok := strings.Cut(msg, ", err="); ok {
			return rest
		}
	}
	return msg
}

// hintFor picks the fix hint for err.
func hintFor(err error) string {
	var h hinter
	if errors.As(err, &h) {
		return h.Hint()
	}
	switch {
	case errors.Is(err, operator.ErrOutsideWorkspace):
		return "use workspace-relative paths such as input/sales.csv or out/result.csv; call list_files to see the files there are."
	case errors.Is(err, operator.ErrReadOnly):
		return "input/ is read-only: write results to out/ or scratch files to work/ instead."
	case errors.Is(err, fs.ErrNotExist):
		return "that file does not exist; call list_files (dir=input, recursive=true) to see the files there are."
	case errors.Is(err, operator.ErrNoPython):
		return "Python is not available in this session; work with the file tools, or ask the person to install pandas, matplotlib and openpyxl."
	case strings.Contains(err.Error(), "failed to unmarshal arguments"):
		return "the arguments were not valid for this tool: send one JSON object with the fields its schema names, with the right types."
	}
	return "check the arguments and try again; if it fails the same way twice, try another approach."
}

// CapOutput wraps t so that a reply longer than maxChars characters keeps
// its head and tail around a marker, while the full text is saved through op
// to work/tool-output/<tool>-<n>.txt; the marker names that file and how to
// read it with read_file. Errors pass through unchanged, so wrap as
// CapOutput(Hint(t), ...) to cap error replies too. The wrapped tool keeps
// t's Info. maxChars <= 0 returns t itself.
func CapOutput(t tool.InvokableTool, op operator.Operator, maxChars int) tool.InvokableTool {
	if maxChars <= 0 {
		return t
	}
	c := &outputCapper{op: op, maxChars: maxChars}
	return &wrappedTool{inner: t, run: func(ctx context.Context, args string, opts ...tool.Option) (string, error) {
		out, err := t.InvokableRun(ctx, args, opts...)
		if err != nil || utf8.RuneCountInString(out) <= maxChars {
			return out, err
		}
		name := "tool"
		if info, ierr := t.Info(ctx); ierr == nil && info != nil && info.Name != "" {
			name = info.Name
		}
		return c.capReply(ctx, name, out), nil
	}}
}

// outputCapper numbers and saves the full replies of one wrapped tool.
type outputCapper struct {
	op       operator.Operator
	maxChars int
	mu       sync.Mutex
	next     int
}

// capReply saves out in full and returns its head and tail with a marker.
func (c *outputCapper) capReply(ctx context.Context, name, out string) string {
	saved, saveErr := c.save(ctx, name, out)
	runes := []rune(out)
	headN := c.maxChars / 2
	tailN := c.maxChars - headN
	head, tail := string(runes[:headN]), string(runes[len(runes)-tailN:])
	cut := len(runes) - headN - tailN
	var marker string
	if saveErr == nil {
		marker = fmt.Sprintf("[... %d characters cut; the full reply (%d lines) is saved in %s: call read_file with path=%q and start_line/end_line to read the part you need ...]",
			cut, countLines(out), saved, saved)
	} else {
		marker = fmt.Sprintf("[... %d characters cut; saving the full reply failed: %v ...]", cut, saveErr)
	}
	return head + "\n" + marker + "\n" + tail
}

// save writes out to the next free work/tool-output/<name>-<n>.txt.
func (c *outputCapper) save(ctx context.Context, name, out string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		c.next++
		p := fmt.Sprintf("%s/%s-%d.txt", ToolOutputDir, name, c.next)
		// Another wrapper of the same tool (an earlier run of this session)
		// may have used the number: never overwrite what it saved.
		if _, err := c.op.Stat(p); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if err := c.op.WriteFile(ctx, p, []byte(out)); err != nil {
			return "", err
		}
		return p, nil
	}
}

// wrappedTool is an InvokableTool with t's Info and a replaced run.
type wrappedTool struct {
	inner tool.InvokableTool
	run   func(ctx context.Context, args string, opts ...tool.Option) (string, error)
}

// Info returns the wrapped tool's Info.
func (w *wrappedTool) Info(ctx context.Context) (*schema.ToolInfo, error) { return w.inner.Info(ctx) }

// InvokableRun runs the wrapper.
func (w *wrappedTool) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	return w.run(ctx, args, opts...)
}
