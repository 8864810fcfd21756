package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sift-agent/sift/plans"
)

// Sentinel errors of the session registry.
var (
	// ErrSessionNotFound means the registry holds no session with that id.
	ErrSessionNotFound = errors.New("session not found")
	// ErrInvalidMeta means Put was given session metadata it cannot store:
	// an unknown status or pending kind.
	ErrInvalidMeta = errors.New("invalid session metadata")
)

// Status is where a session stands.
type Status string

// The statuses of a session.
const (
	// StatusRunning: a process is working on the session now (or died
	// while it was: Meta.OwnerGone tells).
	StatusRunning Status = "running"
	// StatusWaiting: the run stopped at an interrupt and waits for the
	// person; Meta.Pending says for what.
	StatusWaiting Status = "waiting"
	// StatusPaused: the person stopped the run; it can be resumed from its
	// checkpoint.
	StatusPaused Status = "paused"
	// StatusDone: the run finished with a result.
	StatusDone Status = "done"
	// StatusFailed: the run ended without a complete result.
	StatusFailed Status = "failed"
)

// Statuses lists every status, in the order above.
var Statuses = []Status{StatusRunning, StatusWaiting, StatusPaused, StatusDone, StatusFailed}

// Finished reports whether s is done or failed: the session will not run
// again.
func (s Status) Finished() bool { return s == StatusDone || s == StatusFailed }

// Valid reports whether s is one of the statuses above.
func (s Status) Valid() bool {
	switch s {
	case StatusRunning, StatusWaiting, StatusPaused, StatusDone, StatusFailed:
		return true
	}
	return false
}

// PendingKind names what a waiting session needs from the person.
type PendingKind string

// The kinds of interrupt a session can wait at.
const (
	// PendingPlanReview: approve, edit or reject the plan.
	PendingPlanReview PendingKind = "plan_review"
	// PendingQuestion: answer a question the run asked.
	PendingQuestion PendingKind = "question"
	// PendingApproval: allow or refuse a risky action.
	PendingApproval PendingKind = "approval"
)

// Pending is the interrupt a waiting session stopped at.
type Pending struct {
	// ID is the interrupt's id, the key to use in adk.ResumeParams.Targets.
	ID string `json:"id"`
	// Kind says what is asked.
	Kind PendingKind `json:"kind"`
	// Prompt is the text shown to the person.
	Prompt string `json:"prompt"`
	// Choices are the answers offered, when the answer is a choice.
	Choices []string `json:"choices,omitempty"`
}

// LabelResumeArgs is the label under which the sift command keeps the
// flags that `sift resume` needs besides the session's id (the model, its
// endpoint, a script; never a key), so that a listed session's resume
// command works as printed.
const LabelResumeArgs = "sift.resume_args"

