// Command conformanceclient is Sift's MCP client (package tools/mcp) as
// the MCP conformance suite's client scenarios run it: `conformance client
// --command "conformanceclient" --scenario NAME` starts it with the
// scenario server's URL as its last argument and the scenario's name in
// MCP_CONFORMANCE_SCENARIO. It connects as a run does, lists the tools
// and calls each the way an agent would, then disconnects. Built and run
// by clients_test.go.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sift-agent/sift/tools/mcp"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformanceclient SERVER_URL (the conformance suite passes it)")
		os.Exit(2)
	}
	if err := run(os.Args[len(os.Args)-1], os.Getenv("MCP_CONFORMANCE_SCENARIO")); err != nil {
		fmt.Fprintln(os.Stderr, "conformanceclient:", err)
		os.Exit(1)
	}
}

// args are the arguments each scenario's tools are called with.
var args = map[string]string{"add_numbers": `{"a":5,"b":3}`}

func run(url, scenario string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	ts := mcp.Connect(ctx, []mcp.ServerConfig{{Name: "conformance", URL: url, CallTimeout: 20 * time.Second}}, mcp.Options{LogDir: os.TempDir()})
	defer ts.Close()
	if p := ts.Problems(); len(p) > 0 {
		return fmt.Errorf("connect to %s: %v", url, p)
	}
	if scenario == "initialize" {
		return nil
	}
	for _, t := range ts.Tools(mcp.AgentExecutor) {
		in := args[t.Remote]
		if in == "" {
			in = "{}"
		}
		out, err := t.InvokableRun(ctx, in)
		if err != nil {
			return fmt.Errorf("call %s: %w", t.Remote, err)
		}
		fmt.Printf("%s -> %s\n", t.Remote, out)
	}
	return nil
}
