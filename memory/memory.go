// Package memory is what Sift remembers between sessions, scoped to the
// data it is about: the identity of a data source (Source: a file's schema
// and content hash, a database's address and tables), the facts the
// person gave about it (answers to the agents' questions, plan edits), and
// the answers already computed on it (the answer cache). It defines the
// records and the Store they are kept in; package session keeps them
// (see session.Backend.Memory), and package agents uses them.
package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sift-agent/sift/llm/tokens"
)

// Errors callers branch on.
var (
	// ErrNotFound: no entry has the ID.
	ErrNotFound = errors.New("no such memory entry")
	// ErrInvalidID: the string cannot be an entry's ID.
	ErrInvalidID = errors.New("invalid memory entry ID")
	// ErrNotFact: the entry is an answer, which Sift computed; only what
	// the person said (a fact) is edited.
	ErrNotFact = errors.New("not a fact")
	// ErrBadText: a fact's new text is empty or too long.
	ErrBadText = errors.New("invalid fact text")
)

// Kind says what an Entry is.
type Kind string

// The kinds of entry.
const (
	// KindFact is something the person told Sift about the data: the
	// answer to a question the agents asked, or a plan they edited.
	KindFact Kind = "fact"
	// KindAnswer is an answer computed earlier: the same question on the
	// same data with the same settings is answered from it.
	KindAnswer Kind = "answer"
	// KindExample is code that worked before on the data: a finished
	// step's last successful cell, shown to the code agent of later
	// sessions on the same data as an example (see Examples).
	KindExample Kind = "example"
)

// Origins of a fact.
const (
	// OriginQuestion: the person answered a question the agents asked.
	OriginQuestion = "question"
	// OriginPlan: the person edited or rejected a plan.
	OriginPlan = "plan"
)

// Entry is one thing remembered.
type Entry struct {
	// ID names the entry, for listing and forgetting. The same fact
	// (question and data) or the same answer (question, data and
	// settings) always has the same ID, so the newer replaces the older.
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Sources are the IDs of the data the entry is about (Source.ID),
	// sorted; Names their names when it was made, for people.
	Sources []string `json:"sources"`
	Names   []string `json:"names,omitempty"`
	// Question is what was asked: by the agents, for a fact from a
	// question; by the person, for an answer or a plan edit.
	Question string `json:"question"`
	// Answer is what the person said (a fact), or the answer the run gave
	// (an answer).
	Answer string `json:"answer"`
	// Origin is OriginQuestion or OriginPlan, for facts.
	Origin string `json:"origin,omitempty"`
	// Session is the session the entry was made in.
	Session string `json:"session"`
	// Created is when.
	Created time.Time `json:"created"`
	// Edited is when the person last edited the fact (Edit); zero when
	// never.
	Edited time.Time `json:"edited,omitzero"`
	// Settings is the answer's settings key (see Settings.Key); answers
	// only.
	Settings string `json:"settings,omitempty"`
	// Report is the answer's report (Markdown); answers only.
	Report string `json:"report,omitempty"`
	// Language is an example's language ("python"); examples only.
	Language string `json:"language,omitempty"`
}

// Store keeps entries. Implementations are safe for concurrent use and
// honour ctx.
type Store interface {
	// Put adds e, replacing an entry with the same ID.
	Put(ctx context.Context, e Entry) error
	// Get returns the entry id, or an error wrapping ErrNotFound.
	Get(ctx context.Context, id string) (Entry, error)
	// List returns every entry, newest first.
	List(ctx context.Context) ([]Entry, error)
	// Delete forgets the entry id; a missing one fails with ErrNotFound.
	Delete(ctx context.Context, id string) error
}

