package agents

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/dustin/go-humanize/english"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/refresh"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/sqldb"
)

// Errors a refresh ends with.
var (
	// ErrCannotRefresh: the session cannot be refreshed as asked (it is
	// not finished, a built-in answered it, the files do not fit its
	// inputs, or a cell or query fails on the new data); the error says
	// why and what to do.
	ErrCannotRefresh = errors.New("cannot refresh")
	// ErrMappingNotApproved: columns of the new data were renamed; the
	// mapping (RefreshPlan.Inputs) waits for the person's approval
	// (RefreshRequest.Approve).
	ErrMappingNotApproved = errors.New("the column mapping needs approval")
)

// RefreshRequest asks for a finished session to be run again on new data.
type RefreshRequest struct {
	// Session is the session to refresh.
	Session string
	// Files are the new data: one for each input file of the session,
	// matched by name, else in the order of the session's inputs. A
	// session that queried databases may be refreshed with none: its
	// queries run again on the databases as they are now.
	Files []string
	// Databases are the session's databases given again ("name=url"),
	// for a password the session never stores; empty: those it recorded.
	Databases []string
	// Approve applies a mapping of renamed columns; without it such a
	// refresh stops with ErrMappingNotApproved and the mapping.
	Approve bool
	// Mapping is the models' column mappings of the plan approved
	// (RefreshPlan.Models), sent back so that the refresh applies them
	// without asking the model again, whichever process runs it; each is
	// checked again as a model's answer is, and refused, never
	// corrected, when it does not fit the new data.
	Mapping []ModelMapping
	// SessionID names the new session. Optional; generated when empty.
	SessionID string
}

// RefreshInput is one input of the session and the new file that takes
// its place, with how the old columns are found in the new file.
type RefreshInput struct {
	// Old is the session's input, workspace-relative (input/sales.csv).
	Old string `json:"old"`
	// New is the new file's path; "" keeps the old file.
	New string `json:"new,omitempty"`
	// Mapping is how the old table's columns are found in the new one;
	// nil when the input is no table.
	Mapping *refresh.Mapping `json:"mapping,omitempty"`
}

// RefreshPlan is what a refresh will do, before it does it.
type RefreshPlan struct {
	// Session is the session refreshed.
	Session string `json:"session"`
	// Question is what that session was asked.
	Question string `json:"question"`
	// Inputs are its inputs and what takes their place.
	Inputs []RefreshInput `json:"inputs"`
	// Cells and Queries are how many cells and SQL queries run again.
	Cells   int `json:"cells"`
	Queries int `json:"queries"`
	// NeedsApproval says a column was renamed: the mapping is applied
	// only when approved.
	NeedsApproval bool `json:"needs_approval"`
	// Models are the mappings a model gave (one per input it was asked
	// of), with what asking cost: send them back with the approval
	// (RefreshRequest.Mapping) to apply the same.
	Models  []ModelMapping `json:"model_mapping,omitempty"`
	actions []refreshAction
	old     *session.Workspace
	meta    session.Meta
}

// Runs says what runs again: "3 cells and 1 SQL query".
func (p *RefreshPlan) Runs() string {
	var parts []string
	if p.Cells > 0 {
		parts = append(parts, english.Plural(p.Cells, "cell", ""))
	}
	if p.Queries > 0 {
		parts = append(parts, english.Plural(p.Queries, "SQL query", "SQL queries"))
	}
	return strings.Join(parts, " and ")
}

// MappingText shows the columns that were renamed or moved, one line
// each, under the input they belong to; "" when none was.
func (p *RefreshPlan) MappingText() string {
	var b strings.Builder
	for _, in := range p.Inputs {
		if in.Mapping == nil || in.Mapping.Same() {
			continue
		}
		// The new file by its name: on a server its path is the
		// server's upload directory, which a client is not shown.
		fmt.Fprintf(&b, "%s ← %s:\n%s", in.Old, filepath.Base(in.New), in.Mapping)
	}
	return b.String()
}

// MappingError is the error of a refresh whose column mapping waits for
// approval; it unwraps to ErrMappingNotApproved and carries the plan.
type MappingError struct{ Plan *RefreshPlan }

