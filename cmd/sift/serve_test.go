package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/server"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/session/sessiontest"
)

func TestServeFlags(t *testing.T) {
	isolateEnv(t)
	t.Setenv("SIFT_TOKEN", "")
	var got *serveOptions
	run := func(_ context.Context, o *serveOptions) error { got = o; return nil }
	io, _, _ := testIO()
	if err := parse(newServeCmd(io, run), io, []string{"--max-runs", "2", "--data-dir", "ex=/tmp", "--heartbeat", "1s"}); err != nil {
		t.Fatal(err)
	}
	if got.Addr != "127.0.0.1:8080" || got.MaxRuns != 2 || got.Heartbeat != time.Second || got.DataDirs[0] != "ex=/tmp" {
		t.Errorf("options = %+v", got)
	}
	err := parse(newServeCmd(io, run), io, []string{"--addr", "0.0.0.0:8080"})
	wantUsageError(t, err, "without a token")
	t.Setenv("SIFT_TOKEN", "t")
	if err := parse(newServeCmd(io, run), io, []string{"--addr", "0.0.0.0:8080"}); err != nil || got.Token != "t" {
		t.Errorf("SIFT_TOKEN not taken: %v %+v", err, got)
	}
	if err := parse(newServeCmd(io, run), io, []string{"--allowed-host", "sift.example.com", "--allowed-origin", "https://sift.example.com"}); err != nil ||
		!slices.Equal(got.AllowedHosts, []string{"sift.example.com"}) || !slices.Equal(got.AllowedOrigins, []string{"https://sift.example.com"}) {
		t.Errorf("--allowed-host, --allowed-origin: %v %+v", err, got)
	}
	t.Setenv("SIFT_ALLOWED_HOSTS", "a.example, b.example:8443,")
	if l := orEnvList(nil, "SIFT_ALLOWED_HOSTS"); !slices.Equal(l, []string{"a.example", "b.example:8443"}) {
		t.Errorf("SIFT_ALLOWED_HOSTS read as %q", l)
	}
	if l := orEnvList([]string{"flag.example"}, "SIFT_ALLOWED_HOSTS"); !slices.Equal(l, []string{"flag.example"}) {
		t.Errorf("a flag must win over SIFT_ALLOWED_HOSTS: %q", l)
	}
	if d, err := dataDirs([]string{"/srv/exports", "b=/x"}); err != nil || d["exports"] != "/srv/exports" || d["b"] != "/x" {
		t.Errorf("dataDirs = %v %v", d, err)
	}
	if _, err := dataDirs([]string{"/a/x", "/b/x"}); err == nil {
		t.Error("two directories of one name must be refused")
	}
}

// serveProcess is a real `sift serve` process.
type serveProcess struct {
	cmd  *exec.Cmd
	url  string
	errs *bytes.Buffer
}

var servingRE = regexp.MustCompile(`Sift serving on (http://\S+)`)

func startServe(t *testing.T, args ...string) *serveProcess {
	t.Helper()
	cmd := siftProcess(t, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sessions := ""
	if i := slices.Index(args, "--sessions-dir"); i >= 0 && i+1 < len(args) {
		sessions = args[i+1]
	}
	t.Cleanup(func() { stopServing(cmd, sessions) })
	p := &serveProcess{cmd: cmd, errs: &bytes.Buffer{}}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		p.errs.WriteString(sc.Text() + "\n")
		if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
			p.url = m[1]
			break
		}
	}
	if p.url == "" {
		t.Fatalf("sift serve did not start:\n%s", p.errs)
	}
	go func() { _, _ = io.Copy(p.errs, stderr) }()
	return p
}

func (p *serveProcess) call(t *testing.T, method, path string, body any, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.url+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		_ = json.Unmarshal(raw, out)
	}
	return resp.StatusCode
}

// streamKinds reads the session's event stream to its end.
func (p *serveProcess) streamKinds(t *testing.T, id, lastID string) (kinds []string, lastData, lastSeenID string) {
	t.Helper()
	req, _ := http.NewRequest("GET", p.url+"/v1/sessions/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		// Every event is a plain SSE message; its kind is in the data.
		switch {
		case strings.HasPrefix(line, "data: "):
			lastData = line[6:]
			var e struct {
				Kind string `json:"kind"`
			}
			_ = json.Unmarshal([]byte(lastData), &e)
			kinds = append(kinds, e.Kind)
		case strings.HasPrefix(line, "id: "):
			lastSeenID = line[4:]
		}
	}
	return kinds, lastData, lastSeenID
}

func scriptedCall(name string, args any) scripted.Reply {
	b, _ := json.Marshal(args)
	return scripted.Reply{Message: scripted.ToolCall(name, string(b))}
}

