package memory

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

var day = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func TestFactsStayWithTheirData(t *testing.T) {
	a, b := Source{ID: "a", Name: "a.csv"}, Source{ID: "b", Name: "b.csv"}
	onA := NewFact(OriginQuestion, "Do refunds count as negative revenue?", "yes", Sources{a}, "s1", day)
	onAB := NewFact(OriginQuestion, "Which file is newer?", "b", Sources{a, b}, "s1", day)
	other := NewFact(OriginQuestion, "Fiscal year?", "April", Sources{b}, "s2", day)
	all := []Entry{onA, onAB, other, NewAnswer("q", "x", "", Sources{a}, Settings{}, "s1", day)}
	ids := func(es []Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Question)
		}
		return out
	}
	if got := ids(Facts(all, Sources{a}, "")); strings.Join(got, "|") != onA.Question {
		t.Errorf("facts on a: %q", got)
	}
	if got := ids(Facts(all, Sources{a, b}, "")); len(got) != 3 {
		t.Errorf("facts on a and b: %q", got)
	}
	if got := ids(Facts(all, Sources{a, b}, "s1")); strings.Join(got, "|") != other.Question {
		t.Errorf("facts of another session only: %q", got)
	}
	if got := Facts(all, Sources{}, ""); len(got) != 0 {
		t.Errorf("no data, no facts: %q", ids(got))
	}
}

func TestRecall(t *testing.T) {
	f := NewFact(OriginQuestion, "Do refunds count as negative revenue?", "yes", Sources{{ID: "a"}}, "s1", day)
	plan := NewFact(OriginPlan, "refunds", "x", Sources{{ID: "a"}}, "s1", day)
	if got, ok := Recall([]Entry{plan, f}, "do refunds count as negative revenue"); !ok || got.ID != f.ID {
		t.Errorf("recall: %+v %v", got, ok)
	}
	if _, ok := Recall([]Entry{f}, "Do refunds count as revenue?"); ok {
		t.Error("another question must not be recalled")
	}
	if !strings.Contains(f.Line(), "you said so on 2026-11-30 in session s1") {
		t.Errorf("line: %s", f.Line())
	}
}

func TestFactIDReplacesOlder(t *testing.T) {
	s := Sources{{ID: "a"}}
	old := NewFact(OriginQuestion, "Fiscal year?", "April", s, "s1", day)
	if n := NewFact(OriginQuestion, "fiscal year", "July", s, "s2", day.Add(time.Hour)); n.ID != old.ID {
		t.Error("the same question on the same data must replace the older answer")
	}
	if n := NewFact(OriginQuestion, "Fiscal year?", "April", Sources{{ID: "b"}}, "s1", day); n.ID == old.ID {
		t.Error("another source must give another fact")
	}
	if err := ValidateID(old.ID); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "x", "f-../../etc", "a-ZZ", "f-"} {
		if ValidateID(bad) == nil {
			t.Errorf("ValidateID(%q) must fail", bad)
		}
	}
}

func TestRenderIsBounded(t *testing.T) {
	var facts []Entry
	for i := range 100 {
		facts = append(facts, NewFact(OriginQuestion, strings.Repeat("long question ", 5)+string(rune('a'+i%26)), "an answer of some words", Sources{{ID: "a"}}, "s1", day))
	}
	text, shown := Render(facts, DefaultTokens)
	if len(shown) == 0 || len(shown) == len(facts) {
		t.Fatalf("shown %d of %d", len(shown), len(facts))
	}
	if shown[0].ID != facts[0].ID {
		t.Error("the newest comes first")
	}
	if n := len(strings.Split(text, "\n")); n != len(shown) {
		t.Errorf("%d lines for %d facts", n, len(shown))
	}
	if text, _ := Render(nil, DefaultTokens); text != "" {
		t.Errorf("no facts: %q", text)
	}
}

