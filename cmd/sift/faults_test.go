package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/sift-agent/sift/llm/scripted"
)

// bigSales writes a sales table large enough that the built-in's one
// step takes a moment, so that a worker can be killed during it.
func bigSales(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("date,region,product,units,unit_price,revenue\n")
	regions := []string{"North", "East", "South", "West"}
	for i := range 400_000 {
		d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%366)
		u := 1 + i%37
		fmt.Fprintf(&b, "%s,%s,P%d,%d,%d.00,%d.00\n", d.Format(time.DateOnly), regions[i%4], i%13, u, 10+i%7, u*(10+i%7))
	}
	if err := os.WriteFile(filepath.Join(dir, "sales.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWorkerKilledDuringBuiltinIsTakenOverWithoutModel: a worker with no
// model killed -9 while it runs a built-in analysis; another worker with
// no model takes the run over once the lease expires and finishes it,
// with the answer of a run on one machine (before, every such takeover
// ended "no model configured").
func TestWorkerKilledDuringBuiltinIsTakenOverWithoutModel(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	data := t.TempDir()
	bigSales(t, data)
	c := &cluster{t: t, redis: needRedis(t), sessions: t.TempDir(), workers: map[string]*exec.Cmd{}, logs: map[string]*bytes.Buffer{}}
	dataDir := "--data-dir=exports=" + data
	api := c.start("api", "serve", "--no-runs", "--addr", "127.0.0.1:0", dataDir)
	c.api = waitLine(t, api, regexp.MustCompile(`serving on (http://\S+)`))
	w1 := c.start("w1", "worker", "--worker-name", "w1", "--max-runs", "1")
	defer func() {
		if t.Failed() {
			t.Logf("api:\n%s\nw1:\n%s\nw2:\n%s", c.log("api"), c.log("w1"), c.log("w2"))
		}
	}()
	waitLine(t, w1, regexp.MustCompile(`taking runs`))

	var created struct{ ID string }
	c.post("/v1/sessions", map[string]any{"data_dirs": []string{"exports"}}, &created)
	id := created.ID
	var acc struct{ State string }
	c.post("/v1/sessions/"+id+"/runs", map[string]any{"question": "monthly revenue trend", "mode": "template"}, &acc)
	done := make(chan []sseEvent, 1)
	go func() { evs, _ := c.follow(id); done <- evs }()

	c.waitFor("the built-in's step to start", func(logs map[string]string) bool {
		return strings.Contains(logs[id], `"kind":"step_started"`)
	})
	// A second session waits in the queue behind it (w1 takes one run).
	c.post("/v1/sessions", map[string]any{"data_dirs": []string{"exports"}}, &created)
	queued := created.ID
	c.post("/v1/sessions/"+queued+"/runs", map[string]any{"question": "monthly revenue trend", "mode": "template"}, &acc)
	if acc.State != "queued" {
		t.Fatalf("the session behind the running one: state %q, want queued", acc.State)
	}
	queuedDone := make(chan []sseEvent, 1)
	go func() { evs, _ := c.follow(queued); queuedDone <- evs }()
	if err := c.workers["w1"].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.workers["w1"].Wait()
	killed := time.Now()
	if b, _ := os.ReadFile(filepath.Join(c.sessions, id, "events.jsonl")); strings.Contains(string(b), `"kind":"done"`) {
		t.Fatal("the built-in ended before its worker could be killed; make its table larger")
	}
	w2 := c.start("w2", "worker", "--worker-name", "w2", "--max-runs", "1")
	waitLine(t, w2, regexp.MustCompile(`taking runs`))

	evs, queuedEvs := waitStreams(t, c, "w2", done, queuedDone)
	recovered := time.Since(killed)
	// The same answer as on one machine.
	ref := t.TempDir()
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--mode", "template", "--json", "--sessions-dir", ref, "--file", filepath.Join(data, "sales.csv"), "monthly revenue trend"}); code != exitOK {
		t.Fatalf("the single-machine run: exit %d\n%s\n%s", code, errOut, out)
	}
	// The answer and its table; how the built-in was chosen may be told
	// differently (matched again on the resume).
	answerOf := func(report string) string { a, _, _ := strings.Cut(report, "## How this was computed"); return a }
	want := answerOf(readAnswer(t, ref, onlySession(t, ref)))
	running, queuedGot := runOutcome(evs, answerOf(readAnswer(t, c.sessions, id)), want), runOutcome(queuedEvs, answerOf(readAnswer(t, c.sessions, queued)), want)
	t.Log(faultLine("worker-kill9-builtin", queuedGot, running, recovered))
	if running != "done_after_takeover" || queuedGot != "done" {
		t.Errorf("the built-in running on the killed worker: %s (want done_after_takeover), the one queued behind it: %s (want done)\nits report:\n%s\nwant the single-machine run's:\n%s", running, queuedGot, answerOf(readAnswer(t, c.sessions, id)), want)
	}
}

// faultLine is the figures of one fault, in the format the issue's
// closing note quotes (as server's fault suite logs them): what became
// of the sessions queued and running when it struck, and how long the
// service took to finish them after it.
func faultLine(name, queued, running string, recovered time.Duration) string {
	return fmt.Sprintf("fault=%s queued=%s running=%s recovered_in=%s", name, queued, running, recovered.Round(time.Millisecond))
}

// runOutcome says what became of a session from its stream and its
// answer: "done" when the stream ends with a successful done, once,
// with no takeover, and the answer is want; "done_after_takeover" the
// same after one takeover; else what went wrong ("lost", "stuck",
// "failed(<why>)", "twice(…)", "wrong-answer").
func runOutcome(evs []sseEvent, got, want string) string {
	dones, takeovers := 0, 0
	for _, e := range evs {
		switch e.Kind {
		case "done":
			dones++
		case "takeover":
			takeovers++
		}
	}
	n := len(evs)
	switch {
	case n == 0:
		return "lost"
	case evs[n-1].Kind != "done":
		return "stuck"
	case evs[n-1].Text != "" && !strings.Contains(evs[n-1].Text, "done"):
		return "failed(" + strings.Join(strings.Fields(evs[n-1].Text), "_") + ")"
	case dones != 1 || takeovers > 1:
		return fmt.Sprintf("twice(%d_done,%d_takeover)", dones, takeovers)
	case got != want || got == "":
		return "wrong-answer"
	case takeovers == 1:
		return "done_after_takeover"
	}
	return "done"
}

// waitStreams waits (five minutes at most) for the streams of the
// session running on a killed worker and of the one queued behind it,
// and logs when each ended.
func waitStreams(t *testing.T, c *cluster, worker string, running, queued <-chan []sseEvent) (runningEvs, queuedEvs []sseEvent) {
	t.Helper()
	since := time.Now()
	timeout := time.After(5 * time.Minute)
	for running != nil || queued != nil {
		select {
		case runningEvs = <-running:
			running = nil
			t.Logf("the running session's stream ended %s after the kill", time.Since(since).Round(time.Millisecond))
		case queuedEvs = <-queued:
			queued = nil
			t.Logf("the queued session's stream ended %s after the kill", time.Since(since).Round(time.Millisecond))
		case <-timeout:
			t.Fatalf("the sessions were not finished five minutes after the worker was killed; %s:\n%s", worker, c.log(worker))
		}
	}
	return runningEvs, queuedEvs
}

// TestWorkerKilledDuringReportIsTakenOver: a worker killed -9 while its
// run's report is being written (every step done, the report agent's
// model call in flight): another worker takes the run over once the lease
// expires and writes the report, without running any finished step's
// cell again, and the report is the one a run on one machine writes.
func TestWorkerKilledDuringReportIsTakenOver(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	inner := xResponder(0)
	reporting := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	srv := scripted.NewServer(scripted.NewResponder(func(req scripted.Request) (*schema.Message, error) {
		if len(req.Tools) == 0 { // the report agent: offered no tool
			first := false
			once.Do(func() { first = true; close(reporting) })
			if first {
				<-release // held until its worker is dead
				return nil, errors.New("the worker that asked is gone")
			}
		}
		return inner(req)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	c := &cluster{t: t, redis: needRedis(t), sessions: t.TempDir(), model: srv.URL + "/v1", workers: map[string]*exec.Cmd{}, logs: map[string]*bytes.Buffer{}}
	api := c.start("api", "serve", "--no-runs", "--addr", "127.0.0.1:0")
	c.api = waitLine(t, api, regexp.MustCompile(`serving on (http://\S+)`))
	defer func() {
		if t.Failed() {
			t.Logf("api:\n%s\nw1:\n%s\nw2:\n%s", c.log("api"), c.log("w1"), c.log("w2"))
		}
	}()
	c.worker("w1", 1)
	id := c.ask(41)
	done := make(chan []sseEvent, 1)
	go func() { evs, _ := c.follow(id); done <- evs }()

	select {
	case <-reporting:
	case <-time.After(3 * time.Minute):
		t.Fatal("the run never reached its report")
	}
	// A second session waits in the queue behind it (w1 takes one run).
	queued := c.ask(43)
	queuedDone := make(chan []sseEvent, 1)
	go func() { evs, _ := c.follow(queued); queuedDone <- evs }()
	if err := c.workers["w1"].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.workers["w1"].Wait()
	close(release)
	killed := time.Now()
	c.worker("w2", 1)

	evs, queuedEvs := waitStreams(t, c, "w2", done, queuedDone)
	recovered := time.Since(killed)
	want := referenceAnswer(t, c.model, 41)
	if !strings.Contains(want, "X1=42") {
		t.Fatalf("the single-machine run's report lacks X1=42:\n%s", want)
	}
	running := runOutcome(evs, readAnswer(t, c.sessions, id), want)
	queuedGot := runOutcome(queuedEvs, readAnswer(t, c.sessions, queued), strings.NewReplacer("41", "43", "42", "44").Replace(want))
	t.Log(faultLine("worker-kill9-report", queuedGot, running, recovered))
	if running != "done_after_takeover" || queuedGot != "done" {
		t.Errorf("the run reporting on the killed worker: %s (want done_after_takeover), the one queued behind it: %s (want done)\nits report:\n%s\nwant the single-machine run's:\n%s", running, queuedGot, readAnswer(t, c.sessions, id), want)
	}
	// Every step had finished: none of their cells ran again.
	checkCells(t, c.sessions, id, 41, evs)
	checkCells(t, c.sessions, queued, 43, queuedEvs)
}