// Meta is what the registry knows about one session: enough to list it,
// show it and resume it without loading its checkpoint.
type Meta struct {
	// ID is the session id (see ValidateID); it is also the checkpoint id.
	ID string `json:"id"`
	// Question is what the person asked.
	Question string `json:"question"`
	// Status is where the session stands.
	Status Status `json:"status"`
	// Created is when the session was first Put. Put fills it.
	Created time.Time `json:"created"`
	// Updated is when the session was last Put. Put sets it.
	Updated time.Time `json:"updated"`
	// Step is the plan step the session is at, when it is at one.
	Step *plans.Step `json:"step,omitempty"`
	// Pending is the interrupt a waiting session stopped at.
	Pending *Pending `json:"pending,omitempty"`
	// Error says why a failed or paused session stopped.
	Error string `json:"error,omitempty"`
	// Mode is the run's routing mode: "auto", "quick" or "plan".
	Mode string `json:"mode,omitempty"`
	// Inputs are the workspace-relative paths of the input files.
	Inputs []string `json:"inputs,omitempty"`
	// Sources are the IDs of the session's data sources (memory.Source),
	// as its last run worked them out: the facts about its data are the
	// facts about them. Empty when memory is off or none was worked out.
	Sources []string `json:"sources,omitempty"`
	// Workspace is the absolute path of the session's workspace directory.
	Workspace string `json:"workspace,omitempty"`
	// Owner is the process running the session, while it is running; see
	// OwnerGone.
	Owner *Owner `json:"owner,omitempty"`
	// Questions is how many questions the session was asked (a chat or
	// follow-ups ask several); Answered how many of them got an answer.
	// Status is that of the latest question, so these keep earlier answers
	// in sight when a later question failed.
	Questions int `json:"questions,omitempty"`
	Answered  int `json:"answered,omitempty"`
	// Parallel is the most plan steps the session's run runs at the same
	// time; a resume uses it unless told otherwise. 0: not recorded (the
	// default applies).
	Parallel int `json:"parallel,omitempty"`
	// Budget is what the session's run was allowed to spend; a resume is
	// bound by it again (from zero) unless told otherwise. nil: no bound.
	Budget *Budget `json:"budget,omitempty"`
	// Layout is how the run's plan steps ran: "direct" (straight to the
	// code agent) or "executor" (the executor picked each step's agent).
	// A session waiting inside a step resumes in the same layout, whatever
	// the configuration says then, so the answer reaches the agent that
	// asked. "": not recorded.
	Layout string `json:"layout,omitempty"`
	// Template names the built-in analysis the run is (see
	// templates.Names), when a built-in answers it: a resume goes on with
	// it with no model. "": the agents answer, or not recorded.
	Template string `json:"template,omitempty"`
	// Labels are what the program that started the session asked to keep
	// with it (agents.Request.Labels): opaque to Sift, listed and shown,
	// kept by every later run of the session. The sift command keeps the
	// flags a resume needs in LabelResumeArgs.
	Labels map[string]string `json:"labels,omitempty"`
	// Parent is the session this one was made from by a refresh (run
	// again on new data) or a fork (gone on from one of its steps);
	// Origin says which: OriginRefresh or OriginFork. "": neither.
	Parent string `json:"parent,omitempty"`
	Origin string `json:"origin,omitempty"`
}

// How a session was made from its Parent.
const (
	// OriginRefresh: the parent's cells and queries run again on new
	// data, with no model.
	OriginRefresh = "refresh"
	// OriginFork: the parent's finished steps kept up to a step, and the
	// run goes on from there with that step changed.
	OriginFork = "fork"
)

// Budget bounds what one run (or one resume of it) may spend. Zero fields
// mean no bound.
type Budget struct {
	// MaxTokens bounds prompt plus completion tokens over all model calls.
	MaxTokens int `json:"max_tokens,omitempty"`
	// MaxTime bounds the run's wall time.
	MaxTime time.Duration `json:"max_time,omitempty"`
	// MaxSteps bounds the plan steps executed.
	MaxSteps int `json:"max_steps,omitempty"`
	// MaxModelCalls bounds the number of model calls.
	MaxModelCalls int `json:"max_model_calls,omitempty"`
	// MaxCost bounds the cost in US dollars, from the price table (calls
	// of unpriced models count as free).
	MaxCost float64 `json:"max_cost,omitempty"`
}

// Filter selects sessions for List. The zero Filter selects all.
type Filter struct {
	// Status keeps sessions with any of these statuses. Optional; empty
	// keeps every status.
	Status []Status
	// UpdatedBefore keeps sessions last updated before this time.
	// Optional; zero keeps all.
	UpdatedBefore time.Time
	// Limit is the most sessions returned, newest first. Optional; 0 means
	// no limit.
	Limit int
}

// Registry stores session metadata beside the checkpoints of the same
// backend. Implementations are safe for concurrent use.
type Registry interface {
	// Put stores m, replacing what was stored under m.ID. It sets Updated
	// to now and, when Created is zero, keeps the stored Created or sets
	// it to now; "now" is the clock on ctx (see WithClock). An invalid id
	// fails with ErrInvalidID, an unknown status or pending kind with
	// ErrInvalidMeta.
	Put(ctx context.Context, m Meta) error
	// Get returns the session id, or an error wrapping ErrSessionNotFound.
	Get(ctx context.Context, id string) (Meta, error)
	// List returns the sessions f selects, newest (by Created) first, ties
	// broken by id, descending; never nil. Entries whose stored metadata
	// cannot be decoded are left out (Get on their id says what is wrong),
	// so one damaged session does not hide the others.
	List(ctx context.Context, f Filter) ([]Meta, error)
	// Delete removes the session's metadata and its checkpoint (and, in
	// the file backend, its whole workspace). A session with neither fails
	// with ErrSessionNotFound.
	Delete(ctx context.Context, id string) error
}