func (e *MappingError) Error() string {
	return fmt.Sprintf("%v: columns of the new data have other names:\n%sApprove the mapping (sift refresh --yes, or \"approve\": true in the API) to refresh with it, or rename the columns in the file", ErrMappingNotApproved, e.Plan.MappingText())
}

func (e *MappingError) Unwrap() error { return ErrMappingNotApproved }

// refreshAction is one cell or query of the old session, to run again.
type refreshAction struct {
	tool string // tools' python, or sqldb.SQLQueryName
	args string
	// result is what it returned then; step is the plan step it served.
	result string
	step   *plans.StepState
}

// PlanRefresh checks that session req.Session can be refreshed on
// req.Files and says how: which file takes the place of which input, how
// the columns map (a column the new data lacks is an error that names it,
// *refresh.UnmappedError), and what runs again. It changes nothing.
//
// When the columns changed so that name and type similarity is not sure
// of them, the configured model is asked for the mapping (one call; the
// answer is kept, so the refresh applies the mapping shown here, and its
// usage counts the call); it is
// shown for approval like any renamed column, and a mapping to a column
// the new data does not have is refused (refresh.ErrModelMapping).
func (s *Sift) PlanRefresh(ctx context.Context, req RefreshRequest) (*RefreshPlan, error) {
	return s.planRefresh(ctx, req, nil)
}

// planRefresh is PlanRefresh, with a model's call metered on meter.
func (s *Sift) planRefresh(ctx context.Context, req RefreshRequest, meter *llm.Meter) (*RefreshPlan, error) {
	old, err := session.Open(s.cfg.SessionsRoot, req.Session)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotRefresh, err)
	}
	meta, err := s.store.Sessions.Get(ctx, req.Session)
	if err != nil {
		return nil, fmt.Errorf("%w: session %s: %w", ErrCannotRefresh, req.Session, err)
	}
	switch {
	case meta.Status != session.StatusDone:
		return nil, fmt.Errorf("%w: session %s is %s; only a finished analysis is refreshed (resume it first)", ErrCannotRefresh, req.Session, meta.Status)
	case meta.Template != "":
		return nil, fmt.Errorf("%w: a built-in analysis (%s) answered session %s with no model already; run it on the new data: sift run --file NEW %q", ErrCannotRefresh, meta.Template, req.Session, meta.Question)
	}
	if len(req.Files) == 0 && len(req.Databases) == 0 {
		if dbs, _ := old.Databases(); len(dbs) == 0 {
			return nil, fmt.Errorf("%w: give the new data, one file for each input of session %s (sift refresh --file, or parts named file in the API)", ErrCannotRefresh, req.Session)
		}
	}
	plan := &RefreshPlan{Session: req.Session, Question: meta.Question, old: old, meta: meta}
	inputs, err := old.Inputs()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotRefresh, err)
	}
	news, err := matchFiles(inputs, req.Files)
	if err != nil {
		return nil, err
	}
	given := map[string]*ModelMapping{}
	for i := range req.Mapping {
		mm := &req.Mapping[i]
		if !slices.Contains(inputs, mm.Input) || given[mm.Input] != nil {
			return nil, fmt.Errorf("%w: the column mapping sent names input %q, which session %s has not (or names it twice); its inputs are %s. Send the mapping as the plan gave it", ErrCannotRefresh, mm.Input, req.Session, strings.Join(inputs, ", "))
		}
		given[mm.Input] = mm
	}
	for i, in := range inputs {
		ri := RefreshInput{Old: in, New: news[i]}
		if ri.New != "" {
			var mm *ModelMapping
			ri.Mapping, mm, err = s.mapInput(ctx, req.Session, old.Path(in), ri.New, in, given[in])
			// A model's mapping is asked before the run (PlanRefresh)
			// and kept, or sent back: the run that applies it counts
			// the call (see countMappings); a call whose answer is
			// refused counts in the run it fails.
			if err != nil {
				if mm != nil && mm.Usage.Calls > 0 {
					meter.Add(mappingAgent, mm.Usage)
				}
				return nil, err
			}
			if mm != nil {
				plan.Models = append(plan.Models, *mm)
			}
			if ri.Mapping != nil {
				if err := ri.Mapping.Err(); err != nil {
					return nil, fmt.Errorf("%w: %w", ErrCannotRefresh, err)
				}
				if ri.Mapping.NeedsApproval() {
					if kind := strings.ToLower(filepath.Ext(ri.New)); kind != ".csv" && kind != ".tsv" {
						return nil, fmt.Errorf("%w: columns of %s have other names than in %s, and a mapping is applied to CSV and TSV files only; rename them in the file:\n%s", ErrCannotRefresh, filepath.Base(ri.New), in, ri.Mapping)
					}
					plan.NeedsApproval = true
				}
			}
		}
		plan.Inputs = append(plan.Inputs, ri)
	}
	if plan.actions, err = recordedActions(old); err != nil {
		return nil, err
	}
	for _, a := range plan.actions {
		if a.tool == sqldb.SQLQueryName {
			plan.Queries++
		} else {
			plan.Cells++
		}
	}
	if len(plan.actions) == 0 {
		return nil, fmt.Errorf("%w: session %s ran no cell or query that succeeded, so there is nothing to run again; ask the question on the new data (sift run)", ErrCannotRefresh, req.Session)
	}
	return plan, nil
}

