package server

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/runqueue"

	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/session/sessiontest"
)

// redisBackend opens a backend on a throwaway redis-server, as each
// process of a deployment would; without redis-server the test skips,
// except in CI, where it fails.
func redisBackend(t *testing.T, addr string) *session.Backend {
	t.Helper()
	b, err := session.OpenRedisBackend(context.Background(), session.RedisConfig{URL: "redis://" + addr + "/0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func startRedis(t *testing.T) string {
	t.Helper()
	if os.Getenv("CI") == "true" && !sessiontest.RedisInstalled() {
		t.Fatal(sessiontest.RedisMissing + " (CI=true: the run queue's tests must run)")
	}
	return sessiontest.StartRedis(t, t)
}

// TestRunQueueAPIAndWorker: an API-only server queues a run that no
// worker takes yet (the session says queued; a second run is refused);
// a worker sharing Redis and the sessions directory runs it to its plan
// review; the answer sent to the API is queued too and the worker
// finishes the run. The API's stream carries every event once, in order.
func TestRunQueueAPIAndWorker(t *testing.T) {
	addr := startRedis(t)
	apiCfg := testConfig(t, nil)
	apiCfg.Sift.Store, apiCfg.NoRuns = redisBackend(t, addr), true
	api := startServer(t, apiCfg)

	id := api.createSession()
	if a := api.ask(id, map[string]any{"question": "a number", "mode": "plan", "review_plan": true}); a.State != "queued" {
		t.Fatalf("the API answered %+v; want the run queued", a)
	}
	if v := api.session(id); v.Status != "queued" {
		t.Errorf("a queued first run: status %q, want queued", v.Status)
	}
	var e errorBody
	if code := api.do("POST", "/v1/sessions/"+id+"/runs", map[string]any{"question": "again"}, &e); code != 409 {
		t.Errorf("a second run of a queued session: %d %+v", code, e)
	}

	workerCfg := testConfig(t, reviewScript())
	workerCfg.Sift.SessionsRoot = apiCfg.Sift.SessionsRoot
	workerCfg.Sift.Store, workerCfg.RunQueue, workerCfg.WorkerName = redisBackend(t, addr), true, "w1"
	worker := startServer(t, workerCfg)

	first := api.openStream(id, "").rest(t)
	if n := len(first); n == 0 || first[n-1].event != "done" {
		t.Fatalf("first run through the API: %s", kindsOf(first))
	}
	v := api.session(id)
	if v.Status != "waiting" || v.Pending == nil {
		t.Fatalf("the session after its first run: %+v", v)
	}
	var a accepted
	if code := api.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"interrupt_id": v.Pending.ID, "action": "approve"}, &a); code != 202 || a.State != "queued" {
		t.Fatalf("approve: %d %+v", code, a)
	}
	all := api.openStream(id, "").rest(t)
	for i, f := range all {
		if f.id != strconv.Itoa(i+1) {
			t.Fatalf("event %d has id %s: %s", i+1, f.id, kindsOf(all))
		}
	}
	if n := len(all); all[n-1].event != "done" || n <= len(first) {
		t.Fatalf("after the answer: %s", kindsOf(all))
	}
	if v := api.session(id); v.Status != "done" {
		t.Errorf("status after the answered run: %s", v.Status)
	}

	// The worker's metrics count the runs it worked like a single
	// server's: both runs, by outcome, with their steps and model calls.
	m := worker.scrape()
	if n, _ := m.histogram(t, "sift_run_duration_seconds"); n != 2 {
		t.Errorf("the worker observed %d run durations, want 2 (the reviewed run and the approved one)", n)
	}
	if v := m.value(t, "sift_worker_runs_total", "worker=w1"); v != 2 {
		t.Errorf("sift_worker_runs_total{worker=w1} = %v, want 2", v)
	}
	if n, _ := m.histogram(t, "sift_model_call_duration_seconds"); n == 0 {
		t.Error("the worker observed no model-call durations")
	}
	if n, _ := m.histogram(t, "sift_queue_wait_seconds"); n != 2 {
		t.Errorf("the worker observed %d queue waits, want 2", n)
	}
}

// TestEndedRunLeavesItsClaimGone: a run that has published its done event
// and released the session's claim must not have the claim taken again
// by its renewal loop, which runs until the hub ends (after the queue
// entry is removed or handed back): a drained worker's hand-back was
// seen waiting a whole lease for a claim so re-taken by the worker that
// had just left.
func TestEndedRunLeavesItsClaimGone(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.PollInterval = time.Millisecond
	ts := startServer(t, cfg)
	s := ts.srv
	if s.store.Claims == nil {
		t.Skip("the default store has no claims")
	}
	id := ts.createSession()
	h := newHub(id)
	if err := s.claim(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	h.publish(event.Event{Kind: event.Done, Seq: 1, Time: time.Now()})
	s.release(id)
	returned := make(chan struct{})
	go func() { s.keepClaim(h); close(returned) }()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		h.finish()
		<-returned
		t.Fatal("keepClaim kept going after the run ended and released its claim")
	}
	if err := s.claimFree(context.Background(), id); err != nil {
		t.Fatalf("the claim of a run that ended was taken again: %v", err)
	}
}

