package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
)

// loadForkAnswer reads the answer the fork that made the run's session
// gave (forkFile), if any, for recall and the agents' context.
func (r *run) loadForkAnswer() {
	b, _, err := confined.ReadFile(r.ws.Root, forkFile, 1<<20)
	if err != nil {
		return
	}
	var a forkAnswer
	if json.Unmarshal(b, &a) == nil && a.Question != "" {
		r.forkAnswer = &a
	}
}

// answeredByFork reports whether question is the one the run's fork gave
// a new answer to, so that an earlier answer to it is not used.
func (r *run) answeredByFork(question string) bool {
	return r.forkAnswer != nil && memory.Normalize(question) == memory.Normalize(r.forkAnswer.Question)
}

// ErrCannotFork: the session cannot be forked as asked; the error says
// why and what to do.
var ErrCannotFork = errors.New("cannot fork")

// ForkRequest asks for a new session that goes on from a step of an
// earlier one.
type ForkRequest struct {
	// Session is the session to fork.
	Session string
	// At is the step (from 1) the new session runs again from: the steps
	// before it are kept as they finished, and not run again.
	At int
	// Step replaces the description of step At. Optional; empty runs the
	// step as it was (its data may have changed, or its model may answer
	// otherwise).
	Step string
	// Plan replaces the steps from At on with these descriptions (blank
	// ones are dropped): the new session runs them in their place.
	// Optional; not with Step.
	Plan []string
	// Answer is a new answer to the question step At asked the person
	// (ask_user): the step's agents are told it instead of the old one
	// (which Sift's memory may hold), and the question asked again is
	// answered with it without waiting. Optional.
	Answer string
	// SessionID names the new session. Optional; generated when empty.
	SessionID string
}

// forkFile records, in a forked session's workspace, the answer its fork
// gave, so that a resume of the fork tells its agents the same.
const forkFile = "fork.json"