// matchFiles pairs each new file with an old input: by name first, then
// the rest in order. An input with no new file keeps its old content.
func matchFiles(inputs, files []string) ([]string, error) {
	if len(files) > len(inputs) {
		return nil, fmt.Errorf("%w: %d new files for %s; give one new file for each input", ErrCannotRefresh, len(files), english.Plural(len(inputs), "input", ""))
	}
	out := make([]string, len(inputs))
	used := make([]bool, len(files))
	for i, in := range inputs {
		for j, f := range files {
			if !used[j] && filepath.Base(f) == filepath.Base(in) {
				out[i], used[j] = f, true
				break
			}
		}
	}
	for j, f := range files {
		if used[j] {
			continue
		}
		for i := range inputs {
			if out[i] == "" {
				out[i], used[j] = f, true
				break
			}
		}
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			return nil, fmt.Errorf("%w: new data %s: not a readable file", ErrCannotRefresh, filepath.Base(f))
		}
	}
	return out, nil
}

// mapInput previews the old input and the new file and maps the first
// table's columns, asking the model when similarity is not sure
// (askMapping); nil when the old input is no table.
func (s *Sift) mapInput(ctx context.Context, session, oldPath, newPath, name string, given *ModelMapping) (*refresh.Mapping, *ModelMapping, error) {
	op, err := preview.File(ctx, oldPath, preview.Options{})
	if err != nil || len(op.Sheets) == 0 || len(op.Sheets[0].Columns) == 0 {
		return nil, nil, nil
	}
	np, err := preview.File(ctx, newPath, preview.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("%w: read the new data %s: %w", ErrCannotRefresh, filepath.Base(newPath), byName(err, newPath))
	}
	if len(np.Sheets) == 0 || len(np.Sheets[0].Columns) == 0 {
		return nil, nil, fmt.Errorf("%w: the new data %s has no table, but %s had one", ErrCannotRefresh, filepath.Base(newPath), name)
	}
	cols := func(cs []preview.Column) []refresh.Column {
		out := make([]refresh.Column, len(cs))
		for i, c := range cs {
			out[i] = refresh.Column{Name: c.Name, Type: c.Type}
		}
		return out
	}
	oldCols := cols(op.Sheets[0].Columns)
	m, mm, err := s.askMapping(ctx, session, refresh.MapColumns(name, oldCols, cols(np.Sheets[0].Columns)), oldCols, given)
	if err != nil {
		return nil, mm, err
	}
	return &m, mm, nil
}

// byName is err with the new file's path (and its directory) written as
// the file's name: on a server the path is the server's upload
// directory, which a client is not shown. It unwraps to err.
func byName(err error, path string) error {
	if err == nil {
		return nil
	}
	return &namedError{err: err, path: path}
}

