package mcp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/mcp/mcptest"
)

func names(ts []mcp.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	slices.Sort(out)
	return out
}

func find(t *testing.T, ts *mcp.Toolset, name string) mcp.Tool {
	t.Helper()
	for _, agent := range []string{mcp.AgentExecutor, mcp.AgentCode} {
		for _, tl := range ts.Tools(agent) {
			if tl.Name == name {
				return tl
			}
		}
	}
	t.Fatalf("tool %s not offered; have %v", name, names(ts.Tools(mcp.AgentExecutor)))
	return mcp.Tool{}
}

func connect(t *testing.T, servers ...mcp.ServerConfig) (*mcp.Toolset, string) {
	t.Helper()
	logs := t.TempDir()
	ts := mcp.Connect(context.Background(), servers, mcp.Options{LogDir: logs})
	t.Cleanup(func() { _ = ts.Close() })
	return ts, logs
}

func TestStdioServerToolsListedCalledAndStopped(t *testing.T) {
	bin := mcptest.Binary(t)
	ts, logs := connect(t, mcp.ServerConfig{Name: "notes", Command: bin, Deny: []string{"secret"}, ReadOnlyTools: []string{"echo", "add"}})
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	want := []string{"notes_add", "notes_crash", "notes_echo", "notes_fail", "notes_hang", "notes_write_note"}
	if got := names(ts.Tools(mcp.AgentExecutor)); !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v (secret is denied)", got, want)
	}
	if got := ts.Tools(mcp.AgentCode); len(got) != 0 {
		t.Errorf("the code agent must get none: %v", names(got))
	}
	add := find(t, ts, "notes_add")
	info, err := add.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil || js.Properties == nil {
		t.Fatalf("the server's schema must become the tool's parameters: %v %+v", err, js)
	}
	if _, ok := js.Properties.Get("a"); !ok || !strings.Contains(info.Desc, "Adds two numbers") {
		t.Errorf("schema or description lost: %+v %q", js, info.Desc)
	}
	out, err := add.InvokableRun(context.Background(), `{"a": 2, "b": 40}`)
	if err != nil || out != "sum: 42" {
		t.Fatalf("add = %q, %v", out, err)
	}
	if got := ts.Writing(); !slices.Contains(got, "notes_write_note") || slices.Contains(got, "notes_echo") {
		t.Errorf("writing = %v: unmarked tools write, read_only ones do not", got)
	}
	b, err := os.ReadFile(filepath.Join(logs, "mcp-notes.log"))
	if err != nil || !strings.Contains(string(b), "testserver: started") {
		t.Errorf("stderr must be captured to mcp-notes.log: %q %v", b, err)
	}
}

func TestStdioServerStoppedOnClose(t *testing.T) {
	bin := mcptest.Binary(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A shell that records its pid and then becomes the server.
	ts := mcp.Connect(context.Background(), []mcp.ServerConfig{{Name: "s", Command: "/bin/sh", Args: []string{"-c", `echo $$ > "$0"; exec "$1"`, pidFile, bin}}}, mcp.Options{})
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmtSscan(strings.TrimSpace(string(b)), &pid); err != nil {
		t.Fatal(err)
	}
	if err := ts.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the server process %d must be gone after Close: %v", pid, err)
	}
}

func TestHTTPServer(t *testing.T) {
	url, _ := mcptest.StartHTTP(t)
	ts, _ := connect(t, mcp.ServerConfig{Name: "calc", URL: url, Allow: []string{"add", "echo"}, Agent: mcp.AgentCode})
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	if got := names(ts.Tools(mcp.AgentCode)); !slices.Equal(got, []string{"calc_add", "calc_echo"}) {
		t.Fatalf("tools = %v: only the allowed ones", got)
	}
	out, err := find(t, ts, "calc_echo").InvokableRun(context.Background(), `{"text": "hi"}`)
	if err != nil || out != "echo: hi" {
		t.Fatalf("echo = %q, %v", out, err)
	}
}

