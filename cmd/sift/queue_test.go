package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session/sessiontest"
)

// The workload of the run queue's tests: "What is x+1 when x = N?" in
// three steps, each a Python cell in the session's kernel, so a step that
// runs after a takeover needs the kernel rebuilt from the earlier cells.
var (
	xQuestion = regexp.MustCompile(`x (?:=|to) (\d+)`)
	xAnswer   = regexp.MustCompile(`X1=\d+`)
)

// xSteps are the steps of the session that asks for x = n.
func xSteps(n int) []planStep {
	return []planStep{
		{desc: fmt.Sprintf("Set x to %d", n), code: fmt.Sprintf("x = %d\nprint('X set')", n)},
		{desc: "Add one to x", code: "y = x + 1\nprint('Y set')", needs: []int{1}},
		{desc: "Print the answer", code: "print(f'X1={y}')", needs: []int{2}},
	}
}

// xResponder answers the requests of xSteps's sessions through the
// scripted model server (planResponder), each with the steps of the x its
// question sets; every reply takes delay, as a provider's latency would.
func xResponder(delay time.Duration) func(scripted.Request) (*schema.Message, error) {
	respond := planResponder("x+1", xAnswer, func(req scripted.Request) []planStep {
		n := 0
		for _, m := range req.Messages {
			if g := xQuestion.FindStringSubmatch(m.Content); g != nil {
				n, _ = strconv.Atoi(g[1])
				break
			}
		}
		return xSteps(n)
	})
	return func(req scripted.Request) (*schema.Message, error) {
		time.Sleep(delay)
		return respond(req)
	}
}

// needRedis skips without redis-server, except in CI, where it fails.
func needRedis(t testing.TB) string {
	t.Helper()
	if os.Getenv("CI") == "true" && !sessiontest.RedisInstalled() {
		t.Fatal(sessiontest.RedisMissing + " (CI=true: the run queue's tests must run)")
	}
	return "redis://" + sessiontest.StartRedis(t, t) + "/0"
}

// cluster is an API process and its workers, all this test binary
// acting as sift, sharing a Redis and a sessions directory.
type cluster struct {
	t        testing.TB
	redis    string
	sessions string
	model    string
	api      string
	mu       sync.Mutex
	workers  map[string]*exec.Cmd
	logs     map[string]*bytes.Buffer
}

func newCluster(t testing.TB, delay time.Duration) *cluster {
	srv := scripted.NewServer(scripted.NewResponder(xResponder(delay)))
	t.Cleanup(srv.Close)
	c := &cluster{t: t, redis: needRedis(t), sessions: t.TempDir(), model: srv.URL + "/v1", workers: map[string]*exec.Cmd{}, logs: map[string]*bytes.Buffer{}}
	api := c.start("api", "serve", "--no-runs", "--addr", "127.0.0.1:0")
	c.api = waitLine(t, api, regexp.MustCompile(`serving on (http://\S+)`))
	return c
}

// start starts `sift args...` with the cluster's store and sessions; it
// returns the process's stderr lines.
func (c *cluster) start(name string, args ...string) <-chan string {
	c.t.Helper()
	args = append(args, "--store", c.redis, "--sessions-dir", c.sessions, "--lease", "3s")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SIFT_TEST_BE_SIFT=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	log := &bytes.Buffer{}
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			c.mu.Lock()
			log.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	c.mu.Lock()
	c.workers[name], c.logs[name] = cmd, log
	c.mu.Unlock()
	c.t.Cleanup(func() { stopServing(cmd, c.sessions) })
	return lines
}

// worker starts a worker named name taking up to maxRuns runs.
func (c *cluster) worker(name string, maxRuns int) {
	c.t.Helper()
	lines := c.start(name, "worker", "--worker-name", name, "--max-runs", strconv.Itoa(maxRuns),
		"--base-url", c.model, "--api-key", "k", "--model", "scripted")
	waitLine(c.t, lines, regexp.MustCompile(`taking runs`))
}

// log is what process name wrote on stderr.
func (c *cluster) log(name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs[name].String()
}

func waitLine(t testing.TB, lines <-chan string, re *regexp.Regexp) string {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the process ended before it said %s", re)
			}
			if m := re.FindStringSubmatch(l); m != nil {
				return m[len(m)-1]
			}
		case <-timeout:
			t.Fatalf("the process did not say %s within a minute", re)
		}
	}
}

// ask creates a session and asks about x = n; it returns the session id.
func (c *cluster) ask(n int) string {
	c.t.Helper()
	var created struct{ ID string }
	c.post("/v1/sessions", map[string]any{}, &created)
	var acc struct{ State string }
	c.post("/v1/sessions/"+created.ID+"/runs", map[string]any{"question": fmt.Sprintf("What is x+1 when x = %d?", n), "mode": "plan", "yes": true, "parallel": 1}, &acc)
	if acc.State != "queued" {
		c.t.Fatalf("the API answered state %q for a run; want queued", acc.State)
	}
	return created.ID
}

