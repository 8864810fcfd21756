package server

import (
	"context"
	"fmt"
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
// twice, no takeover of a run that had ended. Each fault logs one line
// of figures: what became of the session queued and the one running when
// it struck, and how long the service took to finish both after it:
//
//	go test ./server -run 'TestRedisFaults|TestSessionsDirFull' -v | grep fault=

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

func newFaultRig(t *testing.T, persist bool) *faultRig { return newFaultRigIn(t, persist, "") }

// newFaultRigIn is newFaultRig with the sessions directory at root (""
// for a temporary one).
func newFaultRigIn(t *testing.T, persist bool, root string) *faultRig {
	t.Helper()
	if testing.Short() {
		t.Skip("the fault suite starts redis-server and runs the service; not in -short")
	}
	r := &faultRig{redis: sessiontest.StartRedisServer(t, persist), gate: newGate(t)}
	apiCfg := testConfig(t, nil)
	if root != "" {
		apiCfg.Sift.SessionsRoot = root
	}
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

// faultLine is the figures of one fault, in the format the issue's
// closing note quotes: what became of the sessions queued and running
// when it struck, and how long the service took to finish them after it.
func faultLine(name, queued, running string, recovered time.Duration) string {
	return fmt.Sprintf("fault=%s queued=%s running=%s recovered_in=%s", name, queued, running, recovered.Round(time.Millisecond))
}

// outcome says what became of session id: "done" when it ended done
// once (one done, no takeover, no error) with the answer want; else what
// went wrong ("lost", "stuck:running", "failed(<its error's cause>)",
// "twice(…)", "wrong-answer").
func (r *faultRig) outcome(t *testing.T, id, want string) string {
	t.Helper()
	v := r.api.session(id)
	evs, _ := session.ReadEvents(r.api.srv.eventsPath(id))
	counts := map[event.Kind]int{}
	for _, e := range evs {
		counts[e.Kind]++
	}
	switch {
	case len(evs) == 0:
		return "lost"
	case v.Status == string(session.StatusFailed):
		return "failed(" + rootCause(v.Error) + ")"
	case v.Status != string(session.StatusDone):
		return "stuck:" + v.Status
	case counts[event.Done] != 1 || counts[event.Takeover] != 0 || counts[event.Error] != 0:
		return fmt.Sprintf("twice(%d_done,%d_takeover,%d_error)", counts[event.Done], counts[event.Takeover], counts[event.Error])
	case answer(t, r.api, id) != want || want == "":
		return "wrong-answer"
	}
	return "done"
}

// rootCause is the innermost cause of an error's message (after its
// last ": ", before any advice after ";"), one word: "no_space_left_on_device".
func rootCause(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	msg, _, _ = strings.Cut(msg, ";")
	return strings.Join(strings.Fields(msg), "_")
}

// check logs the fault's figures and asserts that both sessions ended
// done, ran once, and gave the answers of a clean run.
func (r *faultRig) check(t *testing.T, fault string, recovered time.Duration) {
	t.Helper()
	// The built-in, run again on a clean queue, gives the answer the
	// queued one must give.
	clean := r.api.createSession(salesCSV(t))
	r.api.ask(clean, map[string]any{"question": builtin, "mode": "template"})
	t.Logf("a clean run of the built-in took %s", r.waitDone(t, time.Now(), clean).Round(time.Millisecond))
	queued, running := r.outcome(t, r.queued, answer(t, r.api, clean)), r.outcome(t, r.running, "20")
	t.Log(faultLine(fault, queued, running, recovered))
	for id, got := range map[string]string{r.queued: queued, r.running: running} {
		if got != "done" {
			t.Errorf("session %s: %s, want done once with a clean run's answer; log: %s", id, got, loggedKinds(t, r.api, id))
		}
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
		r.check(t, "redis-restart-no-persistence", r.waitDone(t, at, r.running, r.queued))
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
		r.check(t, "redis-flushall", r.waitDone(t, at, r.running, r.queued))
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
		// The Redis client waits a moment before it dials a server that
		// refused it again: ready within seconds, not at the first call.
		for code := 0; code != http.StatusOK; time.Sleep(faultPoll) {
			if code = r.api.do("GET", "/readyz", nil, nil); code != http.StatusOK && time.Since(back) > 30*time.Second {
				t.Fatalf("/readyz 30 s after Redis is back: %d, want 200", code)
			}
		}
		t.Logf("/readyz answered 200 %s after Redis was back", time.Since(back).Round(time.Millisecond))
		r.check(t, "redis-restart-persistence", r.waitDone(t, back, r.running, r.queued))
	})
}

// TestSessionsDirFull: the sessions directory, on a small file system,
// fills up while one session runs (held at its first step) and one waits
// in the queue behind it. Each ends failed with its reason (the disk) or
// done with a clean run's answer: none lost, none stuck running, none
// run again; once space is freed, the service runs the next session
// (recovered_in: from the space freed to that run's done). Needs root (it
// mounts a tmpfs); skipped otherwise.
func TestSessionsDirFull(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a tmpfs and runs the service; not in -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs as the sessions directory")
	}
	root := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", root).CombinedOutput(); err != nil {
		t.Skipf("mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", root).Run() })
	r := newFaultRigIn(t, false, root)
	// Fill what is left of the file system.
	fillerPath := filepath.Join(root, "filler")
	filler, err := os.Create(fillerPath)
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
	r.gate.release()
	deadline := time.Now().Add(2 * time.Minute)
	for _, id := range []string{r.running, r.queued} {
		for {
			v := r.api.session(id)
			if session.Status(v.Status).Finished() && !r.api.srv.queued(context.Background(), id) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("session %s on a full disk is still %s (queued: %v) two minutes on; log: %s", id, v.Status, r.api.srv.queued(context.Background(), id), loggedKinds(t, r.api, id))
			}
			time.Sleep(faultPoll)
		}
	}
	// Space again: the next session runs.
	if err := os.Remove(fillerPath); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	next := r.api.createSession(salesCSV(t))
	r.api.ask(next, map[string]any{"question": builtin, "mode": "template"})
	recovered := r.waitDone(t, freed, next)
	queued, running := r.outcome(t, r.queued, answer(t, r.api, next)), r.outcome(t, r.running, "20")
	t.Log(faultLine("sessions-dir-full", queued, running, recovered))
	for id, got := range map[string]string{r.queued: queued, r.running: running} {
		if got != "done" && got != "failed(no_space_left_on_device)" {
			t.Errorf("session %s on a full disk: %s; want done with a clean run's answer, or failed saying the disk is full; log: %s", id, got, loggedKinds(t, r.api, id))
		}
		// The API's error says what and what to do, in the client's
		// terms: not the server's paths, nor a half-written copy's name.
		if e := r.api.session(id).Error; got != "done" && (strings.Contains(e, root) || strings.Contains(e, ".sift-partial-") || !strings.Contains(e, "free space") || strings.Count(e, "no space left on device") != 1) {
			t.Errorf("session %s's error on a full disk: %q; want the cause once, what to do, and no host path", id, e)
		}
	}
	if got := r.outcome(t, next, answer(t, r.api, next)); got != "done" {
		t.Errorf("the session after space was freed: %s, want done", got)
	}
	if n, err := r.api.srv.reconcile(context.Background()); err != nil || n != 0 {
		t.Errorf("a reconcile after recovery put back %d runs (%v), want none", n, err)
	}
}