// forkAnswer is the answer a fork gave to a question of its parent.
type forkAnswer struct {
	Parent   string `json:"parent"`
	At       int    `json:"at"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// line is the answer as one line of the agents' context, as memory's
// facts are (memory.Entry.Line).
func (a *forkAnswer) line() string {
	return fmt.Sprintf("- Asked %q, the person answered: %s (their answer for this fork of session %s; it replaces what they answered there).", a.Question, a.Answer, a.Parent)
}

// Fork starts a new session from the point of session req.Session before
// step req.At, with that step's description replaced by req.Step: the
// steps before it are kept as they finished and are not run again (the
// Python kernel's state is rebuilt by replaying their cells, as a resume
// does), step At and the later steps run, and the report is written. The
// new session links its parent (session.Meta.Parent, Origin "fork"). The
// events end, as for Run, with event.Done.
func (s *Sift) Fork(ctx context.Context, req ForkRequest) iter.Seq[event.Event] {
	return func(yield func(event.Event) bool) {
		r := s.newRun(Request{}, yield)
		s.start(ctx, r, func(r *run, ctx context.Context) { r.fork(ctx, req) })
	}
}

// fork makes the forked session, paused before step req.At, and resumes
// it.
func (r *run) fork(ctx context.Context, req ForkRequest) {
	id, err := r.sift.prepareFork(ctx, req)
	if err != nil {
		r.fail(err)
		return
	}
	r.parent, r.origin = req.Session, session.OriginFork
	r.resume(ctx, id, nil, resumeOptions{})
}

// CheckFork says whether session req.Session can be forked at step
// req.At, without changing anything: the error (ErrCannotFork) says why
// not.
func (s *Sift) CheckFork(ctx context.Context, req ForkRequest) error {
	_, err := s.checkFork(ctx, req)
	return err
}

// forkPoint is what checkFork found: the parent, its record and plan,
// and the position of the step to go on from.
type forkPoint struct {
	old  *session.Workspace
	meta session.Meta
	fp   *plans.FullPlan
	at   int
	kept map[int]bool
	// plan are the steps from at on, edited when the request asks.
	plan []plans.StepState
	// answer is the fork's answer to step at's question, or nil.
	answer *forkAnswer
}

func (s *Sift) checkFork(ctx context.Context, req ForkRequest) (*forkPoint, error) {
	old, err := session.Open(s.cfg.SessionsRoot, req.Session)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotFork, err)
	}
	meta, err := s.store.Sessions.Get(ctx, req.Session)
	if err != nil {
		return nil, fmt.Errorf("%w: session %s: %w", ErrCannotFork, req.Session, err)
	}
	if !meta.Status.Finished() && meta.Status != session.StatusPaused {
		return nil, fmt.Errorf("%w: session %s is %s; fork it once it has finished or paused", ErrCannotFork, req.Session, meta.Status)
	}
	if meta.Template != "" {
		return nil, fmt.Errorf("%w: a built-in analysis (%s) answered session %s; it has no steps of agents to go on from", ErrCannotFork, meta.Template, req.Session)
	}
	fp, err := tree.LoadPlanState(old.Root)
	if err != nil {
		return nil, fmt.Errorf("%w: session %s has no plan state: %w", ErrCannotFork, req.Session, err)
	}
	if len(fp.Earlier) > 0 {
		return nil, fmt.Errorf("%w: session %s was asked %d questions; a fork goes on from a step of a session's only question", ErrCannotFork, req.Session, len(fp.Earlier)+1)
	}
	at := -1
	for i, st := range fp.Steps {
		if st.Index == req.At {
			at = i
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("%w: session %s has no step %d; its steps are 1 to %d (sift sessions show %s)", ErrCannotFork, req.Session, req.At, len(fp.Steps), req.Session)
	}
	kept := map[int]bool{}
	for _, st := range fp.Steps[:at] {
		if st.Status != plans.StatusDone && st.Status != plans.StatusFailed && st.Status != plans.StatusSkipped {
			return nil, fmt.Errorf("%w: step %d of session %s is %s, so there is no point before step %d to go on from; fork at step %d", ErrCannotFork, st.Index, req.Session, st.Status, req.At, st.Index)
		}
		kept[st.Index] = true
	}
	p := &forkPoint{old: old, meta: meta, fp: fp, at: at, kept: kept}
	if p.plan, err = forkedSteps(req, fp.Steps[at:]); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Answer) != "" {
		q, err := askedAt(old, req.Session, req.At)
		if err != nil {
			return nil, err
		}
		p.answer = &forkAnswer{Parent: req.Session, At: req.At, Question: q, Answer: strings.TrimSpace(req.Answer)}
	}
	return p, nil
}

// forkedSteps are the steps from the fork's on: rest, all to do, with the
// first one's description replaced by req.Step, or all of them replaced
// by req.Plan.
func forkedSteps(req ForkRequest, rest []plans.StepState) ([]plans.StepState, error) {
	step := strings.TrimSpace(req.Step)
	if req.Plan != nil && step != "" {
		return nil, fmt.Errorf("%w: give either a new description of step %d or a new plan from it, not both", ErrCannotFork, req.At)
	}
	if req.Plan == nil {
		out := make([]plans.StepState, len(rest))
		for i, st := range rest {
			out[i] = plans.StepState{Step: st.Step, Status: plans.StatusTodo}
		}
		if step != "" {
			out[0].Description = step
		}
		return out, nil
	}
	var out []plans.StepState
	for _, d := range req.Plan {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, plans.StepState{Step: plans.Step{Index: req.At + len(out), Description: d}, Status: plans.StatusTodo})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: the new plan from step %d has no steps; give at least one step's description", ErrCannotFork, req.At)
	}
	return out, nil
}

// askedAt is the question step at of the session asked the person (its
// ask_user call, as the event log holds it). It refuses a step that
// asked none, saying which steps did, and one that asked several.
func askedAt(ws *session.Workspace, id string, at int) (string, error) {
	evs, err := session.ReadEvents(ws.Path(session.EventsFile))
	if err != nil {
		return "", fmt.Errorf("%w: read the events of session %s: %w", ErrCannotFork, id, err)
	}
	byStep := map[int][]string{}
	var order []int
	for _, e := range evs {
		if e.Kind != event.ToolCall || e.Tool != tools.AskUserName || e.Step == nil {
			continue
		}
		var a tools.AskUserArgs
		if json.Unmarshal([]byte(e.Args), &a) != nil || strings.TrimSpace(a.Question) == "" {
			continue
		}
		q := strings.TrimSpace(a.Question)
		i := e.Step.Index
		if len(byStep[i]) == 0 {
			order = append(order, i)
		}
		if !slices.Contains(byStep[i], q) {
			byStep[i] = append(byStep[i], q)
		}
	}
	qs := byStep[at]
	switch {
	case len(qs) == 1:
		return qs[0], nil
	case len(qs) > 1:
		return "", fmt.Errorf("%w: step %d of session %s asked %d questions (%s); a fork gives a new answer to a step that asked one. Fork with a new description of the step (--step) that says the answers instead", ErrCannotFork, at, id, len(qs), strings.Join(quoted(qs), ", "))
	case len(order) == 0:
		return "", fmt.Errorf("%w: no step of session %s asked a question, so there is no answer to change; fork with a new step (--step) or plan (--plan) instead", ErrCannotFork, id)
	}
	var asked []string
	for _, i := range order {
		asked = append(asked, fmt.Sprintf("step %d asked %q", i, byStep[i][0]))
	}
	return "", fmt.Errorf("%w: step %d asked no question; %s. Fork at the step whose answer you change", ErrCannotFork, at, strings.Join(asked, ", "))
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// prepareFork writes the forked session: the parent's inputs and
// databases, the cells of the steps before req.At (for the kernel to
// replay), the plan with those steps finished and the others to do, and
// its record, paused. It returns the new session's id.
func (s *Sift) prepareFork(ctx context.Context, req ForkRequest) (string, error) {
	p, err := s.checkFork(ctx, req)
	if err != nil {
		return "", err
	}
	old, meta, fp, at, kept := p.old, p.meta, p.fp, p.at, p.kept
	cells, err := cellsOfSteps(old, kept)
	if err != nil {
		return "", err
	}

	id := req.SessionID
	if id == "" {
		id = session.NewIDContext(ctx)
	}
	ws, err := session.Create(ctx, s.cfg.SessionsRoot, id)
	if err != nil {
		return "", fmt.Errorf("create the forked session: %w", err)
	}
	if err := copyInputs(ctx, old, ws); err != nil {
		_ = os.RemoveAll(ws.Root)
		return "", err
	}
	if b, _, err := confined.ReadFile(old.Root, session.DatabasesFile, 1<<20); err == nil {
		_ = ws.WriteFile(session.DatabasesFile, b, session.Durable)
	}
	var log []byte
	for _, c := range cells {
		line, err := json.Marshal(c)
		if err != nil {
			return "", fmt.Errorf("fork: record cell %d: %w", c.Cell, err)
		}
		log = append(append(log, line...), '\n')
	}
	if err := ws.WriteFile(operator.CellsLogFile, log, session.Durable); err != nil {
		return "", fmt.Errorf("fork: %w", err)
	}
	if s.cfg.PythonMode == operator.PythonProcess {
		if err := copyCellFiles(old, ws, cells); err != nil {
			_ = os.RemoveAll(ws.Root)
			return "", err
		}
	}
	forked := &plans.FullPlan{Question: fp.Question, Revisions: fp.Revisions, ExplicitNeeds: fp.ExplicitNeeds}
	forked.Steps = append(append(forked.Steps, fp.Steps[:at]...), p.plan...)
	if p.answer != nil {
		b, err := json.Marshal(p.answer)
		if err != nil {
			return "", fmt.Errorf("fork: record the answer: %w", err)
		}
		if err := ws.WriteFile(forkFile, b, session.Durable); err != nil {
			return "", fmt.Errorf("fork: record the answer: %w", err)
		}
	}
	if err := tree.WritePlanFileAt(ws.Root, forked); err != nil {
		return "", fmt.Errorf("fork: %w", err)
	}
	inputs, _ := ws.Inputs()
	m := session.Meta{ID: id, Question: meta.Question, Status: session.StatusPaused, Mode: meta.Mode, Workspace: ws.Root, Inputs: inputs,
		Parallel: meta.Parallel, Budget: meta.Budget, Layout: meta.Layout, Parent: req.Session, Origin: session.OriginFork, Questions: 1}
	if err := s.store.Sessions.Put(ctx, m); err != nil {
		return "", fmt.Errorf("fork: record the session: %w", err)
	}
	return id, nil
}

// cellsOfSteps returns the cells of the session that served the given
// steps and succeeded, in the order they ran, renumbered as one kernel's
// cells for the forked session's kernel to replay. A cell belongs to the
// step of the python call that ran it (the event log says which); a cell
// no call ran (a query loaded as a DataFrame) belongs to the step of the
// cell before it.
func cellsOfSteps(ws *session.Workspace, steps map[int]bool) ([]operator.CellRecord, error) {
	records, err := operator.ReadCells(ws.Root)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotFork, err)
	}
	evs, err := session.ReadEvents(ws.Path(session.EventsFile))
	if err != nil {
		return nil, fmt.Errorf("%w: read the events of session %s: %w", ErrCannotFork, ws.ID, err)
	}
	type call struct {
		code string
		step int
	}
	var calls []call
	for _, e := range evs {
		if e.Kind != event.ToolCall || e.Tool != pythonTool {
			continue
		}
		var a struct {
			Code string `json:"code"`
		}
		if json.Unmarshal([]byte(e.Args), &a) != nil {
			continue
		}
		step := 0
		if e.Step != nil {
			step = e.Step.Index
		}
		calls = append(calls, call{strings.TrimSpace(a.Code), step})
	}
	var out []operator.CellRecord
	next, step := 0, 0
	for _, rec := range records {
		if rec.Replayed {
			continue
		}
		for j := next; j < len(calls); j++ {
			if strings.Contains(rec.Code, calls[j].code) || strings.Contains(calls[j].code, strings.TrimSpace(rec.Code)) {
				step, next = calls[j].step, j+1
				break
			}
		}
		if !rec.OK || !steps[step] {
			continue
		}
		rec.Cell, rec.Generation, rec.Branch = len(out)+1, 1, 0
		out = append(out, rec)
	}
	return out, nil
}

// maxForkedFile bounds each file copyCellFiles copies.
const maxForkedFile = 256 << 20

// copyCellFiles copies the files the kept cells wrote (under work/ and
// out/) from the parent's workspace into the fork's. In process mode no
// kernel replays the cells, and the fork's later steps read what they
// wrote (a DataFrame saved to work/, a table under out/) as in the
// parent's workspace; a kernel replaying them writes them again.
func copyCellFiles(from, to *session.Workspace, cells []operator.CellRecord) error {
	seen := map[string]bool{}
	for _, c := range cells {
		for _, f := range append(append([]string(nil), c.Files...), c.Figures...) {
			if seen[f] || !(strings.HasPrefix(f, "work/") || strings.HasPrefix(f, "out/")) || strings.HasPrefix(f, "work/.cells/") {
				continue
			}
			seen[f] = true
			b, truncated, err := confined.ReadFile(from.Root, f, maxForkedFile)
			switch {
			case errors.Is(err, os.ErrNotExist):
				continue // removed by a later cell of the parent
			case err != nil:
				return fmt.Errorf("%w: copy %s from session %s: %w", ErrCannotFork, f, from.ID, err)
			case truncated:
				return fmt.Errorf("%w: %s of session %s is over %d MiB, too large to copy for a fork in process mode; fork with the Python kernel (--python-mode kernel), which rebuilds it", ErrCannotFork, f, from.ID, maxForkedFile>>20)
			}
			if err := to.WriteFile(f, b, session.Durable); err != nil {
				return fmt.Errorf("fork: copy %s: %w", f, err)
			}
		}
	}
	return nil
}

// copyInputs copies the input files of one session into another, under
// the same names.
func copyInputs(ctx context.Context, from, to *session.Workspace) error {
	inputs, err := from.Inputs()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "sift-fork-")
	if err != nil {
		return fmt.Errorf("fork: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, in := range inputs {
		src, err := confined.Open(from.Root, in)
		if err != nil {
			return fmt.Errorf("fork: copy %s: %w", in, err)
		}
		dst := filepath.Join(tmp, filepath.Base(in))
		err = writeFrom(dst, src)
		src.Close()
		if err != nil {
			return err
		}
		if _, err := to.AddInput(ctx, dst); err != nil {
			return fmt.Errorf("fork: add %s: %w", in, err)
		}
	}
	return nil
}