// TestServeSIGTERMPausesThenRestartResumes: a real `sift serve` gets
// SIGTERM while a step runs; it pauses the session at the next safe point
// and exits; a new process resumes the session through the API.
func TestServeSIGTERMPausesThenRestartResumes(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	reached, release := make(chan struct{}), make(chan struct{})
	script := scripted.New(
		scriptedCall("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Save x"}, {"index": 2, "description": "Print x"}}}),
		scriptedCall("python", map[string]string{"code": "x = 20\nprint(x)"}),
		scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
			close(reached)
			<-release
			return scripted.Text("Saved x."), nil
		}},
		// Paused before step 2 with no replanner call: the resumed run starts
		// step 2, and the replanner sees both steps' results.
		scriptedCall("python", map[string]string{"code": "print(x)"}),
		scripted.Reply{Message: scripted.Text("Printed.")},
		scriptedCall("submit_result", map[string]any{"answer": "20"}),
		scripted.Reply{Message: scripted.Text("# Report\n\nx is 20 [step 2].")},
	)
	model := scripted.NewServer(script)
	defer model.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	sessions := t.TempDir()
	args := []string{"--sessions-dir", sessions, "--base-url", model.URL + "/v1", "--api-key", "k", "--model", "scripted"}
	a := startServe(t, args...)
	var created struct{ ID string }
	if code := a.call(t, "POST", "/v1/sessions", nil, &created); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := a.call(t, "POST", "/v1/sessions/"+created.ID+"/runs", map[string]any{"question": "x", "mode": "plan"}, nil); code != 202 {
		t.Fatalf("run: %d", code)
	}
	select {
	case <-reached:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the step never started:\n%s", a.errs)
	}
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := a.cmd.Wait(); err != nil {
		t.Fatalf("sift serve exited with %v:\n%s", err, a.errs)
	}
	b, err := session.OpenFileBackend(sessions)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := b.Sessions.Get(context.Background(), created.ID); err != nil || m.Status != session.StatusPaused {
		t.Fatalf("after SIGTERM: %+v %v\n%s", m, err, a.errs)
	}
	second := startServe(t, args...)
	if code := second.call(t, "POST", "/v1/sessions/"+created.ID+"/resume", nil, nil); code != 202 {
		t.Fatalf("resume: %d", code)
	}
	kinds, last, _ := second.streamKinds(t, created.ID, "")
	if len(kinds) == 0 || kinds[len(kinds)-1] != "done" || strings.Contains(last, `"error"`) {
		t.Fatalf("resumed run: %v %s", kinds, last)
	}
	var v struct{ Status string }
	second.call(t, "GET", "/v1/sessions/"+created.ID, nil, &v)
	if v.Status != "done" {
		t.Errorf("status = %s", v.Status)
	}
}

