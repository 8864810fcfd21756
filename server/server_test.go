package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// TestTemplateRunWithoutModel: with no model, a session with uploaded data
// answers a built-in analysis; the stream carries the log's events with
// their ids, ends after done, and the report can be downloaded.
func TestTemplateRunWithoutModel(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession(salesCSV(t))
	if v := ts.session(id); v.Status != statusCreated || !slices.Equal(v.Inputs, []string{"input/sales.csv"}) {
		t.Fatalf("new session = %+v", v)
	}
	a := ts.ask(id, map[string]any{"question": "monthly revenue trend"})
	if a.ID != id || a.State != "running" {
		t.Errorf("accepted = %+v", a)
	}
	evs := ts.openStream(id, "").rest(t)
	if len(evs) == 0 || evs[0].event != "session" || evs[len(evs)-1].event != "done" {
		t.Fatalf("events: %s", kindsOf(evs))
	}
	if got, want := frameIDs(evs), seqList(1, len(evs)); !slices.Equal(got, want) {
		t.Errorf("ids = %v, want %v", got, want)
	}
	// Each frame's data is the log's line: the --json object, with its kind.
	logged, err := session.NewEventTail(filepath.Join(ts.srv.root, id, session.EventsFile)).Read(0)
	if err != nil || len(logged) != len(evs) {
		t.Fatalf("log has %d events (%v), stream %d", len(logged), err, len(evs))
	}
	for i, f := range evs {
		if f.data != string(logged[i].Line) || f.event != string(logged[i].Event.Kind) {
			t.Errorf("frame %d: %s %s, log %s", i, f.event, f.data, logged[i].Line)
		}
	}
	var done event.Event
	if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &done); err != nil || done.Kind != event.Done || done.Seq != int64(len(evs)) {
		t.Errorf("done data = %s (%v)", evs[len(evs)-1].data, err)
	}
	v := ts.session(id)
	if v.Status != "done" || v.Question != "monthly revenue trend" || v.LastEventID != int64(len(evs)) || !slices.Contains(v.Files, "report.md") {
		t.Errorf("session after the run = %+v", v)
	}
	resp, err := http.Get(ts.http.URL + "/v1/sessions/" + id + "/files/report.md")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "#") {
		t.Errorf("report.md: %d %q", resp.StatusCode, body)
	}
	// Run output is never run as this site's page.
	for _, f := range []string{"report.html", "report.md"} {
		resp, err := http.Get(ts.http.URL + "/v1/sessions/" + id + "/files/" + f)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox") || strings.Contains(csp, "script") {
			t.Errorf("%s: Content-Security-Policy %q, want a sandbox that runs no script", f, csp)
		}
	}
	var list struct{ Sessions []sessionView }
	if code := ts.do("GET", "/v1/sessions", nil, &list); code != 200 || len(list.Sessions) != 1 || list.Sessions[0].ID != id {
		t.Errorf("list = %d %+v", code, list)
	}
	// The uploaded files were only needed until the workspace had them.
	if _, err := os.Stat(filepath.Join(ts.srv.stagedDir(id), "files")); !os.IsNotExist(err) {
		t.Errorf("the uploaded files are still there: %v", err)
	}
	// A stream opened after the run replays it and ends.
	if again := ts.openStream(id, "").rest(t); len(again) != len(evs) {
		t.Errorf("replay gave %d events, want %d", len(again), len(evs))
	}
	// Delete removes it.
	if code := ts.do("DELETE", "/v1/sessions/"+id, nil, nil); code != http.StatusNoContent {
		t.Errorf("delete: %d", code)
	}
	var e errorBody
	if code := ts.do("GET", "/v1/sessions/"+id, nil, &e); code != 404 || e.Error.Code != "not_found" {
		t.Errorf("after delete: %d %+v", code, e)
	}
}