type namedError struct {
	err  error
	path string
}

func (e *namedError) Error() string {
	s := strings.ReplaceAll(e.err.Error(), e.path, filepath.Base(e.path))
	if dir := filepath.Dir(e.path); dir != "." && dir != string(filepath.Separator) {
		s = strings.ReplaceAll(s, dir+string(filepath.Separator), "")
		s = strings.ReplaceAll(s, dir, "the upload")
	}
	return s
}

func (e *namedError) Unwrap() error { return e.err }

// recordedActions are the python cells and SQL queries of the session that
// succeeded, in the order they ran, from its event log.
func recordedActions(ws *session.Workspace) ([]refreshAction, error) {
	evs, err := session.ReadEvents(ws.Path(session.EventsFile))
	if err != nil {
		return nil, fmt.Errorf("%w: read the events of session %s: %w", ErrCannotRefresh, ws.ID, err)
	}
	results := map[string]string{}
	for _, e := range evs {
		if e.Kind == event.ToolResult && e.ToolCallID != "" {
			results[e.ToolCallID] = e.Text
		}
	}
	var out []refreshAction
	for _, e := range evs {
		if e.Kind != event.ToolCall || (e.Tool != pythonTool && e.Tool != sqldb.SQLQueryName) {
			continue
		}
		res, ok := results[e.ToolCallID]
		if !ok || tools.FailedReply(res) || strings.HasPrefix(res, "Error:") {
			continue
		}
		out = append(out, refreshAction{tool: e.Tool, args: e.Args, result: res, step: e.Step})
	}
	return out, nil
}

// pythonTool is the python tool's name, as the events record it.
const pythonTool = "python"

// Refresh runs session req.Session again on new data, in a new session
// that links it (session.Meta.Parent): the cells and SQL queries that
// succeeded run again in order, on the new files, with no model. The new
// report is the old one with every number recomputed from the same
// outputs (a number whose new value cannot be told is marked, never
// kept), a section on what changed (each number that moved: old → new,
// by how much), and the number check. When columns were renamed, the
// refresh runs only with req.Approve (see PlanRefresh); a column the new
// data lacks stops it with an error naming the column. The events end,
// as for Run, with event.Done.
func (s *Sift) Refresh(ctx context.Context, req RefreshRequest) iter.Seq[event.Event] {
	return func(yield func(event.Event) bool) {
		r := s.newRun(Request{SessionID: req.SessionID}, yield)
		s.start(ctx, r, func(r *run, ctx context.Context) { r.refresh(ctx, req) })
	}
}

// countMappings counts the model calls behind the mappings plan applies,
// each once in the process: the refresh that applies a model's answer
// pays its call, a refresh refused for want of approval does not, and a
// second refresh on the same answer asked no model.
func (r *run) countMappings(plan *RefreshPlan) {
	for _, mm := range plan.Models {
		if mm.Usage.Calls > 0 && r.sift.mappings.count(mm.key) {
			r.meter.Add(mappingAgent, mm.Usage)
		}
	}
}