func TestAnswerIDMissesOnAnyChange(t *testing.T) {
	s := Sources{{ID: "a", Content: "1"}}
	set := Settings{Route: "auto", Models: []string{"default=m1"}, Version: "v1"}
	id := AnswerID("Which region grew fastest?", s, set)
	if AnswerID("which region grew fastest", s, set) != id {
		t.Error("the normal form must hit")
	}
	for name, other := range map[string]string{
		"question": AnswerID("Which region grew slowest?", s, set),
		"data":     AnswerID("Which region grew fastest?", Sources{{ID: "b", Content: "2"}}, set),
		"model":    AnswerID("Which region grew fastest?", s, Settings{Route: "auto", Models: []string{"default=m2"}, Version: "v1"}),
		"route":    AnswerID("Which region grew fastest?", s, Settings{Route: "plan", Models: []string{"default=m1"}, Version: "v1"}),
		"version":  AnswerID("Which region grew fastest?", s, Settings{Route: "auto", Models: []string{"default=m1"}, Version: "v2"}),
	} {
		if other == id {
			t.Errorf("another %s must miss", name)
		}
	}
}

func TestSimilarSuggestsOnlyOnTheSameData(t *testing.T) {
	s := Sources{{ID: "a", Content: "1"}}
	set := Settings{Route: "auto"}
	e := NewAnswer("Which region grew fastest in 2024?", "West", "", s, set, "s1", day)
	if got, ok := Similar([]Entry{e}, "Which region grew fastest in 2023?", s, set); !ok || got.ID != e.ID {
		t.Errorf("similar: %v", ok)
	}
	if _, ok := Similar([]Entry{e}, "which region grew fastest in 2024", s, set); ok {
		t.Error("the same question is a hit, not a suggestion")
	}
	if _, ok := Similar([]Entry{e}, "Which region grew fastest in 2023?", Sources{{ID: "b", Content: "2"}}, set); ok {
		t.Error("other data must not be suggested")
	}
}

// mapStore is a Store in a map, for the tests of this package.
type mapStore map[string]Entry

func (m mapStore) Put(_ context.Context, e Entry) error { m[e.ID] = e; return nil }
func (m mapStore) Get(_ context.Context, id string) (Entry, error) {
	e, ok := m[id]
	if !ok {
		return Entry{}, ErrNotFound
	}
	return e, nil
}
func (m mapStore) List(context.Context) ([]Entry, error) { return slices.Collect(maps.Values(m)), nil }
func (m mapStore) Delete(_ context.Context, id string) error {
	if _, ok := m[id]; !ok {
		return ErrNotFound
	}
	delete(m, id)
	return nil
}

func TestEditFact(t *testing.T) {
	ctx := context.Background()
	s := Sources{{ID: "a", Content: "1"}}
	f := NewFact(OriginQuestion, "Do refunds count as negative revenue?", "yes", s, "s1", day)
	a := NewAnswer("Total revenue?", "42", "", s, Settings{}, "s1", day)
	store := mapStore{f.ID: f, a.ID: a}
	later := day.Add(48 * time.Hour)
	got, err := Edit(ctx, store, f.ID, "  no, refunds are left out  ", later)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != f.ID || got.Answer != "no, refunds are left out" || !got.Edited.Equal(later) || !got.Created.Equal(day) || store[f.ID].Answer != got.Answer {
		t.Errorf("edited: %+v", got)
	}
	if want := "you said so on 2026-12-02 (editing what you said in session s1)"; got.Said() != want {
		t.Errorf("Said() = %q, want %q", got.Said(), want)
	}
	for name, tc := range map[string]struct {
		id, text string
		want     error
	}{
		"an answer":  {a.ID, "43", ErrNotFact},
		"empty text": {f.ID, "  ", ErrBadText},
		"too long":   {f.ID, strings.Repeat("x", MaxFactBytes+1), ErrBadText},
		"missing":    {"f-00000000000000000000", "x", ErrNotFound},
		"not an ID":  {"../x", "x", ErrInvalidID},
	} {
		if _, err := Edit(ctx, store, tc.id, tc.text, later); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	if store[a.ID].Answer != "42" || store[f.ID].Answer != "no, refunds are left out" {
		t.Error("a refused edit must change nothing")
	}
}
