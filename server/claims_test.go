package server

import (
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/session"
)

// TestTwoServersShareSessions: two servers on one store and sessions
// directory. While A runs a session, B refuses to run it again; while A
// has a run queued, B refuses to start it too (the claim); a pause sent to
// B stops A's run at its next safe point; B then resumes and finishes it.
func TestTwoServersShareSessions(t *testing.T) {
	g := newGate(t)
	cfg := testConfig(t, pausedTwoStepScript(g))
	cfg.MaxRuns = 1
	cfg.PollInterval = 10 * time.Millisecond
	store, err := session.OpenFileBackend(cfg.Sift.SessionsRoot)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sift.Store = store
	a, b := startServer(t, cfg), startServer(t, cfg)

	first := a.createSession()
	a.ask(first, map[string]any{"question": "x", "mode": "plan"})
	g.wait(t)
	var e errorBody
	if code := b.do("POST", "/v1/sessions/"+first+"/resume", nil, &e); code != 409 || !strings.Contains(e.Error.Message, "another server") {
		t.Errorf("B resumes the session A runs: %d %+v, want 409", code, e)
	}

	second := a.createSession(salesCSV(t))
	if acc := a.ask(second, map[string]any{"question": "monthly revenue trend", "mode": "template"}); acc.State != "queued" {
		t.Fatalf("A's second run = %+v, want queued", acc)
	}
	if code := b.do("POST", "/v1/sessions/"+second+"/runs", map[string]any{"question": "monthly revenue trend", "mode": "template"}, &e); code != 409 || !strings.Contains(e.Error.Message, "another server") {
		t.Errorf("B starts the run A has queued: %d %+v, want 409", code, e)
	}
	if code := b.do("DELETE", "/v1/sessions/"+second, nil, &e); code != 409 {
		t.Errorf("B deletes the session A has queued: %d %+v, want 409", code, e)
	}

	var v sessionView
	if code := b.do("POST", "/v1/sessions/"+first+"/pause", nil, &v); code != 202 || v.Status != "running" {
		t.Fatalf("pause through B: %d %+v", code, v)
	}
	a.srv.mu.Lock()
	h := a.srv.hubs[first]
	a.srv.mu.Unlock()
	if h == nil {
		t.Fatal("A's run ended before the pause")
	}
	select {
	case <-h.pause:
	case <-time.After(time.Minute):
		t.Fatal("A never heard of the pause sent to B")
	}
	g.release()
	evs := b.openStream(first, "").rest(t)
	last := evs[len(evs)-1]
	if last.event != "done" || !strings.Contains(last.data, `"text":"paused"`) {
		t.Fatalf("A's run streamed by B: %s, last %s", kindsOf(evs), last.data)
	}
	if got := a.openStream(second, "").rest(t); got[len(got)-1].event != "done" {
		t.Errorf("A's queued run: %s", kindsOf(got))
	}

	// A frees its claim just after its done event is logged, so B may see
	// it held for a moment: B's resume is refused (409) until then.
	var acc accepted
	for deadline := time.Now().Add(30 * time.Second); ; {
		code := b.do("POST", "/v1/sessions/"+first+"/resume", nil, &acc)
		if code == 202 {
			break
		}
		if code != 409 || time.Now().After(deadline) {
			t.Fatalf("resume through B: %d", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := a.do("POST", "/v1/sessions/"+first+"/resume", nil, &e); code != 409 {
		t.Errorf("A resumes the session B runs: %d %+v", code, e)
	}
	more := b.openStream(first, last.id).rest(t)
	if end := more[len(more)-1]; end.event != "done" || strings.Contains(end.data, `"error"`) || strings.Contains(end.data, "paused") {
		t.Fatalf("B's resumed run: %s %s", kindsOf(more), end.data)
	}
	if v := a.session(first); v.Status != "done" {
		t.Errorf("A sees %s, want done", v.Status)
	}
}

// TestServerRefusesASessionACommandHolds: the server and the CLI share one
// claim: while a sift resume (here, a claim held as sift resume does)
// holds a session, the server refuses to run it, saying who holds it and
// since when; once released, the server runs it.
func TestServerRefusesASessionACommandHolds(t *testing.T) {
	cfg := testConfig(t, nil)
	ts := startServer(t, cfg)
	id := ts.createSession(salesCSV(t))
	_, hold, err := session.HoldClaim(t.Context(), ts.srv.store.Claims, id, "sift resume", 0)
	if err != nil {
		t.Fatal(err)
	}
	var e errorBody
	body := map[string]any{"question": "monthly revenue trend", "mode": "template"}
	if code := ts.do("POST", "/v1/sessions/"+id+"/runs", body, &e); code != 409 {
		t.Fatalf("a run of a session sift resume holds: %d %+v, want 409", code, e)
	}
	for _, want := range []string{"sift resume (pid ", "holds it since "} {
		if !strings.Contains(e.Error.Message, want) {
			t.Errorf("the refusal %q does not say %q", e.Error.Message, want)
		}
	}
	hold.Release()
	if acc := ts.ask(id, body); acc.State != "running" {
		t.Errorf("after the release: %+v, want running", acc)
	}
	if got := ts.openStream(id, "").rest(t); got[len(got)-1].event != "done" || strings.Contains(got[len(got)-1].data, `"error"`) {
		t.Errorf("the run after the release: %s", kindsOf(got))
	}
}
