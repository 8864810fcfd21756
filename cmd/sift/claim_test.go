package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/server"
	"github.com/sift-agent/sift/session"
)

// TestOneOwnerPerSession runs real sift processes against one session:
//   - a sift resume while the sift run that started the session still runs
//     is refused, names the run's process and since when, and records
//     nothing;
//   - once the run is killed with -9 (and left unreaped: a zombie), both
//     sift sessions list and the HTTP API say the session is stopped;
//   - two sift resume started at once: exactly one runs (it takes the
//     dead run's claim over), the other is refused while the winner works,
//     no cell runs twice, no event number is used twice, and the winner's
//     success is what stays.
func TestOneOwnerPerSession(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	sessions := t.TempDir()
	run, id := startXPlusOneInStep2(t, sessions)
	ws := filepath.Join(sessions, id)
	logBefore, _ := os.ReadFile(filepath.Join(ws, session.EventsFile))

	// A resume while the run still runs is refused, saying who holds it.
	quick := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"print('SECOND RUNNER')"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"{{last_tool_result}}"}}]},
 {"content":"# x+1\n\nsecond runner"}]}`)
	out, err := siftProcess(t, "resume", id, "--script", quick, "--sessions-dir", sessions).CombinedOutput()
	if err == nil {
		t.Fatalf("sift resume ran while the sift run that owns the session still runs:\n%s", out)
	}
	for _, want := range []string{fmt.Sprintf("sift run (pid %d on ", run.Process.Pid), "holds it since "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the refused resume must say %q:\n%s", want, out)
		}
	}
	if logAfter, _ := os.ReadFile(filepath.Join(ws, session.EventsFile)); !bytes.HasPrefix(logAfter, logBefore) || bytes.Contains(logAfter, []byte("SECOND RUNNER")) {
		t.Errorf("the refused resume wrote to the session's event log")
	}
	if m := readMeta(t, sessions, id); m.Status != session.StatusRunning || m.Owner == nil || m.Owner.PID != run.Process.Pid {
		t.Errorf("after the refused resume the session is %s, owned by %v; want running, owned by the run (pid %d)", m.Status, m.Owner, run.Process.Pid)
	}

	// kill -9, not reaped yet: the run is a zombie, and it is gone.
	if err := run.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitExitedUnreaped(t, run.Process.Pid)
	list, err := siftProcess(t, "sessions", "list", "--sessions-dir", sessions).CombinedOutput()
	if err != nil {
		t.Fatalf("sift sessions list: %v\n%s", err, list)
	}
	if !regexp.MustCompile(id + `\s+stopped\s`).Match(list) {
		t.Errorf("sessions list must show the session of the killed (zombie) run as stopped:\n%s", list)
	}
	for filter, want := range map[string]bool{"stopped": true, "running": false} {
		out, err := siftProcess(t, "sessions", "list", "--status", filter, "--sessions-dir", sessions).CombinedOutput()
		if err != nil {
			t.Fatalf("sift sessions list --status %s: %v\n%s", filter, err, out)
		}
		if got := strings.Contains(string(out), id); got != want {
			t.Errorf("sift sessions list --status %s lists the killed run's session: %v, want %v:\n%s", filter, got, want, out)
		}
	}
	if got := apiStatus(t, sessions, id, ""); got != "stopped" {
		t.Errorf("the API says the killed run's session is %q, want stopped (as sift sessions list)", got)
	}
	if got := apiStatus(t, sessions, id, "stopped"); got != "stopped" {
		t.Errorf("GET /v1/sessions?status=stopped: the killed run's session is %q, want it listed as stopped", got)
	}

	// Two resumes at once. Whichever wins waits in its cell for the go
	// file, which is made only once the other has ended and the winner's
	// cell says it waits (work/waiting): so they overlap. Written any
	// sooner, go could land in work/ while the winner's disk hold is
	// still moving work/ onto the session's disk, and be cleared with it.
	gated := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"python","arguments":{"code":"import os, time\nopen('work/waiting', 'w').close()\nwhile not os.path.exists('work/go'):\n    time.sleep(0.02)\nprint('x+1 =', x + 1)"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"{{last_tool_result}}"}}]},
 {"content":"# x+1\n\n{{section:Steps and results}}"}]}`)
	type result struct {
		i   int
		out []byte
		err error
	}
	done := make(chan result, 2)
	for i := range 2 {
		cmd := siftProcess(t, "resume", id, "--script", gated, "--sessions-dir", sessions)
		go func() {
			out, err := cmd.CombinedOutput()
			done <- result{i, out, err}
		}()
	}
	loser := <-done
	if loser.err == nil {
		_ = os.WriteFile(filepath.Join(ws, "work", "go"), nil, 0o644)
		<-done
		t.Fatalf("two sift resume of one session both ran:\n%s", loser.out)
	}
	if !strings.Contains(string(loser.out), "sift resume (pid ") || !strings.Contains(string(loser.out), "holds it since ") {
		t.Errorf("the losing resume must say which sift resume holds the session, and since when:\n%s", loser.out)
	}
	waitForFile(t, filepath.Join(ws, "work", "waiting"), done)
	if err := os.WriteFile(filepath.Join(ws, "work", "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	winner := <-done
	if winner.err != nil {
		t.Fatalf("the winning resume failed: %v\n%s", winner.err, winner.out)
	}
	_ = run.Wait()

	if m := readMeta(t, sessions, id); m.Status != session.StatusDone {
		t.Errorf("after both resumes the session is %s (%s), want done: the winner's success must stay", m.Status, m.Error)
	}
	report, err := os.ReadFile(filepath.Join(ws, "report.md"))
	if err != nil || !strings.Contains(string(report), "42") {
		t.Errorf("report.md must hold x+1 = 42: %v\n%s", err, report)
	}
	cells, err := operator.ReadCells(ws)
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	for _, c := range cells {
		if !c.Replayed {
			ran[c.Code]++
		}
	}
	for code, n := range ran {
		if n > 1 {
			t.Errorf("cell ran %d times, want once:\n%s", n, code)
		}
	}
	evs, err := session.ReadEvents(filepath.Join(ws, session.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Errorf("event %d has number %d after %d: numbers must only grow, never be used twice", i, evs[i].Seq, evs[i-1].Seq)
		}
	}
}

// waitForFile waits, up to two minutes, for the file at path, which the
// winning resume's cell makes once it runs; it fails at once when the
// winner ends first (it sends on done) or the time is up.
func waitForFile[T any](t *testing.T, path string, done chan T) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case r := <-done:
			t.Fatalf("the winning resume ended before its cell made %s: %+v", path, r)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the winning resume's cell did not make %s within two minutes", path)
		}
	}
}

