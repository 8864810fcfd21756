// Package plans holds Sift's plan: the steps a planner writes (Plan, Step,
// read leniently from what models send), the full plan a run keeps with
// each step's status, result and dependencies (FullPlan, which the ADK
// session carries under FullPlanKey), the final answer (SubmitResult) and
// earlier questions of a session (Exchange), and plan.md, the plan
// rendered for people. Run events are package event's; reports package
// report's.
package plans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sift-agent/sift/params"
)

// Step is one actionable step of a plan.
type Step struct {
	// Index is the step's 1-based position in the whole run (not in the
	// remaining plan): step 3 stays step 3 after a replan.
	Index int `json:"index"`
	// Description says what to do, self-contained.
	Description string `json:"description"`
	// Needs are the indexes of the earlier steps whose results (files,
	// DataFrames) this step uses. In a FullPlan whose ExplicitNeeds is
	// set, a step without needs depends on no unfinished step; see
	// FullPlan.NeedsOf.
	Needs []int `json:"needs,omitempty"`
}

// Plan is the ordered list of steps still to run. It implements
// planexecute.Plan: the executor always runs FirstStep, and a replanned Plan
// holds only the remaining steps.
type Plan struct {
	Steps []Step `json:"steps"`
	// Complexity is the planner's rating of the request: ComplexityTrivial
	// lets a run take the quick path. Empty when not rated.
	Complexity string `json:"complexity,omitempty"`
}

// ComplexityTrivial rates a request one code run can answer.
const ComplexityTrivial = "trivial"

// FirstStep returns the description of the next step to run, or "" when the
// plan is empty.
func (p *Plan) FirstStep() string {
	if p == nil || len(p.Steps) == 0 {
		return ""
	}
	return p.Steps[0].Description
}

// MarshalJSON encodes the plan as {"steps":[{"index":..,"description":..}]}.
func (p *Plan) MarshalJSON() ([]byte, error) {
	type plain Plan
	if p == nil {
		return []byte(`{"steps":[]}`), nil
	}
	return json.Marshal((*plain)(p))
}

// UnmarshalJSON accepts what models actually send: {"steps":[{...}]},
// {"steps":["do x", ...]}, a bare array of either, and steps whose text sits
// under "step", "task" or "title" instead of "description". Missing indexes
// are numbered from 1.
func (p *Plan) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	var raw []json.RawMessage
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &raw); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
	} else {
		var obj struct {
			Steps      json.RawMessage `json:"steps"`
			Plan       json.RawMessage `json:"plan"`
			Complexity string          `json:"complexity"`
		}
		if err := json.Unmarshal(data, &obj); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		p.Complexity = strings.ToLower(strings.TrimSpace(obj.Complexity))
		list := obj.Steps
		if isNull(list) {
			list = obj.Plan
		}
		var err error
		if raw, err = looseList(list); err != nil {
			return fmt.Errorf("plan steps: %w", err)
		}
	}
	steps := make([]Step, 0, len(raw))
	for i, r := range raw {
		s, err := decodeStep(r)
		if err != nil {
			return fmt.Errorf("plan step %d: %w", i+1, err)
		}
		if strings.TrimSpace(s.Description) == "" {
			continue
		}
		steps = append(steps, s)
	}
	if len(raw) > 0 && len(steps) == 0 {
		return fmt.Errorf("plan: no step has a description")
	}
	p.Steps = steps
	return nil
}

func decodeStep(r json.RawMessage) (Step, error) {
	var text string
	if err := json.Unmarshal(r, &text); err == nil {
		return Step{Description: text}, nil
	}
	var obj struct {
		Index       json.RawMessage `json:"index"`
		Description string          `json:"description"`
		Step        string          `json:"step"`
		Task        string          `json:"task"`
		Title       string          `json:"title"`
		Needs       json.RawMessage `json:"needs"`
		DependsOn   json.RawMessage `json:"depends_on"`
	}
	if err := json.Unmarshal(r, &obj); err != nil {
		return Step{}, err
	}
	d := obj.Description
	for _, alt := range []string{obj.Step, obj.Task, obj.Title} {
		if d == "" {
			d = alt
		}
	}
	index, err := looseInt(obj.Index)
	if err != nil {
		return Step{}, fmt.Errorf("index: %w", err)
	}
	rawNeeds := obj.Needs
	if isNull(rawNeeds) {
		rawNeeds = obj.DependsOn
	}
	needs, err := looseInts(rawNeeds)
	if err != nil {
		return Step{}, fmt.Errorf("needs: %w", err)
	}
	return Step{Index: index, Description: d, Needs: needs}, nil
}

// Models write numbers as strings ("2"), lists as one value ("needs": 1)
// or as text ("1, 2"), and null for nothing. The loose decoders below take
// them as meant, and refuse only what has no clear meaning.

