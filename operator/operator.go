// Package operator is where Sift's generated code runs and its files live:
// file operations confined to one session workspace, and Python execution
// with limits. Tools reach the workspace only through an Operator.
package operator

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// Operator runs code and touches files for one session workspace. Every path
// it takes is workspace-relative (an absolute path is accepted only when it
// lies inside the workspace) and is refused when it would escape the
// workspace, including through symlinks. input/ is read-only.
type Operator interface {
	// Root is the workspace's absolute path.
	Root() string
	// Resolve maps a path to an absolute path inside the workspace, or
	// returns an error wrapping ErrOutsideWorkspace. Only for handing a
	// path to code that opens it by name; the host reads through Open.
	Resolve(path string) (string, error)
	// Open opens a file or directory for reading beneath the workspace by
	// descriptor (package confined): never through a link, never a FIFO
	// or device. Read from the file it returns.
	Open(path string) (*os.File, error)
	// Stat describes a path without following it (a link is described
	// as a link).
	Stat(path string) (FileInfo, error)
	// ReadFile reads at most limit bytes of a file (limit <= 0: no limit);
	// truncated reports whether the file was longer.
	ReadFile(ctx context.Context, path string, limit int64) (data []byte, truncated bool, err error)
	// WriteFile creates or replaces a file, making parent directories. It
	// refuses paths under input/ with an error wrapping ErrReadOnly.
	WriteFile(ctx context.Context, path string, data []byte) error
	// List returns the entries under dir (recursively when asked), with
	// workspace-relative paths, sorted by path.
	List(ctx context.Context, dir string, recursive bool) ([]FileInfo, error)
	// RunPython runs one piece of Python code in the workspace and reports
	// what it printed, raised and produced. A failing cell is not an error:
	// err is for when the code could not be run at all.
	RunPython(ctx context.Context, code string, opts RunOptions) (*RunResult, error)
	// Close releases what the operator holds (processes, kernels).
	Close() error
}

// FileInfo describes one workspace entry.
type FileInfo struct {
	Path    string      `json:"path"`
	Size    int64       `json:"size"`
	IsDir   bool        `json:"is_dir,omitempty"`
	Mode    fs.FileMode `json:"-"`
	ModTime time.Time   `json:"mod_time"`
}

// RunOptions bound one Python run.
type RunOptions struct {
	// Timeout bounds the run's wall time. Zero means the operator's default.
	Timeout time.Duration
	// Replay asks a kernel that has to be restarted for this run (the last
	// one was killed or crashed) to first re-run the cells that succeeded in
	// the lost kernel, from cells.jsonl, to rebuild its variables. Ignored in
	// process mode, where no state carries over.
	Replay bool
	// Step is the plan step the run is for: each step may add at most its
	// share to cells.jsonl (see CellRecord.Limited). 0 takes the step ctx
	// carries (llm.WithStep, which the step tracker sets around every tool
	// a step calls: python, SQL's DataFrame hand-over, built-ins), so a
	// tool that runs code for a step is counted against it without naming
	// it; none when ctx carries none either.
	Step int
}

// RunResult is what one Python run did.
type RunResult struct {
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// Error is the exception with its traceback when the code raised, or the
	// reason it was stopped (timeout, killed); empty on success.
	Error string `json:"error,omitempty"`
	// Value is the rendered value of a trailing expression, if any.
	Value string `json:"value,omitempty"`
	// Files are workspace-relative paths created or changed by the run
	// (figures included), sorted; at most MaxCellFiles of them, the rest
	// counted in FilesOmitted.
	Files []string `json:"files,omitempty"`
	// FilesOmitted is how many more paths the run created or changed than
	// Files lists.
	FilesOmitted int `json:"files_omitted,omitempty"`
	// Figures are the workspace-relative PNG paths of figures saved.
	Figures  []string      `json:"figures,omitempty"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration"`
	// Cell is the cell's number: its code is saved as
	// work/.cells/cell-NNNN.py and its line in cells.jsonl carries it.
	Cell int `json:"cell,omitempty"`
	// StdoutFile and StderrFile name the workspace files holding the whole
	// stdout or stderr when Stdout or Stderr was cut; empty otherwise.
	StdoutFile string `json:"stdout_file,omitempty"`
	StderrFile string `json:"stderr_file,omitempty"`
	// Restarted reports that the kernel was started afresh for this run
	// because the previous one was killed or crashed: the variables of
	// earlier cells are gone unless Replayed brought them back.
	Restarted bool `json:"restarted,omitempty"`
	// Replayed is how many earlier cells were re-run to rebuild the
	// restarted kernel's state; ReplayFailed lists those that failed.
	Replayed     int   `json:"replayed,omitempty"`
	ReplayFailed []int `json:"replay_failed,omitempty"`
	// Notice says in plain words what happened to the kernel around this
	// run (restarted and why, state lost or replayed, killed); empty when
	// nothing did.
	Notice string `json:"notice,omitempty"`
}

// OK reports whether the code ran to the end without raising.
func (r *RunResult) OK() bool { return r != nil && r.Error == "" && !r.TimedOut }

// Errors callers branch on.
var (
	// ErrOutsideWorkspace: a path would leave the session workspace.
	ErrOutsideWorkspace = errors.New("path is outside the session workspace")
	// ErrReadOnly: a write aimed at a read-only place such as input/.
	ErrReadOnly = errors.New("path is read-only")
	// ErrNoPython: no usable Python interpreter was found.
	ErrNoPython = errors.New("no usable Python interpreter")
)
