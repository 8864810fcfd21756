package server

import (
	"strings"
	"testing"

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
