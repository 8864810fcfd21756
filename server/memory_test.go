package server

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/memory"
)

// runToEnd asks question in a new session on the sales file and returns
// the data of its events.
func runToEnd(t *testing.T, ts *testServer, body map[string]any) string {
	t.Helper()
	id := ts.createSession(salesCSV(t))
	ts.ask(id, body)
	var all []string
	for _, f := range ts.openStream(id, "").rest(t) {
		all = append(all, f.data)
	}
	return strings.Join(all, "\n")
}

func TestMemoryOverTheAPI(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	const q = "monthly revenue trend"
	if evs := runToEnd(t, ts, map[string]any{"question": q}); strings.Contains(evs, "Answered from memory") {
		t.Fatal("the first run cannot be answered from memory")
	}
	if evs := runToEnd(t, ts, map[string]any{"question": "Monthly revenue trend?"}); !strings.Contains(evs, "Answered from memory") {
		t.Errorf("the same question on the same data must be answered from memory:\n%s", evs)
	}
	if evs := runToEnd(t, ts, map[string]any{"question": q, "fresh": true}); strings.Contains(evs, "Answered from memory") {
		t.Errorf("fresh must compute again:\n%s", evs)
	}
	var list memoryList
	if code := ts.do("GET", "/v1/memory", nil, &list); code != 200 || !list.Enabled || len(list.Entries) != 1 {
		t.Fatalf("GET /v1/memory = %d %+v", code, list)
	}
	e := list.Entries[0]
	if e.Kind != memory.KindAnswer || e.Question != q || e.Report != "" || len(e.Names) != 1 || e.Names[0] != "sales.csv" {
		t.Errorf("entry: %+v", e)
	}
	if code := ts.do("DELETE", "/v1/memory/"+e.ID, nil, nil); code != 204 {
		t.Errorf("DELETE = %d", code)
	}
	if code := ts.do("DELETE", "/v1/memory/"+e.ID, nil, nil); code != 404 {
		t.Errorf("DELETE again = %d", code)
	}
	if evs := runToEnd(t, ts, map[string]any{"question": q}); strings.Contains(evs, "Answered from memory") {
		t.Errorf("a forgotten answer must be computed again:\n%s", evs)
	}
}

func TestFactsOfASessionOverTheAPI(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	ctx := context.Background()
	store := ts.srv.sift.Memory()
	sales := salesCSV(t)
	path := filepath.Join(t.TempDir(), "renamed.csv")
	if err := os.WriteFile(path, []byte(sales[1]), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := memory.File(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	fact := memory.NewFact(memory.OriginQuestion, "Do refunds count as negative revenue?", "yes", memory.Sources{src}, "s-earlier", day)
	other := memory.NewFact(memory.OriginQuestion, "Fiscal year?", "April", memory.Sources{{ID: "other-data"}}, "s-other", day)
	answer := memory.NewAnswer("Total revenue?", "42", "# 42", memory.Sources{src}, memory.Settings{}, "s-earlier", day)
	for _, e := range []memory.Entry{fact, other, answer} {
		if err := store.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	listed := func(id string) []string {
		t.Helper()
		var list memoryList
		if code := ts.do("GET", "/v1/memory?session="+id, nil, &list); code != 200 || !list.Enabled {
			t.Fatalf("GET /v1/memory?session=%s = %d %+v", id, code, list)
		}
		var ids []string
		for _, e := range list.Entries {
			ids = append(ids, e.ID)
		}
		return ids
	}
	id := ts.createSession(sales)
	// Before its first run (its files uploaded), and after it.
	if got := listed(id); !slices.Equal(got, []string{fact.ID}) {
		t.Errorf("facts of the created session: %v, want only %s (not another data's fact, not an answer)", got, fact.ID)
	}
	ts.ask(id, map[string]any{"question": "monthly revenue trend"})
	ts.openStream(id, "").rest(t)
	if got := listed(id); !slices.Equal(got, []string{fact.ID}) {
		t.Errorf("facts of the session after its run: %v, want %s", got, fact.ID)
	}

	var edited memory.Entry
	if code := ts.do("PATCH", "/v1/memory/"+fact.ID, map[string]any{"answer": "no, refunds are left out"}, &edited); code != 200 {
		t.Fatalf("PATCH = %d", code)
	}
	if edited.ID != fact.ID || edited.Answer != "no, refunds are left out" || edited.Edited.IsZero() {
		t.Errorf("edited: %+v", edited)
	}
	if got, _ := store.Get(ctx, fact.ID); got.Answer != "no, refunds are left out" {
		t.Errorf("the store keeps %q", got.Answer)
	}
	var e errorBody
	for _, c := range []struct {
		id   string
		body map[string]any
		want int
	}{
		{answer.ID, map[string]any{"answer": "43"}, 400},
		{fact.ID, map[string]any{"answer": "  "}, 400},
		{fact.ID, map[string]any{"answer": strings.Repeat("x", memory.MaxFactBytes+1)}, 400},
		{fact.ID, map[string]any{}, 400},
	} {
		if code := ts.do("PATCH", "/v1/memory/"+c.id, c.body, &e); code != c.want || e.Error.Message == "" {
			t.Errorf("PATCH %s %v = %d %q, want %d with a message", c.id, c.body, code, e.Error.Message, c.want)
		}
	}
	if code := ts.do("DELETE", "/v1/memory/"+fact.ID, nil, nil); code != 204 {
		t.Errorf("DELETE = %d", code)
	}
	if got := listed(id); len(got) != 0 {
		t.Errorf("a forgotten fact is still listed: %v", got)
	}
}