func TestHTTPHeadersExpandedFromTheEnvironment(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "authd", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "ping"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	getenv := func(k string) string { return map[string]string{"AUTHD_TOKEN": "s3cret"}[k] }
	cfg := mcp.ServerConfig{Name: "authd", URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer ${AUTHD_TOKEN}"}}
	ts := mcp.Connect(context.Background(), []mcp.ServerConfig{cfg}, mcp.Options{Getenv: getenv})
	defer ts.Close()
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	cfg.Headers = nil
	bad := mcp.Connect(context.Background(), []mcp.ServerConfig{cfg}, mcp.Options{Getenv: getenv})
	defer bad.Close()
	if p := bad.Problems(); len(p) != 1 || !errors.Is(p[0], mcp.ErrStart) || !strings.Contains(p[0].Error(), hs.URL) {
		t.Errorf("without the header the server must be reported as unreachable: %v", p)
	}
}

func TestFailures(t *testing.T) {
	bin := mcptest.Binary(t)
	t.Run("crash mid-call", func(t *testing.T) {
		ts, _ := connect(t, mcp.ServerConfig{Name: "notes", Command: bin})
		_, err := find(t, ts, "notes_crash").InvokableRun(context.Background(), `{}`)
		if !errors.Is(err, mcp.ErrStopped) {
			t.Fatalf("err = %v, want ErrStopped", err)
		}
		for _, want := range []string{"exit status 3", "crashing on purpose", "unavailable for the rest of this run"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error must say %q: %v", want, err)
			}
		}
		_, err = find(t, ts, "notes_echo").InvokableRun(context.Background(), `{"text":"x"}`)
		if !errors.Is(err, mcp.ErrStopped) {
			t.Errorf("later calls must say the server stopped: %v", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		ts, _ := connect(t, mcp.ServerConfig{Name: "notes", Command: bin, CallTimeout: 300 * time.Millisecond})
		_, err := find(t, ts, "notes_hang").InvokableRun(context.Background(), `{}`)
		if !errors.Is(err, mcp.ErrTimeout) || !strings.Contains(err.Error(), "300ms") {
			t.Fatalf("err = %v, want ErrTimeout naming the limit", err)
		}
		out, err := find(t, ts, "notes_echo").InvokableRun(context.Background(), `{"text":"still here"}`)
		if err != nil || out != "echo: still here" {
			t.Errorf("the server must still answer after a timeout: %q %v", out, err)
		}
	})
	t.Run("tool error", func(t *testing.T) {
		ts, _ := connect(t, mcp.ServerConfig{Name: "notes", Command: bin})
		_, err := find(t, ts, "notes_fail").InvokableRun(context.Background(), `{}`)
		if !errors.Is(err, mcp.ErrToolFailed) || !strings.Contains(err.Error(), "the table is locked") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("bad arguments", func(t *testing.T) {
		ts, _ := connect(t, mcp.ServerConfig{Name: "notes", Command: bin})
		_, err := find(t, ts, "notes_add").InvokableRun(context.Background(), `[1, 2]`)
		if !errors.Is(err, mcp.ErrToolFailed) || !strings.Contains(err.Error(), "not a JSON object") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("start-up failure leaves the others", func(t *testing.T) {
		ts, logs := connect(t,
			mcp.ServerConfig{Name: "broken", Command: "/bin/sh", Args: []string{"-c", "echo no such database >&2; exit 1"}},
			mcp.ServerConfig{Name: "missing", Command: filepath.Join(t.TempDir(), "nope")},
			mcp.ServerConfig{Name: "notes", Command: bin, Allow: []string{"echo"}})
		p := ts.Problems()
		if len(p) != 2 {
			t.Fatalf("problems = %v, want two", p)
		}
		all := p[0].Error() + "\n" + p[1].Error()
		for _, want := range []string{`"broken" could not be started`, "no such database", `"missing" could not be started`, "check its command"} {
			if !strings.Contains(all, want) {
				t.Errorf("problems must say %q: %s", want, all)
			}
		}
		if got := names(ts.Tools(mcp.AgentExecutor)); !slices.Equal(got, []string{"notes_echo"}) {
			t.Errorf("the working server's tools must be offered: %v", got)
		}
		if _, err := os.Stat(filepath.Join(logs, "mcp-broken.log")); err != nil {
			t.Errorf("the failed server's stderr must be kept: %v", err)
		}
	})
}

func TestSiftName(t *testing.T) {
	for in, want := range map[string]string{"echo": "s_echo", "get.weather/now": "s_get_weather_now", strings.Repeat("x", 80): "s_" + strings.Repeat("x", 62)} {
		if got := mcp.SiftName("s", in); got != want {
			t.Errorf("SiftName(s, %q) = %q, want %q", in, got, want)
		}
	}
}