// refresh is the run of a Refresh.
func (r *run) refresh(ctx context.Context, req RefreshRequest) {
	plan, err := r.sift.planRefresh(ctx, req, r.meter)
	if err != nil {
		r.fail(err)
		return
	}
	if plan.NeedsApproval && !req.Approve {
		r.fail(&MappingError{Plan: plan})
		return
	}
	r.countMappings(plan)
	r.req.Question, r.req.Mode, r.req.Parallel = plan.meta.Question, Mode(plan.meta.Mode), plan.meta.Parallel
	r.parent, r.origin, r.layout = plan.Session, session.OriginRefresh, plan.meta.Layout
	id := r.req.SessionID
	if id == "" {
		id = session.NewIDContext(ctx)
	}
	// A refresh is a new session whose cells run from the first on a
	// fresh kernel (nothing is replayed): a pooled one serves as well.
	ws, ok := r.adoptPooled(ctx, id)
	if !ok {
		if ws, err = session.Create(ctx, r.sift.cfg.SessionsRoot, id); err != nil {
			r.fail(fmt.Errorf("create the refreshed session: %w", err))
			return
		}
	}
	r.ws = ws
	if ctx, err = r.open(ctx); err != nil {
		r.fail(err)
		return
	}
	oldPlan, err := tree.LoadPlanState(plan.old.Root)
	if err != nil {
		r.fail(fmt.Errorf("%w: session %s has no plan state: %w", ErrCannotRefresh, plan.Session, err))
		return
	}
	r.plan = oldPlan.Clone()
	r.putMeta(ctx, session.StatusRunning, nil)
	if err := r.refreshInputs(ctx, plan); err != nil {
		r.fail(err)
		return
	}
	if b, _, err := confined.ReadFile(plan.old.Root, session.DatabasesFile, 1<<20); err == nil {
		_ = ws.WriteFile(session.DatabasesFile, b, session.Derived)
	}
	if len(req.Databases) > 0 {
		if r.sources, err = openDatabases(ctx, req.Databases); err != nil {
			r.fail(err)
			return
		}
	}
	if err := r.useDatabases(ctx, true); err != nil {
		r.fail(err)
		return
	}
	inputs, err := ws.Inputs()
	if err != nil {
		r.fail(err)
		return
	}
	if r.op, _, err = r.newOperator(ctx, false); err != nil {
		r.fail(err)
		return
	}
	r.warmKernel(ctx)
	r.addFilesSource(ctx, inputs)
	r.emit(event.Event{Kind: event.Message, Agent: "refresh", Text: fmt.Sprintf("Refreshing session %s on the new data: its %s run again in order, with no model.", plan.Session, plan.Runs())})
	oldOut, newOut, err := r.rerun(ctx, plan)
	if err != nil {
		r.fail(err)
		return
	}
	r.refreshReport(ctx, plan, oldPlan, inputs, oldOut, newOut)
}

// refreshInputs puts the new files into the new session under the names
// of the inputs they replace (the code reads input/sales.csv), a renamed
// column under its old name, and copies the inputs no file replaces.
func (r *run) refreshInputs(ctx context.Context, plan *RefreshPlan) error {
	tmp, err := os.MkdirTemp("", "sift-refresh-")
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, in := range plan.Inputs {
		dst := filepath.Join(tmp, filepath.Base(in.Old))
		switch {
		case in.New == "":
			src, err := confined.Open(plan.old.Root, in.Old)
			if err != nil {
				return fmt.Errorf("refresh: copy %s: %w", in.Old, err)
			}
			err = writeFrom(dst, src)
			src.Close()
			if err != nil {
				return err
			}
		case in.Mapping != nil && !in.Mapping.Same():
			if err := adaptTable(in.New, dst, *in.Mapping); err != nil {
				return err
			}
		default:
			src, err := os.Open(in.New)
			if err != nil {
				return fmt.Errorf("refresh: %w", byName(err, in.New))
			}
			err = writeFrom(dst, src)
			src.Close()
			if err != nil {
				return err
			}
		}
		if _, err := r.ws.AddInput(ctx, dst); err != nil {
			return fmt.Errorf("refresh: add %s: %w", in.Old, err)
		}
	}
	return nil
}

func writeFrom(dst string, src io.Reader) error {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("refresh: %w", byName(err, dst))
	}
	if _, err := io.Copy(f, src); err != nil {
		f.Close()
		return fmt.Errorf("refresh: copy to %s: %w", filepath.Base(dst), byName(err, dst))
	}
	return f.Close()
}

