// Package mcptest builds and starts the small MCP server Sift's tests talk
// to (tools/mcp/internal/testserver): over stdio, or over streamable HTTP
// on 127.0.0.1.
package mcptest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Binary builds the test server once per test process and returns its
// path; the test fails when it cannot be built.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		_, here, _, _ := runtime.Caller(0)
		dir, err := os.MkdirTemp("", "sift-mcp-testserver-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "testserver")
		cmd := exec.Command("go", "build", "-o", binary, "./internal/testserver")
		cmd.Dir = filepath.Join(filepath.Dir(here), "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			binary = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build the MCP test server: %v\n%s", buildErr, binary)
	}
	return binary
}

// StartHTTP starts the test server over streamable HTTP on 127.0.0.1 and
// returns its URL and the process, which the test's cleanup kills.
func StartHTTP(t testing.TB) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(Binary(t), "-http", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the MCP test server did not say where it listens: %v", err)
	}
	return strings.TrimSpace(line), cmd
}
