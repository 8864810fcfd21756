package server

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/session/sessiontest"
)

// The fault suite of the run queue: Redis loses its data or goes away
// while one session runs on the worker (held at its first step) and one
// waits in the queue behind it. Every session must end done with the
// answer of a clean run, exactly once: no run lost, none stuck, none run
// twice, no takeover of a run that had ended. Each fault logs how long
// the service took to finish both sessions after it:
//
//	go test ./server -run TestRedisFaults -v | grep recovered

// faultRig is an API (no runs) and one worker with one slot, sharing a
// restartable Redis and the sessions directory.
type faultRig struct {
	redis       *sessiontest.RedisServer
	api, worker *testServer
	gate        *gate
	running     string // held at its first step by gate
	queued      string // a built-in analysis, behind it in the queue
}

const (
	faultClaimTTL = time.Second
	faultPoll     = 50 * time.Millisecond
	builtin       = "monthly revenue trend"
)

func newFaultRig(t *testing.T, persist bool) *faultRig {
	t.Helper()
	if testing.Short() {
		t.Skip("the fault suite starts redis-server and runs the service; not in -short")
	}
	r := &faultRig{redis: sessiontest.StartRedisServer(t, persist), gate: newGate(t)}
	apiCfg := testConfig(t, nil)
	apiCfg.Sift.Store, apiCfg.NoRuns = redisBackend(t, r.redis.Addr), true
	apiCfg.ClaimTTL, apiCfg.PollInterval = faultClaimTTL, faultPoll
	r.api = startServer(t, apiCfg)
	workerCfg := testConfig(t, twoStepScript(r.gate))
	workerCfg.Sift.SessionsRoot = apiCfg.Sift.SessionsRoot
	workerCfg.Sift.Store, workerCfg.RunQueue, workerCfg.WorkerName = redisBackend(t, r.redis.Addr), true, "w1"
	workerCfg.ClaimTTL, workerCfg.PollInterval, workerCfg.MaxRuns = faultClaimTTL, faultPoll, 1
	r.worker = startServer(t, workerCfg)

	r.running = r.api.createSession()
	r.api.ask(r.running, map[string]any{"question": "save x, then print it", "mode": "plan"})
	r.gate.wait(t)
	r.queued = r.api.createSession(salesCSV(t))
	if a := r.api.ask(r.queued, map[string]any{"question": builtin, "mode": "template"}); a.State != statusQueued {
		t.Fatalf("the built-in behind the running session: %+v, want it queued", a)
	}
	return r
}

// waitDone waits (bounded) until the API shows every session finished,
// and returns how long that took from since.
func (r *faultRig) waitDone(t *testing.T, since time.Time, ids ...string) time.Duration {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for _, id := range ids {
		for {
			// The status is recorded just before the done event is.
			v := r.api.session(id)
			last, ok := r.api.srv.lastLogged(id)
			if session.Status(v.Status).Finished() && ok && last.Kind == event.Done {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("session %s is still %s two minutes after the fault (log: %s)", id, v.Status, loggedKinds(t, r.api, id))
			}
			time.Sleep(faultPoll)
		}
	}
	return time.Since(since)
}

// check asserts that both sessions ended done, ran once, and gave the
// answers of a clean run.
func (r *faultRig) check(t *testing.T) {
	t.Helper()
	for _, id := range []string{r.running, r.queued} {
		v := r.api.session(id)
		if v.Status != string(session.StatusDone) {
			t.Errorf("session %s ended %s (%s), want done; log: %s", id, v.Status, v.Error, loggedKinds(t, r.api, id))
		}
		evs, err := session.ReadEvents(r.api.srv.eventsPath(id))
		if err != nil {
			t.Fatal(err)
		}
		counts := map[event.Kind]int{}
		for _, e := range evs {
			counts[e.Kind]++
		}
		if counts[event.Done] != 1 || counts[event.Takeover] != 0 || counts[event.Error] != 0 {
			t.Errorf("session %s ran %d times (%d takeovers, %d errors), want once: %s", id, counts[event.Done], counts[event.Takeover], counts[event.Error], loggedKinds(t, r.api, id))
		}
	}
	if got := answer(t, r.api, r.running); got != "20" {
		t.Errorf("the running session's answer %q, want 20 (the script's)", got)
	}
	// The built-in, run again on a clean queue, gives the same answer.
	clean := r.api.createSession(salesCSV(t))
	r.api.ask(clean, map[string]any{"question": builtin, "mode": "template"})
	t.Logf("a clean run of the built-in took %s", r.waitDone(t, time.Now(), clean).Round(time.Millisecond))
	if got, want := answer(t, r.api, r.queued), answer(t, r.api, clean); got != want || got == "" {
		t.Errorf("the queued built-in's answer after the fault:\n%s\nwant a clean run's:\n%s", got, want)
	}
	if n, err := r.api.srv.reconcile(context.Background()); err != nil || n != 0 {
		t.Errorf("a reconcile after recovery put back %d runs (%v), want none", n, err)
	}
}