// Prune deletes from reg the finished (done or failed) sessions last
// updated more than olderThan before now, and returns their ids, oldest
// first. With force it also deletes running, waiting and paused sessions
// that old: a running one may have been left by a process that died. A nil
// now means time.Now. It stops at the first failed Delete and returns the
// ids deleted until then with the error.
func Prune(ctx context.Context, reg Registry, olderThan time.Duration, now func() time.Time, force bool) ([]string, error) {
	if olderThan < 0 {
		return nil, fmt.Errorf("prune sessions: the age %v is negative; give how old a session must be to go, e.g. 720h", olderThan)
	}
	if now == nil {
		now = time.Now
	}
	f := Filter{UpdatedBefore: now().Add(-olderThan)}
	if !force {
		f.Status = []Status{StatusDone, StatusFailed}
	}
	old, err := reg.List(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("prune sessions: %w", err)
	}
	slices.Reverse(old)
	var deleted []string
	for _, m := range old {
		if err := ctx.Err(); err != nil {
			return deleted, fmt.Errorf("prune sessions: %w", err)
		}
		if err := reg.Delete(ctx, m.ID); err != nil {
			if errors.Is(err, ErrSessionNotFound) {
				// Deleted by someone else meanwhile: the goal is met.
				continue
			}
			return deleted, fmt.Errorf("prune sessions: %w", err)
		}
		deleted = append(deleted, m.ID)
	}
	return deleted, nil
}

// checkMeta validates what Put is given.
func checkMeta(m Meta) error {
	if err := ValidateID(m.ID); err != nil {
		return err
	}
	if !m.Status.Valid() {
		return fmt.Errorf("%w: session %s has status %q; use one of running, waiting, paused, done, failed", ErrInvalidMeta, m.ID, m.Status)
	}
	if p := m.Pending; p != nil {
		switch p.Kind {
		case PendingPlanReview, PendingQuestion, PendingApproval:
		default:
			return fmt.Errorf("%w: session %s has pending kind %q; use plan_review, question or approval", ErrInvalidMeta, m.ID, p.Kind)
		}
	}
	return nil
}

// stamp validates m and sets its times for Put: Updated to now, and a zero
// Created to the stored one (looked up with get) or now. Times are kept in
// UTC so every backend gives back equal values.
func stamp(ctx context.Context, m Meta, get func(context.Context, string) (Meta, error)) (Meta, error) {
	if err := checkMeta(m); err != nil {
		return Meta{}, fmt.Errorf("put session: %w", err)
	}
	now := clockFrom(ctx)().UTC()
	m.Updated = now
	if m.Created.IsZero() {
		old, err := get(ctx, m.ID)
		switch {
		case err == nil:
			m.Created = old.Created
		case errors.Is(err, ErrSessionNotFound):
			m.Created = now
		default:
			return Meta{}, fmt.Errorf("put session %s: read the stored creation time: %w", m.ID, err)
		}
	}
	m.Created = m.Created.UTC()
	return m, nil
}

// matches reports whether f selects m, Limit aside.
func (f Filter) matches(m Meta) bool {
	if len(f.Status) > 0 && !slices.Contains(f.Status, m.Status) {
		return false
	}
	return f.UpdatedBefore.IsZero() || m.Updated.Before(f.UpdatedBefore)
}

// newestFirst orders metas as List returns them.
func newestFirst(a, b Meta) int {
	if c := b.Created.Compare(a.Created); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

// selectMetas filters, sorts and limits all, as List does for backends
// that cannot query.
func selectMetas(all []Meta, f Filter) []Meta {
	out := make([]Meta, 0, len(all))
	for _, m := range all {
		if f.matches(m) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, newestFirst)
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out
}
