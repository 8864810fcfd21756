package agents

import (
	"context"
	"fmt"
	"os"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/tools/sqldb"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// open opens the session's event log and trajectory and starts the run's
// trace span; it returns the context carrying that span.
func (r *run) open(ctx context.Context) (context.Context, error) {
	var err error
	// A lent workspace's events go to its conversation, which logs them.
	if r.lent == nil {
		if r.log, err = session.OpenEventLog(r.ws.Path("events.jsonl")); err != nil {
			return ctx, err
		}
	}
	if r.trajectory, err = trajectory.Open(r.ws.Path(trajectoryFile), trajectory.Config{}); err != nil {
		return ctx, err
	}
	ctx, r.endSpan = llm.StartRun(ctx, r.ws.ID)
	if r.lent == nil {
		r.emit(event.Event{Kind: event.Session, Text: r.ws.ID, Path: r.ws.Root})
	}
	return ctx, nil
}

// noSandboxWarning is said where generated code runs with no sandbox:
// once per run (a CLI shows it once per process, a chat once).
const noSandboxWarning = "WARNING: generated code runs WITHOUT a sandbox (only path checks confine it): it can read your files and use the network. Install bubblewrap to sandbox it."

// newOperator finds Python, builds the sandbox and the operator; it starts
// no Python (see warmKernel). With adopt, a kernel
// first takes over the workspace's cell log, so its first cell rebuilds the
// state an earlier process left; adopted says how many cells that replays.
func (r *run) newOperator(ctx context.Context, adopt bool) (op operator.Operator, adopted int, err error) {
	python, err := operator.FindPython(ctx, r.sift.cfg.Python)
	if err != nil {
		return nil, 0, err
	}
	sb, err := operator.NewSandbox(r.sift.cfg.Sandbox)
	if err != nil {
		return nil, 0, err
	}
	if sb.Name() == "none" {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: noSandboxWarning})
	}
	for _, w := range operator.Warnings(sb) {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: w})
	}
	// Each session has its own matplotlib directory (the operator's):
	// nothing writable is shared between sessions.
	if r.pooled != nil && !adopt && r.pooled.Root() == r.ws.Root {
		// The kernel started in this workspace before the session had it.
		op, r.pooled = r.pooled, nil
	} else if op, err = operator.New(operator.Config{
		Root: r.ws.Root, Mode: r.sift.cfg.PythonMode, Python: python, Sandbox: sb,
		Timeout: r.sift.cfg.CodeTimeout,
	}); err != nil {
		return nil, 0, err
	}
	if k, ok := op.(*operator.KernelOperator); ok {
		if adopt {
			adopt := k.Kernel().AdoptLog
			if r.origin == session.OriginFork && r.parent != "" {
				adopt = func() (int, int, error) { return k.Kernel().AdoptForkedLog(r.parent) }
			}
			if _, adopted, err = adopt(); err != nil {
				op.Close()
				return nil, 0, err
			}
		}
	}
	return op, adopted, nil
}

// startKernel starts a session's kernel; tests count its calls.
var startKernel = func(ctx context.Context, k *operator.Kernel) { _ = k.Start(ctx) }

// warmKernel starts the run's kernel warming up in the background, so its
// first cell does not wait for Python's imports. It is called once Python
// will be needed (the agents are about to plan, a resume or a refresh
// replays cells): a run whose steps are all built-ins computed in Go never
// calls it and starts no Python at all; one that runs a built-in's Python
// cell starts the kernel on that cell.
func (r *run) warmKernel(ctx context.Context) {
	if k, ok := r.op.(*operator.KernelOperator); ok {
		go startKernel(ctx, k.Kernel())
	}
}

// followUp opens an existing session for a new question; a session that
// is still going must be resumed instead.
func (r *run) followUp(ctx context.Context, id string) (*session.Workspace, error) {
	meta, err := r.sift.store.Sessions.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	if !meta.Status.Finished() {
		return nil, fmt.Errorf("%w: session %s is %s; resume it (sift resume %s) before asking a follow-up", session.ErrBadInput, id, meta.Status, id)
	}
	return session.Open(r.sift.cfg.SessionsRoot, id)
}

