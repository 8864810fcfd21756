package agents

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/mcp/mcptest"
)

// TestMCPToolsInARun drives a plan run whose executor calls an MCP server's
// tools: a read-only one answers in the step, a crash mid-call reaches the
// model as an error and the run goes on, and a denied tool is never offered.
func TestMCPToolsInARun(t *testing.T) {
	bin := mcptest.Binary(t)
	finish := []scripted.Reply{call(toolSubmitResult, map[string]any{"answer": "done"}), text("# Report\n\ndone [step 1].")}
	replies := []scripted.Reply{
		call(toolCreatePlan, steps("Echo hello through the notes server")),
		call("notes_echo", map[string]string{"text": "hello"}),
		call("notes_crash", map[string]string{}),
		echoToolResult("Step result: "),
	}
	script := scripted.New(append(replies, finish...)...)
	s := httpSift(t, script, func(c *Config) {
		c.MCPServers = []mcp.ServerConfig{{Name: "notes", Command: bin, Deny: []string{"secret"}, ReadOnlyTools: []string{"echo", "crash"}}}
	})
	evs := collect(t, s, Request{Mode: ModePlan, Question: "say hello"})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("the run must go on and finish: %v", done.Err)
	}
	var echo, crash string
	for _, e := range kinds(evs, event.ToolResult) {
		switch e.Tool {
		case "notes_echo":
			echo = e.Text
		case "notes_crash":
			crash = e.Text
		}
	}
	if echo != "echo: hello" {
		t.Errorf("the MCP tool's result must be in the step: %q", echo)
	}
	if !strings.Contains(crash, "stopped during the call") || !strings.Contains(crash, "Hint:") {
		t.Errorf("a crash mid-call must reach the model as a clear error: %q", crash)
	}
	for _, req := range script.Requests() {
		for _, ti := range req.Tools {
			if ti.Name == "notes_secret" {
				t.Fatal("a denied tool must never be offered")
			}
		}
	}
	offered := false
	for _, req := range script.Requests() {
		for _, ti := range req.Tools {
			offered = offered || ti.Name == "notes_echo"
		}
	}
	if !offered {
		t.Error("the executor must be offered the MCP tools")
	}
}

// TestMCPWritingToolWaitsForApproval: a tool not marked read-only waits
// for the person, and runs once approved in a new process.
func TestMCPWritingToolWaitsForApproval(t *testing.T) {
	bin := mcptest.Binary(t)
	script := scripted.New(
		call(toolCreatePlan, steps("Save a note")),
		call("notes_write_note", map[string]string{"text": "hi"}),
		echoToolResult("Step result: "),
		call(toolSubmitResult, map[string]any{"answer": "saved"}), text("# Report\n\nsaved [step 1]."))
	first, second, root := twoSifts(t, script)
	servers := []mcp.ServerConfig{{Name: "notes", Command: bin}}
	first.cfg.MCPServers, second.cfg.MCPServers = servers, servers
	evs := drain(t, first.Run(t.Context(), Request{Mode: ModePlan, Question: "save a note"}))
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptApproval || !strings.Contains(done.Interrupt.Prompt, "notes_write_note") {
		t.Fatalf("want the run to wait for approval of notes_write_note, got %+v (err %v)", done.Interrupt, done.Err)
	}
	id := strings.TrimPrefix(done.Path, root+"/")
	evs = drain(t, second.Resume(t.Context(), id, map[string]any{done.Interrupt.ID: &tools.ApprovalDecision{Action: tools.ApprovalApprove}}))
	done = evs[len(evs)-1]
	if done.Err != nil || done.Interrupt != nil {
		t.Fatalf("want the run finished, got %v %+v", done.Err, done.Interrupt)
	}
	var got string
	for _, e := range kinds(evs, event.ToolResult) {
		if e.Tool == "notes_write_note" {
			got = e.Text
		}
	}
	if got != "noted: hi" {
		t.Errorf("the approved call must run: %q", got)
	}
}

// TestMCPServersStopWhenTheRunEnds: the MCP servers a run starts are
// stopped when it ends — finished, waiting for the person, or failed —
// so a long-lived process (sift mcp, sift serve) that runs many
// analyses does not keep one server per run.
func TestMCPServersStopWhenTheRunEnds(t *testing.T) {
	bin := mcptest.Binary(t)
	pids := filepath.Join(t.TempDir(), "pids")
	script := scripted.New(
		// Finished.
		call(toolCreatePlan, steps("Echo hello")),
		call("notes_echo", map[string]string{"text": "hello"}),
		echoToolResult("Step result: "),
		call(toolSubmitResult, map[string]any{"answer": "done"}), text("# Report\n\ndone [step 1]."),
		// Waiting for the person.
		call(toolCreatePlan, steps("Ask which sheet")),
		call("ask_user", map[string]any{"question": "Which sheet?"}),
		// Failed: the model stops answering.
		call(toolCreatePlan, steps("Echo again")),
	)
	s := httpSift(t, script, func(c *Config) {
		// The shell writes the server's process ID, then becomes it.
		c.MCPServers = []mcp.ServerConfig{{Name: "notes", Command: "/bin/sh", Args: []string{"-c", `echo $$ >> "$1"; exec "$2"`, "sh", pids, bin}, ReadOnlyTools: []string{"echo"}}}
	})
	for i, want := range []string{"done", "waiting", "failed"} {
		evs := collect(t, s, Request{Mode: ModePlan, Question: "say hello"})
		done := evs[len(evs)-1]
		got := "done"
		switch {
		case done.Interrupt != nil:
			got = "waiting"
		case done.Err != nil:
			got = "failed"
		}
		if got != want {
			t.Fatalf("run %d: want it %s, it is %s (%v)", i+1, want, got, done.Err)
		}
		b, err := os.ReadFile(pids)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(string(b))
		if len(lines) != i+1 {
			t.Fatalf("run %d: want one server started per run, got process IDs %q", i+1, lines)
		}
		for _, l := range lines {
			pid, err := strconv.Atoi(l)
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("after run %d (%s), the MCP server of a run (pid %d) still runs (kill 0: %v)", i+1, want, pid, err)
			}
		}
	}
}