func isNull(r json.RawMessage) bool {
	t := bytes.TrimSpace(r)
	return len(t) == 0 || string(t) == "null"
}

// looseList reads a list: a JSON list, a list written as a JSON string,
// or one value (a step alone); nil for null.
func looseList(r json.RawMessage) ([]json.RawMessage, error) {
	if isNull(r) {
		return nil, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(r, &list) == nil {
		return list, nil
	}
	var s string
	if json.Unmarshal(r, &s) == nil {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "[") && json.Unmarshal([]byte(t), &list) == nil {
			return list, nil
		}
	}
	return []json.RawMessage{r}, nil
}

// looseInt reads a whole number, or one written as a string; 0 for null.
func looseInt(r json.RawMessage) (int, error) {
	if isNull(r) {
		return 0, nil
	}
	var f float64
	if err := json.Unmarshal(r, &f); err != nil {
		var s string
		if json.Unmarshal(r, &s) != nil {
			return 0, fmt.Errorf("%s is not a number", r)
		}
		s = strings.TrimSpace(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "step"))
		if s == "" {
			return 0, nil
		}
		if f, err = strconv.ParseFloat(s, 64); err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	if f != float64(int(f)) {
		return 0, fmt.Errorf("%v is not a whole number", f)
	}
	return int(f), nil
}

// looseInts reads a list of whole numbers: a JSON list (of numbers or
// strings), one number, or a string such as "1, 2" or "[1, 2]"; nil for
// null or an empty string.
func looseInts(r json.RawMessage) ([]int, error) {
	if isNull(r) {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(r, &list); err != nil {
		var s string
		if json.Unmarshal(r, &s) != nil {
			list = []json.RawMessage{r}
		} else {
			list = nil
			for _, p := range strings.FieldsFunc(strings.Trim(strings.TrimSpace(s), "[]"), func(c rune) bool { return c == ',' || c == ';' || c == ' ' || c == '、' }) {
				list = append(list, json.RawMessage(strconv.Quote(p)))
			}
		}
	}
	out := make([]int, 0, len(list))
	for _, e := range list {
		n, err := looseInt(e)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			out = append(out, n)
		}
	}
	return out, nil
}

