package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
)

func pythonOrSkip(t testing.TB) string {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	return py
}

// testConfig is a server over a fresh sessions root, with the scripted
// model when script is not nil and no model otherwise.
func testConfig(t testing.TB, script *scripted.Script) Config {
	t.Helper()
	cfg := Config{Sift: agents.Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute}}
	if script != nil {
		cfg.Sift.Models = agents.Models{Default: script.Model()}
	}
	return cfg
}

// testServer serves cfg on a local listener.
type testServer struct {
	t     testing.TB
	srv   *Server
	http  *httptest.Server
	token string
}

func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return &testServer{t: t, srv: srv, http: hs, token: cfg.Token}
}

// do sends a request and decodes a JSON answer into out (when not nil).
func (ts *testServer) do(method, path string, body any, out any) int {
	ts.t.Helper()
	var r io.Reader
	ct := ""
	switch b := body.(type) {
	case nil:
	case *multipartBody:
		r, ct = &b.buf, b.contentType
	default:
		raw, _ := json.Marshal(b)
		r, ct = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequest(method, ts.http.URL+path, r)
	if err != nil {
		ts.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if ts.token != "" {
		req.Header.Set("Authorization", "Bearer "+ts.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			ts.t.Fatalf("%s %s: answer is not JSON (%v): %s", method, path, err, raw)
		}
	}
	return resp.StatusCode
}

type multipartBody struct {
	buf         bytes.Buffer
	contentType string
}

// upload builds a multipart body of files (name → content).
func upload(files ...[2]string) *multipartBody {
	b := &multipartBody{}
	w := multipart.NewWriter(&b.buf)
	for _, f := range files {
		fw, _ := w.CreateFormFile("file", f[0])
		_, _ = fw.Write([]byte(f[1]))
	}
	_ = w.Close()
	b.contentType = w.FormDataContentType()
	return b
}

// createSession uploads files and returns the new session's id.
func (ts *testServer) createSession(files ...[2]string) string {
	ts.t.Helper()
	var v sessionView
	if code := ts.do("POST", "/v1/sessions", upload(files...), &v); code != http.StatusCreated || v.ID == "" {
		ts.t.Fatalf("create session: %d %+v", code, v)
	}
	return v.ID
}

func (ts *testServer) ask(id string, body map[string]any) accepted {
	ts.t.Helper()
	var a accepted
	if code := ts.do("POST", "/v1/sessions/"+id+"/runs", body, &a); code != http.StatusAccepted {
		ts.t.Fatalf("ask: %d %+v", code, a)
	}
	return a
}

func (ts *testServer) session(id string) sessionView {
	ts.t.Helper()
	var v sessionView
	if code := ts.do("GET", "/v1/sessions/"+id, nil, &v); code != http.StatusOK {
		ts.t.Fatalf("get session: %d", code)
	}
	return v
}

// sseFrame is one thing an event stream sent: an event, a comment, or
// a frame without data (the priming one: retry and id).
type sseFrame struct {
	id string
	// event is the kind in the data (the stream sends no event: field).
	event string
	// field is the SSE event: field as sent, which must stay empty.
	field   string
	data    string
	retry   string
	comment string
}

// isEvent reports whether EventSource would dispatch f as an event.
func (f sseFrame) isEvent() bool { return f.comment == "" && f.data != "" }

// stream is an open event stream, read in the background.
type stream struct {
	frames chan sseFrame
	cancel context.CancelFunc
	done   chan struct{}
}

// openStream opens the session's event stream after lastID ("" for all).
func (ts *testServer) openStream(id, lastID string) *stream {
	ts.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/v1/sessions/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	if ts.token != "" {
		req.Header.Set("Authorization", "Bearer "+ts.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		ts.t.Fatal(err)
	}
	if resp.StatusCode == http.StatusNoContent {
		// The stream is over: an empty stream, as EventSource sees it.
		cancel()
		s := &stream{frames: make(chan sseFrame), cancel: cancel, done: make(chan struct{})}
		close(s.frames)
		close(s.done)
		return s
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		ts.t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &stream{frames: make(chan sseFrame, 4096), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(s.frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var f sseFrame
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if f.data != "" {
					var k struct {
						Kind string `json:"kind"`
					}
					if err := json.Unmarshal([]byte(f.data), &k); err != nil {
						f.event = "not JSON: " + err.Error()
					} else {
						f.event = k.Kind
					}
				}
				if f != (sseFrame{}) {
					s.frames <- f
				}
				f = sseFrame{}
			case strings.HasPrefix(line, ": "):
				s.frames <- sseFrame{comment: line[2:]}
			case strings.HasPrefix(line, "id: "):
				f.id = line[4:]
			case strings.HasPrefix(line, "event:"):
				f.field = line[6:]
			case strings.HasPrefix(line, "retry: "):
				f.retry = line[7:]
			case strings.HasPrefix(line, "data: "):
				f.data = line[6:]
			}
		}
	}()
	ts.t.Cleanup(func() { cancel(); <-s.done })
	return s
}

// next returns the next frame, failing the test when the stream ends or
// nothing comes for a minute (a hang, not a timing assumption).
func (s *stream) next(t testing.TB) (sseFrame, bool) {
	t.Helper()
	select {
	case f, ok := <-s.frames:
		return f, ok
	case <-time.After(time.Minute):
		t.Fatal("no event for a minute")
		return sseFrame{}, false
	}
}

// until reads events (not comments) until one of kind arrives; it
// returns every event read, that one included.
func (s *stream) until(t testing.TB, kind string) []sseFrame {
	t.Helper()
	var out []sseFrame
	for {
		f, ok := s.next(t)
		if !ok {
			t.Fatalf("the stream ended before a %s event; got %s", kind, kindsOf(out))
		}
		if !f.isEvent() {
			continue
		}
		out = append(out, f)
		if f.event == kind {
			return out
		}
	}
}

// rest reads the stream to its end and returns its events.
func (s *stream) rest(t testing.TB) []sseFrame {
	t.Helper()
	var out []sseFrame
	for {
		f, ok := s.next(t)
		if !ok {
			return out
		}
		if f.isEvent() {
			out = append(out, f)
		}
	}
}

func kindsOf(fs []sseFrame) string {
	var k []string
	for _, f := range fs {
		k = append(k, f.event)
	}
	return strings.Join(k, ",")
}

// Scripted replies, as the agents' tests write them.
func call(name string, args any) scripted.Reply {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return scripted.Reply{Message: scripted.ToolCall(name, string(b))}
}

func text(s string) scripted.Reply { return scripted.Reply{Message: scripted.Text(s)} }

func steps(descs ...string) map[string]any {
	var s []map[string]any
	for i, d := range descs {
		s = append(s, map[string]any{"index": i + 1, "description": d})
	}
	return map[string]any{"steps": s}
}

// gate is a step the test holds: its model call signals reached and
// blocks until the test opens it.
type gate struct {
	reached chan struct{}
	open    chan struct{}
	once    sync.Once
}

func newGate(t testing.TB) *gate {
	g := &gate{reached: make(chan struct{}), open: make(chan struct{})}
	t.Cleanup(g.release)
	return g
}

func (g *gate) release() { g.once.Do(func() { close(g.open) }) }

func (g *gate) reply(summary string) scripted.Reply {
	return scripted.Reply{Func: func(scripted.Request) (*schema.Message, error) {
		close(g.reached)
		<-g.open
		return scripted.Text(summary), nil
	}}
}

func (g *gate) wait(t testing.TB) {
	t.Helper()
	select {
	case <-g.reached:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run never reached the held step")
	}
}

// twoStepScript plans two steps; the first one's code agent is held by g.
func twoStepScript(g *gate) *scripted.Script { return stepsScript(g, false) }

// pausedTwoStepScript is twoStepScript for a run paused while g holds its
// first step: the run stops before the replanner's call, and the resumed
// run goes on with step 2 as planned and replans once, after it.
func pausedTwoStepScript(g *gate) *scripted.Script { return stepsScript(g, true) }

func stepsScript(g *gate, paused bool) *scripted.Script {
	var r []scripted.Reply
	r = append(r, call("create_plan", steps("Save x", "Print x")))
	r = append(r, call("python", map[string]string{"code": "x = 20\nopen('out/x.txt','w').write(str(x))\nprint(x)"}), g.reply("Saved x = 20."))
	if !paused {
		r = append(r, call("create_plan", steps("Print x")))
	}
	r = append(r, call("python", map[string]string{"code": "print(x)"}), text("Printed x."))
	r = append(r, call("submit_result", map[string]any{"answer": "20"}), text("# Report\n\nx is 20 [step 2]."))
	return scripted.New(r...)
}

// reviewScript plans one step that waits for a plan review first.
func reviewScript() *scripted.Script {
	return scripted.New(
		call("create_plan", steps("Print 6*7")),
		call("python", map[string]string{"code": "print(6*7)"}), text("Printed 42."),
		call("submit_result", map[string]any{"answer": "42"}), text("# Report\n\n42 [step 1]."),
	)
}

func salesCSV(t testing.TB) [2]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return [2]string{"sales.csv", string(b)}
}

func frameIDs(fs []sseFrame) []string {
	var ids []string
	for _, f := range fs {
		if f.id != "" {
			ids = append(ids, f.id)
		}
	}
	return ids
}

func seqList(from, to int) []string {
	var s []string
	for i := from; i <= to; i++ {
		s = append(s, fmt.Sprint(i))
	}
	return s
}