// adaptTable writes the CSV or TSV file src to dst with the old columns'
// names and order, so the old code reads it unchanged; the new file's
// other columns follow.
func adaptTable(src, dst string, m refresh.Mapping) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("refresh: %w", byName(err, src))
	}
	defer in.Close()
	dec, _, err := preview.DecodeReader(in)
	if err != nil {
		return fmt.Errorf("refresh: read %s: %w", filepath.Base(src), byName(err, src))
	}
	cr := csv.NewReader(dec)
	cr.FieldsPerRecord = -1
	if strings.EqualFold(filepath.Ext(src), ".tsv") {
		cr.Comma = '\t'
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("refresh: %w", byName(err, dst))
	}
	cw := csv.NewWriter(out)
	cw.Comma = cr.Comma
	var order []int
	header := true
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Close()
			return fmt.Errorf("refresh: read %s: %w", filepath.Base(src), byName(err, src))
		}
		if header {
			header = false
			taken := map[int]bool{}
			var names []string
			for _, p := range m.Pairs {
				order = append(order, p.NewIndex)
				names = append(names, p.Old.Name)
				taken[p.NewIndex] = true
			}
			for j, name := range rec {
				if !taken[j] {
					order = append(order, j)
					names = append(names, name)
				}
			}
			rec = names
		} else {
			row := make([]string, len(order))
			for k, j := range order {
				if j < len(rec) {
					row[k] = rec[j]
				}
			}
			rec = row
		}
		if err := cw.Write(rec); err != nil {
			out.Close()
			return fmt.Errorf("refresh: write %s: %w", filepath.Base(dst), byName(err, dst))
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		out.Close()
		return fmt.Errorf("refresh: write %s: %w", filepath.Base(dst), byName(err, dst))
	}
	return out.Close()
}

// rerun runs the recorded cells and queries again through the same tools,
// in order; a cell or query that fails on the new data stops the refresh.
// It returns the old and the new outputs, one for one.
func (r *run) rerun(ctx context.Context, plan *RefreshPlan) (old, now []refresh.Output, err error) {
	py, err := tools.PythonTool(r.op)
	if err != nil {
		return nil, nil, err
	}
	var query tool.InvokableTool
	if r.sources != nil {
		ts, err := sqldb.Tools(r.sources, r.op)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range ts {
			if info, err := t.Info(ctx); err == nil && info.Name == sqldb.SQLQueryName {
				query, _ = t.(tool.InvokableTool)
			}
		}
	}
	cells, queries := 0, 0
	for _, a := range plan.actions {
		t, label := py, ""
		if a.tool == sqldb.SQLQueryName {
			queries++
			label = fmt.Sprintf("query %d", queries)
			t = query
			if t == nil {
				return nil, nil, fmt.Errorf("%w: session %s ran SQL queries, but the refreshed session has no database or file to query", ErrCannotRefresh, plan.Session)
			}
		} else {
			cells++
			label = fmt.Sprintf("cell %d", cells)
		}
		if a.step != nil {
			label += fmt.Sprintf(" (step %d)", a.step.Index)
		}
		id := fmt.Sprintf("refresh-%d", cells+queries)
		r.emit(event.Event{Kind: event.ToolCall, Agent: "refresh", Tool: a.tool, ToolCallID: id, Args: a.args, Step: a.step})
		out, err := t.InvokableRun(ctx, a.args)
		if err != nil {
			return nil, nil, fmt.Errorf("refresh: %s: %w", label, err)
		}
		out = prompt.Shorten(out, 4000)
		r.emit(event.Event{Kind: event.ToolResult, Agent: "refresh", Tool: a.tool, ToolCallID: id, Text: out, Step: a.step})
		if tools.FailedReply(out) || strings.HasPrefix(out, "Error:") {
			return nil, nil, fmt.Errorf("%w: %s, which succeeded in session %s, fails on the new data: %s. The analysis does not fit the new data as it is: ask the question on it (sift run)", ErrCannotRefresh, label, plan.Session, firstLineOf(out))
		}
		old = append(old, refresh.Output{Label: label, Text: a.result})
		now = append(now, refresh.Output{Label: label, Text: out})
	}
	return old, now, nil
}