// ValidateID refuses what cannot be an entry's ID, so a store never
// builds a path or key from one.
func ValidateID(id string) error {
	ok := len(id) > 2 && len(id) <= 80 && (strings.HasPrefix(id, "f-") || strings.HasPrefix(id, "a-") || strings.HasPrefix(id, "e-"))
	for _, r := range id {
		ok = ok && (r >= 'a' && r <= 'f' || r >= '0' && r <= '9' || r == '-')
	}
	if !ok {
		return fmt.Errorf("%w: %q is not like f-1a2b3c…, a-1a2b3c… or e-1a2b3c… (sift memory list shows the IDs)", ErrInvalidID, id)
	}
	return nil
}

// idLen is how many hex digits of a digest an ID keeps.
const idLen = 20

// NewFact is the fact that the person answered question with answer, in
// session, about the data sources.
func NewFact(origin, question, answer string, sources Sources, session string, now time.Time) Entry {
	key := digest(append([]string{origin, Normalize(question)}, sources.IDs()...)...)
	return Entry{
		ID: "f-" + key[:idLen], Kind: KindFact, Origin: origin,
		Sources: sources.IDs(), Names: sources.Names(),
		Question: strings.TrimSpace(question), Answer: strings.TrimSpace(answer),
		Session: session, Created: now.UTC(),
	}
}

// Settings are what else, besides the question and the data, decides an
// answer: the answer cache misses when any of it changed.
type Settings struct {
	// Route is the request's mode or built-in analysis ("auto", "plan",
	// "template:profile", ...).
	Route string
	// Models are the models by role ("planner=gpt-4.1", ...); empty when
	// the run has none (only built-in analyses answer).
	Models []string
	// Version is the code and prompt version.
	Version string
}

// Key is the settings as one string, the same for the same settings.
func (s Settings) Key() string {
	ms := slices.Clone(s.Models)
	slices.Sort(ms)
	return fmt.Sprintf("route=%s; models=%s; version=%s", s.Route, strings.Join(ms, ","), s.Version)
}

// AnswerID is the ID of the answer to question on the data with the
// settings: the answer cache's key.
func AnswerID(question string, sources Sources, settings Settings) string {
	key := digest(append([]string{Normalize(question), settings.Key()}, sources.IDs()...)...)
	return "a-" + key[:idLen]
}

// NewAnswer is the answer to question on the data with the settings,
// given in session, with its report.
func NewAnswer(question, answer, reportMD string, sources Sources, settings Settings, session string, now time.Time) Entry {
	return Entry{
		ID: AnswerID(question, sources, settings), Kind: KindAnswer,
		Sources: sources.IDs(), Names: sources.Names(),
		Question: strings.TrimSpace(question), Answer: strings.TrimSpace(answer), Report: reportMD,
		Settings: settings.Key(), Session: session, Created: now.UTC(),
	}
}

// about reports whether every source of e is among ids: the entry is
// about data the run has.
func (e Entry) about(ids []string) bool {
	if len(e.Sources) == 0 {
		return false
	}
	for _, s := range e.Sources {
		if !slices.Contains(ids, s) {
			return false
		}
	}
	return true
}

// Facts are the facts among entries (newest first, as List returns them)
// about the data sources, leaving out those of session skip (a session
// has its own answers in its history). A fact is about the data when every
// source it was given on is among the sources, so facts never cross data:
// a fact given on one file is not shown for another, nor for the same file
// once a byte of it changed.
func Facts(entries []Entry, sources Sources, skip string) []Entry {
	ids := sources.IDs()
	var out []Entry
	for _, e := range entries {
		if e.Kind == KindFact && e.Session != skip && e.about(ids) {
			out = append(out, e)
		}
	}
	return out
}

// Recall finds among facts the person's answer to question: a fact from a
// question whose normal form (Normalize) is the same.
func Recall(facts []Entry, question string) (Entry, bool) {
	q := Normalize(question)
	for _, f := range facts {
		if f.Origin == OriginQuestion && Normalize(f.Question) == q {
			return f, true
		}
	}
	return Entry{}, false
}