// waitExitedUnreaped waits until child pid has exited, without reaping it.
func waitExitedUnreaped(t *testing.T, pid int) {
	t.Helper()
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			t.Fatalf("wait for pid %d to exit: %v", pid, err)
		}
		return
	}
}

// readMeta reads the session's registry entry from the sessions directory.
func readMeta(t *testing.T, sessions, id string) session.Meta {
	t.Helper()
	b, err := session.OpenFileBackend(sessions)
	if err != nil {
		t.Fatal(err)
	}
	m, err := b.Sessions.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// apiStatus asks a sift server over the sessions directory for the
// session's status: GET /v1/sessions/{id}, or the list filtered by status.
func apiStatus(t *testing.T, sessions, id, filter string) string {
	t.Helper()
	srv, err := server.New(server.Config{Sift: agents.Config{SessionsRoot: sessions}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer func() { _ = srv.Shutdown(context.Background()) }()
	if filter == "" {
		var v struct {
			Status string `json:"status"`
		}
		getJSON(t, hs.URL+"/v1/sessions/"+id, &v)
		return v.Status
	}
	var l struct {
		Sessions []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"sessions"`
	}
	getJSON(t, hs.URL+"/v1/sessions?status="+filter, &l)
	for _, s := range l.Sessions {
		if s.ID == id {
			return s.Status
		}
	}
	return "(not listed)"
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