// TestServeTwoProcessesOnRedis: two `sift serve` processes share a real
// redis-server and a sessions directory. A run begun on A waits for its
// plan review; B streams it, shows it waiting, takes the answer and
// finishes it. Then a run going on A is paused through B: A hears it from
// the shared claim and pauses at its next safe point; B resumes and
// finishes it.
func TestServeTwoProcessesOnRedis(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	addr := sessiontest.StartRedis(t, t)
	reached, release := make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	open := func() { releaseOnce.Do(func() { close(release) }) }
	defer open()
	script := scripted.New(
		scriptedCall("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Print 6*7"}}}),
		scriptedCall("python", map[string]string{"code": "print(6*7)"}),
		scripted.Reply{Message: scripted.Text("Printed 42.")},
		scriptedCall("submit_result", map[string]any{"answer": "42"}),
		scripted.Reply{Message: scripted.Text("# Report\n\n42 [step 1].")},
		// The second session: its first step is held until the pause has
		// reached A.
		scriptedCall("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Save x"}, {"index": 2, "description": "Print x"}}}),
		scriptedCall("python", map[string]string{"code": "x = 20\nprint(x)"}),
		scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
			close(reached)
			<-release
			return scripted.Text("Saved x."), nil
		}},
		// Paused before step 2 with no replanner call: the resumed run starts
		// step 2, and the replanner sees both steps' results.
		scriptedCall("python", map[string]string{"code": "print(x)"}),
		scripted.Reply{Message: scripted.Text("Printed.")},
		scriptedCall("submit_result", map[string]any{"answer": "20"}),
		scripted.Reply{Message: scripted.Text("# Report\n\nx is 20 [step 2].")},
	)
	model := scripted.NewServer(script)
	defer model.Close()
	args := []string{"--sessions-dir", t.TempDir(), "--store", "redis://" + addr + "/0", "--base-url", model.URL + "/v1", "--api-key", "k", "--model", "scripted"}
	a, b := startServe(t, args...), startServe(t, args...)
	var created struct{ ID string }
	if code := a.call(t, "POST", "/v1/sessions", nil, &created); code != 201 {
		t.Fatalf("create on A: %d", code)
	}
	id := created.ID
	if code := a.call(t, "POST", "/v1/sessions/"+id+"/runs", map[string]any{"question": "a number", "mode": "plan", "review_plan": true}, nil); code != 202 {
		t.Fatalf("run on A: %d", code)
	}
	// B streams A's run from the shared log, to its done event.
	kinds, last, lastID := b.streamKinds(t, id, "")
	if len(kinds) == 0 || kinds[len(kinds)-1] != "done" || !strings.Contains(last, "plan_review") {
		t.Fatalf("B's stream of A's run: %v %s\nA:\n%s\nB:\n%s", kinds, last, a.errs, b.errs)
	}
	var v struct {
		Status  string
		Pending struct{ ID, Kind string }
	}
	if b.call(t, "GET", "/v1/sessions/"+id, nil, &v); v.Status != "waiting" || v.Pending.Kind != "plan_review" {
		t.Fatalf("B sees %+v", v)
	}
	if code := b.call(t, "POST", "/v1/sessions/"+id+"/answers", map[string]any{"interrupt_id": v.Pending.ID, "action": "approve"}, nil); code != 202 {
		t.Fatalf("answer on B: %d", code)
	}
	kinds, last, _ = b.streamKinds(t, id, lastID)
	if len(kinds) == 0 || kinds[0] != "session" || kinds[len(kinds)-1] != "done" || strings.Contains(last, `"error"`) {
		t.Fatalf("B's run: %v %s", kinds, last)
	}
	if a.call(t, "GET", "/v1/sessions/"+id, nil, &v); v.Status != "done" {
		t.Errorf("A sees %s, want done", v.Status)
	}

	// A pause sent to B reaches the run going on A.
	if code := a.call(t, "POST", "/v1/sessions", nil, &created); code != 201 {
		t.Fatalf("create on A: %d", code)
	}
	second := created.ID
	if code := a.call(t, "POST", "/v1/sessions/"+second+"/runs", map[string]any{"question": "x", "mode": "plan"}, nil); code != 202 {
		t.Fatalf("run on A: %d", code)
	}
	select {
	case <-reached:
	case <-time.After(2 * time.Minute):
		t.Fatalf("A's step never started:\n%s", a.errs)
	}
	if code := b.call(t, "POST", "/v1/sessions/"+second+"/pause", nil, &v); code != 202 || v.Status != "running" {
		t.Fatalf("pause through B: %d %+v\nB:\n%s", code, v, b.errs)
	}
	// A reads the pause when it next renews its claim, which resets the
	// claim's expiry: wait for that before letting the step end.
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	ctx := context.Background()
	claim := "sift:claim:" + second
	asked, err := rdb.PTTL(ctx, claim).Result()
	if err != nil || asked <= 0 {
		t.Fatalf("A's claim on the session: ttl %v, %v", asked, err)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		ttl, err := rdb.PTTL(ctx, claim).Result()
		if err != nil {
			t.Fatal(err)
		}
		if ttl > asked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("A did not renew its claim after the pause (ttl %v):\n%s", ttl, a.errs)
		}
		time.Sleep(20 * time.Millisecond) // polling another process's store
	}
	open()
	kinds, last, lastID = b.streamKinds(t, second, "")
	if len(kinds) == 0 || kinds[len(kinds)-1] != "done" || !strings.Contains(last, `"text":"paused"`) {
		t.Fatalf("A's run, streamed by B after the pause sent to B: %v %s\nA:\n%s", kinds, last, a.errs)
	}
	if b.call(t, "GET", "/v1/sessions/"+second, nil, &v); v.Status != "paused" {
		t.Fatalf("B sees %s, want paused", v.Status)
	}
	// A frees its claim just after its done event is logged: B's resume
	// is refused (409) until then.
	for deadline := time.Now().Add(30 * time.Second); ; {
		code := b.call(t, "POST", "/v1/sessions/"+second+"/resume", nil, nil)
		if code == 202 {
			break
		}
		if code != 409 || time.Now().After(deadline) {
			t.Fatalf("resume through B: %d\nB:\n%s", code, b.errs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	kinds, last, _ = b.streamKinds(t, second, lastID)
	if len(kinds) == 0 || kinds[len(kinds)-1] != "done" || strings.Contains(last, `"error"`) || strings.Contains(last, "paused") {
		t.Fatalf("B's resumed run: %v %s\nB:\n%s", kinds, last, b.errs)
	}
	if a.call(t, "GET", "/v1/sessions/"+second, nil, &v); v.Status != "done" {
		t.Errorf("A sees %s, want done", v.Status)
	}
}

// TestServeSaysASweepThatFailed: serve and worker with no pool of their
// own sweep what an earlier process's pool left, and a sweep that fails
// (the pool's directory is a file here) is said on stderr with what to
// do, not dropped.
func TestServeSaysASweepThatFailed(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, agents.KernelPoolDir)
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, errOut := testIO()
	cfg := server.Config{Sift: agents.Config{SessionsRoot: root}}
	closePool, err := (&serverOptions{KernelPool: 0, KernelPoolSet: true}).startKernelPool(context.Background(), errOut, &cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	closePool()
	if got := errOut.String(); !strings.Contains(got, "warning: kernel pool") || !strings.Contains(got, dir) || !strings.Contains(got, "not a directory") {
		t.Errorf("stderr %q does not say the sweep of %s failed", got, dir)
	}
}

// TestServeKernelPoolFlag: --kernel-pool sets agents.Config.KernelPool on
// serve and worker (default operator.DefaultKernelPoolSize); 0, a
// --no-runs server and the process mode keep it off; a negative size is a
// usage error.
func TestServeKernelPoolFlag(t *testing.T) {
	isolateEnv(t)
	t.Setenv("SIFT_TOKEN", "")
	io, _, errOut := testIO()
	var serve *serveOptions
	if err := parse(newServeCmd(io, func(_ context.Context, o *serveOptions) error { serve = o; return nil }), io, nil); err != nil {
		t.Fatal(err)
	}
	if serve.KernelPool != operator.DefaultKernelPoolSize || serve.KernelPoolSet {
		t.Errorf("default --kernel-pool = %d (set %v); want %d", serve.KernelPool, serve.KernelPoolSet, operator.DefaultKernelPoolSize)
	}
	if operator.DefaultKernelPoolSize < 1 {
		t.Errorf("DefaultKernelPoolSize = %d: serve and worker keep no pool by default", operator.DefaultKernelPoolSize)
	}
	var worker *workerOptions
	if err := parse(newWorkerCmd(io, func(_ context.Context, o *workerOptions) error { worker = o; return nil }), io, nil); err != nil {
		t.Fatal(err)
	}
	if worker.KernelPool != operator.DefaultKernelPoolSize || worker.KernelPoolSet {
		t.Errorf("worker's default --kernel-pool = %d (set %v); want %d", worker.KernelPool, worker.KernelPoolSet, operator.DefaultKernelPoolSize)
	}
	if err := parse(newWorkerCmd(io, func(_ context.Context, o *workerOptions) error { worker = o; return nil }), io, []string{"--kernel-pool", "0"}); err != nil {
		t.Fatal(err)
	}
	if worker.KernelPool != 0 || !worker.KernelPoolSet {
		t.Errorf("worker --kernel-pool 0 = %d (set %v)", worker.KernelPool, worker.KernelPoolSet)
	}
	start := func(o serverOptions, cfg server.Config, runsHere bool) (*operator.KernelPool, error) {
		closePool, err := o.startKernelPool(context.Background(), errOut, &cfg, runsHere)
		if err == nil {
			t.Cleanup(closePool)
		}
		return cfg.Sift.KernelPool, err
	}
	root := t.TempDir()
	cfg := server.Config{Sift: agents.Config{SessionsRoot: root, Sandbox: operator.SandboxConfig{Mode: operator.SandboxNone}}}
	if _, err := start(serverOptions{KernelPool: -1}, cfg, true); err == nil {
		t.Error("--kernel-pool -1 was accepted")
	}
	for name, c := range map[string]struct {
		o        serverOptions
		runsHere bool
		mode     operator.PythonMode
	}{
		"zero":         {serverOptions{KernelPool: 0, KernelPoolSet: true}, true, ""},
		"no runs":      {serverOptions{KernelPool: 2}, false, ""},
		"process mode": {serverOptions{KernelPool: 2}, true, operator.PythonProcess},
	} {
		c2 := cfg
		c2.Sift.PythonMode = c.mode
		if pool, err := start(c.o, c2, c.runsHere); err != nil || pool != nil {
			t.Errorf("%s: pool %v, %v; want none", name, pool, err)
		}
	}
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("the pool itself needs Python with pandas: %v", err)
	}
	cfg.Sift.Python = py
	// By default (the flag not given) serve and worker keep a pool.
	if pool, err := start(serve.serverOptions, cfg, true); err != nil || pool == nil || pool.Size() != operator.DefaultKernelPoolSize {
		t.Errorf("default --kernel-pool: pool %+v, %v; want one of %d", pool, err, operator.DefaultKernelPoolSize)
	}
	pool, err := start(serverOptions{KernelPool: 1, KernelPoolSet: true}, cfg, true)
	if err != nil || pool == nil || pool.Size() != 1 || pool.Dir() != filepath.Join(root, agents.KernelPoolDir) {
		t.Fatalf("--kernel-pool 1: pool %+v, %v; want one in the sessions root's %s", pool, err, agents.KernelPoolDir)
	}
}
