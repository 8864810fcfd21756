package mcpserver

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/mcp/mcptest"
)

// TestAnalyzeStopsTheMCPServersItStarted: each analyze call's run starts
// the configured MCP servers, and stops them when it ends, so a
// long-lived `sift mcp` answering three analyses runs no MCP server
// afterwards, rather than one per analysis.
func TestAnalyzeStopsTheMCPServersItStarted(t *testing.T) {
	bin := mcptest.Binary(t)
	pids := filepath.Join(t.TempDir(), "pids")
	var replies []scripted.Reply
	for range 3 {
		replies = append(replies,
			callReply("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Echo hello"}}}),
			callReply("notes_echo", map[string]string{"text": "hello"}),
			scripted.Reply{Message: scripted.Text("echoed hello")},
			callReply("submit_result", map[string]any{"answer": "said hello"}),
			scripted.Reply{Message: scripted.Text("# Hello\n\nsaid hello [step 1].")},
		)
	}
	script := scripted.New(replies...)
	env := newEnv(t, func(c *Config) {
		c.Sift.Models = agents.Models{Default: script.Model()}
		// The shell writes the server's process ID, then becomes it.
		c.Sift.MCPServers = []mcp.ServerConfig{{Name: "notes", Command: "/bin/sh", Args: []string{"-c", `echo $$ >> "$1"; exec "$2"`, "sh", pids, bin}, ReadOnlyTools: []string{"echo"}}}
	})
	cs := connect(t, env.srv, nil)
	for i := range 3 {
		out, isErr := call(t, cs, "analyze", map[string]any{"question": "say hello", "files": []string{"sales.csv"}, "mode": "plan"}, nil)
		if isErr || !strings.Contains(out, "said hello") {
			t.Fatalf("analysis %d failed: %s", i+1, out)
		}
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(b))
	if len(lines) != 3 {
		t.Fatalf("want one MCP server started per analysis, got process IDs %q", lines)
	}
	for _, l := range lines {
		pid, err := strconv.Atoi(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("the MCP server of an analysis that ended (pid %d) still runs (kill 0: %v)", pid, err)
		}
	}
}