// TestHandBackIsNotATakeover: a run a draining worker handed back is
// logged as such by the worker that goes on with it, but is not counted
// in sift_run_takeovers_total, which docs/metrics.md and the
// SiftTakeoversSpiking alert read as workers dying: a rolling deploy
// hands back every running run and must not page anyone.
func TestHandBackIsNotATakeover(t *testing.T) {
	addr := startRedis(t)
	ctx := context.Background()
	apiCfg := testConfig(t, nil)
	apiCfg.Sift.Store, apiCfg.NoRuns = redisBackend(t, addr), true
	api := startServer(t, apiCfg)

	// A paused session whose run worker w1 handed back as it drained.
	b := redisBackend(t, addr)
	id := session.NewID()
	root := api.srv.root
	if err := os.MkdirAll(filepath.Join(root, id), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := b.Sessions.Put(ctx, session.Meta{ID: id, Question: "a number", Status: session.StatusPaused, Workspace: filepath.Join(root, id)}); err != nil {
		t.Fatal(err)
	}
	w1, err := runqueue.New(ctx, runqueue.Config{Client: b.Redis, Prefix: b.RedisPrefix, Consumer: "w1", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	payload := func(j queuedJob) []byte { p, _ := json.Marshal(j); return p }
	if _, err := w1.Add(ctx, id, payload(queuedJob{Kind: jobResume})); err != nil {
		t.Fatal(err)
	}
	e, err := w1.Next(ctx, time.Second)
	if err != nil || e == nil {
		t.Fatalf("w1 takes the entry: %v %v", e, err)
	}
	if err := w1.Requeue(ctx, e, payload(queuedJob{Kind: jobResume, HandedBack: true})); err != nil {
		t.Fatal(err)
	}

	workerCfg := testConfig(t, nil)
	workerCfg.Sift.SessionsRoot = apiCfg.Sift.SessionsRoot
	workerCfg.Sift.Store, workerCfg.RunQueue, workerCfg.WorkerName = redisBackend(t, addr), true, "w2"
	worker := startServer(t, workerCfg)
	all := api.openStream(id, "").rest(t)
	// (The resume itself ends at once: the session has no checkpoint.)
	if len(all) == 0 || all[0].event != "takeover" || !strings.Contains(all[0].data, "handed back") {
		t.Fatalf("the handed-back run's events: %s", kindsOf(all))
	}
	if v := worker.scrape().value(t, "sift_run_takeovers_total"); v != 0 {
		t.Errorf("sift_run_takeovers_total = %v after a hand-back, want 0 (no worker died)", v)
	}
}

// TestWorkerOfAnotherSessionsDirLeavesTheRun: a worker whose
// --sessions-dir is not the API's (another mount path, or a relative
// path from another working directory) does not run a queued session in
// a directory the API never reads (the run went on there unseen, the
// API's stream silent); it gives the run back, takes no more, and a
// worker that shares the directory runs it.
func TestWorkerOfAnotherSessionsDirLeavesTheRun(t *testing.T) {
	addr := startRedis(t)
	apiCfg := testConfig(t, nil)
	apiCfg.Sift.Store, apiCfg.NoRuns = redisBackend(t, addr), true
	api := startServer(t, apiCfg)
	id := api.createSession()
	if a := api.ask(id, map[string]any{"question": "a number", "mode": "plan"}); a.State != "queued" {
		t.Fatalf("the API answered %+v; want the run queued", a)
	}

	wrongCfg := testConfig(t, nil)
	wrongCfg.Sift.Store, wrongCfg.RunQueue, wrongCfg.WorkerName, wrongCfg.ClaimTTL = redisBackend(t, addr), true, "elsewhere", time.Second
	wrong := startServer(t, wrongCfg)
	// Wait until the wrong worker has taken the entry and given it back.
	deadline := time.Now().Add(time.Minute)
	for !wrong.srv.otherDir.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the worker of another sessions directory never gave the queued run back")
		}
		time.Sleep(wrongCfg.PollInterval + 10*time.Millisecond)
	}

	rightCfg := testConfig(t, nil)
	rightCfg.Sift.SessionsRoot = apiCfg.Sift.SessionsRoot
	rightCfg.Sift.Store, rightCfg.RunQueue, rightCfg.WorkerName, rightCfg.ClaimTTL = redisBackend(t, addr), true, "here", time.Second
	startServer(t, rightCfg)
	all := api.openStream(id, "").rest(t)
	if n := len(all); n == 0 || all[n-1].event != "done" {
		t.Fatalf("the API's stream of the run: %s", kindsOf(all))
	}
	if _, err := os.Stat(filepath.Join(wrong.srv.root, id)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the worker of another sessions directory made the session's workspace there (%v)", err)
	}
}