// TestPlanReviewAnsweredThroughAPI: a run waits for a plan review; the
// session shows the pending review with its plan; a wrong answer is
// refused; approving finishes the run; follow-ups need a finished session.
func TestPlanReviewAnsweredThroughAPI(t *testing.T) {
	ts := startServer(t, testConfig(t, reviewScript()))
	id := ts.createSession()
	ts.ask(id, map[string]any{"question": "a number", "mode": "plan", "review_plan": true})
	first := ts.openStream(id, "").rest(t)
	done := first[len(first)-1]
	if done.event != "done" || !strings.Contains(done.data, `"plan_review"`) {
		t.Fatalf("first run: %s, last %s", kindsOf(first), done.data)
	}
	v := ts.session(id)
	if v.Status != "waiting" || v.Pending == nil || v.Pending.Kind != "plan_review" || v.Pending.Plan == nil || len(v.Pending.Plan.Steps) != 1 {
		t.Fatalf("waiting session = %+v", v)
	}
	var e errorBody
	if code := ts.do("POST", "/v1/sessions/"+id+"/runs", map[string]any{"question": "another"}, &e); code != 409 {
		t.Errorf("a follow-up while waiting: %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions/"+ts.createSession()+"/runs", map[string]any{"question": "a number", "parallel": -1}, &e); code != 400 || !strings.Contains(e.Error.Message, "parallel -1") {
		t.Errorf("a negative parallel: %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"interrupt_id": "nope", "action": "approve"}, &e); code != 409 {
		t.Errorf("answer to another interrupt: %d", code)
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"action": "maybe"}, &e); code != 400 || !strings.Contains(e.Error.Message, "approve") {
		t.Errorf("bad action: %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"action": "approve", "colour": "red"}, &e); code != 400 {
		t.Errorf("unknown field: %d", code)
	}
	var a accepted
	if code := ts.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"interrupt_id": v.Pending.ID, "action": "approve"}, &a); code != 202 {
		t.Fatalf("approve: %d", code)
	}
	second := ts.openStream(id, done.id).rest(t)
	if len(second) == 0 || second[0].id != seqList(len(first)+1, len(first)+1)[0] || second[len(second)-1].event != "done" {
		t.Fatalf("second run: %s (first id %s)", kindsOf(second), second[0].id)
	}
	if v := ts.session(id); v.Status != "done" || v.Plan == nil || v.Plan.Steps[0].Status != plans.StatusDone || v.Usage == nil || v.Usage.Calls == 0 {
		t.Errorf("finished session = %+v", v)
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"action": "approve"}, &e); code != 409 {
		t.Errorf("answer with nothing pending: %d", code)
	}
}