// looseStrings reads a list of strings: a JSON list, one string, or null.
// Numbers in it are written as text.
func looseStrings(r json.RawMessage) ([]string, error) {
	if isNull(r) {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(r, &list); err != nil {
		list = []json.RawMessage{r}
	}
	var out []string
	for _, e := range list {
		if isNull(e) {
			continue
		}
		var s string
		if err := json.Unmarshal(e, &s); err != nil {
			var n json.Number
			if json.Unmarshal(e, &n) != nil {
				return nil, fmt.Errorf("%s is not text", e)
			}
			s = n.String()
		}
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// StepStatus is where a step stands.
type StepStatus string

// The statuses plan.md shows.
const (
	StatusTodo    StepStatus = "todo"
	StatusDoing   StepStatus = "doing"
	StatusDone    StepStatus = "done"
	StatusFailed  StepStatus = "failed"
	StatusSkipped StepStatus = "skipped"
)

// StepState is a step with everything known about it so far.
type StepState struct {
	Step
	Status StepStatus `json:"status"`
	// Summary is the step's result in a few sentences.
	Summary string `json:"summary,omitempty"`
	// Files are workspace-relative paths of the artifacts the step produced.
	Files []string `json:"files,omitempty"`
	// FilesOmitted counts the files the step produced beyond those Files
	// lists (at most MaxStepFiles are), so a step that writes 20,000 files
	// keeps a bounded record.
	FilesOmitted int `json:"files_omitted,omitempty"`
	// Started is when the step began (the first time, if it was resumed).
	Started time.Time `json:"started,omitzero"`
}

// FullPlan is every step of the run, finished and remaining, with statuses.
// It is what plan.md renders; Plan is only the remaining part.
type FullPlan struct {
	Question string      `json:"question"`
	Steps    []StepState `json:"steps"`
	// Revisions counts the plans the replanner replaced.
	Revisions int `json:"revisions"`
	// Result is the final answer once the run submitted it.
	Result *SubmitResult `json:"result,omitempty"`
	// Earlier are the session's earlier questions and their answers, when
	// this run is a follow-up; their steps stay in Steps, done.
	Earlier []Exchange `json:"earlier,omitempty"`
	// ExplicitNeeds says the steps' Needs are complete: a step without
	// needs depends on no other. Plans recorded before steps had needs
	// lack it, and each of their steps needs the one before.
	ExplicitNeeds bool `json:"explicit_needs,omitempty"`
	// Remembered are the facts of earlier sessions on the same data this
	// question used (see Remembered).
	Remembered []Remembered `json:"remembered,omitempty"`
}

// Exchange is one earlier question of a session and what it found.
type Exchange struct {
	Question string        `json:"question"`
	Result   *SubmitResult `json:"result,omitempty"`
}

// QuestionNumber is the place of this run's question in its session: 1 for
// the first question, 2 for the first follow-up, and so on.
func (f *FullPlan) QuestionNumber() int {
	if f == nil {
		return 1
	}
	return len(f.Earlier) + 1
}

// Answered counts the session's questions that got an answer: the earlier
// ones and this run's.
func (f *FullPlan) Answered() int {
	if f == nil {
		return 0
	}
	n := 0
	for _, e := range f.Earlier {
		if e.Result != nil {
			n++
		}
	}
	if f.Result != nil {
		n++
	}
	return n
}

// FollowUp turns the plan of a finished run into the start of a follow-up:
// the old question and result move to Earlier, finished steps stay (and are
// not run again), steps never run are dropped.
func (f *FullPlan) FollowUp(question string) {
	f.Earlier = append(f.Earlier, Exchange{Question: f.Question, Result: f.Result})
	kept := f.Steps[:0]
	for _, s := range f.Steps {
		if s.Status == StatusDone || s.Status == StatusFailed {
			kept = append(kept, s)
		}
	}
	f.Steps = kept
	f.Question, f.Result = question, nil
	// The new question recalls its own facts.
	f.Remembered = nil
}

// SetRemaining replaces the not-yet-finished steps with the given plan. Steps
// that are done or failed stay as they were; remaining steps get indexes
// after them, so numbering never repeats. It returns the plan with its
// indexes filled in.
func (f *FullPlan) SetRemaining(p *Plan) *Plan {
	kept := f.Steps[:0:0]
	next := 1
	hadTodo := false
	for _, s := range f.Steps {
		if s.Status == StatusTodo || s.Status == StatusDoing {
			hadTodo = true
			continue
		}
		kept = append(kept, s)
		next = s.Index + 1
	}
	if hadTodo || len(kept) > 0 {
		f.Revisions++
	}
	out := &Plan{Steps: make([]Step, len(p.Steps)), Complexity: p.Complexity}
	needs := resolveNeeds(p.Steps, kept, next)
	for i, s := range p.Steps {
		s.Index = next + i
		s.Needs = needs[i]
		out.Steps[i] = s
		kept = append(kept, StepState{Step: s, Status: StatusTodo})
	}
	f.Steps = kept
	f.ExplicitNeeds = true
	return out
}

// resolveNeeds turns the needs a model gave (in its own numbering of the
// plan's steps, or the indexes of steps already finished) into run
// indexes, for steps numbered from next. A plan that gives no needs at all
// is a chain: each step needs the one before, as plans always did. Needs
// that name no earlier step (the step itself, a later one, an unknown
// one) are dropped: they cannot be waited for.
func resolveNeeds(steps []Step, finished []StepState, next int) [][]int {
	out := make([][]int, len(steps))
	given := false
	for _, s := range steps {
		given = given || s.Needs != nil
	}
	if !given {
		for i := 1; i < len(steps); i++ {
			out[i] = []int{next + i - 1}
		}
		return out
	}
	// own maps the model's number of a step of this plan to its position.
	own := map[int]int{}
	for i, s := range steps {
		n := s.Index
		if n <= 0 {
			n = i + 1
		}
		if _, dup := own[n]; !dup {
			own[n] = i
		}
	}
	done := map[int]bool{}
	for _, s := range finished {
		done[s.Index] = true
	}
	for i, s := range steps {
		seen := map[int]bool{}
		for _, n := range s.Needs {
			idx := 0
			if pos, ok := own[n]; ok && pos < i {
				idx = next + pos
			} else if _, ok := own[n]; !ok && done[n] {
				idx = n
			}
			if idx > 0 && !seen[idx] {
				seen[idx] = true
				out[i] = append(out[i], idx)
			}
		}
	}
	return out
}

// NeedsOf returns the indexes of the steps the step at position i of
// Steps needs: its Needs when they are explicit, else the step before.
func (f *FullPlan) NeedsOf(i int) []int {
	if f.ExplicitNeeds {
		return f.Steps[i].Needs
	}
	if i == 0 {
		return nil
	}
	return []int{f.Steps[i-1].Index}
}

// Ready returns the positions in Steps of the steps to do whose needs
// have all finished (done or failed), in order.
func (f *FullPlan) Ready() []int {
	status := map[int]StepStatus{}
	for _, s := range f.Steps {
		status[s.Index] = s.Status
	}
	var out []int
	for i, s := range f.Steps {
		if s.Status != StatusTodo {
			continue
		}
		ready := true
		for _, n := range f.NeedsOf(i) {
			if st, ok := status[n]; ok && st != StatusDone && st != StatusFailed {
				ready = false
			}
		}
		if ready {
			out = append(out, i)
		}
	}
	return out
}

// Running returns the indexes of the steps in progress.
func (f *FullPlan) Running() []int {
	var out []int
	for _, s := range f.Steps {
		if s.Status == StatusDoing {
			out = append(out, s.Index)
		}
	}
	return out
}

// DropRemaining removes the steps not yet started or finished, keeping
// those done, failed or skipped: a rejected or edited plan goes, the work
// of earlier questions stays.
func (f *FullPlan) DropRemaining() {
	kept := f.Steps[:0]
	for _, s := range f.Steps {
		if s.Status != StatusTodo && s.Status != StatusDoing {
			kept = append(kept, s)
		}
	}
	f.Steps = kept
}

// Current returns the first step not yet finished, or nil.
func (f *FullPlan) Current() *StepState {
	for i := range f.Steps {
		if s := f.Steps[i].Status; s == StatusTodo || s == StatusDoing {
			return &f.Steps[i]
		}
	}
	return nil
}

// SkipRemaining marks every unfinished step skipped, with the reason as its
// summary.
func (f *FullPlan) SkipRemaining(reason string) {
	for i := range f.Steps {
		if s := f.Steps[i].Status; s == StatusTodo || s == StatusDoing {
			f.Steps[i].Status = StatusSkipped
			f.Steps[i].Summary = reason
		}
	}
}

// Clone returns a deep copy, safe to hand to another goroutine.
func (f *FullPlan) Clone() *FullPlan {
	if f == nil {
		return nil
	}
	c := *f
	c.Steps = make([]StepState, len(f.Steps))
	for i, s := range f.Steps {
		s.Files = append([]string(nil), s.Files...)
		s.Needs = append([]int(nil), s.Needs...)
		c.Steps[i] = s
	}
	if f.Result != nil {
		r := *f.Result
		r.Files = append([]string(nil), f.Result.Files...)
		r.NextQuestions = append([]string(nil), f.Result.NextQuestions...)
		r.Unverified = append([]string(nil), f.Result.Unverified...)
		c.Result = &r
	}
	c.Remembered = append([]Remembered(nil), f.Remembered...)
	return &c
}

// SubmitResult is the final answer the replanner submits when the work is
// done.
type SubmitResult struct {
	// Answer is the direct answer to the question, in the person's language.
	Answer string `json:"answer"`
	// Findings are the key facts found, one per item.
	Findings []string `json:"findings,omitempty"`
	// Files are workspace-relative paths of the deliverables.
	Files []string `json:"files,omitempty"`
	// NextQuestions are two or three questions the person could ask next,
	// grounded in the data's columns and what was found: from the model
	// when it gave them, else from the built-in analyses' rules.
	NextQuestions []string `json:"next_questions,omitempty"`
	// Unverified are the numbers of Answer and Findings that no output of
	// the run holds (see package numcheck), as written; set by Sift after
	// its answer check, never by the model.
	Unverified []string `json:"unverified,omitempty"`
}

// UnmarshalJSON accepts "answer", "response", "result" or "summary" for the
// answer, since models drift between them.
func (r *SubmitResult) UnmarshalJSON(data []byte) error {
	var obj struct {
		Answer        string          `json:"answer"`
		Response      string          `json:"response"`
		Result        string          `json:"result"`
		Summary       string          `json:"summary"`
		Findings      json.RawMessage `json:"findings"`
		Files         json.RawMessage `json:"files"`
		NextQuestions json.RawMessage `json:"next_questions"`
		// Unverified is Sift's own, kept through state.json.
		Unverified []string `json:"unverified"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("submit_result: %w", err)
	}
	r.Unverified = obj.Unverified
	r.Answer = obj.Answer
	for _, alt := range []string{obj.Response, obj.Result, obj.Summary} {
		if r.Answer == "" {
			r.Answer = alt
		}
	}
	var err error
	if r.Files, err = looseStrings(obj.Files); err != nil {
		return fmt.Errorf("submit_result files: %w", err)
	}
	if r.NextQuestions, err = looseStrings(obj.NextQuestions); err != nil {
		return fmt.Errorf("submit_result next_questions: %w", err)
	}
	if r.Findings, err = looseStrings(obj.Findings); err != nil {
		return fmt.Errorf("submit_result findings: %w", err)
	}
	return nil
}

// FullPlanKey is the session key under which a run keeps its FullPlan.
var FullPlanKey = params.NewKey[*FullPlan]("sift.full_plan")