func firstLineOf(s string) string {
	if line := tools.FailureLine(s); line != "" {
		return line
	}
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// refreshReport writes the refreshed plan and report: every number of the
// old answer, findings, step summaries and report recomputed, what
// changed, and the number check against the new outputs.
func (r *run) refreshReport(ctx context.Context, plan *RefreshPlan, oldPlan *plans.FullPlan, inputs []string, oldOut, newOut []refresh.Output) {
	for i := range r.plan.Steps {
		s := &r.plan.Steps[i]
		s.Summary = refresh.Recompute(s.Summary, oldOut, newOut).Text
	}
	if res := r.plan.Result; res != nil {
		res.Answer = refresh.Recompute(res.Answer, oldOut, newOut).Text
		for i, f := range res.Findings {
			res.Findings[i] = refresh.Recompute(f, oldOut, newOut).Text
		}
	}
	if err := r.ownPlan(ctx).Save(); err != nil {
		r.fail(err)
		return
	}
	oldReport, _, err := confined.ReadFile(plan.old.Root, session.ReportFile, 4<<20)
	if err != nil {
		r.fail(fmt.Errorf("%w: session %s has no report: %w", ErrCannotRefresh, plan.Session, err))
		return
	}
	body := reportBody(string(oldReport))
	got := refresh.Recompute(body, oldOut, newOut)
	var names []string
	for _, in := range plan.Inputs {
		if in.New != "" {
			names = append(names, filepath.Base(in.New))
		}
	}
	data := "new data (" + strings.Join(names, ", ") + ")"
	if len(names) == 0 && r.sources != nil {
		data = "its databases as they are now (" + strings.Join(r.sources.Names(), ", ") + ")"
	}
	note := fmt.Sprintf("> Refreshed from session `%s` on %s: its %s ran again in order, with no model; the numbers below are recomputed from their new outputs.", plan.Session, data, plan.Runs())
	if mt := plan.MappingText(); plan.NeedsApproval && mt != "" {
		note += "\n>\n> Columns mapped (approved):\n>\n" + quoteLines(mt)
	}
	evidence := []string{r.req.Question}
	for _, o := range newOut {
		evidence = append(evidence, o.Text)
	}
	for _, rel := range tree.ListArtifacts(r.ws.Root) {
		if b, _, err := confined.ReadFile(r.ws.Root, rel, 2<<20); err == nil {
			evidence = append(evidence, string(b))
		}
	}
	abs := make([]string, len(inputs))
	for i, in := range inputs {
		abs[i] = r.ws.Path(in)
	}
	evidence = append(evidence, preview.All(ctx, abs, preview.Options{BaseDir: r.ws.Root}))
	md, _ := refresh.Check(got.Text, evidence...)
	md = insertAfterTitle(md, note)
	md = report.Complete(md, r.plan, tree.ListArtifacts(r.ws.Root))
	md = strings.TrimRight(md, "\n") + "\n\n" + refresh.WhatChanged(plan.Session, got.Changes, got.Unresolved, got.Kept)
	path, err := report.Save(r.ws.Root, r.plan.QuestionNumber(), md, true, session.Derived)
	if err != nil {
		r.fail(err)
		return
	}
	r.emit(event.Event{Kind: event.Report, Path: path, Text: md})
	r.done(nil)
}

// reportBody is a report without what a run adds at its end (next
// questions, usage) and without the marks of its own number check, which
// the refreshed report gets again.
func reportBody(md string) string {
	for _, h := range []string{"\n## Next questions", "\n## 接下来可以问", "\n## Usage", "\n## 用量"} {
		if i := strings.Index(md, h); i >= 0 {
			md = md[:i]
		}
	}
	var keep []string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "> "+strings.TrimSpace(tree.UnverifiedMark)+" ") {
			continue
		}
		keep = append(keep, strings.ReplaceAll(line, tree.UnverifiedMark, ""))
	}
	return strings.TrimRight(strings.Join(keep, "\n"), "\n") + "\n"
}

// insertAfterTitle puts note after the report's first heading, or first.
func insertAfterTitle(md, note string) string {
	if strings.HasPrefix(md, "# ") {
		title, rest, _ := strings.Cut(md, "\n")
		return title + "\n\n" + note + "\n" + rest
	}
	return note + "\n\n" + md
}

func quoteLines(s string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l = strings.TrimSpace(l); strings.HasSuffix(l, ":") {
			out = append(out, "> "+l)
		} else {
			out = append(out, "> - "+l)
		}
	}
	return strings.Join(out, "\n")
}