func answer(t *testing.T, ts *testServer, id string) string {
	t.Helper()
	v := ts.session(id)
	if v.Plan == nil || v.Plan.Result == nil {
		return ""
	}
	return v.Plan.Result.Answer
}

func loggedKinds(t *testing.T, ts *testServer, id string) string {
	t.Helper()
	evs, _ := session.ReadEvents(ts.srv.eventsPath(id))
	var k []string
	for _, e := range evs {
		k = append(k, string(e.Kind))
	}
	return strings.Join(k, ",")
}

func TestRedisFaults(t *testing.T) {
	// Redis restarted empty (no persistence) while a session runs and
	// another waits: the queue is made again, the running session goes
	// on and is queued again by its worker, the waiting one is put back
	// from the sessions directory's record.
	t.Run("restart without persistence", func(t *testing.T) {
		r := newFaultRig(t, false)
		r.redis.Kill()
		r.redis.Restart()
		at := time.Now()
		r.gate.release()
		t.Logf("restart without persistence: recovered in %s", r.waitDone(t, at, r.running, r.queued).Round(time.Millisecond))
		r.check(t)
	})
	t.Run("FLUSHALL", func(t *testing.T) {
		r := newFaultRig(t, false)
		c := redis.NewClient(&redis.Options{Addr: r.redis.Addr})
		defer c.Close()
		if err := c.FlushAll(context.Background()).Err(); err != nil {
			t.Fatal(err)
		}
		at := time.Now()
		r.gate.release()
		t.Logf("FLUSHALL: recovered in %s", r.waitDone(t, at, r.running, r.queued).Round(time.Millisecond))
		r.check(t)
	})
	// Redis down while the running session finishes, then back with its
	// data: the run's done could not be recorded nor its entry removed;
	// it is not taken over (no second done, no takeover), its status is
	// set from its log, and the waiting session runs. Meanwhile /readyz
	// fails and says why.
	t.Run("killed, restarted with persistence", func(t *testing.T) {
		r := newFaultRig(t, true)
		r.redis.Kill()
		var e errorBody
		if code := r.api.do("GET", "/readyz", nil, &e); code != http.StatusServiceUnavailable || !strings.Contains(e.Error.Message, "connection refused") {
			t.Errorf("/readyz with Redis down: %d %+v, want 503 saying why", code, e)
		}
		r.gate.release()
		deadline := time.Now().Add(time.Minute)
		for {
			if last, ok := r.api.srv.lastLogged(r.running); ok && last.Kind == event.Done {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the running session never logged its done with Redis down: %s", loggedKinds(t, r.api, r.running))
			}
			time.Sleep(faultPoll)
		}
		r.redis.Restart()
		back := time.Now()
		if code := r.api.do("GET", "/readyz", nil, nil); code != http.StatusOK {
			t.Errorf("/readyz once Redis is back: %d, want 200", code)
		}
		t.Logf("killed, restarted with persistence: recovered in %s after Redis was back", r.waitDone(t, back, r.running, r.queued).Round(time.Millisecond))
		r.check(t)
	})
}

// TestSessionsDirFull: with the sessions directory on a small file system
// that is full, a queued run ends failed with its reason (the disk), its
// queue entry gone: not lost, not stuck running, not run again. Needs
// root (it mounts a tmpfs); skipped otherwise.
func TestSessionsDirFull(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a tmpfs and runs the service; not in -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs as the sessions directory")
	}
	root := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", root).CombinedOutput(); err != nil {
		t.Skipf("mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", root).Run() })
	addr := startRedis(t)
	apiCfg := testConfig(t, nil)
	apiCfg.Sift.SessionsRoot = root
	apiCfg.Sift.Store, apiCfg.NoRuns = redisBackend(t, addr), true
	api := startServer(t, apiCfg)
	workerCfg := testConfig(t, nil)
	workerCfg.Sift.SessionsRoot = root
	workerCfg.Sift.Store, workerCfg.RunQueue, workerCfg.WorkerName = redisBackend(t, addr), true, "w1"
	workerCfg.PollInterval = faultPoll
	startServer(t, workerCfg)

	id := api.createSession(salesCSV(t))
	// Fill what is left of the file system.
	filler, err := os.Create(filepath.Join(root, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	_ = filler.Close()
	api.ask(id, map[string]any{"question": builtin, "mode": "template"})
	deadline := time.Now().Add(time.Minute)
	var v sessionView
	for {
		v = api.session(id)
		if session.Status(v.Status).Finished() && !api.srv.queued(context.Background(), id) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run on a full disk is still %s (queued: %v) after a minute", v.Status, api.srv.queued(context.Background(), id))
		}
		time.Sleep(faultPoll)
	}
	if v.Status != string(session.StatusFailed) || !strings.Contains(v.Error, "no space left on device") {
		t.Fatalf("the run on a full disk ended %s with error %q; want failed saying the disk is full", v.Status, v.Error)
	}
}
