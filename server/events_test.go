package server

import (
	"net/http"
	"strconv"
	"testing"
)

// TestStreamToTheLetter: the stream speaks SSE as EventSource reads it.
// It starts with a retry: hint and the id it starts after (no data, so
// nothing is dispatched); no frame names an SSE event (a kind "error"
// would otherwise be EventSource's own connection error), the kind is in
// the data; and once the stream has ended after done, a reconnect with
// the last id gets 204, which stops EventSource, instead of an empty 200
// that it would reconnect to every few seconds.
func TestStreamToTheLetter(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession(salesCSV(t))

	// A session with no run has no stream to follow.
	if code := ts.streamStatus(id, ""); code != http.StatusNoContent {
		t.Errorf("stream of a session never run = %d, want 204", code)
	}

	ts.ask(id, map[string]any{"question": "monthly revenue trend"})
	s := ts.openStream(id, "")
	first, ok := s.next(t)
	if !ok || first.retry != strconv.FormatInt(retryHint.Milliseconds(), 10) || first.id != "0" || first.data != "" {
		t.Fatalf("first frame = %+v, want the priming one: retry %d, id 0, no data", first, retryHint.Milliseconds())
	}
	var all []sseFrame
	for {
		f, ok := s.next(t)
		if !ok {
			break
		}
		all = append(all, f)
	}
	var evs []sseFrame
	for _, f := range all {
		if f.field != "" {
			t.Errorf("frame %+v names an SSE event %q; every event must be a plain message with its kind in the data", f, f.field)
		}
		if f.isEvent() {
			evs = append(evs, f)
		}
	}
	if len(evs) == 0 || evs[len(evs)-1].event != "done" {
		t.Fatalf("events: %s", kindsOf(evs))
	}
	done := evs[len(evs)-1].id

	// EventSource reconnects with the last id it saw: the run is over.
	if code := ts.streamStatus(id, done); code != http.StatusNoContent {
		t.Errorf("reconnect after done = %d, want 204", code)
	}
	// A client that missed events still gets them, primed with its id.
	before, _ := strconv.Atoi(done)
	s = ts.openStream(id, strconv.Itoa(before-1))
	if f, _ := s.next(t); f.id != strconv.Itoa(before-1) || f.data != "" {
		t.Errorf("priming frame after Last-Event-ID %d = %+v", before-1, f)
	}
	if rest := s.rest(t); len(rest) != 1 || rest[0].id != done || rest[0].event != "done" {
		t.Errorf("after Last-Event-ID %d: %s", before-1, kindsOf(rest))
	}
}

// streamStatus opens the session's stream after lastID and returns the
// answer's status, closing it at once.
func (ts *testServer) streamStatus(id, lastID string) int {
	ts.t.Helper()
	req, _ := http.NewRequest("GET", ts.http.URL+"/v1/sessions/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