// TestReconnectAndDisconnect: a client that goes away mid-run does not
// stop it; reconnecting with Last-Event-ID gets exactly the events it
// missed, none twice; a heartbeat arrives while a step runs long.
func TestReconnectAndDisconnect(t *testing.T) {
	g := newGate(t)
	cfg := testConfig(t, twoStepScript(g))
	cfg.Heartbeat = 5 * time.Millisecond
	ts := startServer(t, cfg)
	id := ts.createSession()
	ts.ask(id, map[string]any{"question": "x", "mode": "plan"})
	s1 := ts.openStream(id, "")
	got := s1.until(t, "step_started")
	g.wait(t)
	// The step is held: heartbeats keep the stream alive meanwhile.
	for {
		f, ok := s1.next(t)
		if !ok {
			t.Fatal("the stream ended while the step ran")
		}
		if f.comment == "heartbeat" {
			break
		}
		if f.isEvent() {
			got = append(got, f)
		}
	}
	s1.cancel()
	<-s1.done
	g.release()
	rest := ts.openStream(id, got[len(got)-1].id).rest(t)
	all := append(got, rest...)
	if all[len(all)-1].event != "done" || strings.Contains(all[len(all)-1].data, `"error"`) {
		t.Fatalf("the run did not finish after the client left: %s", kindsOf(all))
	}
	logged, err := session.ReadEvents(filepath.Join(ts.srv.root, id, session.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(seqList(1, len(logged)), frameIDs(all)); diff != "" {
		t.Errorf("ids across the reconnect (-want +got):\n%s", diff)
	}
}

// TestPauseAndResume: pause asks the run to stop before its next step;
// the session is paused and resume finishes it.
func TestPauseAndResume(t *testing.T) {
	g := newGate(t)
	ts := startServer(t, testConfig(t, pausedTwoStepScript(g)))
	id := ts.createSession()
	ts.ask(id, map[string]any{"question": "x", "mode": "plan"})
	g.wait(t)
	var v sessionView
	if code := ts.do("POST", "/v1/sessions/"+id+"/pause", nil, &v); code != 202 || v.Status != "running" {
		t.Fatalf("pause: %d %+v", code, v)
	}
	g.release()
	evs := ts.openStream(id, "").rest(t)
	if last := evs[len(evs)-1]; last.event != "done" || !strings.Contains(last.data, `"text":"paused"`) {
		t.Fatalf("want a paused run: %s %s", kindsOf(evs), last.data)
	}
	if v := ts.session(id); v.Status != "paused" {
		t.Fatalf("status %s, want paused", v.Status)
	}
	var e errorBody
	if code := ts.do("POST", "/v1/sessions/"+id+"/pause", nil, &e); code != 409 {
		t.Errorf("pause with no run: %d", code)
	}
	ts.do("POST", "/v1/sessions/"+id+"/resume", nil, nil)
	more := ts.openStream(id, evs[len(evs)-1].id).rest(t)
	if last := more[len(more)-1]; last.event != "done" || strings.Contains(last.data, `"error"`) {
		t.Fatalf("resumed run: %s %s", kindsOf(more), last.data)
	}
	if v := ts.session(id); v.Status != "done" {
		t.Errorf("status %s, want done", v.Status)
	}
}

// TestShutdownPausesAndRestartResumes: Shutdown pauses a running session
// at its next safe point; a new server on the same store resumes it.
func TestShutdownPausesAndRestartResumes(t *testing.T) {
	g := newGate(t)
	cfg := testConfig(t, pausedTwoStepScript(g))
	ts := startServer(t, cfg)
	id := ts.createSession()
	ts.ask(id, map[string]any{"question": "x", "mode": "plan"})
	g.wait(t)
	shut := make(chan error)
	go func() { shut <- ts.srv.Shutdown(context.Background()) }()
	// Draining: no new runs.
	var e errorBody
	for {
		other := ts.createSession()
		code := ts.do("POST", "/v1/sessions/"+other+"/runs", map[string]any{"question": "monthly revenue trend"}, &e)
		if code == 503 {
			break
		}
		if code != 202 {
			t.Fatalf("run while shutting down: %d", code)
		}
		// Shutdown had not begun yet; that run is fine, try again.
	}
	g.release()
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	meta, err := ts.srv.store.Sessions.Get(context.Background(), id)
	if err != nil || meta.Status != session.StatusPaused {
		t.Fatalf("after shutdown: %+v %v", meta, err)
	}
	// A restarted server, same sessions directory and store.
	cfg2 := cfg
	cfg2.Sift.Store = nil
	ts2 := startServer(t, cfg2)
	if v := ts2.session(id); v.Status != "paused" {
		t.Fatalf("restarted server sees %s", v.Status)
	}
	var a accepted
	if code := ts2.do("POST", "/v1/sessions/"+id+"/resume", nil, &a); code != 202 {
		t.Fatalf("resume: %d", code)
	}
	evs := ts2.openStream(id, "").rest(t)
	if last := evs[len(evs)-1]; last.event != "done" || strings.Contains(last.data, `"error"`) {
		t.Fatalf("resumed: %s", last.data)
	}
	if v := ts2.session(id); v.Status != "done" {
		t.Errorf("status %s", v.Status)
	}
}

// TestQueue: with one run slot, a second session's run is queued, its
// stream says its place, and it runs once the first ends.
func TestQueue(t *testing.T) {
	g := newGate(t)
	cfg := testConfig(t, twoStepScript(g))
	cfg.MaxRuns = 1
	ts := startServer(t, cfg)
	first := ts.createSession()
	ts.ask(first, map[string]any{"question": "x", "mode": "plan"})
	g.wait(t)
	second := ts.createSession(salesCSV(t))
	a := ts.ask(second, map[string]any{"question": "monthly revenue trend", "mode": "template"})
	if a.State != "queued" || a.Position != 1 {
		t.Fatalf("second run = %+v, want queued at 1", a)
	}
	if v := ts.session(second); v.Status != statusQueued || v.QueuePosition != 1 {
		t.Errorf("queued session = %+v", v)
	}
	s := ts.openStream(second, "")
	f, _ := s.next(t)
	for !f.isEvent() {
		f, _ = s.next(t)
	}
	if f.event != "queued" || f.id != "" || f.data != `{"kind":"queued","position":1}` {
		t.Fatalf("first frame = %+v", f)
	}
	var e errorBody
	if code := ts.do("POST", "/v1/sessions/"+second+"/runs", map[string]any{"question": "again"}, &e); code != 409 {
		t.Errorf("a second run in a busy session: %d", code)
	}
	g.release()
	evs := s.rest(t)
	if len(evs) == 0 || evs[len(evs)-1].event != "done" || evs[0].id != "1" {
		t.Fatalf("queued run: %s", kindsOf(evs))
	}
}

// TestAuth: with a token, every API request needs it; health needs none.
func TestAuth(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.Token = "s3cret"
	ts := startServer(t, cfg)
	id := ts.createSession()
	for _, c := range []struct{ method, path, auth string }{
		{"GET", "/v1/sessions", ""},
		{"GET", "/v1/sessions", "Bearer wrong"},
		{"GET", "/v1/sessions/" + id, "s3cret"},
		{"POST", "/v1/sessions", ""},
		{"GET", "/v1/sessions/" + id + "/events", ""},
		{"GET", "/v1/sessions/" + id + "/events?access_token=wrong", ""},
		{"GET", "/v1/sessions/" + id + "/files/report.md", ""},
		{"DELETE", "/v1/sessions/" + id, ""},
		{"GET", "/metrics", ""},
	} {
		req, _ := http.NewRequest(c.method, ts.http.URL+c.path, nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e errorBody
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 401 || e.Error.Code != "unauthorized" || !strings.Contains(e.Error.Message, "Bearer") {
			t.Errorf("%s %s (auth %q) = %d %+v, want 401", c.method, c.path, c.auth, resp.StatusCode, e)
		}
	}
	for _, p := range []string{"/healthz", "/readyz", "/v1/openapi.json", "/"} {
		resp, err := http.Get(ts.http.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s = %d", p, resp.StatusCode)
		}
	}
	resp, err := http.Get(ts.http.URL + "/v1/sessions/" + id + "/events?access_token=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// Let in: a session that never ran has nothing to stream (204).
	if resp.StatusCode != 204 {
		t.Errorf("events with access_token = %d, want 204", resp.StatusCode)
	}
	if ts.session(id).ID != id {
		t.Error("the token does not let a request in")
	}
}

// TestFilesConfinement: the files endpoint serves only plan.md,
// report.md, report.html, each question's report-NN and out/**, and refuses every way out of the
// session's workspace, into another session's, or through a symlink.
func TestFilesConfinement(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	a := ts.createSession(salesCSV(t))
	ts.ask(a, map[string]any{"question": "monthly revenue trend"})
	ts.openStream(a, "").rest(t)
	b := ts.createSession(salesCSV(t))
	ts.ask(b, map[string]any{"question": "monthly revenue trend"})
	ts.openStream(b, "").rest(t)
	ws := filepath.Join(ts.srv.root, a)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(ws, "out", "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ts.srv.root, b, "out"), filepath.Join(ws, "out", "other")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(ws, "out"))
	var artifact string
	for _, e := range entries {
		// A dot file (a built-in's number formats) is no deliverable.
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			artifact = "out/" + e.Name()
			break
		}
	}
	tests := []struct {
		path string
		want int
	}{
		{"report.md", 200},
		{"report.html", 200},
		{"plan.md", 200},
		{"report-01.md", 200},
		{"report-01.html", 200},
		{"report-1.md", 403},
		{artifact, 200},
		{"out/missing.png", 404},
		{"input/sales.csv", 403},
		{"events.jsonl", 403},
		{"session.json", 403},
		{"../" + b + "/report.md", 400}, // refused before the mux would redirect it
		{"out/../report.md", 403},
		{"out/../../" + b + "/report.md", 403},
		{"%2e%2e/" + b + "/report.md", 400},
		{"out%2f..%2freport.md", 400},
		{"out/%2e%2e/report.md", 400},
		{"/etc/passwd", 403},
		{"out/link.txt", 403},
		{"out/other/x.png", 403},
		{"out\\..\\report.md", 403},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("GET", ts.http.URL+"/v1/sessions/"+a+"/files/"+tt.path, nil)
		req.URL.Opaque = "/v1/sessions/" + a + "/files/" + tt.path // sent as written
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "secret") && tt.want != 200 {
			t.Errorf("%s leaked the secret", tt.path)
		}
		// A refusal is a 4xx, never a redirect to some cleaned path.
		ok := resp.StatusCode == tt.want || tt.want >= 400 && resp.StatusCode >= 400 && resp.StatusCode < 500
		if !ok {
			t.Errorf("GET files/%s = %d, want %d: %s", tt.path, resp.StatusCode, tt.want, body)
		}
	}
	for _, bad := range []string{"..", "a%2f..", ".hidden", "x y"} {
		var e errorBody
		if code := ts.do("GET", "/v1/sessions/"+bad, nil, &e); code < 400 || code >= 500 || code == 200 {
			t.Errorf("session id %q = %d", bad, code)
		}
	}
}

// TestLimits: oversize uploads and bodies get 413 with a clear message.
func TestLimits(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.MaxUploadBytes = 1 << 10
	cfg.MaxFiles = 2
	cfg.MaxBodyBytes = 64
	ts := startServer(t, cfg)
	var e errorBody
	if code := ts.do("POST", "/v1/sessions", upload([2]string{"big.csv", strings.Repeat("a,b\n", 1000)}), &e); code != 413 || e.Error.Code != "too_large" || !strings.Contains(e.Error.Message, "1 KiB") {
		t.Errorf("big upload = %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions", upload([2]string{"a.csv", "x"}, [2]string{"b.csv", "x"}, [2]string{"c.csv", "x"}), &e); code != 413 || !strings.Contains(e.Error.Message, "at most 2") {
		t.Errorf("too many files = %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions", upload([2]string{"../../evil.csv", "x"}), nil); code != 201 {
		t.Errorf("a file name with directories is kept as its base name: %d", code)
	}
	if code := ts.do("POST", "/v1/sessions", upload([2]string{"..", "x"}), &e); code != 400 {
		t.Errorf("file name '..' = %d", code)
	}
	id := ts.createSession()
	if code := ts.do("POST", "/v1/sessions/"+id+"/runs", map[string]any{"question": strings.Repeat("why ", 100)}, &e); code != 413 || e.Error.Code != "too_large" {
		t.Errorf("big body = %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions", map[string]any{"data_dirs": []string{"nope"}}, &e); code != 400 || !strings.Contains(e.Error.Message, "none") {
		t.Errorf("unknown data dir = %d %+v", code, e)
	}
	if len(ts.srv.listFiles("nope")) != 0 {
		t.Error("listFiles of a missing session")
	}
	// Nothing was left behind by the refused uploads.
	entries, _ := os.ReadDir(filepath.Join(ts.srv.root, uploadsDir))
	if len(entries) != 2 {
		t.Errorf("uploads left: %d, want the 2 accepted", len(entries))
	}
}

// TestEndpointsMisc: config, readiness, metrics, OpenAPI, unknown paths,
// bad requests.
func TestEndpointsMisc(t *testing.T) {
	dataDir := t.TempDir()
	cfg := testConfig(t, nil)
	cfg.DataDirs = map[string]string{"exports": dataDir}
	cfg.Databases = map[string]string{"warehouse": "postgres://x"}
	ts := startServer(t, cfg)
	var info map[string]any
	if code := ts.do("GET", "/v1/config", nil, &info); code != 200 || info["model"] != false || len(info["data_dirs"].([]any)) != 1 {
		t.Errorf("config = %d %+v", code, info)
	}
	var doc map[string]any
	if code := ts.do("GET", "/v1/openapi.json", nil, &doc); code != 200 || doc["openapi"] != "3.0.3" {
		t.Errorf("openapi = %d", code)
	}
	var e errorBody
	if code := ts.do("GET", "/v1/nothing", nil, &e); code != 404 || e.Error.Code != "not_found" {
		t.Errorf("unknown = %d %+v", code, e)
	}
	if code := ts.do("POST", "/v1/sessions", map[string]any{"databases": []string{"nowhere"}}, &e); code != 400 || !strings.Contains(e.Error.Message, "warehouse") {
		t.Errorf("unknown database = %d %+v", code, e)
	}
	var v sessionView
	if code := ts.do("POST", "/v1/sessions", map[string]any{"data_dirs": []string{"exports"}}, &v); code != 201 || !slices.Equal(v.DataDirs, []string{"exports"}) {
		t.Errorf("data dir session = %d %+v", code, v)
	}
	if code := ts.do("POST", "/v1/sessions/"+v.ID+"/runs", map[string]any{"question": " "}, &e); code != 400 {
		t.Errorf("empty question = %d", code)
	}
	if code := ts.do("POST", "/v1/sessions/"+v.ID+"/runs", map[string]any{"question": "q", "mode": "fast"}, &e); code != 400 {
		t.Errorf("bad mode = %d", code)
	}
	if code := ts.do("POST", "/v1/sessions/"+v.ID+"/resume", nil, &e); code != 409 {
		t.Errorf("resume before any run = %d", code)
	}
	if code := ts.do("POST", "/v1/sessions/"+session.NewID()+"/runs", map[string]any{"question": "q"}, &e); code != 404 {
		t.Errorf("run in a missing session = %d", code)
	}
	req, _ := http.NewRequest("GET", ts.http.URL+"/v1/sessions/"+v.ID+"/events", nil)
	req.Header.Set("Last-Event-ID", "abc")
	resp, _ := http.DefaultClient.Do(req)
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("bad Last-Event-ID = %d", resp.StatusCode)
	}
	resp, _ = http.Get(ts.http.URL + "/metrics")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, m := range []string{"sift_active_sessions", "sift_sse_clients", "sift_queued_runs"} {
		if !strings.Contains(string(body), m) {
			t.Errorf("metrics lack %s", m)
		}
	}
}

func TestCheckListen(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "", true},
		{"localhost:8080", "", true},
		{"[::1]:8080", "", true},
		{"0.0.0.0:8080", "", false},
		{":8080", "", false},
		{"192.168.1.5:80", "", false},
		{"0.0.0.0:8080", "t", true},
	} {
		if err := CheckListen(c.addr, c.token); (err == nil) != c.ok {
			t.Errorf("CheckListen(%q, %q) = %v", c.addr, c.token, err)
		}
	}
}

// TestSessionWithAConfiguredDatabase: a session names one of the server's
// databases; the run's agents query it with the SQL tools (read-only), and
// the request never carries its address.
func TestSessionWithAConfiguredDatabase(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE orders(amount INTEGER); INSERT INTO orders VALUES (12000),(345)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	script := scripted.New(
		call("create_plan", steps("Total order amount with SQL")),
		call("sql_query", map[string]string{"sql": "SELECT sum(amount) AS total FROM orders"}), text("The total is 12345."),
		call("submit_result", map[string]any{"answer": "The total is 12345."}), text("# Report\n\nThe total is 12345 [step 1]."),
	)
	cfg := testConfig(t, script)
	cfg.Databases = map[string]string{"shop": "sqlite:" + dbPath}
	ts := startServer(t, cfg)
	var v sessionView
	if code := ts.do("POST", "/v1/sessions", map[string]any{"databases": []string{"shop"}}, &v); code != 201 || !slices.Equal(v.Databases, []string{"shop"}) {
		t.Fatalf("create = %d %+v", code, v)
	}
	ts.ask(v.ID, map[string]any{"question": "total order amount", "mode": "plan"})
	frames := ts.openStream(v.ID, "").rest(t)
	var result string
	for _, f := range frames {
		if f.event == "tool_result" && strings.Contains(f.data, `"sql_query"`) {
			result = f.data
		}
	}
	if !strings.Contains(result, "12345") {
		t.Fatalf("no sql_query result with the database's total; frames: %s", kindsOf(frames))
	}
	if last := frames[len(frames)-1]; last.event != "done" || strings.Contains(last.data, `"error"`) {
		t.Errorf("run did not finish cleanly: %s", last.data)
	}
}