func (c *cluster) post(path string, body, out any) {
	c.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(c.api+path, "application/json", bytes.NewReader(b))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		c.t.Fatalf("POST %s: %s\n%s", path, resp.Status, raw)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		c.t.Fatalf("POST %s: %v\n%s", path, err, raw)
	}
}

// sseEvent is one event of a session's stream.
type sseEvent struct {
	ID   int64
	Kind string `json:"kind"`
	Text string `json:"text"`
	Time time.Time
}

// follow reads session id's event stream from the API until it ends.
func (c *cluster) follow(id string) ([]sseEvent, error) {
	// A run nobody takes over would keep its stream open: give up.
	client := &http.Client{Timeout: 150 * time.Second}
	resp, err := client.Get(c.api + "/v1/sessions/" + id + "/events")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("events of %s: %s", id, resp.Status)
	}
	var evs []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.ID, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
		case strings.HasPrefix(line, "data: "):
			var e struct {
				Kind string    `json:"kind"`
				Text string    `json:"text"`
				Time time.Time `json:"time"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e); err != nil {
				return evs, err
			}
			cur.Kind, cur.Text, cur.Time = e.Kind, e.Text, e.Time
		case line == "":
			if cur.Kind != "" {
				evs = append(evs, cur)
			}
			cur = sseEvent{ID: cur.ID}
		}
	}
	return evs, sc.Err()
}

// waitFor polls the shared sessions directory until cond holds of the
// sessions' logs (what the workers have logged).
func (c *cluster) waitFor(what string, cond func(logs map[string]string) bool) {
	c.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		logs := map[string]string{}
		dirs, _ := os.ReadDir(c.sessions)
		for _, d := range dirs {
			if b, err := os.ReadFile(filepath.Join(c.sessions, d.Name(), "events.jsonl")); err == nil {
				logs[d.Name()] = string(b)
			}
		}
		if cond(logs) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.t.Fatalf("waited two minutes for %s", what)
}

// stepTwoStarted is the step_started event of step 2 in a log.
var stepTwoStarted = regexp.MustCompile(`"kind":"step_started".*"step":\{"index":2,`)

// countLogs counts the logs that re matches.
func countLogs(logs map[string]string, re *regexp.Regexp) int {
	n := 0
	for _, l := range logs {
		if re.MatchString(l) {
			n++
		}
	}
	return n
}

// referenceAnswer runs the question about x = n on one machine, with no
// queue: the answer every worker must give.
func referenceAnswer(t *testing.T, model string, n int) string {
	t.Helper()
	sessions := t.TempDir()
	io, out, errOut := testIO()
	if code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--parallel", "1", "--json", "--base-url", model, "--api-key", "k", "--model", "scripted",
		"--sessions-dir", sessions, fmt.Sprintf("What is x+1 when x = %d?", n)}); code != exitOK {
		t.Fatalf("the single-machine run: exit %d\n%s\n%s", code, errOut, out)
	}
	_ = out
	return readAnswer(t, sessions, onlySession(t, sessions))
}

// readAnswer is the report a session ended with, up to its usage (model
// calls differ after a takeover: the step in progress asks again).
func readAnswer(t *testing.T, sessions, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil {
		t.Errorf("session %s has no report: %v", id, err)
	}
	answer, _, _ := strings.Cut(string(b), "## Usage")
	return answer
}

func TestRunQueueWorkersFailover(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	const sessions = 30
	c := newCluster(t, 150*time.Millisecond)
	want := referenceAnswer(t, c.model, 41)
	if !strings.Contains(want, "X1=42") {
		t.Fatalf("the single-machine run's report lacks X1=42:\n%s", want)
	}
	for _, w := range []string{"w1", "w2", "w3"} {
		c.worker(w, 4)
	}
	ids := make([]string, sessions)
	streams := make([][]sseEvent, sessions)
	errs := make([]error, sessions)
	var wg sync.WaitGroup
	for i := range ids {
		ids[i] = c.ask(100 + i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			streams[i], errs[i] = c.follow(ids[i])
		}()
	}

	// Kill w1 with -9 while runs are in their second step, then drain w2.
	c.waitFor("six sessions in their second step", func(logs map[string]string) bool {
		return countLogs(logs, stepTwoStarted) >= 4
	})
	if err := c.workers["w1"].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.workers["w1"].Wait()
	if err := c.workers["w2"].Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.workers["w2"].Wait(); err != nil {
		t.Errorf("the drained worker exited with %v:\n%s", err, c.log("w2"))
	}
	if !strings.Contains(c.log("w2"), "Worker w2 stopped; its runs are back in the queue.") {
		t.Errorf("the drained worker did not say it handed its runs back:\n%s", c.log("w2"))
	}
	wg.Wait()

	var leaseTakeovers, handedBack int
	var longest time.Duration
	for i, id := range ids {
		if errs[i] != nil {
			t.Errorf("session %s: stream: %v", id, errs[i])
			continue
		}
		evs := streams[i]
		// Every event once, in order, none missing: ids 1..n.
		for j, e := range evs {
			if e.ID != int64(j+1) {
				t.Fatalf("session %s: event %d has id %d; want %d (lost or repeated events):\n%v", id, j+1, e.ID, j+1, evs)
			}
		}
		if n := len(evs); n == 0 || evs[n-1].Kind != "done" || evs[n-1].Text != "" && !strings.Contains(evs[n-1].Text, "done") {
			t.Errorf("session %s: the stream does not end with the run's successful done event: %+v", id, evs[max(0, len(evs)-3):])
		}
		for _, e := range evs {
			if e.Kind == "takeover" {
				switch {
				case strings.Contains(e.Text, "stopped renewing its lease") && strings.Contains(e.Text, "worker w1"):
					leaseTakeovers++
					longest = max(longest, takeoverWait(evs))
				case strings.Contains(e.Text, "worker w2 paused and handed back"):
					handedBack++
				default:
					t.Errorf("session %s: a takeover event says %q", id, e.Text)
				}
			}
		}
		logged, err := readLogged(filepath.Join(c.sessions, id, "events.jsonl"))
		if err != nil || logged != len(evs) {
			t.Errorf("session %s: the stream sent %d events, the log holds %d (%v)", id, len(evs), logged, err)
		}
		// The same answer as on one machine.
		n := 100 + i
		got := readAnswer(t, c.sessions, id)
		if exp := strings.NewReplacer("41", strconv.Itoa(n), "42", strconv.Itoa(n+1)).Replace(want); got != exp {
			t.Errorf("session %s: report differs from the single-machine run's:\n%s\nwant:\n%s", id, got, exp)
		}
		checkCells(t, c.sessions, id, 100+i, evs)
	}
	if leaseTakeovers == 0 {
		t.Errorf("no run of the killed worker was taken over; w1's log:\n%s", c.log("w1"))
	}
	if handedBack == 0 {
		t.Errorf("no run of the drained worker was handed back; w2's log:\n%s", c.log("w2"))
	}
	t.Logf("%d runs taken over after w1 was killed (the longest waited %v from its last event to the takeover; lease 3s), %d handed back by w2 as it drained", leaseTakeovers, longest.Round(time.Millisecond), handedBack)
}

// readLogged counts the events of a session's log.
func readLogged(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return bytes.Count(b, []byte("\n")), nil
}

// takeoverWait is how long the run waited for its takeover: from the
// last event before the first takeover event to it.
func takeoverWait(evs []sseEvent) time.Duration {
	for j, e := range evs {
		if e.Kind == "takeover" && j > 0 {
			return e.Time.Sub(evs[j-1].Time)
		}
	}
	return 0
}

// checkCells checks session id's cells.jsonl: every step's cell ran,
// and the cell of a step that had finished before a takeover ran once
// (after it, it was only replayed to rebuild the kernel); a step in
// progress at a takeover runs again from its start, as resume does.
func checkCells(t *testing.T, sessions, id string, n int, evs []sseEvent) {
	t.Helper()
	cells, err := operator.ReadCells(filepath.Join(sessions, id))
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	for _, cell := range cells {
		if !cell.Replayed {
			ran[cell.Code]++
		}
	}
	steps := xSteps(n)
	finished := len(steps) // without a takeover every step ran once
	seen := 0
	for _, e := range evs {
		switch e.Kind {
		case "step_finished":
			seen++
		case "takeover":
			// Steps finished before the last takeover.
			finished = seen
		}
	}
	for i, s := range steps {
		switch k := ran[s.code]; {
		case k == 0:
			t.Errorf("session %s: step %d's cell never ran", id, i+1)
		case i < finished && k != 1:
			var trail []string
			for _, cell := range cells {
				trail = append(trail, fmt.Sprintf("%q replayed=%v", cell.Code, cell.Replayed))
			}
			for _, e := range evs {
				if e.Kind != "model_started" && e.Kind != "model_finished" && e.Kind != "usage" {
					trail = append(trail, e.Kind+": "+e.Text)
				}
			}
			t.Errorf("session %s: step %d had finished, yet its cell ran %d times:\n%s", id, i+1, k, strings.Join(trail, "\n"))
		}
	}
}

// BenchmarkRunQueueWorkers measures throughput of the run queue with 1,
// 2 and 3 workers (4 runs each) on an I/O-bound workload: 24 sessions of
// xSteps whose model answers after 1 s. Each count gets its own
// Redis, API process and workers; the table prints side by side.
func BenchmarkRunQueueWorkers(b *testing.B) {
	for _, k := range []string{"SIFT_BASE_URL", "SIFT_API_KEY", "SIFT_MODEL", "SIFT_CONFIG", "OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL"} {
		b.Setenv(k, "")
	}
	b.Setenv("HOME", b.TempDir())
	needsPythonAndSandbox(b)
	const sessions = 24
	var rows []string
	var base float64
	for workers := 1; workers <= 3; workers++ {
		c := newCluster(b, time.Second)
		for w := 1; w <= workers; w++ {
			c.worker(fmt.Sprintf("w%d", w), 4)
		}
		start := time.Now()
		var wg sync.WaitGroup
		for i := range sessions {
			id := c.ask(100 + i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				evs, err := c.follow(id)
				if err != nil || len(evs) == 0 || evs[len(evs)-1].Kind != "done" {
					b.Errorf("session %s did not finish: %v", id, err)
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		perMin := float64(sessions) / elapsed.Minutes()
		if workers == 1 {
			base = perMin
		}
		rows = append(rows, fmt.Sprintf("%d worker(s)   %6.1fs   %6.1f sessions/min   x%.2f", workers, elapsed.Seconds(), perMin, perMin/base))
		b.ReportMetric(perMin, fmt.Sprintf("sessions/min-%dw", workers))
	}
	b.Logf("run queue throughput, %d sessions of 3 steps, model 1 s per call, 4 runs per worker:\n%s", sessions, strings.Join(rows, "\n"))
}

func TestWorkerAndQueueFlags(t *testing.T) {
	isolateEnv(t)
	t.Setenv("SIFT_TOKEN", "")
	io, _, _ := testIO()
	var w *workerOptions
	runW := func(_ context.Context, o *workerOptions) error { w = o; return nil }
	if err := parse(newWorkerCmd(io, runW), io, []string{"--max-runs", "6", "--lease", "5s", "--worker-name", "w1", "--store", "redis://r:6379/0"}); err != nil {
		t.Fatal(err)
	}
	if w.MaxRuns != 6 || w.Lease != 5*time.Second || w.WorkerName != "w1" || w.Store != "redis://r:6379/0" || w.Addr != "" {
		t.Errorf("worker options = %+v", w)
	}
	err := parse(newWorkerCmd(io, runW), io, []string{"--addr", "0.0.0.0:9090"})
	wantUsageError(t, err, "without a token")

	var s *serveOptions
	runS := func(_ context.Context, o *serveOptions) error { s = o; return nil }
	if err := parse(newServeCmd(io, runS), io, []string{"--no-runs", "--queue"}); err != nil {
		t.Fatal(err)
	}
	if !s.NoRuns || !s.Queue || s.Lease != 30*time.Second {
		t.Errorf("serve options = %+v", s.queueOptions)
	}
}

// Without a Redis store, the run queue refuses to start and says what to
// give.
func TestRunQueueNeedsRedis(t *testing.T) {
	isolateEnv(t)
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"worker", "--sessions-dir", t.TempDir()})
	if code == exitOK || !strings.Contains(errOut.String(), "--store redis://") {
		t.Errorf("sift worker without Redis: exit %d\n%s", code, errOut)
	}
}

// TestServeShutdownLines: sift serve's last words fit how it runs: an
// API-only server (--no-runs) does not claim to pause sessions it never
// ran, one on the run queue says its runs go back to the queue, and a
// lone server points at resume.
func TestServeShutdownLines(t *testing.T) {
	for _, c := range []struct {
		opts        serveOptions
		want, not   string
		wantStopped string
	}{
		{serveOptions{serverOptions: serverOptions{queueOptions: queueOptions{NoRuns: true, Queue: true}}}, "runs nothing", "pause", "Stopped."},
		{serveOptions{serverOptions: serverOptions{queueOptions: queueOptions{Queue: true}}}, "back to the queue", "sift resume", "back in the queue"},
		{serveOptions{}, "pause at their next safe point", "queue", "sift resume"},
	} {
		shutting, stopped := serveShutdownLines(&c.opts)
		if !strings.Contains(shutting, c.want) || strings.Contains(shutting+stopped, c.not) || !strings.Contains(stopped, c.wantStopped) {
			t.Errorf("no-runs=%v queue=%v: %q / %q; want %q and %q, never %q", c.opts.NoRuns, c.opts.Queue, shutting, stopped, c.want, c.wantStopped, c.not)
		}
	}
}