// checkInputs refuses missing or wrong-kind inputs before a session is
// made for them.
func checkInputs(req Request) error {
	for _, f := range req.Files {
		st, err := os.Stat(f)
		switch {
		case err != nil:
			return fmt.Errorf("%w: input file %s: %v; check the path", session.ErrBadInput, f, err)
		case st.IsDir():
			return fmt.Errorf("%w: %s is a directory; pass it as a directory (--dir) instead", session.ErrBadInput, f)
		}
	}
	for _, d := range req.Dirs {
		st, err := os.Stat(d)
		switch {
		case err != nil:
			return fmt.Errorf("%w: input directory %s: %v; check the path", session.ErrBadInput, d, err)
		case !st.IsDir():
			return fmt.Errorf("%w: %s is not a directory; pass it as a file (--file) instead", session.ErrBadInput, d)
		}
	}
	return nil
}

// previewInputs previews the session's input files (workspace-relative
// paths) with the configured preview options, each once per run (see
// inputPreview).
func (r *run) previewInputs(ctx context.Context, inputs []string) []preview.Previewed {
	out := make([]preview.Previewed, len(inputs))
	for i, in := range inputs {
		out[i] = r.inputPreview(ctx, in)
	}
	return out
}

// previewFile previews one file; tests count its calls.
var previewFile = preview.File

// sniffInputs sniffs the CSV and TSV inputs for DuckDB ahead of the
// built-ins (sqldb.SniffFiles); tests watch it.
var sniffInputs = sqldb.SniffFiles

// inputPreview is the preview of the session's input in
// (workspace-relative) with the configured preview options, made once per
// run: the data context and the input's fingerprint (schemaPreview) read
// the same one. Once ctx is cancelled an input not previewed yet gets
// ctx's error.
func (r *run) inputPreview(ctx context.Context, in string) preview.Previewed {
	if pv, ok := r.inputPreviews[in]; ok {
		return pv
	}
	popts := r.sift.cfg.Preview
	popts.BaseDir = r.ws.Root
	// With no model the preview only matches the request to a built-in,
	// which counts the rows itself: a file too large for statistics over
	// every row is not read once more just to count them.
	popts.CountWithStatsOnly = !r.sift.hasModel()
	pv := preview.Previewed{Path: r.ws.Path(in)}
	if pv.Err = ctx.Err(); pv.Err != nil {
		return pv
	}
	pv.Preview, pv.Err = previewFile(ctx, pv.Path, popts)
	if r.inputPreviews == nil {
		r.inputPreviews = map[string]preview.Previewed{}
	}
	r.inputPreviews[in] = pv
	return pv
}

// schemaPreview is the preview the fingerprint of input in reads its
// schema from (memory.SchemaOptions): the run's own preview of it when
// the configured options find the same tables, so the file is previewed
// once; nil when it cannot be previewed.
func (r *run) schemaPreview(ctx context.Context, in string) *preview.FilePreview {
	var pv preview.Previewed
	if preview.SameTables(r.sift.cfg.Preview, memory.SchemaOptions) {
		pv = r.inputPreview(ctx, in)
	} else {
		pv.Preview, pv.Err = previewFile(ctx, r.ws.Path(in), memory.SchemaOptions)
	}
	if pv.Err != nil {
		return nil
	}
	return pv.Preview
}

// previewed lists the previews that could be made, for the template
// matcher; the others are reported in the data context.
func previewed(files []preview.Previewed) []*preview.FilePreview {
	out := make([]*preview.FilePreview, 0, len(files))
	for _, f := range files {
		if f.Preview != nil {
			out = append(out, f.Preview)
		}
	}
	return out
}

// describeInputs is the data context's part about the input files: their
// descriptions (column types, missing shares, ranges, top values, a few
// rows; see preview.Describe). The fuller compact previews, with their
// sampled rows, stay evidence for the answer check: the numbers they show
// are the data's, though the prompts no longer carry them.
func (r *run) describeInputs(files []preview.Previewed, opts preview.Options) string {
	r.outputs.Add(preview.CompactAll(files, opts))
	return demoteHeadings(preview.DescribeAll(files, opts))
}

// demoteHeadings is report.DemoteHeadings.
func demoteHeadings(s string) string { return report.DemoteHeadings(s) }