// Said is how a fact is cited: "you said so on 2026-11-30 in session X",
// or, once edited, "you said so on 2026-12-02 (editing what you said in
// session X)".
func (e Entry) Said() string {
	if !e.Edited.IsZero() {
		return fmt.Sprintf("you said so on %s (editing what you said in session %s)", e.Edited.Format(time.DateOnly), e.Session)
	}
	return fmt.Sprintf("you said so on %s in session %s", e.Created.Format(time.DateOnly), e.Session)
}

// MaxFactBytes bounds a fact's text: it is shown to every agent of every
// later session on its data.
const MaxFactBytes = 2000

// Edit makes text what the person said in the fact id, as of now: later
// sessions on its data show and use the new text. An answer is not
// edited (ErrNotFact: forget it, or ask with --fresh); text must hold
// something and at most MaxFactBytes (ErrBadText).
func Edit(ctx context.Context, s Store, id, text string, now time.Time) (Entry, error) {
	if err := ValidateID(id); err != nil {
		return Entry{}, err
	}
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return Entry{}, fmt.Errorf("%w: the new text of %s is empty; to forget the fact, use forget", ErrBadText, id)
	case len(text) > MaxFactBytes:
		return Entry{}, fmt.Errorf("%w: the new text of %s has %d bytes, at most %d are kept; say it shorter", ErrBadText, id, len(text), MaxFactBytes)
	}
	e, err := s.Get(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	if e.Kind == KindExample {
		return Entry{}, fmt.Errorf("%w: %s is code that worked before, not something you said; forget it if it should not be shown again", ErrNotFact, id)
	}
	if e.Kind != KindFact {
		return Entry{}, fmt.Errorf("%w: %s is an answer Sift computed, not something you said; forget it, or ask again with --fresh (API: \"fresh\": true)", ErrNotFact, id)
	}
	e.Answer, e.Edited = text, now.UTC()
	if err := s.Put(ctx, e); err != nil {
		return Entry{}, fmt.Errorf("edit %s: %w", id, err)
	}
	return e, nil
}

// Line is the fact as one line of the agents' context.
func (e Entry) Line() string {
	if e.Origin == OriginPlan {
		return fmt.Sprintf("- For %q the person changed the plan: %s (%s).", e.Question, e.Answer, e.Said())
	}
	return fmt.Sprintf("- Asked %q, the person answered: %s (%s).", e.Question, e.Answer, e.Said())
}

// DefaultTokens bounds the facts shown to the agents (see Render).
const DefaultTokens = 600

// Render shows facts (newest first) to the agents, one line each, as many
// as fit in maxTokens (o200k tokens); "" when there are none. It returns
// the facts it shows.
func Render(facts []Entry, maxTokens int) (string, []Entry) {
	var b strings.Builder
	var shown []Entry
	used := 0
	for _, f := range facts {
		line := f.Line() + "\n"
		n := tokens.Text("", line)
		if used+n > maxTokens {
			continue
		}
		used += n
		b.WriteString(line)
		shown = append(shown, f)
	}
	return strings.TrimSpace(b.String()), shown
}

// SimilarAt is the least Similarity at which an earlier answer is
// suggested.
const SimilarAt = 0.6

// Similar finds the answer among entries to the question most like
// question (Similarity at least SimilarAt, but not the same question) on
// the same data with the same settings: a suggestion to show, never an
// answer to give.
func Similar(entries []Entry, question string, sources Sources, settings Settings) (Entry, bool) {
	ids, key, q := sources.IDs(), settings.Key(), Normalize(question)
	best, score := Entry{}, 0.0
	for _, e := range entries {
		if e.Kind != KindAnswer || e.Settings != key || !slices.Equal(e.Sources, ids) || Normalize(e.Question) == q {
			continue
		}
		if s := Similarity(e.Question, question); s >= SimilarAt && s > score {
			best, score = e, s
		}
	}
	return best, score > 0
}
