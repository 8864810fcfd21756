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
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPFlags(t *testing.T) {
	isolateEnv(t)
	t.Setenv("SIFT_TOKEN", "")
	var got *mcpOptions
	run := func(_ context.Context, o *mcpOptions) error { got = o; return nil }
	io, _, _ := testIO()
	if err := parse(newMCPCmd(io, run), io, nil); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if got.HTTP != "" || len(got.Allow) != 1 || got.Allow[0] != wd {
		t.Errorf("defaults: stdio and the current directory allowed; got %+v", got)
	}
	if err := parse(newMCPCmd(io, run), io, []string{"--allow", "/a", "--allow", "/b", "--db", "shop=sqlite:shop.db", "--sessions-dir", "/s", "--store", "sqlite:/s/x.db"}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Allow, ",") != "/a,/b" || got.Databases[0] != "shop=sqlite:shop.db" || got.SessionsDir != "/s" || got.Store != "sqlite:/s/x.db" {
		t.Errorf("options = %+v", got)
	}
	wantUsageError(t, parse(newMCPCmd(io, run), io, []string{"--http", "0.0.0.0:8765"}), "without a token")
	if err := parse(newMCPCmd(io, run), io, []string{"--http", "127.0.0.1:8765"}); err != nil {
		t.Errorf("loopback needs no token: %v", err)
	}
	t.Setenv("SIFT_TOKEN", "t")
	if err := parse(newMCPCmd(io, run), io, []string{"--http", "0.0.0.0:8765"}); err != nil || got.Token != "t" {
		t.Errorf("SIFT_TOKEN not taken: %v %+v", err, got)
	}
	if d, err := namedDatabases([]string{"shop=sqlite:shop.db"}); err != nil || d["shop"] != "sqlite:shop.db" {
		t.Errorf("namedDatabases = %v %v", d, err)
	}
	for _, bad := range [][]string{{"sqlite:shop.db"}, {"=sqlite:x"}, {"a=x", "a=y"}} {
		if _, err := namedDatabases(bad); err == nil {
			t.Errorf("--db %v must be refused", bad)
		}
	}
}

// recorder keeps every byte read through it.
type recorder struct {
	r   io.Reader
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.mu.Lock()
	r.buf.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

func (r *recorder) Close() error { return nil }

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Split(strings.TrimSpace(r.buf.String()), "\n")
}

// mcpData makes an allowed directory holding the example sales.
func mcpData(t *testing.T) (dir string, rows int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sales.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, bytes.Count(bytes.TrimSpace(b), []byte("\n")) // lines less the header
}

func toolText(t *testing.T, res *mcp.CallToolResult, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("tool error: %s", b.String())
	}
	return b.String()
}

// TestMCPStdioProcess drives a real `sift mcp` over its stdin and stdout:
// it profiles the example sales with no model, the report is read as a
// resource, and every line on stdout is a JSON-RPC message.
func TestMCPStdioProcess(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	data, rows := mcpData(t)
	cmd := siftProcess(t, "mcp", "--allow", data, "--sessions-dir", t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	rec := &recorder{r: stdout}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sift-test", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: rec, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 4 {
		t.Fatalf("list tools: %v %v", tools, err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_builtin_analysis", Arguments: map[string]any{"analysis": "profile", "files": []string{"sales.csv"}}})
	out := toolText(t, res, err)
	if want := fmt.Sprintf("The table has %d rows", rows); !strings.Contains(out, want) {
		t.Errorf("the answer must say %q:\n%s", want, out)
	}
	uri := regexp.MustCompile(`sift://sessions/\S+/report\.md`).FindString(out)
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "# Data profile") {
		t.Fatalf("read %q: %v %+v", uri, err, rr)
	}
	if err := cs.Close(); err != nil {
		t.Log(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("sift mcp must exit cleanly when the client leaves: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Error("sift mcp did not exit when its stdin closed")
	}
	for i, line := range rec.lines() {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line %d is not a JSON-RPC message: %.200q", i+1, line)
		}
	}
	if !strings.Contains(stderr.String(), "Allowed: "+data) {
		t.Errorf("the status lines belong on stderr:\n%s", stderr.String())
	}
}

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

var mcpServingRE = regexp.MustCompile(`Sift MCP server on (http://\S+)`)

// startMCPHTTP starts `sift mcp --http` and returns its URL.
func startMCPHTTP(t *testing.T, args ...string) string {
	t.Helper()
	cmd := siftProcess(t, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var seen strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		seen.WriteString(sc.Text() + "\n")
		if m := mcpServingRE.FindStringSubmatch(sc.Text()); m != nil {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return m[1]
		}
	}
	t.Fatalf("sift mcp --http did not start:\n%s", seen.String())
	return ""
}

// TestMCPHTTPProcess: over streamable HTTP a token is required when one is
// set, and the tools answer with it; without a token on loopback none is
// asked.
func TestMCPHTTPProcess(t *testing.T) {
	isolateEnv(t)
	t.Setenv("SIFT_TOKEN", "")
	data, _ := mcpData(t)
	connectHTTP := func(url string, client *http.Client) (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "sift-test", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	}
	url := startMCPHTTP(t, "--allow", data, "--sessions-dir", t.TempDir(), "--token", "s3cret")
	if _, err := connectHTTP(url, &http.Client{}); err == nil {
		t.Error("a client without the token must be refused")
	}
	if _, err := connectHTTP(url, &http.Client{Transport: bearer{"wrong"}}); err == nil {
		t.Error("a client with a wrong token must be refused")
	}
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: want 401, got %v %v", resp, err)
	}
	cs, err := connectHTTP(url, &http.Client{Transport: bearer{"s3cret"}})
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 4 {
		t.Fatalf("list tools: %v %v", tools, err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_sessions"})
	out := toolText(t, res, err)
	if !strings.Contains(out, "No sessions yet") {
		t.Errorf("list_sessions on a new server: %s", out)
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "analyze", Arguments: map[string]any{"question": "profile", "files": []string{"../x.csv"}}})
	if err != nil || !res.IsError {
		t.Errorf("a path with .. must be refused over HTTP too: %v %+v", err, res)
	}

	open := startMCPHTTP(t, "--allow", data, "--sessions-dir", t.TempDir())
	cs2, err := connectHTTP(open, &http.Client{})
	if err != nil {
		t.Fatalf("loopback without a token: %v", err)
	}
	defer cs2.Close()
	if _, err := cs2.ListTools(context.Background(), nil); err != nil {
		t.Error(err)
	}
}
